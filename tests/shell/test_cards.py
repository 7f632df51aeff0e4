"""The Cards unit: text form, masks, the deck and Turbo Pascal's generator."""
from __future__ import annotations

import pytest

from port.cards import (
    CARDS, Card, PascalRandom, card, cards_of, deck, hand, mask, parse, shuffled_deck, shuffled_top, text,
)


def test_deck_has_52_cards_ranked_ace_low_to_king() -> None:
    d = deck()
    assert len(d) == len(set(d)) == 52
    assert [str(c) for c in d[:13]] == "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS".split()


def test_card_values_face_cards_ten_ace_one_others_their_pips() -> None:
    assert [c.value for c in parse("AS 2H 9D TC JS QH KD")] == [1, 2, 9, 10, 10, 10, 10]


def test_parse_is_case_insensitive_and_round_trips() -> None:
    assert text(parse("AS TD kh, 9c")) == "AS TD KH 9C"
    for c in CARDS:
        assert card(str(c)) == c and eval(repr(c), {"card": card}) == c


def test_parse_error_names_the_bad_token() -> None:
    with pytest.raises(ValueError, match="'10H' is not a card"):
        parse("AS 10H")
    with pytest.raises(ValueError, match="'XS'"):
        parse("XS")


def test_masks_round_trip_and_keep_suits_apart() -> None:
    m = hand("AS KS AH KC")
    assert text(cards_of(m)) == "AS KS AH KC"
    assert mask(parse("KS")) == 1 << 12 and mask(parse("AH")) == 1 << 16
    with pytest.raises(ValueError, match="twice"):
        hand("AS AS")


def test_pascal_random_is_turbo_pascals_generator() -> None:
    # RandSeed := 0; Random(100) ten times, as Turbo Pascal 7 and Delphi give it.
    r = PascalRandom(0)
    assert [r.below(100) for _ in range(5)] == [0, 3, 86, 20, 27]


def test_shuffle_is_a_permutation_and_depends_only_on_the_seed() -> None:
    a, b, c = shuffled_deck(PascalRandom(42)), shuffled_deck(PascalRandom(42)), shuffled_deck(PascalRandom(43))
    assert a == b != c
    assert sorted(a) == deck()


def test_shuffle_with_pascal_random_written_out_is_the_one_by_its_calls() -> None:
    class Counted(PascalRandom):          # not PascalRandom itself: below() called each time
        pass

    for seed in (0, 1, 42, 2 ** 32 - 1):
        fast, slow = PascalRandom(seed), Counted(seed)
        assert shuffled_deck(fast) == shuffled_deck(slow) and fast.seed == slow.seed
        assert fast.below(1000) == slow.below(1000)       # the generator left where the calls leave it


def test_the_top_of_a_shuffle_is_the_whole_shuffles_top_and_leaves_the_generator_alike() -> None:
    for seed in (0, 7, 2 ** 31, 2 ** 32 - 1):
        for k in (1, 2, 5, 51):
            whole, top = PascalRandom(seed), PascalRandom(seed)
            assert shuffled_top(top, k) == shuffled_deck(whole)[-k:]
            assert top.seed == whole.seed


@pytest.mark.parametrize("value, error", [(52, ValueError), (-1, ValueError), (3.0, TypeError),
                                          (True, TypeError), ("AS", TypeError)])
def test_there_is_no_card_outside_0_to_51(value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="card"):
        Card(value)  # type: ignore[arg-type]


def test_a_card_from_an_int_is_the_card_made_once() -> None:
    assert Card(12) is CARDS[12] and str(Card(Card(12))) == "KS"
