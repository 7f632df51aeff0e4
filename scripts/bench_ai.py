"""Benchmark the computer levels: time per decision (median and worst) for STANDARD,
EASY and EXPERT, and the runner's STANDARD-vs-STANDARD games per second; then
Cribbage's STANDARD and EXPERT.

    .venv/bin/python scripts/bench_ai.py [--games 40] [--runner-games 200] [--only gin|cribbage]

Decisions are timed inside real games (seat 0 the level under test, seat 1 STANDARD).
Targets (issues 3 and 13): STANDARD median <= 1 ms, EXPERT worst <= 150 ms, the runner
>= 40 STANDARD-vs-STANDARD games to 100 per second on two cores. Cribbage (issue 10):
STANDARD median <= 2 ms, EXPERT worst <= 150 ms, in games to 121 against STANDARD.
EXPERT's mean is printed too: it is what a long match pays per decision.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.cards import Card, PascalRandom  # noqa: E402
from port.cribbage.levels import load_player as load_cribbage  # noqa: E402
from port.cribbage.rules import Options as CribbageOptions  # noqa: E402
from port.cribbage.rules import Player as CribbagePlayer  # noqa: E402
from port.cribbage.rules import play_game as play_cribbage  # noqa: E402
from port.match import run_match  # noqa: E402
from port.ginrummy.rules.options import FirstTurn, Options  # noqa: E402
from port.ginrummy.levels import load_player  # noqa: E402
from port.ginrummy.rules.players import Draw, KnockChoice, Player, play_game  # noqa: E402
from port.ginrummy.rules.state import View  # noqa: E402


CLOCK = time.perf_counter


class Timed(Player):
    """Wraps a player and times each of its decisions."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.times: dict[str, list[float]] = {"draw": [], "discard": [], "knock": []}

    def _time(self, kind: str, fn, view: View):  # type: ignore[no-untyped-def]
        t = CLOCK()
        out = fn(view)
        self.times[kind].append(CLOCK() - t)
        return out

    def begin_hand(self, view: View) -> None:
        self.inner.begin_hand(view)

    def choose_draw(self, view: View) -> Draw:
        return self._time("draw", self.inner.choose_draw, view)

    def choose_discard(self, view: View) -> Card:
        return self._time("discard", self.inner.choose_discard, view)

    def choose_knock(self, view: View) -> KnockChoice:
        return self._time("knock", self.inner.choose_knock, view)


def bench_level(level: str, games: int) -> dict[str, list[float]]:
    timed = Timed(load_player(level, seed=1))
    options = Options(first_turn=FirstTurn.ALTERNATE)
    for g in range(games):
        play_game(options, PascalRandom(1000 + g), (timed, load_player("standard")))
    return timed.times


class TimedCribbage(CribbagePlayer):
    """Wraps a Cribbage player and times each of its decisions."""

    def __init__(self, inner: CribbagePlayer) -> None:
        self.inner = inner
        self.times: dict[str, list[float]] = {"discard": [], "play": []}

    def discard(self, view):  # type: ignore[no-untyped-def]
        t = CLOCK()
        out = self.inner.discard(view)
        self.times["discard"].append(CLOCK() - t)
        return out

    def play(self, view):  # type: ignore[no-untyped-def]
        t = CLOCK()
        out = self.inner.play(view)
        self.times["play"].append(CLOCK() - t)
        return out


def bench_cribbage(games: int) -> None:
    for level in ("standard", "expert"):
        timed = TimedCribbage(load_cribbage(level, seed=1))
        for g in range(games):
            play_cribbage(CribbageOptions(), PascalRandom(1000 + g), (timed, load_cribbage("standard")))
        every = [t for ts in timed.times.values() for t in ts]
        print(f"cribbage {level:9} {len(every):6} decisions  median {1e3 * statistics.median(every):7.3f} ms"
              f"  worst {1e3 * max(every):7.2f} ms", end="")
        for kind, ts in timed.times.items():
            print(f"  {kind} med {1e3 * statistics.median(ts):.3f} max {1e3 * max(ts):.1f}", end="")
        print()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=40, help="games per level for decision times")
    p.add_argument("--runner-games", type=int, default=400)
    p.add_argument("--only", choices=("gin", "cribbage"), help="one game's rows")
    p.add_argument("--cpu", action="store_true",
                   help="time decisions in CPU time of this process, not wall time: on a "
                        "machine loaded by other jobs, wall time counts the waits")
    args = p.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    if args.only != "gin":
        bench_cribbage(args.games)
    if args.only == "cribbage":
        return 0
    for level in ("easy", "standard", "expert"):
        times = bench_level(level, args.games if level != "expert" else max(4, args.games // 4))
        every = [t for ts in times.values() for t in ts]
        print(f"{level:9} {len(every):6} decisions  median {1e3 * statistics.median(every):7.3f} ms"
              f"  mean {1e3 * statistics.mean(every):7.3f} ms  worst {1e3 * max(every):7.2f} ms",
              end="")
        for kind, ts in times.items():
            if ts:
                print(f"  {kind} med {1e3 * statistics.median(ts):.3f} max {1e3 * max(ts):.1f}", end="")
        print()
    r = run_match("standard", "standard", args.runner_games, 1, Options(), workers=2)
    print(f"runner: {r.games} STANDARD-vs-STANDARD games to 100 in {r.seconds:.1f} s on 2 workers: "
          f"{r.games / r.seconds:.1f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
