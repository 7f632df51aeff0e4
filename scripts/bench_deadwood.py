#!/usr/bin/env python3
"""Benchmark the deadwood minimiser: hands per second, against public engines.

    .venv/bin/python scripts/bench_deadwood.py [--hands 100000] [--repeat 5]

Prints, for the same seeded random hands, the median over --repeat runs of:
  * 10-card least deadwood,
  * 11-card best discards (every discard that leaves the least deadwood),
for this port (pure Python), and, when installed (`pip install open_spiel rlcard`,
or the project's `bench` extra), OpenSpiel's C++ utilities through pyspiel and
RLCard's pure-Python ones. Each engine gets its hands already in its own form (a
mask for us, a list of ints for OpenSpiel, Card objects for RLCard), so the figure
is the minimiser's, not the conversion's; ours from the very lists OpenSpiel gets
(``deadwood``, ``best_discards``: what bot authors call) is printed too, twice: with
every answer kept in a list (a list of 100,000 answers that hold cards makes Python's
garbage collector walk them again and again, a cost of the keeping, not of the
engine), and called as a bot calls them, each answer used and dropped. The engines
take turns within each round, so a load on a shared machine weighs on all alike.
It also counts the hands where an engine's answer differs from ours, and checks
ours against the brute-force reference on a sample when asked (--check).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.cards import CARDS, mask  # noqa: E402
from port.ginrummy.rules.melds import (  # noqa: E402
    best_discards,
    best_discards_mask,
    deadwood,
    deadwood_mask,
)


def _time(fn: Callable[[Sequence[Any]], Any], hands: Sequence[Any], repeat: int) -> float:
    """Median hands per second over `repeat` passes."""
    return _time_all({"": (fn, hands)}, repeat)[""]


Job = tuple[Callable[[Sequence[Any]], Any], Sequence[Any]]


def _time_all(jobs: dict[str, Job], repeat: int) -> dict[str, float]:
    """Median hands per second of each job over `repeat` rounds. The jobs take turns
    within a round, so that a load coming and going on a shared machine weighs on
    every engine alike and the ratios stay fair."""
    rates: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, (fn, hands) in jobs.items():
            t0 = time.perf_counter()
            fn(hands)
            rates[name].append(len(hands) / (time.perf_counter() - t0))
    return {name: statistics.median(r) for name, r in rates.items()}


def _dropped(fn: Callable[[Any], Any]) -> Callable[[Sequence[Any]], None]:
    """Call ``fn`` on every hand as a bot does: the answer used, then dropped."""
    def run(hands: Sequence[Any]) -> None:
        for h in hands:
            fn(h)
    return run


def _ours() -> dict[str, Callable[[Sequence[Any]], list[int]]]:
    return {
        "deadwood10": lambda hs: [deadwood_mask(h) for h in hs],
        "best11": lambda hs: [best_discards_mask(h)[0] for h in hs],
    }


def _openspiel() -> dict[str, Callable[[Sequence[Any]], list[int]]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    md = utils.min_deadwood
    # OpenSpiel numbers a card suit * 13 + rank with the Ace low, as we do (its suit
    # order differs, which deadwood does not see). For 11 cards its min_deadwood is
    # what its engine uses: best melds of all 11, then drop the highest loose card.
    return {
        "deadwood10": lambda hs: [md(h) for h in hs],
        "best11": lambda hs: [md(h) for h in hs],
        "md": md,
    }


def _rlcard() -> dict[str, Callable[[Sequence[Any]], list[int]]] | None:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils  # type: ignore[import-not-found]
    except ImportError:
        return None

    def dw10(h: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(h)
        if not clusters:
            return sum(utils.get_deadwood_value(c) for c in h)
        return utils.get_deadwood_count(h, clusters[0])

    def best11(h: list[Any]) -> int:
        # RLCard has no 11-card call: its agents try each discard.
        return min(dw10(h[:i] + h[i + 1:]) for i in range(len(h)))

    return {
        "deadwood10": lambda hs: [dw10(h) for h in hs],
        "best11": lambda hs: [best11(h) for h in hs],
    }


def _rlcard_hand(cards: Sequence[int]) -> list[Any]:
    from rlcard.games.gin_rummy.utils import utils  # type: ignore[import-not-found]

    return [utils.card_from_text("A23456789TJQK"[c % 13] + "SHDC"[c // 13]) for c in cards]


def _meld_heavy_hands(rng: random.Random, n: int, size: int) -> list[list[int]]:
    """Hands drawn from a few adjacent ranks, where sets and runs overlap most."""
    out = []
    for _ in range(n):
        lo, width = rng.randrange(0, 10), rng.randrange(3, 6)
        pool = [c for c in range(52) if lo <= c % 13 < lo + width]
        extra = [c for c in range(52) if c not in pool]
        out.append(rng.sample(pool + rng.sample(extra, max(0, size - len(pool))), size))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--rlcard-hands", type=int, default=10_000,
                    help="RLCard is slow; it gets the first N of the same hands")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1991)
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="also check ours against the brute-force reference on N hands")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    lists10 = [rng.sample(range(52), 10) for _ in range(args.hands)]
    lists11 = [rng.sample(range(52), 11) for _ in range(args.hands)]
    masks10 = [mask(h) for h in lists10]
    masks11 = [mask(h) for h in lists11]
    print(f"{args.hands:,} seeded random hands (seed {args.seed}), median of {args.repeat} runs, "
          f"Python {sys.version.split()[0]}")
    print(f"{'engine':<34}{'10-card deadwood/s':>20}{'11-card best discards/s':>26}")

    ours = _ours()
    spiel = _openspiel()
    # Each engine gets the same hands: masks for our mask functions; the very lists of
    # card ints OpenSpiel gets for our public list functions (what bot authors call).
    jobs: dict[str, Job] = {
        "m10": (ours["deadwood10"], masks10),
        "m11": (ours["best11"], masks11),
        "l10": (lambda hs: [deadwood(h) for h in hs], lists10),
        "l11": (lambda hs: [best_discards(h) for h in hs], lists11),
    }
    jobs["l10d"] = (_dropped(deadwood), lists10)
    jobs["l11d"] = (_dropped(best_discards), lists11)
    if spiel is not None:
        jobs["s10"] = (spiel["deadwood10"], lists10)
        jobs["s11"] = (spiel["best11"], lists11)
        jobs["s10d"] = (_dropped(spiel["md"]), lists10)
        jobs["s11d"] = (_dropped(spiel["md"]), lists11)
    rate = _time_all(jobs, args.repeat)
    print(f"{'this port (masks)':<34}{rate['m10']:>20,.0f}{rate['m11']:>26,.0f}")
    print(f"{'this port (from card lists)':<34}{rate['l10']:>20,.0f}{rate['l11']:>26,.0f}")
    truth10 = ours["deadwood10"](masks10)
    truth11 = ours["best11"](masks11)
    r10, r11 = rate["m10"], rate["m11"]

    if spiel is None:
        print(f"{'OpenSpiel (pyspiel, C++)':<34}{'not installed: pip install open_spiel':>46}")
    else:
        s10, s11 = rate["s10"], rate["s11"]
        print(f"{'OpenSpiel (pyspiel, C++)':<34}{s10:>20,.0f}{s11:>26,.0f}")
        d10 = sum(a != b for a, b in zip(spiel["deadwood10"](lists10), truth10))
        d11 = sum(a != b for a, b in zip(spiel["best11"](lists11), truth11))
        print(f"  ours / OpenSpiel: {r10 / s10:.2f}x on 10 cards, {r11 / s11:.2f}x on 11 cards "
              f"(masks); {rate['l10'] / s10:.2f}x and {rate['l11'] / s11:.2f}x from the same lists")
        print("called as a bot calls them, each answer used and dropped (not kept in a list):")
        print(f"{'this port (from card lists)':<34}{rate['l10d']:>20,.0f}{rate['l11d']:>26,.0f}")
        print(f"{'OpenSpiel (pyspiel, C++)':<34}{rate['s10d']:>20,.0f}{rate['s11d']:>26,.0f}")
        print(f"  ours / OpenSpiel: {rate['l10d'] / rate['s10d']:.2f}x on 10 cards, "
              f"{rate['l11d'] / rate['s11d']:.2f}x on 11 cards, from the same lists")
        print(f"  OpenSpiel differs from the exact answer on {d10} ten-card and "
              f"{d11} eleven-card random hands of {args.hands:,}")
        heavy = _meld_heavy_hands(rng, 10_000, 11)
        dh = sum(spiel["best11"]([h])[0] != best_discards_mask(mask(h))[0] for h in heavy)
        print(f"  and on {dh:,} of 10,000 meld-heavy eleven-card hands (ranks from a window of 3-5)")

    rl = _rlcard()
    if rl is None:
        print(f"{'RLCard (pure Python)':<34}{'not installed: pip install rlcard':>46}")
    else:
        n = min(args.rlcard_hands, args.hands)
        rl10 = [_rlcard_hand(h) for h in lists10[:n]]
        rl11 = [_rlcard_hand(h) for h in lists11[:n]]
        q10 = _time(rl["deadwood10"], rl10, 1)
        q11 = _time(rl["best11"], rl11, 1)
        print(f"{f'RLCard (pure Python, {n:,} hands)':<34}{q10:>20,.0f}{q11:>26,.0f}")
        d10 = sum(a != b for a, b in zip(rl["deadwood10"](rl10), truth10))
        print(f"  ours / RLCard: {r10 / q10:.1f}x on 10 cards, {r11 / q11:.1f}x on 11 cards; "
              f"RLCard differs on {d10} ten-card hands of {n:,}")

    if args.check:
        from tests.ginrummy.brute import ref_best_discards, ref_deadwood

        c10 = [[CARDS[c] for c in h] for h in lists10[: args.check]]
        c11 = [[CARDS[c] for c in h] for h in lists11[: args.check]]
        bad = sum(ref_deadwood(h) != deadwood(h) for h in c10)
        bad += sum(ref_best_discards(h)[0] != best_discards(h)[0] for h in c11)
        print(f"brute-force check on {args.check:,} hands of each size: {bad} differences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
