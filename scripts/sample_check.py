"""How GinRummy's ``sample_world`` does after a *play on*: exact draws against the chain.

    .venv/bin/python scripts/sample_check.py [--views 6] [--worlds 150] [--mix 0 100 1000]

A knock question answered with *play on* says the other hand had little deadwood, and
few random deals are consistent with it. For positions met in play after such an
answer (two seats that discard to the least deadwood and play on two questions in
three), from the view of the seat to draw, this prints for each view the share of the
other seat's real unseen cards (those not taken from the pile) that the worlds give
it, with the milliseconds a world took: exact draws (``exact_world``, uniform among
the consistent deals: the reference) and the chain (``chained_world``) after each
number of swaps in ``--mix``. Honest sampling holds about as many of the real cards
as a uniform deal consistent with the view does; a sampler that starts from the true
state holds more. Its mixing shows as the chain's share against the exact one.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from port.cards import CARDS  # noqa: E402
from port.ginrummy.rules import Options  # noqa: E402
from port.ginrummy.rules.melds import deadwood_mask  # noqa: E402
from port.ginrummy.rules.search import (DISCARD0, DRAW_PILE, DRAW_STOCK, KNOCK, PLAY_ON, Position,  # noqa: E402
                                        chained_world, exact_world)
from port.ginrummy.rules.state import Act, Phase  # noqa: E402


def play_on_views(count: int, seed: int) -> Iterator[tuple[Position, int]]:
    """(position, seat): the seat to draw after the other seat played on."""
    rng = random.Random(seed)
    while count:
        p = Position.deal(Options(score_limit=0), seed=rng.getrandbits(32))
        while not p.terminal:
            h, seat, acts = p.hand, p.to_move(), p.legal_actions()
            if h.phase is Phase.DRAW and any(e.seat != seat and e.act is Act.PLAY_ON for e in h.events):
                yield p, seat
                count -= 1
                break
            mine = h.hands[seat]
            if KNOCK in acts:
                a = PLAY_ON if rng.random() < 2 / 3 else KNOCK
            elif acts[0] >= DISCARD0:
                a = min(acts, key=lambda a: deadwood_mask(mine & ~CARDS[a - DISCARD0].bit))
            else:
                a = DRAW_PILE if DRAW_PILE in acts and rng.random() < 0.2 else DRAW_STOCK
            p.step(a)


def share(world: Position, p: Position, seat: int) -> float:
    opp = 1 - seat
    seen = {e.card for e in p.hand.events if e.seat == opp and e.act is Act.DRAW_PILE}
    real = {c for c in p.hand.hand(opp) if c not in seen}
    return len(real & set(world.hand.hand(opp))) / len(real) if real else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--views", type=int, default=6)
    ap.add_argument("--worlds", type=int, default=150)
    ap.add_argument("--mix", type=int, nargs="+", default=[0, 100, 1000])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    gaps: dict[int, list[float]] = {m: [] for m in args.mix}
    for p, seat in play_on_views(args.views, args.seed):
        view = p.view(seat)
        t0 = time.perf_counter()
        exact = [share(exact_world(view, rng, tries=10 ** 8), p, seat) for _ in range(args.worlds)]   # type: ignore[arg-type]
        row = f"exact {statistics.mean(exact):.3f} ({(time.perf_counter() - t0) / args.worlds * 1e3:.0f} ms)"
        for m in args.mix:
            t0 = time.perf_counter()
            chain = [share(chained_world(view, rng, mix=m), p, seat) for _ in range(args.worlds)]
            gaps[m].append(statistics.mean(chain) - statistics.mean(exact))
            row += f" | chain {m} {statistics.mean(chain):.3f} ({(time.perf_counter() - t0) / args.worlds * 1e3:.0f} ms)"
        print(row, flush=True)
    for m, g in gaps.items():
        print(f"chain {m} swaps: share minus exact's from {min(g):+.3f} to {max(g):+.3f}, "
              f"mean absolute {statistics.mean(abs(x) for x in g):.3f}")


if __name__ == "__main__":
    main()
