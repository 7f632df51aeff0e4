"""The count said aloud ("cribbage style"): the show and the pegging in the cadence of
running totals players use ("fifteen 2, fifteen 4, fifteen 6 and a pair is 8"), built
from the breakdowns of port/cribbage/rules/scoring.py and never adding a point of their
own; and every show's words fit the show box (docs/cribbage.md, "The show")."""
from __future__ import annotations

import random
from itertools import combinations_with_replacement

from port.cards import CARDS, card, parse
from port.cribbage.main.layout import HUMAN, SHOW
from port.cribbage.main.table import SHOW_COLUMNS, show_lines
from port.cribbage.rules import ShowEntry, hand_breakdown, peg_breakdown, peg_points, score_hand
from port.cribbage.rules.scoring import aloud, peg_phrases, show_phrases


def said(hand: str, starter: str, crib: bool = False) -> str:
    return " ".join(aloud(show_phrases(hand_breakdown(parse(hand), card(starter), crib))))


def pegged(count: str) -> str:
    return " ".join(aloud(peg_phrases(peg_breakdown(parse(count)))))


# ---- the show ---------------------------------------------------------------------------

def test_the_documentations_example_8_7_7_6_2_is_said_as_16() -> None:
    # "For four combinations that total FIFTEEN ... 8 points ... 2 for the PAIR of 7s,
    # and 6 points for the two RUNS of three": the pair and the runs are one double run.
    assert said("8S 7H 7D 6C", "2S") == "fifteen 2, fifteen 4, fifteen 6, fifteen 8 and a double run of three is 16."


def test_fifteens_and_a_pair_count_up_in_running_totals() -> None:
    assert said("6S 6H 9D KC", "3S") == "fifteen 2, fifteen 4, fifteen 6 and a pair is 8."


def test_a_run_alone_and_a_run_beside_a_pair_of_other_cards() -> None:
    assert said("9S TH JD 2C", "AS") == "a run of three is 3."
    assert said("KS KH 3D 4C", "5S") == "fifteen 2, fifteen 4, a pair is 6 and a run of three is 9."


def test_double_triple_and_double_double_runs_take_their_pairs_with_them() -> None:
    assert said("3S 3H 4D 5C", "KS") == "fifteen 2, fifteen 4 and a double run of three is 12."
    assert said("3S 4H 5D 6C", "6S") == "fifteen 2, fifteen 4, fifteen 6 and a double run of four is 16."
    assert said("4S 5H 6D 6C", "6S") == "fifteen 2, fifteen 4, fifteen 6 and a triple run is 21."
    assert said("3S 3H 4D 4C", "5S") == "fifteen 2, fifteen 4 and a double double run is 20."


def test_the_29_hand_four_of_a_kind_and_his_nobs() -> None:
    fifteens = ", ".join(f"fifteen {n}" for n in range(2, 17, 2))
    assert said("5S 5H 5D JC", "5C") == f"{fifteens}, four of a kind is 28 and his nobs is 29."
    assert said("9S 9H 9D KC", "AS") == "three of a kind is 6."


def test_a_flush_of_four_in_the_hand_of_five_in_the_crib() -> None:
    assert said("2H 4H 6H 9H", "KS") == "fifteen 2, fifteen 4 and a flush of four is 8."
    assert said("2H 4H 6H 8H", "KH", crib=True) == "a flush of five is 5."
    assert said("2H 4H 6H 8H", "KS", crib=True) == ""          # a crib's four: nothing


def test_his_nobs_is_the_jack_of_the_starters_suit_in_hand() -> None:
    assert said("JH 2S 4D 6C", "9H") == "fifteen 2, fifteen 4 and his nobs is 5."


def test_the_phrases_are_the_breakdown_said_otherwise_never_more_or_less() -> None:
    """On random hands: the phrases' points add up to the hand's score, each running
    total is the last plus its points, and every card a combination names is named."""
    rng = random.Random(11)
    for _ in range(3000):
        five = rng.sample(CARDS, 5)
        crib = rng.random() < 0.3
        parts = hand_breakdown(five[:4], five[4], crib)
        phrases = show_phrases(parts)
        total = 0
        for p in phrases:
            total += p.points
            assert p.total == total and p.words.endswith(str(total))
        assert total == score_hand(five[:4], five[4], crib)
        assert {c for s in parts for c in s.cards} == {c for p in phrases for c in p.cards}


