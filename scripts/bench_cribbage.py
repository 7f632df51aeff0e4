#!/usr/bin/env python3
"""Score every cribbage hand: all 12,994,800 (four cards, starter) combinations, one by
one through ``score_hand`` with the hand as a list, under hand rules and crib rules.

    .venv/bin/python scripts/bench_cribbage.py [--repeat 3] [--quick]

Prints the distribution of points and the mean for each rule set (the published mean
of a random hand is 4.7692), and the time of the whole enumeration: the median of
--repeat passes, by the clock and in the process's CPU time (the figure to read on a
shared machine), with the loop's own cost (the same loop calling a function that does
nothing) printed apart. --quick enumerates only the hands holding the ace of spades
(999,600 combinations), for a smoke test.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.cribbage.rules import score_hand  # noqa: E402
from port.cribbage.rules.scoring import _build_table, _rank_trie, _suit_trie  # noqa: E402

PUBLISHED_MEAN = 4.7692
ALL = 12_994_800          # C(52, 4) hands x 48 starters
QUICK = 999_600           # C(51, 3) hands with the ace of spades x 48


def enumerate_all(score: Callable[[Sequence[int], int, bool], int], crib: bool,
                  quick: bool) -> tuple[list[int], float, float]:
    """Counts of each score over every (hand, starter), and the seconds it took: by
    the clock, and of this process's CPU time (on a shared machine the clock counts
    the others' turns on the core too; the CPU time does not)."""
    counts = [0] * 30
    cards = range(52)
    c0 = time.process_time()
    t0 = time.perf_counter()
    for four in combinations(cards, 4):
        if quick and four[0] != 0:
            break
        hand = list(four)
        for starter in cards:
            if starter in four:
                continue
            counts[score(hand, starter, crib)] += 1
    return counts, time.perf_counter() - t0, time.process_time() - c0


def _nothing(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    table = _build_table()
    print(f"rank table: {len(table):,} five-rank multisets built in {1000 * (time.perf_counter() - t0):.0f} ms")
    t0 = time.perf_counter()
    _rank_trie(table), _suit_trie(False), _suit_trie(True)
    print(f"tries (ranks; flush and nobs, hand and crib) built in {1000 * (time.perf_counter() - t0):.0f} ms")

    loops = [enumerate_all(_nothing, False, args.quick) for _ in range(args.repeat)]
    loop = statistics.median(r[1] for r in loops)
    loop_cpu = statistics.median(r[2] for r in loops)
    for crib in (False, True):
        runs = [enumerate_all(score_hand, crib, args.quick) for _ in range(args.repeat)]
        counts = runs[0][0]
        assert all(r[0] == counts for r in runs)
        n = sum(counts)
        total = sum(points * k for points, k in enumerate(counts))
        seconds = statistics.median(r[1] for r in runs)
        name = "crib rules" if crib else "hand rules"
        expected = QUICK if args.quick else ALL
        assert n == expected, f"{n:,} combinations enumerated, not {expected:,}"
        print(f"\n{name}: {n:,} (hand, starter) combinations")
        print(" points  hands        share")
        for points, k in enumerate(counts):
            print(f"  {points:>5}  {k:>10,}  {100 * k / n:6.3f}%")
        print(f"mean {total / n:.4f} ({total:,} points / {n:,})"
              + ("" if crib else f"; published {PUBLISHED_MEAN}"))
        print(f"time: {seconds:.2f} s median of {args.repeat}, best {min(r[1] for r in runs):.2f} s (runs {', '.join(f'{r[1]:.2f}' for r in runs)}); "
              f"{1e6 * seconds / n:.3f} us a hand, of which the loop {1e6 * loop / n:.3f} us "
              f"(empty-function pass {loop:.2f} s)")
        cpu = statistics.median(r[2] for r in runs)
        print(f"CPU time: {cpu:.2f} s median of {args.repeat} (runs {', '.join(f'{r[2]:.2f}' for r in runs)}); "
              f"empty-function pass {loop_cpu:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
