"""Cribbage's scoring: the show and the pegging, each rule of the documentation by
name, the documentation's worked example, tricky cases, and property tests of the fast
path against the brute-force reference in tests/cribbage/brute.py."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from port.cards import CARDS, Card, card, parse
from port.cribbage.rules import hand_breakdown, peg_breakdown, peg_points, score_hand
from tests.cribbage.brute import count_value, in_sequence, ref_peg_points, ref_score_hand


def show(hand: str, starter: str, crib: bool = False) -> int:
    return score_hand(parse(hand), card(starter), crib)


def words(hand: str, starter: str, crib: bool = False) -> list[str]:
    return [s.words for s in hand_breakdown(parse(hand), card(starter), crib)]


def peg(played: str) -> int:
    return peg_points(parse(played))


# ---- the show, rule by rule -----------------------------------------------------------

def test_show_fifteen_two_for_each_combination_totalling_15() -> None:
    assert show("KS 5H 2D 9C", "AS") == 2 + 2           # K+5, and 5+9+A
    assert show("5S 5H 5D JC", "5C") == 29               # the best hand: 16 for fifteens


def test_show_fifteen_counts_all_five_cards() -> None:
    # Version 1.7: "fixed a bug that did not count all five cards for fifteen".
    assert show("AS 2H 3D 4C", "5S") == 2 + 5            # A+2+3+4+5 = 15, and the run of five


def test_show_pair_two_for_each_pair() -> None:
    assert show("9S 9H KD 3C", "AS") == 2
    assert show("9S 9H 9D 3C", "AS") == 6                # three of a kind: three pairs
    assert show("9S 9H 9D 9C", "AS") == 12               # four of a kind: six pairs


def test_show_run_one_a_card_for_each_combination_in_sequence() -> None:
    assert show("9S TH JD 2C", "AS") == 3
    assert show("9S TH JD QC", "AS") == 4


def test_show_double_runs_count_twice() -> None:
    assert words("8S 7H 7D 6C", "2S")[-2:] == ["a run of three is 13", "a run of three is 16"]
    assert show("3S 3H 4D 5C", "KS") == 2 + 2 + 2 + 3 + 3  # 5+K, 3+3+4+5, the pair, two runs
    assert [s.kind for s in hand_breakdown(parse("3S 3H 4D 5C"), card("KS"))].count("run") == 2


def test_show_flush_four_in_the_hand() -> None:
    assert show("2H 4H 6H 8H", "KS") == 4
    assert words("2H 4H 6H 8H", "KS") == ["a flush of four is 4"]


def test_show_flush_five_when_the_starter_matches() -> None:
    assert words("2H 4H 6H 8H", "KH") == ["a flush of five is 5"]


def test_show_crib_flush_of_four_is_not_counted() -> None:
    assert show("2H 4H 6H 8H", "KS", crib=True) == show("2H 4H 6H 8H", "KS") - 4
    assert not any(s.kind == "flush" for s in hand_breakdown(parse("2H 4H 6H 8H"), card("KS"), crib=True))


def test_show_crib_flush_of_five_counts() -> None:
    assert show("2H 4H 6H 8H", "KH", crib=True) == show("2H 4H 6H 8H", "KH")
    assert words("2H 4H 6H 8H", "KH", crib=True) == ["a flush of five is 5"]


def test_show_flush_needs_the_four_hand_cards() -> None:
    # Three hand cards and the starter of one suit are no flush.
    assert show("2H 4H 6H 8S", "KH") == 0


def test_show_nobs_jack_of_the_starters_suit() -> None:
    assert show("JH 2S 4D 6C", "9H") == 2 + 2 + 1        # 6+9, 2+4+9, nobs
    assert show("JH 2S 4D 6C", "9S") == 2 + 2            # a jack of another suit: no nobs
    assert words("JH 2S 4D 6C", "9H")[-1] == "nobs is 5"


def test_show_a_jack_starter_is_not_nobs() -> None:
    # The starter jack is heels (pegged by the dealer at the cut), never nobs.
    assert show("2S 4D 6C 8H", "JH") == show("2S 4D 6C 8H", "QH")


# ---- the documentation's example and its words ---------------------------------------

def test_show_documentation_example_8_7_7_6_2_scores_16() -> None:
    assert show("8S 7H 7D 6C", "2S") == 16
    assert words("8S 7H 7D 6C", "2S") == [
        "fifteen 2", "fifteen 4", "fifteen 6", "fifteen 8",
        "a pair is 10", "a run of three is 13", "a run of three is 16",
    ]
    kinds = [(s.kind, s.points) for s in hand_breakdown(parse("8S 7H 7D 6C"), card("2S"))]
    assert kinds == [("fifteen", 2)] * 4 + [("pair", 2), ("run", 3), ("run", 3)]


def test_show_breakdown_cadence_ends_with_nobs() -> None:
    # The usual cadence: "fifteen 2, fifteen 4, a pair is 6, a run of three is 9, nobs is 10".
    assert words("5S 5H JD 4C", "6D") == [
        "fifteen 2", "fifteen 4", "fifteen 6", "fifteen 8",  # 5+J twice, 5+4+6 twice
        "a pair is 10", "a run of three is 13", "a run of three is 16", "nobs is 17",
    ]


def test_show_best_hand_29() -> None:
    assert show("5S 5H 5D JC", "5C") == 29
    assert words("5S 5H 5D JC", "5C")[-1] == "nobs is 29"


def test_show_breakdown_total_equals_score_on_every_sample() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        five = rng.sample(CARDS, 5)
        for crib in (False, True):
            parts = hand_breakdown(five[:4], five[4], crib)
            total = parts[-1].total if parts else 0
            assert total == sum(p.points for p in parts) == score_hand(five[:4], five[4], crib)


def test_show_breakdown_names_every_combination_once_in_the_usual_order() -> None:
    # Each fifteen and pair is a subset of the five cards, in the order they are
    # counted (by size, then as dealt: the hand's four, then the starter); the runs
    # are the longest sequences, each once.
    rng = random.Random(11)
    for _ in range(3000):
        five = rng.sample(CARDS, 5)
        parts = hand_breakdown(five[:4], five[4])
        subsets = [s for k in range(2, 6) for s in combinations(five, k)]
        assert [p.cards for p in parts if p.kind == "fifteen"] == \
            [s for s in subsets if sum(count_value(c) for c in s) == 15]
        assert [p.cards for p in parts if p.kind == "pair"] == \
            [s for s in subsets if len(s) == 2 and s[0].rank == s[1].rank]
        runs = [s for s in subsets if len(s) >= 3 and in_sequence(s)]
        longest = max((len(s) for s in runs), default=0)
        assert [p.cards for p in parts if p.kind == "run"] == \
            [tuple(sorted(s, key=lambda c: c.rank)) for s in runs if len(s) == longest]


def test_show_rejects_a_repeated_card_in_breakdown() -> None:
    with pytest.raises(ValueError):
        hand_breakdown(parse("AS AS 2S 3S"), card("4S"))


# ---- the play, rule by rule -----------------------------------------------------------

def test_peg_fifteen_for_2() -> None:
    assert peg("7S 8H") == 2
    assert [s.words for s in peg_breakdown(parse("7S 8H"))] == ["fifteen for 2"]


def test_peg_thirty_one_for_2() -> None:
    assert peg("KS QH 8D 3C") == 2
    assert [s.words for s in peg_breakdown(parse("KS QH 8D 3C"))] == ["thirty-one for 2"]


def test_peg_pair_2() -> None:
    assert peg("9S 9H") == 2


def test_peg_triplet_6() -> None:
    assert peg("9S 9H 9D") == 6
    assert peg_breakdown(parse("9S 9H 9D"))[0].words == "three of a kind for 6"


def test_peg_four_12() -> None:
    assert peg("2S 2H 2D 2C") == 12
    assert peg("7S 7H 7D 7C") == 12                      # count 28


def test_peg_pair_needs_consecutive_cards() -> None:
    assert peg("9S 4H 9D") == 0


def test_peg_run_in_any_order() -> None:
    assert peg("3S 4H 5D") == 3
    assert peg("3S 5H 4D") == 3
    assert peg("5S 2H 4D 3C") == 4
    assert [s.words for s in peg_breakdown(parse("5S 2H 4D 3C"))] == ["a run of four for 4"]


def test_peg_run_broken_by_a_pair() -> None:
    assert peg("3S 4H 4D 5C") == 0
    assert peg("3S 4H 5D 5C") == 2                       # the pair only


def test_peg_run_broken_by_an_off_card() -> None:
    assert peg("3S 4H KD 5C") == 0
    assert peg("3S 4H 9D 2C") == 0


def test_peg_run_counts_the_longest_tail() -> None:
    assert peg("KS 3S 4H 2D") == 3                       # 3-4-2 after a king
    assert peg("AS 2H 3D 4C 5S 6H 7D") == 7              # seven, count 28


def test_peg_run_with_thirty_one() -> None:
    # 10+10+2+... a run ending on exactly 31: 31 for 2 and the run.
    assert peg("KS 9H 5D 4C 3S") == 2 + 3
    parts = peg_breakdown(parse("KS 9H 5D 4C 3S"))
    assert [p.kind for p in parts] == ["thirty-one", "run"] and parts[-1].total == 5


def test_peg_fifteen_with_a_run() -> None:
    assert peg("4S 6H 5D") == 2 + 3


def test_peg_go_is_not_a_combination() -> None:
    assert peg("KS QH 9D") == 0                          # 29: the go is the state machine's


# ---- property tests against the brute-force reference ----------------------------------

def test_show_matches_reference_on_20000_random_hands() -> None:
    rng = random.Random(2026)
    for _ in range(20000):
        five = rng.sample(CARDS, 5)
        crib = rng.random() < 0.5
        assert score_hand(five[:4], five[4], crib) == ref_score_hand(five[:4], five[4], crib), five


def test_show_matches_reference_on_rank_heavy_hands() -> None:
    # Hands drawn from few ranks and one suit: many pairs, runs, flushes and nobs.
    rng = random.Random(5)
    pool = [c for c in CARDS if 2 <= c.rank <= 10]
    for _ in range(3000):
        five = rng.sample(pool, 5)
        for crib in (False, True):
            assert score_hand(five[:4], five[4], crib) == ref_score_hand(five[:4], five[4], crib), five
    for suit in range(4):
        hearts = [c for c in CARDS if c.suit == suit]
        for _ in range(200):
            five = rng.sample(hearts, 5)
            other = rng.choice([c for c in CARDS if c.suit != suit])
            for starter in (five[4], other):
                for crib in (False, True):
                    assert score_hand(five[:4], starter, crib) == ref_score_hand(five[:4], starter, crib)


def _random_count(rng: random.Random, pool: list[Card]) -> list[Card]:
    """Cards played in one count: each keeps the count at most 31."""
    cards = rng.sample(pool, len(pool))
    out: list[Card] = []
    total = 0
    for c in cards:
        v = min(c.rank + 1, 10)
        if total + v <= 31:
            out.append(c)
            total += v
        if len(out) == 8:
            break
    return out


def test_peg_matches_reference_on_random_counts() -> None:
    rng = random.Random(31)
    low = [c for c in CARDS if c.rank <= 7]
    for i in range(8000):
        played = _random_count(rng, low if i % 2 else list(CARDS))
        for k in range(1, len(played) + 1):
            assert peg_points(played[:k]) == ref_peg_points(played[:k]), played[:k]
            parts = peg_breakdown(played[:k])
            assert (parts[-1].total if parts else 0) == peg_points(played[:k])


def test_score_hand_takes_lists_tuples_and_plain_ints() -> None:
    h = parse("8S 7H 7D 6C")
    s = card("2S")
    assert score_hand(h, s) == score_hand(tuple(h), s) == score_hand([int(c) for c in h], int(s)) == 16
