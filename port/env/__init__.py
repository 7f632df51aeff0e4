"""Both games as PettingZoo environments and as single-agent Gymnasium environments
(the optional extra ``rl``), and our players as policies inside them (``adapters``,
``crib_adapters``).

    from port.env import ginrummy_v0
    env = ginrummy_v0.env(render_mode="ansi", score_limit=0)

    import port.env
    env = port.env.ginrummy_single(seat="alternate", opponent="standard")
    vec = port.env.make_vec("cribbage", 8, opponent="random")

See docs/envs.md: the action spaces card by card, the observations, the rewards, the
options, the single-agent and vector forms, and the adapters both ways. Nothing is
imported until asked for, so ``import port.env`` needs no extra.

Importing it registers the Gymnasium ids ``ginrummy/GinRummy-v0`` and
``ginrummy/Cribbage-v0`` (the ecosystem's convention: ``import port.env`` then
``gymnasium.make(...)``): at once when gymnasium is imported already, otherwise the
moment it is, so ``import port.env`` stays as quick as it was and needs no gymnasium.
"""
from __future__ import annotations

import importlib.machinery
import sys
from typing import Any

IDS = (("ginrummy/GinRummy-v0", "port.env.single:GinRummySingle"),
       ("ginrummy/Cribbage-v0", "port.env.single:CribbageSingle"))


def register_ids(gymnasium: Any) -> None:
    """Register both single-agent environments' ids with ``gymnasium`` (once)."""
    for name, entry in IDS:
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=entry)


class _LoaderThenRegister:
    """gymnasium's own loader, then the ids registered in the module just made."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self.inner.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.inner.exec_module(module)
        register_ids(module)


class _WhenGymnasiumIsImported:
    """Waits for ``import gymnasium`` (its first), lets the usual finders find it, and
    registers the ids once it has run; then leaves ``sys.meta_path``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _LoaderThenRegister(spec.loader)
        return spec


def _register_when_gymnasium_is_there() -> None:
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        register_ids(gymnasium)
    elif not any(isinstance(f, _WhenGymnasiumIsImported) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenGymnasiumIsImported())


_register_when_gymnasium_is_there()


def ginrummy_single(seat: int | str = 0, opponent: Any = "standard", **options: Any) -> Any:
    """GinRummy for one learner seat: ``port.env.single.GinRummySingle``."""
    from port.env.single import GinRummySingle

    return GinRummySingle(seat=seat, opponent=opponent, **options)


def cribbage_single(seat: int | str = 0, opponent: Any = "standard", **options: Any) -> Any:
    """Cribbage for one learner seat: ``port.env.single.CribbageSingle``."""
    from port.env.single import CribbageSingle

    return CribbageSingle(seat=seat, opponent=opponent, **options)


def make_vec(game: str = "ginrummy", n: int = 4, vectorization: str = "sync", **kwargs: Any) -> Any:
    """``n`` single-agent environments in a Gymnasium vector environment:
    ``port.env.single.make_vec``."""
    from port.env.single import make_vec as make

    return make(game, n, vectorization, **kwargs)
