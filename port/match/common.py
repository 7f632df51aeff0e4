"""What the match runner does the same for every game: the seeds of a game and of its
bots, a worker's games of a job with each seat behind the watch (``guard``: a failing
bot forfeits its game), the games taken in game order (tallies, forfeit lines,
records, the games' JSON lines, the SPRT), the 95% Wilson interval, the chunks of
games and the worker processes' start (``port.match.runner`` plays the chunks here or
on Ray).

Fairness, for both games: games go in pairs on the same deal seed with the seats
swapped (side A sits in seat 0 in even games and seat 1 in odd ones). Each game's deal
seed and each bot's own seed come from ``--seed`` and the game's number only, and the
games are split over worker processes but tallied in game order, so the same seed
gives the same result however the work is scheduled.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from port.cards import PascalRandom, Rng
from port.files.gamerecord import Meta
from port.match.guard import (BotFailed, Fault, Guard, Guarded, Watch, debugging, engine_error, file_of,
                              limit_line)
from port.match.outputs import RecordWriter, game_line
from port.match.sprt import Sprt, sprt_line

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


def player_name(name_of: Callable[[str], str], make_player: Callable[..., Any], spec: str,
                guard: Guard | None) -> str:
    """What the report calls a player; a bot file's name is asked of its own process
    (unless ``--in-process``), so that its file is never loaded in the engine's."""
    if (guard or Guard()).apart(spec):
        from port.match.isolate import bot_name
        return bot_name(make_player.__module__, spec)
    return name_of(spec)


def _record_meta(a: str, b: str, names: tuple[str, str], seat_a: int, deal_seed: int) -> Meta:
    """A game record's header: its seats named as the report names the sides, their
    roles the side and, for a bot file, its spec; the deal's seed."""
    roles = tuple(f"side {side}" + (f", {spec}" if spec != name else "")
                  for side, spec, name in (("A", a, names[0]), ("B", b, names[1])))
    sides = ((names[0], roles[0]), (names[1], roles[1]))
    if seat_a == 1:
        sides = (sides[1], sides[0])
    return Meta((sides[0][0], sides[1][0]), (sides[0][1], sides[1][1]), seed=deal_seed)


def guarded_game(make_player: Callable[[str, int], Any], play_game: Callable[..., Any], a: str, b: str,
                 options: Any, seed: int, game: int, guard: Guard, names: tuple[str, str],
                 keep: bool = False) -> tuple[int, Any]:
    """``seated_game`` with each seat behind the watch (``port.match.guard``): A's seat
    and the game's record, or A's seat and the ``Fault`` of the bot that failed it."""
    seat_a = game % 2
    specs = (a, b) if seat_a == 0 else (b, a)
    sides = (0, 1) if seat_a == 0 else (1, 0)
    watch = Watch((guard.limit(specs[0]), guard.limit(specs[1])))
    try:
        with watch.alarms():
            players = []
            for seat, (spec, side) in enumerate(zip(specs, sides)):
                args = (spec, bot_seed(seed, game, side))
                if guard.apart(spec):         # a bot file, not one of our levels
                    from port.match.isolate import isolated
                    # The bot's process loads it with the game's own loader (its module).
                    make = functools.partial(isolated, make_player.__module__, side=side, limit=guard.limit(spec))
                    player = watch.call(seat, "start", make, args, remote=True)
                else:
                    player = watch.call(seat, "start", make_player, args)
                players.append(Guarded(player, seat, watch))
            try:
                record = play_game(options, PascalRandom(game_seed(seed, game)), tuple(players), keep=keep)
            except BotFailed:
                raise
            except Exception as exc:
                failed = engine_error(watch, exc)
                if failed is None:
                    raise
                raise failed from None
    except BotFailed as failed:
        side = sides[failed.seat]
        return seat_a, Fault(side, failed.seat, names[side], (a, b)[side], game, seed, game_seed(seed, game),
                             failed.kind, failed.method, failed.detail, failed.trace)
    return seat_a, record


