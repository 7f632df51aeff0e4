"""Adapters both ways between PettingZoo-style policies and GinRummy's players.

A *policy* is what PettingZoo code usually writes: a callable ``policy(observation,
action_mask) -> action`` on the arrays of ``port.env.gin_spaces``, or an object with
``act(observation, action_mask)``, or a class of either (built with ``seed=`` when it
takes one).

* ``PolicyPlayer(policy)`` makes it a ``Player``: it plays in ``python -m port.match``
  (``--a bot.py:my_policy``), on screen as the computer (``ginrummy --computer
  bot.py:MyPolicy``), and anywhere a level does. It sees exactly the observation the
  environment would give its seat: built from the seat's ``View``.
* ``LevelPolicy("standard", env)`` makes one of our levels (or any ``Player``, or a bot
  file) a policy inside the environment: it asks the player with the seat's ``View``
  (``env.unwrapped.view(agent)``), which is what the observation is built from.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from port.cards import Card
from port.env import gin_spaces as gs
from port.rules.levels import load_player
from port.rules.players import Draw, KnockChoice, Player
from port.rules.state import IllegalMove, View

Policy = Callable[[np.ndarray, np.ndarray], int]


def policy_function(policy: Any) -> Policy:
    """The callable of a policy given as a function, or an object with ``act``."""
    act = getattr(policy, "act", None)
    if callable(act):
        return act
    if callable(policy):
        return policy
    raise TypeError(f"{policy!r} is not a policy: give a callable (observation, action_mask) -> action, "
                    "or an object with act(observation, action_mask)")


def as_player(obj: Any, name: str | None = None) -> Player:
    """A ``Player`` as it is, anything else as a policy playing through ``PolicyPlayer``."""
    if isinstance(obj, Player):
        return obj
    return PolicyPlayer(obj, name)


class PolicyPlayer(Player):
    """A policy on the arrays, playing as a ``Player`` of the player interface."""

    def __init__(self, policy: Any, name: str | None = None) -> None:
        self.policy = policy_function(policy)
        self.name = getattr(policy, "name", None) or name or getattr(policy, "__name__", "policy")

    def _ask(self, view: View) -> int:
        mask = gs.mask_of(view)
        action = int(self.policy(gs.observation_of(view), mask))
        if not 0 <= action < gs.N_ACTIONS or not mask[action]:
            raise IllegalMove(f"the policy {self.name} chose {_named(action)}, which the rules do not allow now")
        return action

    def choose_draw(self, view: View) -> Draw:
        return gs.draw_of(self._ask(view))

    def choose_discard(self, view: View) -> Card:
        return gs.discard_of(self._ask(view))

    def choose_knock(self, view: View) -> KnockChoice:
        return gs.knock_of(self._ask(view))


def _named(action: int) -> str:
    try:
        return f"action {action} ({gs.action_name(action)})"
    except ValueError:
        return f"action {action} (no such action)"


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
