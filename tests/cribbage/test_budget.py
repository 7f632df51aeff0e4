"""The cycle budget of Cribbage's ``score_hand``, in CPython bytecode instructions.

Counted, not timed: the same code on the same hands executes the same instructions on
every machine. The suite: 2,000 seeded random (hand, starter) pairs plus hands that take
every branch (flushes of four and five, in hand and crib, nobs, the 29 hand).
"""
from __future__ import annotations

import random
import statistics

from port.cards import CARDS, card, parse
from port.cribbage.rules import score_hand
from tests.opcount import count_instructions

MEDIAN = 40
MAXIMUM = 40

ADVERSARIAL = [
    ("5S 5H 5D JC", "5C", False),     # 29: the table's largest entry, and nobs
    ("2H 4H 6H JH", "KH", False),     # flush of five and nobs
    ("2H 4H 6H JH", "KS", False),     # flush of four
    ("2H 4H 6H JH", "KS", True),      # crib: flush of four not counted
    ("2H 4H 6H JH", "KH", True),      # crib: flush of five
    ("3S 3H 4D 4C", "5S", False),     # a double double run
    ("AS 2S 3S 4S", "5S", False),     # a run of five and a flush of five
]


def suite() -> list[tuple[list[int], int, bool]]:
    rng = random.Random(1993)
    out = []
    for i in range(2000):
        five = rng.sample(CARDS, 5)
        out.append((list(five[:4]), five[4], i % 4 == 0))
    return out + [(parse(h), card(s), crib) for h, s, crib in ADVERSARIAL]


def test_score_hand_median_and_maximum_within_budget() -> None:
    counts = [count_instructions(score_hand, h, s, crib)[0] for h, s, crib in suite()]
    assert statistics.median(counts) <= MEDIAN, statistics.median(counts)
    assert max(counts) <= MAXIMUM, max(counts)


def test_score_hand_count_is_deterministic() -> None:
    h, s, crib = suite()[-1]
    assert count_instructions(score_hand, h, s, crib) == count_instructions(score_hand, h, s, crib)
