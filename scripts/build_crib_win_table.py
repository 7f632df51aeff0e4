"""Build EXPERT's board table: each seat's chances from any score, written to
port/cribbage/win_table.json.

    .venv/bin/python scripts/build_crib_win_table.py [--blocks 10] [--check]

Two steps:

1. The points of a deal. ``--blocks`` blocks of 2,000 deals (each deal seeded by its
   number, the dealer alternating) are played to the end of the show by STANDARD in
   both seats, at 0-0 (STANDARD never looks at the board), and four distributions are
   counted: the play (the pone's points, the dealer's points with his heels), the
   pone's hand, the dealer's hand and crib together, and the crib alone. They are
   treated as independent of each other. The file keeps each block's counts, so one
   block can be recomputed alone (a test does).
2. The game from every score, by dynamic programming, for each limit (121, 61) and
   with and without skunks. ``equity[p][q]`` is what the game is worth to the pone
   (the seat that does not deal) when a deal starts with the pone on ``p`` and the
   dealer on ``q``: the chance of winning less the chance of losing, a skunk counting
   two when skunking is on. A deal is the play, then the pone's hand, then the
   dealer's hand and crib, as the rules count them, and whoever reaches the limit
   first wins. When both would reach it in the play, who gets there first is
   counted from the deals' events (heels, each card, each go: ``race``), for needs up
   to 16 points each; beyond, the seat with the smaller share of its play's points
   still to make is taken to be first. After a deal the seats swap: the dealer is the next
   pone, so the pone's value then is minus the next deal's.

Every score reached adds at least a point (the last card of the play pegs), so the
scores are computed from the highest sums down. The file is the same on every
machine: the deals come from seeded shuffles, the sums are done in a fixed order and
the equities are rounded to 4 decimals.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.table_files import write_or_check  # noqa: E402

from port.cards import PascalRandom  # noqa: E402
from port.cribbage.computer import Standard  # noqa: E402
from port.cribbage.rules import Act, HandState, play_hand  # noqa: E402
from port.cribbage.rules.options import SKUNK_MARGIN  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "port" / "cribbage" / "win_table.json"
BLOCKS = 10       # blocks of deals, each seeded alone (a test recomputes one)
BLOCK = 2000
RACE = 16         # the race in the play is counted for needs up to this many points
_PEGS = (Act.STARTER, Act.PLAY, Act.GO_POINT)
LIMITS = (121, 61)

Dist = dict[int, float]


def block(b: int) -> dict[str, dict[str, object]]:
    """The counts of one block of ``BLOCK`` deals (seeded by the block's number): the
    play ("u,v": the pone's points, the dealer's with his heels), the pone's hand, the
    dealer's hand and crib, the crib alone; and the race ("a,b": of the deals in which
    the pone's play reaches a points and the dealer's b, how many the pone reached
    first, and how many in all)."""
    counts: dict[str, dict[str, object]] = {"play": {}, "pone": {}, "dealer": {}, "crib": {},
                                            "race": {}}
    race: dict[str, list[int]] = {f"{a},{b}": [0, 0] for a in range(1, RACE + 1)
                                  for b in range(1, RACE + 1)}
    players = (Standard(), Standard())
    for i in range(b * BLOCK, (b + 1) * BLOCK):
        d = i % 2
        hand = HandState.deal(d, PascalRandom(10_000 + i))
        record = play_hand(hand, players)
        p = 1 - d
        for name, key in (("play", f"{record.pegging[p]},{record.pegging[d] + record.heels[d]}"),
                          ("pone", str(record.hand[p])),
                          ("dealer", str(record.hand[d] + record.crib[d])),
                          ("crib", str(record.crib[d]))):
            table = counts[name]
            table[key] = int(table.get(key, 0)) + 1       # type: ignore[call-overload]
        # When each seat's pegging (heels first) first reaches each number of points.
        reach = [[0] * (RACE + 1), [0] * (RACE + 1)]
        total = [0, 0]
        for t, e in enumerate(e for e in hand.events if e.act in _PEGS):
            seat = 0 if e.seat == p else 1
            for n in range(total[seat] + 1, min(total[seat] + e.points, RACE) + 1):
                reach[seat][n] = t + 1
            total[seat] += e.points
        for a in range(1, min(total[0], RACE) + 1):
            for b in range(1, min(total[1], RACE) + 1):
                cell = race[f"{a},{b}"]
                cell[0] += reach[0][a] < reach[1][b]
                cell[1] += 1
    counts["race"] = {k: v for k, v in race.items() if v[1]}
    return counts


def distributions(blocks: list[dict[str, dict[str, object]]]) -> dict[str, dict[str, float]]:
    """The blocks' counts together, as probabilities; ``race`` as the pone's share of
    the races."""
    total: dict[str, dict[str, int]] = {}
    races: dict[str, list[int]] = {}
    for counts in blocks:
        for name, table in counts.items():
            if name == "race":
                for k, (first, both) in table.items():   # type: ignore[misc]
                    cell = races.setdefault(k, [0, 0])
                    cell[0] += first
                    cell[1] += both
                continue
            into = total.setdefault(name, {})
            for k, n in table.items():
                into[k] = into.get(k, 0) + int(n)        # type: ignore[call-overload]
    deals = sum(total["crib"].values())
    out = {name: {k: n / deals for k, n in t.items()} for name, t in total.items()}
    out["race"] = {k: first / both for k, (first, both) in races.items()}
    return out


def equity(points: dict[str, dict[str, float]], limit: int, skunking: bool) -> list[list[float]]:
    """``equity[p][q]``: the game's worth to the pone at a deal's start (see above)."""
    line = limit - SKUNK_MARGIN
    play = [(int(k.split(",")[0]), int(k.split(",")[1]), w) for k, w in sorted(points["play"].items())]
    pone = [(int(k), w) for k, w in sorted(points["pone"].items())]
    dealer = [(int(k), w) for k, w in sorted(points["dealer"].items())]

    def pay(loser: int) -> float:
        return 2.0 if skunking and loser < line else 1.0

    def race_share(a: int, b: int, u: int, v: int) -> float:
        """The pone's chance to be first when the play would take the pone past its
        need ``a`` and the dealer past ``b``: counted, or else the seat with the
        smaller share of its play still to make."""
        r = points["race"].get(f"{a},{b}")
        if r is not None:
            return r
        return 1.0 if a * v < b * u else 0.0

    n = limit
    value = [[0.0] * n for _ in range(n)]    # a deal's start: pone p, dealer q
    dshow = [[0.0] * n for _ in range(n)]    # the dealer to count hand and crib
    pshow = [[0.0] * n for _ in range(n)]    # the pone to count its hand
    for s in range(2 * n - 2, -1, -1):
        cells = [(p, s - p) for p in range(max(0, s - n + 1), min(n - 1, s) + 1)]
        for p, q in cells:
            v = 0.0
            for u, dv, w in play:
                pp, qq = p + u, q + dv
                if pp >= limit and qq >= limit:
                    r = race_share(limit - p, limit - q, u, dv)
                    v += w * (r * pay(q) - (1 - r) * pay(p))
                elif pp >= limit:
                    v += w * pay(min(qq, limit - 1))
                elif qq >= limit:
                    v += w * -pay(pp)
                else:
                    v += w * pshow[pp][qq]
            value[p][q] = v
        for p, q in cells:
            v = 0.0
            for x, w in dealer:
                v += w * (-pay(p) if q + x >= limit else -value[q + x][p])
            dshow[p][q] = v
        for p, q in cells:
            v = 0.0
            for y, w in pone:
                v += w * (pay(q) if p + y >= limit else dshow[p + y][q])
            pshow[p][q] = v
    return [[round(x, 4) for x in row] for row in value]


def rows(table: list[list[float]]) -> list[str]:
    """A table as one line of text a row (the file stays small and diffs cleanly)."""
    return [" ".join(f"{x:.4f}" for x in row) for row in table]


def build(blocks: int = BLOCKS) -> dict[str, object]:
    counts = [block(b) for b in range(blocks)]
    points = distributions(counts)
    out: dict[str, object] = {
        "about": "A deal's points (counts by blocks of deals) and the pone's equity from "
                 "every score; see scripts/build_crib_win_table.py",
        "block": BLOCK,
        "counts": counts,
    }
    for limit in LIMITS:
        for skunking in (False, True):
            out[f"{limit}{'s' if skunking else ''}"] = rows(equity(points, limit, skunking))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--blocks", type=int, default=BLOCKS, help=f"blocks of {BLOCK} deals")
    p.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = p.parse_args()
    return write_or_check(OUT, lambda: build(args.blocks), args.check)


if __name__ == "__main__":
    sys.exit(main())
