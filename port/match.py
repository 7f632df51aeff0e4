"""The match runner: whole games between two players, headless.

    python -m port.match --a standard --b easy --games 2000 --seed 1
    python -m port.match --a expert --b path/to/bot.py:ClassName --games 200 --json

Fairness: games go in pairs on the same deal seed with the seats swapped (side A
sits in seat 0 in even games and seat 1 in odd ones), and within a game the first
turn alternates from hand to hand (``FirstTurn.ALTERNATE``). Each game's deal seed and
each bot's own seed come from ``--seed`` and the game's number only, and the games
are split over worker processes but tallied in game order, so the same seed gives
the same result however the work is scheduled.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from port.cards import PascalRandom
from port.rules.options import BONUS_CHOICES, FirstTurn, Options
from port.rules.levels import load_player
from port.rules.players import GameRecord, Player, play_game
from port.rules.settle import Outcome


@dataclass
class Side:
    """One side's tallies over a match."""

    name: str
    games_won: int = 0
    points: int = 0
    hands_won: int = 0
    gins: int = 0
    undercuts: int = 0
    knocks: int = 0          # hands this side ended with a knock (won or undercut)
    knocks_won: int = 0


@dataclass
class MatchResult:
    games: int
    seed: int
    options: dict[str, object]
    a: Side
    b: Side
    games_drawn: int = 0
    hands: int = 0
    hands_drawn: int = 0
    seconds: float = 0.0
    win_rate_a: float = 0.0
    interval_a: tuple[float, float] = (0.0, 0.0)
    extra: dict[str, object] = field(default_factory=dict)


