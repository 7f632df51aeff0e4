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
import inspect
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol


class BotError(ValueError):
    """A bot file that could not be loaded or started: the message names the bot and
    the error its own code raised (which is kept as ``__cause__``)."""


def load_bot(spec: str, levels: Mapping[str, Callable[..., Any]], seed: int = 0) -> Any:
    """A player from its name: a key of ``levels`` (any case) or "path/to/bot.py:Name",
    Name being a class (built here) or a function or object (returned as it is).

    ``seed`` feeds a bot's own generator when its class accepts ``seed=`` (read from its
    signature: the class is built once, so an error inside the bot's own ``__init__``,
    a TypeError too, is never mistaken for a refused ``seed`` and hidden). An error in
    the bot's file or constructor is a ``BotError`` naming the bot.
    """
    if spec.lower() in levels:
        return levels[spec.lower()](seed=seed)
    found = _bot_object(spec, levels)
    if not isinstance(found, type):
        return found        # a function or a ready object (a policy): the caller adapts it
    try:
        return found(seed=seed) if _takes_seed(found) else found()
    except Exception as exc:
        raise BotError(f"the bot {spec} failed to start: {type(exc).__name__}: {exc}") from exc


def bot_name(spec: str, levels: Mapping[str, Callable[..., Any]]) -> str:
    """What a match report calls a player: a level by its name; a bot file's player by
    its own ``name`` (an attribute its file gives it), else its class or function name:
    never a path cut to fit a column."""
    if spec.lower() in levels:
        return spec.lower()
    found = _bot_object(spec, levels)
    if isinstance(found, type):
        # Its own: a name inherited from one of our levels (a bot built on STANDARD)
        # would call it "standard" in the report.
        owner = next((k for k in found.__mro__ if "name" in vars(k)), None)
        name = vars(owner)["name"] if owner is not None and owner.__module__ == found.__module__ else None
    else:
        name = getattr(found, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(found, "__name__", None) or type(found).__name__


def _bot_object(spec: str, levels: Mapping[str, Callable[..., Any]]) -> Any:
    path, sep, obj_name = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise ValueError(f"{spec!r}: name a level ({', '.join(levels)}) or path/to/bot.py:ClassName")
    found = getattr(_load_module(Path(path)), obj_name, None)
    if found is None:
        raise ValueError(f"{path} has no {obj_name!r}: name a class, a function or an object in it")
    return found


def _takes_seed(cls: type) -> bool:
    """Whether the class's constructor accepts ``seed=`` (by name or through **kwargs)."""
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):     # a signature Python cannot read: try without
        return False
    return any(p.name == "seed" and p.kind is not p.POSITIONAL_ONLY or p.kind is p.VAR_KEYWORD
               for p in params)


def _load_module(path: Path) -> object:
    """The bot file as a module, loaded once per process. Its own folder goes on the
    import path first, so a bot file imports its siblings (``from helpers import x``)
    as it would when run as a script."""
    folder = str(path.resolve().parent)
    key = "_bot_" + str(path.resolve()).replace("/", "_").replace(".", "_")
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load a bot from {path}")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[key]            # a broken file is not kept half-loaded
        raise BotError(f"the bot file {path} failed to load: {type(exc).__name__}: {exc}") from exc
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
