"""Build EXPERT's crib tables: the expected crib score given the two cards one player
lays away, written to port/cribbage/crib_tables.json.

    .venv/bin/python scripts/build_crib_tables.py [--samples 10000] [--check]

A crib is four cards from two players plus the starter. For the two cards one player
throws (keyed by ranks and whether they share a suit: "5J" off suit, "5Js" suited,
"55" a pair), the other player's two are its likely throw, not any two cards: a
random six-card hand from the other 50 cards, laid away by STANDARD's fixed formula
without the starter (the kept four's own points, the thrown two's crib guess added
when the crib is its own and taken off when it is not). The starter is every one of
the 44 cards left, so only the other hand is sampled. Two tables:

- ``dealer``: my crib; the other two come from the pone, who throws to hurt it least.
- ``pone``: the opponent's crib; the other two come from the dealer, who feeds it.

Each entry has its own generator seeded from its table and key, so the file is the
same on every machine and any one entry can be recomputed alone (tests do).
"""
from __future__ import annotations

import argparse
import random
import sys
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.table_files import write_or_check  # noqa: E402

from port.cribbage.computer import alone, crib_guess  # noqa: E402
from port.cribbage.rules import score_hand  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "port" / "cribbage" / "crib_tables.json"
RANKS = "A23456789TJQK"
SAMPLES = 10000
TABLES = ("dealer", "pone")

# The kept four's points by sorted ranks (fifteens, pairs, runs) and the thrown
# two's guess by ranks: looked up, not counted, for each of the 15 splits.
_FOUR = {rs: alone([r + 13 * i for i, r in enumerate(rs)]) for rs in
         {tuple(sorted(c)) for c in combinations(list(range(13)) * 4, 4)}}
_GUESS = {(a, b): crib_guess((a, b + 13)) for a in range(13) for b in range(13)}
_SPLITS = [(tuple(i for i in range(6) if i not in t), t) for t in combinations(range(6), 2)]


def keys() -> list[str]:
    """Every key: 13 pairs, then for each two ranks the off-suit and suited throws."""
    out = []
    for a in range(13):
        for b in range(a, 13):
            out.append(RANKS[a] + RANKS[b])
            if a != b:
                out.append(RANKS[a] + RANKS[b] + "s")
    return out


def cards_of_key(key: str) -> tuple[int, int]:
    """Two concrete cards for a key: spades, then hearts unless suited."""
    a, b = RANKS.index(key[0]), RANKS.index(key[1])
    return (a, b if key.endswith("s") else 13 + b)


def other_throw(six: list[int], own_crib: bool) -> tuple[int, int]:
    """STANDARD's formula without the starter: the split with the most kept points,
    plus (own crib) or minus (the opponent's) the thrown cards' guess."""
    sign = 1.0 if own_crib else -1.0
    best = -99.0
    throw = (six[0], six[1])
    for keep, t in _SPLITS:
        four = [six[i] for i in keep]
        v = _FOUR[tuple(sorted(c % 13 for c in four))]
        s0 = four[0] // 13
        if s0 == four[1] // 13 == four[2] // 13 == four[3] // 13:
            v += 4
        v += sign * _GUESS[(six[t[0]] % 13, six[t[1]] % 13)]
        if v > best:
            best = v
            throw = (six[t[0]], six[t[1]])
    return throw


def entry(table: str, key: str, samples: int = SAMPLES) -> float:
    """The expected crib score for one table and key, to 3 decimals."""
    mine = cards_of_key(key)
    rng = random.Random(f"{table}:{key}:{samples}")
    rest = [c for c in range(52) if c not in mine]
    # The other player's crib: ``dealer`` table, the pone throws to the opponent's crib.
    own = table == "pone"
    total = 0
    n = 0
    for _ in range(samples):
        six = rng.sample(rest, 6)
        t = other_throw(six, own)
        crib = (mine[0], mine[1], t[0], t[1])
        for s in rest:
            if s not in six:
                total += score_hand(crib, s, crib=True)
                n += 1
    return round(total / n, 3)


def build(samples: int = SAMPLES) -> dict[str, object]:
    tables: dict[str, object] = {
        "about": "Expected crib score given two thrown cards; see scripts/build_crib_tables.py",
        "samples": samples,
    }
    for table in TABLES:
        tables[table] = {k: entry(table, k, samples) for k in keys()}
    return tables


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--samples", type=int, default=SAMPLES)
    p.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = p.parse_args()
    return write_or_check(OUT, lambda: build(args.samples), args.check)


if __name__ == "__main__":
    sys.exit(main())
