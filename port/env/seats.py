"""What both games' environments share: two seats named as PettingZoo names agents, each
with its own spaces, over a game whose current hand is ``game.hand``."""
from __future__ import annotations

from typing import Any

from port.extras import need

need("rl", "gymnasium", "pettingzoo")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

AGENTS = ("player_0", "player_1")


class TwoSeats(AECEnv):
    """An AEC environment of two seats; a subclass sets ``observation_spaces``,
    ``action_spaces`` and ``game`` (None until ``reset``)."""

    observation_spaces: dict[str, spaces.Space]
    action_spaces: dict[str, spaces.Space]
    game: Any

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def hand(self) -> Any:
        """The hand the seats play now."""
        assert self.game is not None, "call reset() first"
        return self.game.hand
