"""Adapters both ways for Cribbage, as ``port.env.adapters`` for GinRummy.

* ``PolicyPlayer(policy)``: a policy on ``port.cribbage.spaces`` arrays as a Cribbage
  ``Player`` (it lives with the arrays, in ``port.cribbage.spaces``; named here as well).
* ``LevelPolicy(player, env)``: a Cribbage ``Player`` (or a level or bot file by name)
  as a policy inside ``cribbage_v0``, asked with the seat's ``View``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from port.cards import Card
from port.cribbage import spaces as cs
from port.cribbage.levels import load_player
from port.cribbage.rules.players import Player
from port.cribbage.rules.state import Phase
from port.cribbage.spaces import PolicyPlayer


class LevelPolicy:
    """A Cribbage ``Player`` as a policy in ``cribbage_v0`` (one player per seat)."""

    def __init__(self, player: str | Player, env: Any, seed: int = 0) -> None:
        self.env = env
        self.spec = player
        self.seed = seed
        self.players: dict[str, Player] = {}
        self.dealt: dict[str, int] = {}
        self.second: dict[str, Card] = {}

    def _player(self, agent: str) -> Player:
        if agent not in self.players:
            spec = self.spec
            self.players[agent] = spec if isinstance(spec, Player) else load_player(spec, self.seed + len(self.players))
        return self.players[agent]

    def __call__(self, observation: np.ndarray | None = None, action_mask: np.ndarray | None = None) -> int:
        agent = self.env.agent_selection
        raw = self.env.unwrapped
        view = raw.view(agent)
        player = self._player(agent)
        if self.dealt.get(agent) != raw.deals:
            self.dealt[agent] = raw.deals
            player.begin_hand(view)
        if view.phase is Phase.DISCARD:
            if raw.pending_of(agent) is not None:
                return int(self.second.pop(agent))
            first, second = player.discard(view)
            self.second[agent] = Card(second)
            return int(first)
        choice = player.play(view)
        return cs.GO if choice is None else int(choice)

    act = __call__


__all__ = ["LevelPolicy", "PolicyPlayer"]
