"""Naming players and wrapping a policy as a player, for both games.

- ``load_bot``: a level of the game's own computer, or any bot written to the game's
  player interface in a file ("path/to/bot.py:ClassName").
- ``PolicySeat``: the half of a policy-as-player that both games share. A *policy* is
  what PettingZoo code usually writes: a callable ``policy(observation, action_mask) ->
  action`` on a seat's arrays, or an object with ``act(observation, action_mask)``.
  Each game's ``PolicyPlayer`` (``port.ginrummy.spaces``, ``port.cribbage.spaces``)
  builds the arrays from its ``View`` and asks through a ``PolicySeat``.

Shared by GinRummy and Cribbage (their screens, the match runner, the environments): a
game passes its own table of levels and its own arrays; nothing here knows either game.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol


def load_bot(spec: str, levels: Mapping[str, Callable[..., Any]], seed: int = 0) -> Any:
    """A player from its name: a key of ``levels`` (any case) or "path/to/bot.py:Name",
    Name being a class (built here) or a function or object (returned as it is).

    ``seed`` feeds a bot's own generator when its class accepts ``seed=``.
    """
    if spec.lower() in levels:
        return levels[spec.lower()](seed=seed)
    path, sep, cls_name = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise ValueError(f"{spec!r}: name a level ({', '.join(levels)}) or path/to/bot.py:ClassName")
    cls = getattr(_load_module(Path(path)), cls_name, None)
    if cls is None:
        raise ValueError(f"{path} has no {cls_name!r}: name a class, a function or an object in it")
    if not isinstance(cls, type):
        return cls          # a function or a ready object (a policy): the caller adapts it
    try:
        return cls(seed=seed)
    except TypeError:
        return cls()


def _load_module(path: Path) -> object:
    key = "_bot_" + str(path.resolve()).replace("/", "_").replace(".", "_")
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load a bot from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


def policy_function(policy: Any) -> Callable[[Any, Any], Any]:
    """The callable of a policy given as a function, or an object with ``act``."""
    act = getattr(policy, "act", None)
    if callable(act):
        return act
    if callable(policy):
        return policy
    raise TypeError(f"{policy!r} is not a policy: give a callable (observation, action_mask) -> action, "
                    "or an object with act(observation, action_mask)")


class Mask(Protocol):
    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Any: ...


class PolicySeat:
    """A policy asked for one action at a time, its answer checked against the mask.

    ``name``: the policy's own ``name``, else the one given (the bot file's), else its
    function's name.
    """

    def __init__(self, policy: Any, name: str | None = None) -> None:
        self.act = policy_function(policy)
        self.name: str = getattr(policy, "name", None) or name or getattr(policy, "__name__", "policy")

    def ask(self, observation: Any, mask: Mask, describe: Callable[[int], str],
            illegal: type[Exception]) -> int:
        """The action the policy chooses; one the mask refuses raises ``illegal`` (the
        game's own error), naming the policy, the action and what it means."""
        action = int(self.act(observation, mask))
        if not 0 <= action < len(mask) or not mask[action]:
            named = describe(action) if 0 <= action < len(mask) else "no such action"
            raise illegal(f"the policy {self.name} chose action {action} ({named}), "
                          "which the rules do not allow now")
        return action
