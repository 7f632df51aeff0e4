"""Naming players, for both games: a level of the game's own computer, or any bot
written to the game's player interface in a file ("path/to/bot.py:ClassName").

Shared by GinRummy and Cribbage (and the match runner of each): a game passes its
own table of levels; nothing here knows either game.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


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
