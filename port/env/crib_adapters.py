"""Adapters both ways for Cribbage, as ``port.env.adapters`` for GinRummy.

* ``PolicyPlayer(policy)``: a policy on ``port.env.crib_spaces`` arrays as a Cribbage
  ``Player``. Its discard is asked in two steps, as in the environment.
* ``LevelPolicy(player, env)``: a Cribbage ``Player`` (or a level or bot file by name)
  as a policy inside ``cribbage_v0``, asked with the seat's ``View``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from port.cards import Card
from port.cribbage.levels import load_player
from port.cribbage.rules.players import Player
from port.cribbage.rules.state import IllegalMove, Phase, View
from port.env import crib_spaces as cs
from port.env.adapters import policy_function


class PolicyPlayer(Player):
    def __init__(self, policy: Any, name: str | None = None) -> None:
        self.policy = policy_function(policy)
        self.name = getattr(policy, "name", None) or name or getattr(policy, "__name__", "policy")

    def _ask(self, view: View, pending: Card | None = None) -> int:
        mask = cs.mask_of(view, pending)
        action = int(self.policy(cs.observation_of(view, pending), mask))
        if not 0 <= action < cs.N_ACTIONS or not mask[action]:
            named = cs.action_name(action, view.phase) if 0 <= action < cs.N_ACTIONS else "no such action"
            raise IllegalMove(f"the policy {self.name} chose action {action} ({named}), "
                              "which the rules do not allow now")
        return action

    def discard(self, view: View) -> tuple[Card, Card]:
        first = Card(self._ask(view))
        return first, Card(self._ask(view, first))

    def play(self, view: View) -> Card | None:
        a = self._ask(view)
        return None if a == cs.GO else Card(a)


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
