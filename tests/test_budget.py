"""The cycle budget of the deadwood minimiser, in CPython bytecode instructions.

Counted, not timed: the same code on the same hands executes the same instructions
on every machine. docs/engine.md turns the budget into 8 MHz AT terms.
"""
from __future__ import annotations

import statistics

from port.rules.melds import best_discards_mask, deadwood_mask
from tests.budget_suite import suite_10, suite_11
from tests.opcount import count_instructions

MEDIAN_10 = 150
MAX_10 = 3_000
MAX_11 = 30_000


def test_ten_card_deadwood_median_and_maximum_within_budget() -> None:
    counts = [count_instructions(deadwood_mask, h)[0] for h in suite_10()]
    assert statistics.median(counts) <= MEDIAN_10, statistics.median(counts)
    assert max(counts) <= MAX_10, max(counts)


def test_eleven_card_best_discards_within_budget() -> None:
    counts = [count_instructions(best_discards_mask, h)[0] for h in suite_11()]
    assert max(counts) <= MAX_11, max(counts)


def test_count_is_deterministic() -> None:
    h = suite_10()[-8]
    assert count_instructions(deadwood_mask, h) == count_instructions(deadwood_mask, h)
