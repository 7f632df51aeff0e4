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

import functools
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from port.cards import PascalRandom, Rng
from port.files.gamerecord import Meta, record_name

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


def recorded_game(make_player: Callable[[str, int], Any], play_game: Callable[..., Any],
                  write_game: Callable[[Any, Any, Meta], str], a: str, b: str, options: Any, seed: int,
                  game: int, names: tuple[str, str] | None = None) -> tuple[int, Any, str]:
    """``seated_game``, played the same way, with the game's record as text too: its
    seats named as the report names the sides (``names``; the specs when None), their
    roles the side and, for a bot file, its spec; the deal's seed in its header. The
    hands' states the record was written from are dropped: only the text leaves the
    worker."""
    seat_a, record = seated_game(make_player, functools.partial(play_game, keep=True), a, b, options,
                                 seed, game)
    names = names or (a, b)
    roles = tuple(f"side {side}" + (f", {spec}" if spec != name else "")
                  for side, spec, name in (("A", a, names[0]), ("B", b, names[1])))
    sides = ((names[0], roles[0]), (names[1], roles[1]))
    if seat_a == 1:
        sides = (sides[1], sides[0])
    meta = Meta((sides[0][0], sides[1][0]), (sides[0][1], sides[1][1]), seed=game_seed(seed, game))
    text = write_game(record, options, meta)
    for hand in record.hands:
        hand.start = hand.end = None
    return seat_a, record, text


def play_job(job: tuple[str, str, Any, int, int, int], records: bool, make_player: Callable[[str, int], Any],
             play_game: Callable[..., Any], write_game: Callable[[Any, Any, Meta], str],
             name_of: Callable[[str], str]) -> list[tuple]:
    """A worker's games of a job, for any game: (A's seat, the record) each, and with
    ``records`` the game's record as text too (its seats named as the report names them)."""
    a, b, options, seed, start, stop = job
    if records:
        names = (name_of(a), name_of(b))
        return [recorded_game(make_player, play_game, write_game, a, b, options, seed, g, names)
                for g in range(start, stop)]
    return [seated_game(make_player, play_game, a, b, options, seed, g) for g in range(start, stop)]


def play_jobs(runner: Any, work: Callable[..., list[tuple]], jobs: list[tuple], preload: Sequence[str],
              records: Path | None, prefix: str, tally: Callable[[int, Any], None]) -> float:
    """Play the jobs on the runner (``work(job, records=...)`` in the workers), tally
    each game in game order, write the records when asked; the seconds it took."""
    t0 = time.perf_counter()
    run = functools.partial(work, records=True) if records is not None else work
    parts = runner.map(run, jobs, preload, [job[-1] - job[-2] for job in jobs])
    texts: list[str] = []
    for part in parts:
        for seat_a, record, *text in part:
            tally(seat_a, record)
            texts += text
    if records is not None:
        save_records(records, prefix, texts)
    return time.perf_counter() - t0


RECORD_DIGITS = 6            # GR000001.REC: up to 999,999 games a match


def records_directory(text: str) -> Path:
    """``--records DIR``: the directory, made if missing; ValueError (one sentence)
    if it cannot be made or is not a directory."""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot make the records directory {text!r} ({exc.strerror or exc})") from None
    return path


def save_records(directory: Path, prefix: str, texts: Sequence[str]) -> None:
    """One file per game, named by its number in the match (``GR000001.REC`` is game
    0): the same seed writes the same files. An earlier run's files of those names are
    replaced; ValueError (one sentence) if one cannot be written."""
    directory = records_directory(str(directory))
    for n, text in enumerate(texts, 1):
        path = directory / record_name(prefix, n, RECORD_DIGITS)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot write the record {str(path)!r} ({exc.strerror or exc})") from None


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
