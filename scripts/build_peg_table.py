"""Build EXPERT's pegging table: how much a kept four is worth in the play, written to
port/cribbage/peg_table.json.

    .venv/bin/python scripts/build_peg_table.py [--hands 400] [--check]

Suits never peg, so a kept four is its ranks ("5TJQ"). For each of the 1,820 rank
multisets and each role (``pone``: it leads; ``dealer``), the entry is the mean of
(its pegging - the opponent's) over the same ``--hands`` opponent fours, both seats
playing STANDARD's formula (port.cribbage.computer.choose_play) to the end of the
play, go points and the last card included. The opponent hands are common to every
entry (the first four cards of seeded shuffles, less the four kept), so the
differences between two keeps, which is all the discard uses, carry little noise.
"""
from __future__ import annotations

import argparse
import random
import sys
from itertools import combinations_with_replacement
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.table_files import write_or_check  # noqa: E402

from port.cribbage.computer import VALUE, choose_play  # noqa: E402
from port.cribbage.rules import peg_points  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "port" / "cribbage" / "peg_table.json"
RANKS = "A23456789TJQK"
HANDS = 400
ROLES = ("pone", "dealer")


def keys() -> list[str]:
    return ["".join(RANKS[r] for r in rs) for rs in combinations_with_replacement(range(13), 4)]


def play_out(hands: list[list[int]], first: int) -> tuple[int, int]:
    """The play of two hands of cards, as the engine plays it, both seats choosing by
    STANDARD's formula: each seat's points."""
    pts = [0, 0]
    count = 0
    cc: list[int] = []
    turn = first
    last: int | None = None
    out = [False, False]
    while hands[0] or hands[1]:
        legal = [c for c in hands[turn] if count + VALUE[c % 13] <= 31] if not out[turn] else []
        if legal:
            c = choose_play(legal, cc, count)
            hands[turn].remove(c)
            cc.append(c)
            count += VALUE[c % 13]
            pts[turn] += peg_points(cc)
            last = turn
            if count == 31:
                count, cc, out, turn, last = 0, [], [False, False], 1 - turn, None
            else:
                turn = 1 - turn
            continue
        out[turn] = True
        other = 1 - turn
        if not out[other] and any(count + VALUE[c % 13] <= 31 for c in hands[other]):
            turn = other
            continue
        assert last is not None
        pts[last] += 1                       # the go
        count, cc, out, turn, last = 0, [], [False, False], 1 - last, None
    if last is not None:
        pts[last] += 1                       # the last card
    return pts[0], pts[1]


def _cards_of(key: str) -> list[int]:
    """Four cards of the key's ranks, in different suits where ranks repeat."""
    cards = []
    for r in (RANKS.index(ch) for ch in key):
        suit = sum(1 for c in cards if c % 13 == r)
        cards.append(suit * 13 + r)
    return cards


def _opponents(hands: int) -> list[list[int]]:
    rng = random.Random("peg-table")
    out = []
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        out.append(deck)
    return out


def entry(key: str, decks: list[list[int]]) -> tuple[float, float]:
    """(as pone, as dealer): the mean pegging margin of the kept four ``key``."""
    mine = _cards_of(key)
    taken = set(mine)
    totals = [0, 0]
    for deck in decks:
        opp = [c for c in deck if c not in taken][:4]
        for role, first in ((0, 0), (1, 1)):      # seat 0 is mine; the pone leads
            a, b = play_out([list(mine), list(opp)], first)
            totals[role] += a - b
    return (round(totals[0] / len(decks), 3), round(totals[1] / len(decks), 3))


def build(hands: int = HANDS) -> dict[str, object]:
    decks = _opponents(hands)
    table: dict[str, dict[str, float]] = {role: {} for role in ROLES}
    for key in keys():
        pone, dealer = entry(key, decks)
        table["pone"][key] = pone
        table["dealer"][key] = dealer
    return {"about": "Mean pegging margin of a kept four; see scripts/build_peg_table.py",
            "hands": hands, **table}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=HANDS)
    p.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = p.parse_args()
    return write_or_check(OUT, lambda: build(args.hands), args.check)


if __name__ == "__main__":
    sys.exit(main())