def play_job(job: tuple[str, str, Any, int, int, int], records: bool, make_player: Callable[[str, int], Any],
             play_game: Callable[..., Any], write_game: Callable[[Any, Any, Meta], str],
             name_of: Callable[[str], str], guard: Guard | None = None) -> list[tuple[int, Any, str | None]]:
    """A worker's games of a job, for any game: (A's seat, the record or the ``Fault``
    of a bot that failed the game, and with ``records`` the game's record as text, its
    seats named as the report names them; else None). With ``--on-error stop`` the job
    ends at its first fault."""
    a, b, options, seed, start, stop = job
    guard = guard or Guard()
    names = (player_name(name_of, make_player, a, guard), player_name(name_of, make_player, b, guard))
    out: list[tuple[int, Any, str | None]] = []
    for g in range(start, stop):
        seat_a, outcome = guarded_game(make_player, play_game, a, b, options, seed, g, guard, names, keep=records)
        if isinstance(outcome, Fault):
            out.append((seat_a, outcome, None))
            if guard.on_error == "stop":
                break
            continue
        text = None
        if records:
            text = write_game(outcome, options, _record_meta(a, b, names, seat_a, game_seed(seed, g)))
            for hand in outcome.hands:          # only the text leaves the worker
                hand.start = hand.end = None
        out.append((seat_a, outcome, text))
    return out


class WorkerLost(RuntimeError):
    """The games of a worker that died cannot be counted: a local worker process that
    ended in the middle of its games, or a cluster that keeps losing its workers."""


class MatchStopped(Exception):
    """``--on-error stop``: a bot failed a game, and the run stops there."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.line())
        self.fault = fault


@dataclass
class Watching:
    """What a match does besides its tallies: how it treats a failing bot (``guard``),
    where it writes each game's record and its JSON line, the SPRT that may stop it,
    and what its games-out lines say of the pairing."""

    guard: Guard = field(default_factory=Guard)
    records: RecordWriter | None = None
    games_out: IO[str] | None = None
    sprt: Sprt | None = None
    sides: tuple[tuple[str, str], tuple[str, str]] = (("", ""), ("", ""))    # (name, spec) of A and B
    seed: int = 0
    faults_shown: int = 0          # forfeit lines printed so far (a run prints FAULT_LINES at most)


FAULT_LINES = 20


def watch_match(watching: Watching | None, records: Path | RecordWriter | None, a: Any, b: Any,
                seed: int) -> Watching:
    """The match's own copy of ``watching`` (a round robin shares one among its
    pairings), naming its sides (``a``, ``b``: their ``name`` and ``spec``), with its
    records' writer (a directory is made one)."""
    w = dataclasses.replace(watching) if watching is not None else Watching()
    if records is not None:
        w.records = records if isinstance(records, RecordWriter) else RecordWriter(Path(records))
    w.sides = ((a.name, a.spec), (b.name, b.spec))
    w.seed = seed
    return w


def score_of(seat_a: int, outcome: Any) -> float:
    """Side A's score in a game: 1 won, 1/2 drawn, 0 lost (forfeits included)."""
    if isinstance(outcome, Fault):
        return 0.0 if outcome.side == 0 else 1.0
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == seat_a else 0.0


def play_match(result: Any, runner: Any, work: Callable[..., list[tuple]], jobs: list[tuple],
               preload: Sequence[str], prefix: str, tally: Callable[[int, Any], None],
               forfeit: Callable[[Fault], None], watching: Watching | None,
               records: Path | RecordWriter | None, seed: int) -> int:
    """What every game's match does with its jobs: watch them (``watch_match``), play
    them (``play_jobs``), and set ``result``'s seconds, games played and SPRT; the
    games played (fewer than asked when an SPRT ended the match)."""
    w = watch_match(watching, records, result.a, result.b, seed)
    result.seconds, games = play_jobs(runner, work, jobs, preload, prefix, tally, forfeit, w)
    result.games = games
    result.sprt = w.sprt.as_dict() if w.sprt is not None else None
    result.move_time = w.guard.limits()
    return games