# ---- the pegging ------------------------------------------------------------------------

def test_one_pegging_combination_is_called_as_it_is() -> None:
    assert pegged("7S 8H") == "fifteen for 2."
    assert pegged("KS QH 8D 3C") == "thirty-one for 2."
    assert pegged("9S 9H 9D") == "three of a kind for 6."
    assert pegged("5S 2H 4D 3C") == "a run of four for 4."


def test_two_pegging_combinations_count_up() -> None:
    assert pegged("4S 6H 5D") == "fifteen 2 and a run of three is 5."
    assert pegged("KS 9H 5D 4C 3S") == "thirty-one 2 and a run of three is 5."
    assert pegged("5S 5H 5D") == "fifteen 2 and three of a kind is 8."


def test_pegging_words_add_up_to_the_points_pegged() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randint(1, 6)
        cards = rng.sample(CARDS, n)
        if sum(c.value for c in cards) > 31:
            continue
        phrases = peg_phrases(peg_breakdown(cards))
        assert sum(p.points for p in phrases) == peg_points(cards)


# ---- the words fit the box ------------------------------------------------------------

def _entries():
    """A hand for every multiset of five ranks (suits dealt round), and each with a
    flush of five, a flush of four and nobs where the ranks allow."""
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        seen: dict[int, int] = {}
        five = []
        for r in ranks:
            five.append(CARDS[seen.get(r, 0) * 13 + r])
            seen[r] = seen.get(r, 0) + 1
        yield five
        if len(set(ranks)) == 5:
            yield [CARDS[13 + r] for r in ranks]                       # a flush of five
            yield [CARDS[13 + r] for r in ranks[:4]] + [CARDS[ranks[4]]]
        if 10 in ranks:                                                  # his nobs
            jack = next(c for c in five if c.rank == 10)
            others = [c for c in five if c is not jack]
            for c in others:
                starter = CARDS[jack.suit * 13 + c.rank]
                if starter not in five:
                    yield [jack] + [o for o in others if o is not c] + [starter]
                    break


def test_every_show_fits_the_show_box() -> None:
    """Every line within the box's width in the 8x8 font, and no more lines than the box
    holds above its bottom line (PAUSE's, or LAST COUNT's), on every profile alike: the
    logical width is every profile's, and each line takes 14 logical rows, 8 pixels on
    CGA's 200 lines."""
    assert SHOW_COLUMNS * 8 + 24 <= SHOW.w
    rows = (SHOW.h - 12 - 112) // 14              # lines start 112 below the box's top
    longest = 0
    for five in _entries():
        for crib in (False, True):
            parts = tuple(hand_breakdown(five[:4], five[4], crib))
            entry = ShowEntry(HUMAN, "crib" if crib else "hand", tuple(five[:4]), five[4], parts,
                              parts[-1].total if parts else 0)
            lines = show_lines(entry)
            longest = max(longest, *(len(line) for line in lines))
            assert all(len(line) <= SHOW_COLUMNS for line in lines), lines
            assert len(lines) <= rows, lines
    assert longest > 40                             # the widest really is near the edge


def test_a_show_reads_down_as_the_sentence_with_its_cards() -> None:
    parts = tuple(hand_breakdown(parse("8S 7H 7D 6C"), card("2S")))
    entry = ShowEntry(HUMAN, "hand", tuple(parse("8S 7H 7D 6C")), card("2S"), parts, 16)
    column = len("AND A DOUBLE RUN OF THREE IS 16.") + 2     # the cards in one column
    assert show_lines(entry) == [
        f"{'FIFTEEN 2,':<{column}}8S 7H",
        f"{'FIFTEEN 4,':<{column}}8S 7D",
        f"{'FIFTEEN 6,':<{column}}7H 6C 2S",
        f"{'FIFTEEN 8':<{column}}7D 6C 2S",
        "AND A DOUBLE RUN OF THREE IS 16.  6C 7H 7D 8S",
        "TOTAL 16.",
    ]
