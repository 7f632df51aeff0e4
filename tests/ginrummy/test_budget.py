"""The cycle budget of the deadwood minimiser, in CPython bytecode instructions.

Counted, not timed: the same code on the same hands executes the same instructions
on every machine. docs/engine.md turns the budget into 8 MHz AT terms.
"""
from __future__ import annotations

import statistics

from port.cards import cards_of
from port.ginrummy.rules.melds import best_discards, best_discards_mask, deadwood, deadwood_mask
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.settle import settle_out_mask
from tests.ginrummy.budget_suite import suite_10, suite_11, suite_knocks
from tests.opcount import count_instructions

MEDIAN_10 = 150
MAX_10 = 3_000
MAX_11 = 30_000
MEDIAN_11 = 200   # 11 cards from a list, the discards returned as cards
# Settling a knock with the knocker's melds at their best (every arrangement within
# the knock value against the defender's best layoffs): measured median 7,674 and
# maximum 24,071 on suite_knocks (docs/engine.md, "The knocker's melds at their best").
MEDIAN_SETTLE = 10_000
MAX_SETTLE = 40_000


def test_ten_card_deadwood_median_and_maximum_within_budget() -> None:
    counts = [count_instructions(deadwood_mask, h)[0] for h in suite_10()]
    assert statistics.median(counts) <= MEDIAN_10, statistics.median(counts)
    assert max(counts) <= MAX_10, max(counts)


def test_ten_card_deadwood_from_a_card_list_within_budget() -> None:
    # What bot authors call: the list-to-mask step is counted too (it runs in C,
    # one instruction, which is the point of it).
    lists = [[int(c) for c in cards_of(h)] for h in suite_10()]
    counts = [count_instructions(deadwood, cs)[0] for cs in lists]
    assert statistics.median(counts) <= MEDIAN_10, statistics.median(counts)
    assert max(counts) <= MAX_10, max(counts)


def test_eleven_card_best_discards_from_a_card_list_within_budget() -> None:
    lists = [[int(c) for c in cards_of(h)] for h in suite_11()]
    counts = [count_instructions(best_discards, cs)[0] for cs in lists]
    assert statistics.median(counts) <= MEDIAN_11, statistics.median(counts)
    assert max(counts) <= MAX_11, max(counts)


def test_eleven_card_best_discards_within_budget() -> None:
    counts = [count_instructions(best_discards_mask, h)[0] for h in suite_11()]
    assert max(counts) <= MAX_11, max(counts)


def test_count_is_deterministic() -> None:
    h = suite_10()[-8]
    assert count_instructions(deadwood_mask, h) == count_instructions(deadwood_mask, h)


def test_settling_a_knock_within_budget() -> None:
    counts = [count_instructions(settle_out_mask, 0, (k, d), Options(), None)[0] for k, d in suite_knocks()]
    assert statistics.median(counts) <= MEDIAN_SETTLE, statistics.median(counts)
    assert max(counts) <= MAX_SETTLE, max(counts)
