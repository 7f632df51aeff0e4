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
"""
from __future__ import annotations

from typing import Any


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