def play_jobs(runner: Any, work: Callable[..., list[tuple]], jobs: list[tuple], preload: Sequence[str],
              prefix: str, tally: Callable[[int, Any], None], forfeit: Callable[[Fault], None],
              watching: Watching | None = None) -> tuple[float, int]:
    """Play the jobs on the runner (``work(job, records=..., guard=...)`` in the
    workers), and take each game in game order as it comes: tally it (or its forfeit),
    write its record and its line, feed the SPRT. The seconds it took and the games
    played (fewer than asked when the SPRT decided)."""
    w = watching or Watching()
    t0 = time.perf_counter()
    run = functools.partial(work, records=w.records is not None, guard=w.guard)
    played = 0

    def each(part: list[tuple]) -> bool:
        nonlocal played
        for seat_a, outcome, text in part:
            game = played
            played += 1
            name = None
            if isinstance(outcome, Fault):
                forfeit(outcome)
                _show_fault(w, outcome)
            else:
                tally(seat_a, outcome)
                if text is not None and w.records is not None:
                    name = w.records.write(prefix, game, text)
            if w.games_out is not None:          # line by line: a run stopped midway keeps its games
                w.games_out.write(game_line(_game_row(w, game, seat_a, outcome, name)))
                w.games_out.flush()
            if isinstance(outcome, Fault) and w.guard.on_error == "stop":
                raise MatchStopped(outcome)
            if w.sprt is not None:
                w.sprt.add(score_of(seat_a, outcome))
                if w.sprt.decision is not None:     # the match ends on the pair that decided
                    return True
        return False

    runner.map(run, jobs, preload, [job[-1] - job[-2] for job in jobs], each)
    return time.perf_counter() - t0, played


def extra_lines(r: Any) -> list[str]:
    """A match report's lines on forfeits and the SPRT, when there were any."""
    rows = []
    if r.a.forfeits or r.b.forfeits:
        rows.append(f"forfeits (games lost by a bot's failure, counted above): "
                    f"{r.a.name} {r.a.forfeits}, {r.b.name} {r.b.forfeits}")
    if r.sprt is not None:
        rows.append(sprt_line(r.sprt))
    limit = limit_line(r.move_time, (r.a.spec, r.b.spec))
    if limit is not None:
        rows.append(limit)
    return rows


def _show_fault(w: Watching, fault: Fault) -> None:
    """The forfeit's line on stderr (its traceback too with GINRUMMY_DEBUG=1); past
    FAULT_LINES a run says how many more there were only at the end."""
    w.faults_shown += 1
    if w.faults_shown <= FAULT_LINES:
        print(fault.line(), file=sys.stderr)
        if debugging() and fault.trace:
            print(fault.trace.rstrip(), file=sys.stderr)
    elif w.faults_shown == FAULT_LINES + 1:
        print("(more forfeits: the result counts them; --games-out lists each game)", file=sys.stderr)


def _game_row(w: Watching, game: int, seat_a: int, outcome: Any, record: str | None) -> dict[str, object]:
    """The JSON line of a game (--games-out): the sides (name and file), the seats (by
    name), the seeds, the result ("A", "B", "draw"), the seats' scores (None for a
    forfeited game) and the forfeit."""
    (name_a, spec_a), (name_b, spec_b) = w.sides
    seats = [name_a, name_b] if seat_a == 0 else [name_b, name_a]
    row: dict[str, object] = {"game": game + 1, "a": name_a, "a_file": file_of(spec_a), "b": name_b,
                              "b_file": file_of(spec_b), "seats": seats, "seed": w.seed,
                              "deal_seed": game_seed(w.seed, game)}
    if isinstance(outcome, Fault):
        row.update(result="B" if outcome.side == 0 else "A", scores=None, forfeit=outcome.as_dict())
    else:
        winner = outcome.winner
        row.update(result="draw" if winner is None else ("A" if winner == seat_a else "B"),
                   scores=list(outcome.scores), forfeit=None)
    if record is not None:
        row["record"] = record
    return row


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
