"""What both games' environments share: two seats named as PettingZoo names agents, each
with its own spaces, over a game whose current hand is ``game.hand``."""
from __future__ import annotations

from typing import Any

from port.extras import need

need("rl", "gymnasium", "pettingzoo")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402

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


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with the calls a training loop makes at
    every step (``last``, ``agents``, ``agent_selection``) answered by the environment
    itself once it has been reset, instead of through each wrapper's ``__getattr__``
    in turn (a tenth of a step's time). The same checks, the same errors."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.last(observe)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self._raw.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.agent_selection


def wrap(raw: AECEnv) -> AECEnv:
    """The environment inside PettingZoo's usual checks: an action out of the space or
    after the end is reported, and ``render`` before ``reset`` is refused."""
    return OrderEnforcing(wrappers.AssertOutOfBoundsWrapper(raw))