def game_seed(seed: int, game: int) -> int:
    """The deal seed of a game: shared by the two games of a pair (seats swapped)."""
    return random.Random(seed * 1_000_003 + game // 2).getrandbits(32)


def bot_seed(seed: int, game: int, side: int) -> int:
    return random.Random((seed * 1_000_003 + game) * 2 + side + 7).getrandbits(32)


def player(spec: str, seed: int) -> Player:
    """A level or a bot file's player; a PettingZoo-style policy in a bot file
    (``bot.py:my_policy``) plays through ``port.env.adapters.PolicyPlayer``."""
    p = load_player(spec, seed)
    if isinstance(p, Player):
        return p
    from port.env.adapters import as_player     # the optional extra 'rl' (numpy)
    return as_player(p, spec.rpartition(":")[2])


def play_one(a: str, b: str, options: Options, seed: int, game: int) -> tuple[int, GameRecord]:
    """Play game number ``game``: returns the seat side A sat in, and the record."""
    pa = player(a, bot_seed(seed, game, 0))
    pb = player(b, bot_seed(seed, game, 1))
    seat_a = game % 2
    players = (pa, pb) if seat_a == 0 else (pb, pa)
    return seat_a, play_game(options, PascalRandom(game_seed(seed, game)), players)


def _work(job: tuple[str, str, Options, int, int, int]) -> list[tuple[int, GameRecord]]:
    a, b, options, seed, start, stop = job
    return [play_one(a, b, options, seed, g) for g in range(start, stop)]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def _pool_context() -> multiprocessing.context.BaseContext:
    """Workers forked from a clean server process, never from the caller: forking a
    process that runs other threads (pyxel's, a test runner's) can deadlock the child.
    The server loads the engine once, so each worker starts at fork speed."""
    if sys.platform == "win32" or "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["port.rules", "port.rules.levels"])
    return ctx


def run_match(a: str, b: str, games: int, seed: int, options: Options,
              workers: int = 2, chunk: int = 10) -> MatchResult:
    """Play ``games`` games between the players named ``a`` and ``b``."""
    options = options.with_(first_turn=FirstTurn.ALTERNATE)
    jobs = [(a, b, options, seed, s, min(s + chunk, games)) for s in range(0, games, chunk)]
    t0 = time.perf_counter()
    if workers > 1 and len(jobs) > 1:
        with _pool_context().Pool(workers) as pool:
            parts = pool.map(_work, jobs, chunksize=1)
    else:
        parts = [_work(j) for j in jobs]
    seconds = time.perf_counter() - t0
    result = MatchResult(games, seed, _options_dict(options), Side(a), Side(b))
    for part in parts:
        for seat_a, record in part:
            _tally(result, seat_a, record)
    result.seconds = seconds
    result.win_rate_a = result.a.games_won / games if games else 0.0
    # Drawn games count half to each side in the interval.
    result.interval_a = wilson(result.a.games_won + result.games_drawn / 2, games)
    return result


def _tally(result: MatchResult, seat_a: int, record: GameRecord) -> None:
    sides = {seat_a: result.a, 1 - seat_a: result.b}
    if record.winner is None:
        result.games_drawn += 1
    else:
        sides[record.winner].games_won += 1
    for seat in (0, 1):
        sides[seat].points += record.scores[seat]
    for h in record.hands:
        r = h.result
        result.hands += 1
        if r.outcome is Outcome.DRAW:
            result.hands_drawn += 1
            continue
        assert r.winner is not None and r.knocker is not None
        sides[r.winner].hands_won += 1
        if r.outcome is Outcome.GIN:
            sides[r.winner].gins += 1
        else:
            sides[r.knocker].knocks += 1
            if r.outcome is Outcome.UNDERCUT:
                sides[r.winner].undercuts += 1
            else:
                sides[r.knocker].knocks_won += 1


def _options_dict(o: Options) -> dict[str, object]:
    return {"gin_bonus": o.gin_bonus, "undercut_bonus": o.undercut_bonus,
            "score_limit": o.score_limit, "oklahoma": o.oklahoma, "knocking": o.knocking,
            "first_turn": o.first_turn.value}


def report(r: MatchResult) -> str:
    lo, hi = r.interval_a
    rows = [f"{r.games} games, seed {r.seed}, options {r.options}",
            f"{'':12}{'won':>7}{'points':>9}{'hands':>7}{'gins':>6}{'undercuts':>10}{'knocks':>8}"]
    for s in (r.a, r.b):
        rows.append(f"{s.name[:12]:12}{s.games_won:7}{s.points:9}{s.hands_won:7}{s.gins:6}"
                    f"{s.undercuts:10}{s.knocks:8}")
    rows.append(f"drawn games {r.games_drawn}, hands {r.hands} ({r.hands_drawn} drawn)")
    rows.append(f"A ({r.a.name}) wins {100 * r.win_rate_a:.1f}% of games, "
                f"95% interval {100 * lo:.1f}%-{100 * hi:.1f}%")
    rows.append(f"{r.seconds:.1f} s, {r.games / r.seconds if r.seconds else 0:.1f} games/s")
    return "\n".join(rows)


def to_json(r: MatchResult) -> str:
    d = asdict(r)
    d["interval_a"] = list(r.interval_a)
    return json.dumps(d, indent=2)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m port.match", description=__doc__.split("\n")[0])
    p.add_argument("--a", default="standard", help="side A: easy, standard, expert or path/to/bot.py:Class")
    p.add_argument("--b", default="easy", help="side B, as --a")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=int, default=100, help="score limit (0: one hand)")
    p.add_argument("--gin-bonus", type=int, default=25, choices=BONUS_CHOICES)
    p.add_argument("--undercut-bonus", type=int, default=25, choices=BONUS_CHOICES)
    p.add_argument("--oklahoma", action="store_true")
    p.add_argument("--no-knocking", action="store_true", help="gin only")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2: both cores)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    options = Options(gin_bonus=args.gin_bonus, undercut_bonus=args.undercut_bonus,
                      score_limit=args.limit, oklahoma=args.oklahoma,
                      knocking=not args.no_knocking)
    r = run_match(args.a, args.b, args.games, args.seed, options, workers=args.workers)
    print(to_json(r) if args.json else report(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
