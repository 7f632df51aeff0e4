#!/usr/bin/env python3
"""Benchmark settlement: the knocker's melds at their best against the earlier rule.

    .venv/bin/python scripts/bench_settle.py [--deals 4000] [--repeat 5] [--counts 400]

On seeded knock positions (a knocker within the knock value 10, not gin; a defender
dealt from the rest), half of them meld-heavy (cards from a few adjacent ranks, where
arrangements overlap most), it prints:
  * settlements per second, median of --repeat passes, for the rule in force (every
    arrangement within the knock value, best for the knocker after the defender's best
    reply: ``knocker_melds``) and for the earlier one (least-deadwood arrangements
    only, the most defender deadwood);
  * CPython bytecode instructions per settlement (median and maximum) of both, on the
    first --counts positions (counted: the same on every machine);
  * in how many positions the two rules score differently, and by how much.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.ginrummy.rules.melds import deadwood_mask, least_arrangements_mask  # noqa: E402
from port.ginrummy.rules.options import Options  # noqa: E402
from port.ginrummy.rules.settle import best_layoffs, knocker_melds  # noqa: E402
from tests.ginrummy.budget_suite import knock_positions as positions  # noqa: E402
from tests.opcount import count_instructions  # noqa: E402

OPTIONS = Options()


def earlier(kh: int, dh: int) -> tuple[int, int]:
    """The earlier rule: of the least-deadwood arrangements, the most defender deadwood.
    Returns (knocker's deadwood, defender's after layoffs)."""
    best = -1
    for arrangement in least_arrangements_mask(kh):
        best = max(best, best_layoffs(arrangement, dh)[0])
    return deadwood_mask(kh), best


def now(kh: int, dh: int) -> tuple[int, int]:
    _, k_dw, (d_dw, _) = knocker_melds(kh, dh, OPTIONS, None)
    return k_dw, d_dw


def score(k_dw: int, d_dw: int) -> int:
    return d_dw - k_dw if k_dw < d_dw else -(OPTIONS.undercut_bonus + k_dw - d_dw)


def rate(fn: Callable[[int, int], tuple[int, int]], pos: list[tuple[int, int]], repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for kh, dh in pos:
            fn(kh, dh)
        rates.append(len(pos) / (time.perf_counter() - t0))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--counts", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1991)
    args = ap.parse_args(argv)
    pos = positions(args.deals, args.seed)
    print(f"{len(pos)} knock positions (half meld-heavy), seed {args.seed}")
    for name, fn in (("at their best (now)", now), ("least deadwood (earlier)", earlier)):
        counts = [count_instructions(fn, kh, dh)[0] for kh, dh in pos[:args.counts]]
        print(f"{name:26} {rate(fn, pos, args.repeat):9.0f} settlements/s   instructions "
              f"median {statistics.median(counts):.0f}, max {max(counts)} (first {len(counts)})")
    gains = [score(*now(kh, dh)) - score(*earlier(kh, dh)) for kh, dh in pos]
    better = [g for g in gains if g]
    heavy = sum(1 for i, g in enumerate(gains) if g and i % 2)
    print(f"scored better at their best in {len(better)} of {len(pos)} ({heavy} meld-heavy); "
          f"never worse: {min(gains) >= 0}; gain median {statistics.median(better) if better else 0}, "
          f"max {max(better) if better else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
