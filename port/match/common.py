"""What the match runner does the same for every game: the seeds of a game and of its
bots, the 95% Wilson interval, the chunks of games and the worker processes' start
(``port.match.runner`` plays the chunks here or on Ray).

Fairness, for both games: games go in pairs on the same deal seed with the seats
swapped (side A sits in seat 0 in even games and seat 1 in odd ones). Each game's deal
seed and each bot's own seed come from ``--seed`` and the game's number only, and the
games are split over worker processes but tallied in game order, so the same seed
gives the same result however the work is scheduled.
"""
from __future__ import annotations

import math
import multiprocessing
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from port.cards import PascalRandom, Rng

R = TypeVar("R")


def game_seed(seed: int, game: int) -> int:
    """The deal seed of a game: shared by the two games of a pair (seats swapped)."""
    return random.Random(seed * 1_000_003 + game // 2).getrandbits(32)


def bot_seed(seed: int, game: int, side: int) -> int:
    return random.Random((seed * 1_000_003 + game) * 2 + side + 7).getrandbits(32)


def seated_game(make_player: Callable[[str, int], Any], play_game: Callable[[Any, Rng, tuple[Any, Any]], R],
                a: str, b: str, options: Any, seed: int, game: int) -> tuple[int, R]:
    """Game number ``game`` of a match, for any game: side A sits in seat ``game % 2``, so
    the two games of a pair share a deal seed with the seats swapped. Returns A's seat
    and the game's record."""
    pa = make_player(a, bot_seed(seed, game, 0))
    pb = make_player(b, bot_seed(seed, game, 1))
    seat_a = game % 2
    players = (pa, pb) if seat_a == 0 else (pb, pa)
    return seat_a, play_game(options, PascalRandom(game_seed(seed, game)), players)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def chunks(games: int, chunk: int) -> list[tuple[int, int]]:
    """The game numbers ``[start, stop)`` of each job."""
    return [(s, min(s + chunk, games)) for s in range(0, games, chunk)]


def pool_context(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """Workers forked from a clean server process, never from the caller: forking a
    process that runs other threads (pyxel's, a test runner's) can deadlock the child.
    The server loads the game's engine (``preload``) once, so each worker starts at
    fork speed."""
    if sys.platform == "win32" or "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(preload))
    return ctx
