"""Cribbage's deal and game state machine: each rule of the documentation by name, the
illegal actions (which change nothing), seeded deals, and the non-cheating views."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from port.cards import CARDS, Card, PascalRandom, card, parse, shuffled_deck
from port.cribbage.rules import (
    Act, GameState, HandState, IllegalMove, Options, Phase, Player, View, cut_for_deal,
    play_game, play_hand,
)

# Seat 1 deals in these scenarios, so seat 0 (the non-dealer) leads.
DEALER = 1


def kept_deal(lead: str, dealer: str, starter: str, crib0: str = "", crib1: str = "",
              scores: tuple[int, int] = (0, 0), limit: int = 121) -> HandState:
    """A deal where seat 0 keeps ``lead`` and seat 1 (the dealer) keeps ``dealer``;
    the crib cards default to low cards nobody plays."""
    crib0 = crib0 or _spare(lead, dealer, starter, crib1, 0)
    crib1 = crib1 or _spare(lead, dealer, starter, crib0, 1)
    h = HandState.from_cards(DEALER, parse(lead + " " + crib0), parse(dealer + " " + crib1),
                             card(starter), scores, Options(limit))
    h.discard(0, parse(crib0))
    h.discard(1, parse(crib1))
    return h


def _spare(a: str, b: str, s: str, other: str, which: int) -> str:
    used = set(parse(" ".join([a, b, s, other])))
    # Crib cards nobody plays: picture cards first, then anything left.
    pool = [c for c in parse("KC KH QC QH KD QD KS QS") + list(CARDS) if c not in used]
    return " ".join(str(c) for c in pool[2 * which:2 * which + 2])


def snapshot(h: HandState) -> tuple:
    return tuple(repr(getattr(h, name)) for name in HandState.__slots__)


def play(h: HandState, *moves: str) -> None:
    """Moves by the seat to act: a card, or "go"."""
    for m in moves:
        seat = h.to_act
        assert seat is not None, f"nobody to act before {m}"
        if m == "go":
            h.go(seat)
        else:
            h.play(seat, card(m))


# ---- the deal ---------------------------------------------------------------------

def test_deal_six_cards_each_one_at_a_time_non_dealer_first() -> None:
    deck = list(CARDS)
    h = HandState(0, deck)
    assert h.hands[1] == [deck[51], deck[49], deck[47], deck[45], deck[43], deck[41]]
    assert h.hands[0] == [deck[50], deck[48], deck[46], deck[44], deck[42], deck[40]]
    assert h.phase is Phase.DISCARD and h.starter is None


def test_a_seeded_deal_is_the_deal_of_the_whole_shuffled_deck_stock_and_generator_too() -> None:
    # HandState.deal shuffles the 13 cards it deals and cuts at once, the stock's other
    # cards when the stock is first read: the same cards in the same places either way.
    for seed in range(0, 4_000_000_000, 97_000_001):
        for dealer in (0, 1):
            whole_rng, rng = PascalRandom(seed), PascalRandom(seed)
            whole, h = HandState(dealer, shuffled_deck(whole_rng)), HandState.deal(dealer, rng)
            assert rng.seed == whole_rng.seed and h.hands == whole.hands
            if seed % 2:                      # read before the cut, or only after it
                assert h.copy().stock == whole.stock and h.stock == whole.stock
            for s in (0, 1):
                h.discard(s, h.hands[s][:2])
                whole.discard(s, whole.hands[s][:2])
            copied = h.copy()
            assert h.starter == whole.starter and h.stock == whole.stock == copied.stock


def test_deal_each_lays_away_two_to_the_dealers_crib_in_any_order() -> None:
    h = HandState.from_cards(DEALER, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), card("9C"))
    h.discard(1, parse("AH 2H"))          # the dealer first: any order
    assert h.phase is Phase.DISCARD and h.starter is None
    h.discard(0, parse("5S 6S"))
    assert h.crib == tuple(parse("5S 6S AH 2H"))
    assert h.kept == [tuple(parse("AS 2S 3S 4S")), tuple(parse("3H 4H 5H 6H"))]


def test_deal_starter_is_cut_after_both_discards() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "9C")
    assert h.starter == card("9C") and h.phase is Phase.PLAY
    assert [e.act for e in h.events] == [Act.DISCARD, Act.DISCARD, Act.STARTER]


def test_heels_jack_starter_pegs_the_dealer_2() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "JC")
    assert h.scores == (0, 2) and h.heels == [0, 2]
    assert h.events[-1].words == "his heels for 2"


def test_heels_can_win_the_game_on_the_spot() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "JC", scores=(100, 120))
    assert h.winner == 1 and h.phase is Phase.DONE and h.scores == (100, 121)
    with pytest.raises(IllegalMove, match="game is over"):
        h.play(0, card("AS"))


# ---- the play -------------------------------------------------------------------------

def test_play_non_dealer_leads_and_seats_alternate() -> None:
    h = kept_deal("AS 2S 3S 4S", "6H 7H 8H 9H", "KD")
    assert h.to_act == 0
    play(h, "AS")
    assert h.to_act == 1
    play(h, "6H")
    assert h.to_act == 0 and h.count == 7


def test_play_count_never_exceeds_31() -> None:
    h = kept_deal("TS JS QS 9D", "TH JH QH 2C", "AD")
    play(h, "TS", "TH", "9D")                 # 29
    with pytest.raises(IllegalMove, match="past 31"):
        h.play(1, card("JH"))


def test_play_go_the_other_plays_on_then_pegs_1() -> None:
    h = kept_deal("TS 9S 5H 4C", "TD 8D 7H 6C", "KC")
    play(h, "TS", "TD", "9S")                 # 29; the dealer's pair of tens pegged 2
    assert h.to_act == 1 and h.legal_plays(1) == []
    play(h, "go")
    # Seat 0 cannot play either (5 and 4 pass 31): the count ends, 1 for the go.
    ev = h.events[-1]
    assert (ev.act, ev.seat, ev.points, ev.words) == (Act.GO_POINT, 0, 1, "go for 1")
    assert h.count == 0 and h.scores == (1, 2)


def test_play_player_who_said_go_starts_the_next_round_from_zero() -> None:
    h = kept_deal("TS 9S 5H 4C", "TD 8D 7H 6C", "KC")
    play(h, "TS", "TD", "9S", "go")
    assert h.to_act == 1 and h.count == 0 and h.count_cards == [] and h.said_go == [False, False]


def test_play_exactly_31_pegs_2_in_all_not_2_plus_1() -> None:
    h = kept_deal("TS 9S 2H 4C", "TD 8D 7H 6C", "KC")
    play(h, "TS", "TD", "9S", "go", "2H")     # seat 0 plays on to exactly 31
    assert [(e.act, e.seat, e.points) for e in h.events[-2:]] == [(Act.GO, 1, 0), (Act.PLAY, 0, 2)]
    assert h.scores == (2, 2)                 # 2 for the 31, no go point on top
    assert not any(e.act is Act.GO_POINT for e in h.events)
    assert h.to_act == 1 and h.count == 0     # who said GO leads


def test_play_31_without_a_go_next_count_led_by_the_other_seat() -> None:
    h = kept_deal("TS 9S AH 4C", "TD 2D 7H 6C", "KC")
    play(h, "TS", "TD", "9S", "2D")           # the dealer makes 31 without a go
    assert h.scores == (0, 4) and h.to_act == 0 and h.count == 0


def test_play_go_after_go_each_count_ends_with_its_own_go_point() -> None:
    # Two counts, each closed by a GO.
    h = kept_deal("KS QS 9H 8H", "KD QD 9C 8C", "2S")
    play(h, "KS", "KD")                       # 20, pair: dealer 2
    play(h, "9H")                             # 29
    play(h, "go")                             # the dealer cannot play (9 or 8, Q)
    assert h.events[-1].act is Act.GO_POINT and h.events[-1].seat == 0   # seat 0 cannot play on
    assert h.to_act == 1
    play(h, "QD", "QS", "9C")                 # 10, 20 (pair: seat 0 2), 29
    play(h, "go")                             # seat 0 holds 8H only: 37
    assert h.events[-1].act is Act.GO_POINT and h.events[-1].seat == 1
    assert h.to_act == 0                      # seat 0 said GO: it leads
    play(h, "8H", "8C")                       # 16, pair 2; the last card 1
    assert h.phase is Phase.SHOW
    assert h.pegging == [1 + 2, 2 + 1 + 2 + 1]


def test_play_a_seat_out_of_cards_is_skipped_and_the_other_plays_on() -> None:
    h = kept_deal("TS 9S 5H 4C", "TD 8D 7H 6C", "KC")
    play(h, "TS", "TD", "9S", "go")           # seat 0: go for 1
    play(h, "8D", "5H", "7H", "4C")           # seat 0 is out of cards
    assert h.to_act == 1
    play(h, "6C")                             # 30: 4-5-6-7-8 in any order, a run of five
    assert h.events[-2].words == "a run of five for 5"
    assert h.events[-1].words == "last card for 1"
    assert h.pegging == [1, 2 + 5 + 1] and h.phase is Phase.SHOW


def test_play_last_card_pegs_1_and_31_on_the_last_card_pegs_2() -> None:
    h = kept_deal("TS 9S 2H 4C", "TD 8D 7H 6C", "KC")
    play(h, "TS", "TD", "9S", "go", "2H")     # seat 0: 31
    play(h, "8D", "4C", "7H", "6C")           # 8, 12, 19, 25: the dealer plays the last card
    assert h.events[-1].words == "last card for 1" and h.events[-1].seat == 1
    assert h.phase is Phase.SHOW


def test_play_ends_when_both_have_played_all_their_cards() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    play(h, "AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H")
    assert h.phase is Phase.SHOW and h.to_act is None and len(h.played) == 8


def test_play_pegs_combinations_of_the_count() -> None:
    h = kept_deal("7S 8S 3S 4S", "8H 7H 3H 4H", "KD")
    assert h.play(0, card("7S")) == 0
    assert h.play(1, card("8H")) == 2          # fifteen
    assert h.play(0, card("8S")) == 2          # a pair
    assert h.play(1, card("7H")) == 0


# ---- the show and winning ---------------------------------------------------------------

def test_show_order_non_dealer_then_dealer_then_crib() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD", crib0="5C 6C", crib1="9D TD")
    play(h, "AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H")
    boxes = h.finish_show()
    assert [(b.seat, b.what) for b in boxes] == [(0, "hand"), (1, "hand"), (1, "crib")]
    assert boxes[2].cards == tuple(parse("5C 6C 9D TD"))
    assert h.phase is Phase.DONE and h.winner is None
    assert h.hand_points == [boxes[0].points, boxes[1].points]
    assert h.crib_points == [0, boxes[2].points]


def test_count_show_writes_the_same_boxes_events_and_pegs_as_finish_show_when_read() -> None:
    # Random deals played to the show, some near the limit (a box can win the game).
    rng = random.Random(7)
    for n in range(60):
        scores = (rng.randrange(95, 121), rng.randrange(95, 121)) if n % 2 else (0, 0)
        h = HandState.deal(n % 2, PascalRandom(n), scores)
        while h.phase is not Phase.SHOW and h.winner is None:
            seat = h.to_act
            assert seat is not None
            if h.phase is Phase.DISCARD:
                h.discard(seat, rng.sample(h.hands[seat], 2))
            elif h.can_play(seat):
                h.play(seat, rng.choice(h.legal_plays(seat)))
            else:
                h.go(seat)
        eager, lazy = h.copy(), h.copy()
        boxes = eager.finish_show()
        lazy.count_show()
        assert (lazy.board, lazy.winner, lazy.phase, lazy.hand_points, lazy.crib_points) == (
            eager.board, eager.winner, eager.phase, eager.hand_points, eager.crib_points)
        copied = lazy.copy()                  # a copy made before the words are read
        assert lazy.shows == boxes and lazy.events == eager.events
        assert copied.view(0) == eager.view(0) and snapshot(lazy) == snapshot(eager)


def test_show_crib_flush_of_four_is_not_counted_in_the_state() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD", crib0="5C 7C", crib1="9C JC")
    play(h, "AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H")
    crib = h.finish_show()[2]
    assert crib.what == "crib" and not any(s.kind == "flush" for s in crib.breakdown)


def test_winning_counting_the_non_dealers_hand_first_can_win_before_the_dealer_counts() -> None:
    h = kept_deal("5S 5H 5D JC", "AH 2H 3H 4H", "5C", scores=(100, 115), crib0="KH QH", crib1="KD QD")
    play(h, "5S", "AH", "5H", "2H", "5D", "3H", "JC", "4H")
    assert h.winner is None
    before = h.scores
    box = h.show()                            # 29 for the non-dealer
    assert box.seat == 0 and h.winner == 0 and h.phase is Phase.DONE
    assert h.scores[1] == before[1]           # the dealer never counts
    with pytest.raises(IllegalMove, match="game is over"):
        h.show()


def test_winning_the_moment_the_limit_is_reached_while_pegging() -> None:
    h = kept_deal("7S 8S 3S 4S", "8H 7H 3H 4H", "KD", scores=(0, 120))
    play(h, "7S", "8H")                       # fifteen 2 for the dealer: 122 -> the last hole
    assert h.winner == 1 and h.scores == (0, 121) and h.to_act is None
    with pytest.raises(IllegalMove):
        h.play(0, card("8S"))


def test_winning_once_the_last_hole_is_reached_nothing_more_is_counted() -> None:
    h = kept_deal("5S 5H 5D JC", "TH 2H 3H 4H", "KD", scores=(0, 120), crib0="KH QH", crib1="9D QD")
    play(h, "5S", "TH")                       # fifteen for 2, with one hole left
    assert h.winner == 1 and h.scores == (0, 121) and h.pegging == [0, 1]
    assert h.events[-1].points == 1 and h.events[-1].words == "fifteen for 2"
    assert h.shows == [] and h.hand_points == [0, 0]


def test_winning_game_to_61() -> None:
    g = play_game(Options(limit=61), PascalRandom(3), (Lowest(), Lowest()))
    assert max(g.scores) == 61 and g.scores[g.winner] == 61


def test_skunk_line_after_the_90th_hole_for_121_and_the_30th_for_61() -> None:
    assert Options(121).skunk_line == 91 and Options(61).skunk_line == 31
    on = Options(121, skunking=True)
    assert on.is_skunk(90) and not on.is_skunk(91)
    assert Options(61, True).is_skunk(30) and not Options(61, True).is_skunk(31)
    assert not Options(121).is_skunk(0)       # skunking off: never


def test_skunk_game_counts_two_wins() -> None:
    for seed in range(200):
        g = play_game(Options(61, skunking=True), PascalRandom(seed), (Lowest(), Highest()))
        if g.scores[1 - g.winner] < 31:
            assert g.skunk and g.wins == 2
            break
    else:
        pytest.fail("no skunk in 200 games")
    g = play_game(Options(61), PascalRandom(seed), (Lowest(), Highest()))
    assert not g.skunk and g.wins == 1


def test_options_score_limit_is_121_or_61() -> None:
    with pytest.raises(ValueError):
        Options(100)


# ---- the game ---------------------------------------------------------------------------

def test_game_first_dealer_by_a_cut_low_card_deals() -> None:
    for seed in range(20):
        rng, again = PascalRandom(seed), PascalRandom(seed)
        dealer = cut_for_deal(rng)
        from port.cards import shuffled_deck
        while True:
            deck = shuffled_deck(again)
            if deck[-1].rank != deck[-2].rank:
                break
        assert dealer == (0 if deck[-1].rank < deck[-2].rank else 1)


def test_game_the_deal_alternates() -> None:
    g = play_game(Options(), PascalRandom(8), (Lowest(), Lowest()), first_dealer=1)
    assert [r.dealer for r in g.hands] == [(1 + i) % 2 for i in range(len(g.hands))]
    assert g.first_dealer == 1


def test_game_record_adds_up_to_the_board() -> None:
    g = play_game(Options(), PascalRandom(11), (Lowest(), Highest()))
    for seat in (0, 1):
        assert sum(r.total[seat] for r in g.hands) == g.scores[seat]
    assert g.hands[-1].winner == g.winner and g.scores[g.winner] == 121


def test_game_next_hand_only_after_the_deal_is_done() -> None:
    game = GameState.new(Options(), PascalRandom(1), 0)
    with pytest.raises(IllegalMove, match="finish"):
        game.next_hand()


def test_seeded_deal_same_seed_same_game() -> None:
    a = play_game(Options(), PascalRandom(42), (Lowest(), Highest()))
    b = play_game(Options(), PascalRandom(42), (Lowest(), Highest()))
    assert a == b
    c = play_game(Options(), PascalRandom(43), (Lowest(), Highest()))
    assert [r.starter for r in a.hands] != [r.starter for r in c.hands]


def test_seeded_deal_is_pascal_random_fisher_yates() -> None:
    h = HandState.deal(0, PascalRandom(7))
    from port.cards import shuffled_deck
    deck = shuffled_deck(PascalRandom(7))
    assert h.hands[1][0] == deck[-1] and h.hands[0][0] == deck[-2]


# ---- illegal actions change nothing -------------------------------------------------------

def _illegal(h: HandState, action, match: str) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(h)
    with pytest.raises(IllegalMove, match=match):
        action()
    assert snapshot(h) == before


def test_illegal_wrong_number_of_crib_cards() -> None:
    h = HandState.from_cards(DEALER, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), card("9C"))
    _illegal(h, lambda: h.discard(0, parse("AS")), "exactly two")
    _illegal(h, lambda: h.discard(0, parse("AS 2S 3S")), "exactly two")
    _illegal(h, lambda: h.discard(0, [card("AS"), card("AS")]), "twice")
    _illegal(h, lambda: h.discard(0, "AS 2S"), "two cards")


def test_illegal_discard_a_card_not_held_or_twice() -> None:
    h = HandState.from_cards(DEALER, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), card("9C"))
    _illegal(h, lambda: h.discard(0, parse("AS AH")), "not in seat 0's hand")
    h.discard(0, parse("AS 2S"))
    _illegal(h, lambda: h.discard(0, parse("3S 4S")), "already")


def test_illegal_bad_seat_and_non_int_card() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    _illegal(h, lambda: h.play(2, card("AS")), "there is no seat 2")
    _illegal(h, lambda: h.play("0", card("AS")), "a seat is the int 0 or 1")  # type: ignore[arg-type]
    _illegal(h, lambda: h.play(0, "AS"), "a card is a Card or an int")        # type: ignore[arg-type]
    _illegal(h, lambda: h.play(0, 52), "no such card")
    _illegal(h, lambda: h.play(0, 1.0), "a card is a Card or an int")         # type: ignore[arg-type]
    with pytest.raises(IllegalMove):
        h.view(5)


def test_illegal_wrong_player() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    _illegal(h, lambda: h.play(1, card("AH")), "seat 0's turn")
    _illegal(h, lambda: h.go(1), "seat 0's turn")


def test_illegal_card_not_held() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    _illegal(h, lambda: h.play(0, card("AH")), "not in seat 0's hand")
    _illegal(h, lambda: h.play(0, card("KD")), "not in seat 0's hand")   # the starter


def test_illegal_passing_31() -> None:
    h = kept_deal("TS JS QS 9D", "TH JH QH 2C", "AD")
    play(h, "TS", "TH", "9D")
    _illegal(h, lambda: h.play(1, card("JH")), "past 31")


def test_illegal_go_while_a_card_can_be_played() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    _illegal(h, lambda: h.go(0), "holds a card that fits")


def test_illegal_actions_out_of_phase() -> None:
    h = HandState.from_cards(DEALER, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), card("9C"))
    _illegal(h, lambda: h.play(0, card("AS")), "discard phase")
    _illegal(h, lambda: h.show(), "discard phase")
    h.discard(0, parse("5S 6S"))
    h.discard(1, parse("5H 6H"))
    _illegal(h, lambda: h.discard(0, parse("AS 2S")), "play phase")


# ---- players, views, and no cheating --------------------------------------------------

class Lowest(Player):
    """Lays away its two highest cards; plays its lowest card that fits."""

    name = "lowest"

    def discard(self, view: View) -> tuple[Card, Card]:
        high = sorted(view.hand, key=lambda c: c.rank)[-2:]
        return high[0], high[1]

    def play(self, view: View) -> Card | None:
        plays = view.legal_plays()
        return min(plays, key=lambda c: c.rank) if plays else None


class Highest(Lowest):
    name = "highest"

    def play(self, view: View) -> Card | None:
        plays = view.legal_plays()
        return max(plays, key=lambda c: c.rank) if plays else None


def _cards_in(obj: object) -> Iterator[Card]:
    """Every Card a view holds, however deep."""
    if isinstance(obj, Card):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _cards_in(getattr(obj, f.name))
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            yield from _cards_in(x)


def _containers_in(obj: object) -> Iterator[object]:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _containers_in(getattr(obj, f.name))
    elif isinstance(obj, tuple):
        for x in obj:
            yield from _containers_in(x)
    else:
        yield obj


class Watcher(Lowest):
    """Checks every view it is given against what its seat may know."""

    def __init__(self) -> None:
        self.dealt: set[Card] = set()
        self.views = 0

    def begin_hand(self, view: View) -> None:
        self.dealt = set(view.hand)
        self.check(view)

    def check(self, view: View) -> None:
        self.views += 1
        allowed = set(self.dealt) | {c for _, c in view.played} | {c for b in view.shows for c in b.cards}
        if view.starter is not None:
            allowed.add(view.starter)
        assert set(_cards_in(view)) <= allowed
        # Nothing mutable and nothing of the state: only values.
        for x in _containers_in(view):
            assert not isinstance(x, (list, dict, set, HandState, random.Random, PascalRandom)), type(x)

    def discard(self, view: View) -> tuple[Card, Card]:
        self.check(view)
        return super().discard(view)

    def play(self, view: View) -> Card | None:
        self.check(view)
        return super().play(view)

    def end_hand(self, view: View) -> None:
        self.check(view)


def test_view_holds_nothing_of_the_other_hand_crib_cards_or_deck() -> None:
    watchers = (Watcher(), Watcher())
    for seed in range(5):
        play_game(Options(), PascalRandom(seed), watchers)
    assert all(w.views > 100 for w in watchers)


def test_view_is_the_same_whatever_the_other_hand_and_the_deck() -> None:
    # Seat 0's view cannot tell two deals apart that differ only in seat 1's cards,
    # seat 1's crib discards and the order of the deck.
    mine = parse("AS 5S 9S JD KC 2H")
    a = HandState.from_cards(DEALER, mine, parse("3C 4C 6D 7D 8H TH"), card("QH"))
    b = HandState.from_cards(DEALER, mine, parse("3D 4D 6C 7C 8S TS"), card("QH"))
    assert a.view(0) == b.view(0)
    for h, crib in ((a, "3C 4C"), (b, "8S TS")):
        h.discard(1, parse(crib))
    assert a.view(0) == b.view(0)
    a.discard(0, parse("JD KC"))
    b.discard(0, parse("JD KC"))
    a.play(0, card("5S"))
    b.play(0, card("5S"))
    assert a.view(0) == b.view(0)


def test_view_my_crib_and_kept() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD", crib0="5C 6C", crib1="9D TD")
    v = h.view(0)
    assert v.kept == tuple(parse("AS 2S 3S 4S")) and v.my_crib == tuple(parse("5C 6C"))
    assert v.opponent_left == 4 and v.starter == card("KD") and not v.is_dealer
    assert h.view(1).my_crib == tuple(parse("9D TD"))


def test_view_legal_plays_only_on_its_turn() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    assert h.view(0).legal_plays() == parse("AS 2S 3S 4S")
    assert h.view(1).legal_plays() == []


def test_player_illegal_answer_raises_and_changes_nothing() -> None:
    class Cheat(Lowest):
        def play(self, view: View) -> Card | None:
            return card("AH")

    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    before = snapshot(h)
    with pytest.raises(IllegalMove):
        play_hand(h, (Cheat(), Lowest()))
    assert snapshot(h) == before


def test_copy_is_independent() -> None:
    h = kept_deal("AS 2S 3S 4S", "AH 2H 3H 4H", "KD")
    before = snapshot(h)
    c = h.copy()
    play(c, "AS", "AH", "2S")
    assert snapshot(h) == before and c.count == 4


def test_rules_unit_never_imports_pyxel_nor_ginrummys_rules() -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['pyxel'] = None; sys.modules['port.ginrummy.rules'] = None; "
            "import port.cribbage.rules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
