"""Adapters both ways between PettingZoo-style policies and GinRummy's players.

A *policy* is what PettingZoo code usually writes: a callable ``policy(observation,
action_mask) -> action`` on the arrays of ``port.ginrummy.spaces``, or an object with
``act(observation, action_mask)``, or a class of either (built with ``seed=`` when it
takes one).

* ``PolicyPlayer(policy)`` makes it a ``Player`` (it lives with the arrays, in
  ``port.ginrummy.spaces``, since the game's own screen uses it too; named here as well).
* ``LevelPolicy("standard", env)`` makes one of our levels (or any ``Player``, or a bot
  file) a policy inside the environment: it asks the player with the seat's ``View``
  (``env.unwrapped.view(agent)``), which is what the observation is built from.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from port.bots import policy_function
from port.ginrummy import spaces as gs
from port.ginrummy.levels import load_player
from port.ginrummy.rules.players import Player
from port.ginrummy.spaces import PolicyPlayer

Policy = Callable[[np.ndarray, np.ndarray], int]


def as_player(obj: Any, name: str | None = None) -> Player:
    """A ``Player`` as it is, anything else as a policy playing through ``PolicyPlayer``."""
    if isinstance(obj, Player):
        return obj
    return PolicyPlayer(obj, name)


class LevelPolicy:
    """One of our players as a policy inside a GinRummy environment.

    ``player``: a level name ("easy", "standard", "expert"), "path/to/bot.py:Class",
    or a ``Player``. One ``LevelPolicy`` can play both seats: each gets its own player
    (built from the name, with ``seed`` and ``seed + 1``), told of each new hand and of
    the public events as the match runner tells it.
    """

    def __init__(self, player: str | Player, env: Any, seed: int = 0) -> None:
        self.env = env
        self.spec = player
        self.seed = seed
        self.players: dict[str, Player] = {}
        self.heard: dict[str, int] = {}
        self.hand_of: dict[str, int] = {}

    def _player(self, agent: str) -> Player:
        if agent not in self.players:
            spec = self.spec
            index = len(self.players)
            self.players[agent] = spec if isinstance(spec, Player) else load_player(spec, self.seed + index)
        return self.players[agent]

    def __call__(self, observation: np.ndarray | None = None, action_mask: np.ndarray | None = None) -> int:
        agent = self.env.agent_selection
        raw = self.env.unwrapped
        view = raw.view(agent)
        player = self._player(agent)
        hand = raw.deals
        if self.hand_of.get(agent) != hand:        # a new hand: begin it, events from the start
            self.hand_of[agent] = hand
            self.heard[agent] = 0
            player.begin_hand(view)
        for e in view.events[self.heard[agent]:]:
            player.observe(e)
        self.heard[agent] = len(view.events)
        return gs.action_from_view(view, player)

    act = __call__


__all__ = ["LevelPolicy", "Policy", "PolicyPlayer", "as_player", "policy_function"]
