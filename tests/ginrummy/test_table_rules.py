"""The table rules of the other sources (issue 12), one test per rule sentence.

Named after the sentences of the online card room's rules (003), the classic Python
program (001) and the PC manual (004); docs/behaviour.md maps each to its test. The
original's defaults are held by tests/ginrummy/test_rules.py, test_whole_game.py and
test_main_reference.py, untouched.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from port.cards import CARDS, Card, PascalRandom, parse
from port.ginrummy.rules import (
    PRESETS, Act, Game, HandState, IllegalMove, Options, Outcome, Phase, preset, settle_out,
)
from port.ginrummy.computer import Standard, choose_draw, hint
from port.ginrummy.expert import Expert
from port.ginrummy.levels import load_player
from port.ginrummy.rules.players import Draw, Player, legal_discards, play_game, play_hand
from port.ginrummy.rules.scoring import column

LOW = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"          # deadwood 2
GIN = "AS 2S 3S 4H 5H 6H 7H 7D 7C 7S"          # no deadwood
HIGH = "KS QD JC 9H 8C 6S 5D 3C TD 4C"          # deadwood 75


def one(t: str) -> Card:
    return parse(t)[0]


def deck_for(first: str, second: str, upcard: str = "", stock_top: str = "") -> list[Card]:
    """A deck dealing ``first`` to the non-dealer (10 cards, or 11 for the deal of
    eleven, the 11th dealt last) and ``second`` to the dealer, turning ``upcard`` up
    (none for the deal of eleven), with ``stock_top`` on the stock, first card first."""
    a, b, top = parse(first), parse(second), parse(stock_top)
    up = parse(upcard)
    rest = [c for c in CARDS if c not in set(a) | set(b) | set(up) | set(top)]
    order = [x for pair in zip(a, b) for x in pair] + a[10:] + up + top
    return rest + list(reversed(order))


def position(first: str, second: str, upcard: str = "", stock_top: str = "",
             options: Options = Options(), knock_card: str = "") -> HandState:
    return HandState(options, deck_for(first, second, upcard, stock_top), 0,
                     one(knock_card) if knock_card else None)


def knock_now(h: HandState, discard: str) -> None:
    """Seat 0 (to move) draws from the stock, discards ``discard`` and knocks if asked."""
    h.draw_stock(0)
    h.discard(0, one(discard))
    if h.phase is Phase.KNOCK:
        h.knock(0)


DECK = Options(knock_deck=True)


# ---- 003: the online card room ------------------------------------------------------

def test_003_the_first_dealer_is_chosen_randomly() -> None:
    o = Options(random_first=True)
    dealers = {Game(o, PascalRandom(seed)).dealer for seed in range(12)}
    assert dealers == {0, 1}
    assert Game(o, PascalRandom(5)).dealer == Game(o, PascalRandom(5)).dealer   # seeded


def test_003_for_subsequent_hands_the_winner_deals() -> None:
    o = Options(winner_deals=True, score_limit=500)
    game = Game(o, PascalRandom(3))
    seen = 0
    while not game.over and seen < 6:
        play_hand(game.hand, (Standard(), Standard()))
        result = game.record()
        if game.over:
            break
        before = game.dealer
        game.next_hand()
        # The winner deals; after a draw hand (ours) the same dealer deals again.
        assert game.dealer == (before if result.winner is None else result.winner)
        seen += 1
    assert seen >= 3


def test_003_without_winner_deals_the_original_first_turn_holds() -> None:
    game = Game(Options(score_limit=500), PascalRandom(3))
    for _ in range(3):
        play_hand(game.hand, (Standard(), Standard()))
        game.record()
        game.next_hand()
        assert game.hand.first == 0 and game.dealer == 1   # "you always go first"


def test_003_ten_cards_alternately_starting_with_the_non_dealer_then_one_more() -> None:
    o = Options(deal_eleven=True)
    h = position(GIN + " KH", HIGH, options=o)
    assert h.hand(0) == sorted(parse(GIN + " KH")) and len(h.hand(1)) == 10
    assert h.pile == [] and h.upcard is None and len(h.stock) == 31
    assert h.phase is Phase.DISCARD and h.to_move == 0 and h.view(0).opening


def test_003_the_non_dealer_turns_any_card_from_their_hand_to_start_the_discard_pile() -> None:
    o = Options(deal_eleven=True)
    h = position(GIN + " KH", HIGH, options=o)
    assert h.knock_options(0) == {}            # the opening discard is not a turn: no going out
    move = h.discard(0, one("KH"))             # leaves gin, yet the hand goes on
    assert move.act is Act.DISCARD and not move.over
    assert h.pile == [one("KH")] and h.upcard == one("KH")
    assert h.phase is Phase.DRAW and h.to_move == 1
    h.draw_pile(1)                              # the dealer may take it
    assert one("KH") in h.hand(1)


def test_003_the_deal_of_eleven_refuses_a_draw_before_the_opening_discard() -> None:
    h = position(GIN + " KH", HIGH, options=Options(deal_eleven=True))
    with pytest.raises(IllegalMove, match="it has drawn and must discard"):
        h.draw_stock(0)
    with pytest.raises(IllegalMove, match="only a draw from the discard pile can be undone"):
        h.undo_draw(0)


def test_003_a_knock_card_is_selected_from_a_separate_deck_the_same_card_still_in_play() -> None:
    h = position(LOW, HIGH, "9C", options=DECK, knock_card="AS")
    assert h.knock_card == one("AS") and one("AS") in h.hand(0)   # the same card is still in play
    assert h.pile == [one("9C")]                                   # it is not the upcard
    # Dealt from the generator: the play deck is the one the same seed deals without it.
    a = HandState.deal(DECK, PascalRandom(7))
    b = HandState.deal(Options(), PascalRandom(7))
    assert a.hands == b.hands and a.pile == b.pile and a.stock == b.stock
    assert isinstance(a.knock_card, Card) and a.view(0).knock_card == a.knock_card
    assert (DECK.knock_source, Options(oklahoma=True).knock_source, Options().knock_source) == \
        ("DECK", "UPCARD", "FIXED")


def test_003_the_knock_card_sets_the_maximum_unmatched_points_to_knock_with() -> None:
    for card, value in (("7D", 7), ("KH", 10), ("2C", 2)):
        h = position(LOW, HIGH, "9C", options=DECK, knock_card=card)
        assert h.knock_value == value


def test_003_if_the_knock_card_is_an_ace_a_player_may_knock_only_with_gin() -> None:
    h = position(LOW, HIGH, "9C", options=DECK, knock_card="AH")
    assert h.knock_value == 0
    h.draw_stock(0)
    h.discard(0, h.drawn)
    assert h.phase is Phase.DRAW      # no knock question with deadwood 2
    with pytest.raises(IllegalMove, match="only gin"):
        settle_out(0, (parse(LOW), parse(HIGH)), DECK, one("AH"))


def test_003_the_knock_card_cannot_be_picked_up_and_used_in_play() -> None:
    h = position(LOW, HIGH, "9C", options=DECK, knock_card="QH")
    m = h.draw_pile(0)
    assert m.card == one("9C")        # the pile's card, never the knock card
    assert h.knock_card == one("QH") and one("QH") not in h.pile


def test_003_the_suit_of_the_knock_card_drives_the_doublers() -> None:
    spades = Options(knock_deck=True, doublers=("SPADES",))
    for card, doubled in (("7S", True), ("7H", False)):
        h = position(LOW, HIGH, "9C", "KC", options=spades, knock_card=card)
        knock_now(h, "KC")
        assert h.result.doubled is doubled
        assert h.result.points == (75 - 2) * (2 if doubled else 1)


def test_003_knocking_with_no_unmatched_cards_is_gin_and_earns_a_bonus() -> None:
    h = position(GIN, HIGH, "9C", "KC", options=DECK, knock_card="TD")
    knock_now(h, "KC")
    assert h.result.outcome is Outcome.GIN and h.result.points == 25 + 75


def test_003_no_layoff_is_allowed_on_a_gin() -> None:
    h = position(GIN, "8H 8S 8D 4D 5D 6D KS QD JC 9C", "TC", "KC", options=DECK, knock_card="TD")
    knock_now(h, "KC")                  # after a knock 8H would go on 4H-7H: not on a gin
    assert h.result.layoffs == () and h.result.deadwood[1] == 10 + 10 + 10 + 9


def test_003_gin_against_gin_the_knocker_still_earns_the_gin_bonus() -> None:
    other = "8S 8H 8D 9C TC JC 2D 3D 4D 5D"     # the defender holds gin too
    h = position(GIN, other, "KC", "QC", options=DECK, knock_card="TD")
    knock_now(h, "QC")
    r = h.result
    assert r.outcome is Outcome.GIN and r.winner == 0 and r.deadwood == (0, 0)
    assert r.points == 25                      # the point difference is zero: the bonus stays


def test_003_point_difference_the_winner_of_the_hand_earns_a_box() -> None:
    o = Options(scoring="BOXES")
    h = position(LOW, HIGH, "9C", "KC", options=o)
    knock_now(h, "KC")
    assert h.result.outcome is Outcome.KNOCK and h.result.boxes == 1 and h.result.points == 73


def test_003_point_difference_an_undercut_earns_25_and_an_extra_box() -> None:
    o = Options(scoring="BOXES")
    # Knocker with 9 deadwood against a defender left with 9: undercut.
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 9D", "AH 2H 3H 4C 5C 6C 8D 8C 8S 9H", "KC", "KD", options=o)
    knock_now(h, "KD")
    r = h.result
    assert r.outcome is Outcome.UNDERCUT and r.winner == 1 and r.points == 25 and r.boxes == 2


def test_003_point_difference_gin_earns_25_and_two_extra_boxes() -> None:
    h = position(GIN, HIGH, "9C", "KC", options=Options(scoring="BOXES"))
    knock_now(h, "KC")
    assert h.result.points == 100 and h.result.boxes == 3


def test_003_game_only_extra_boxes_are_not_awarded() -> None:
    h = position(GIN, HIGH, "9C", "KC", options=Options(scoring="GAME_ONLY"))
    knock_now(h, "KC")
    assert h.result.points == 100 and h.result.boxes == 0


@pytest.mark.parametrize("hand, discard, points", [(LOW, "KC", 1), (GIN, "KC", 2)])
def test_003_flop_gin_knocker_1_gin_1_plus_a_bonus_1(hand: str, discard: str, points: int) -> None:
    h = position(hand, HIGH, "9C", "KC", options=Options(scoring="FLOP"))
    knock_now(h, discard)
    assert h.result.points == points and h.result.boxes == 0


def test_003_flop_gin_undercut_1_plus_an_undercut_bonus_1() -> None:
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 9D", "AH 2H 3H 4C 5C 6C 8D 8C 8S 9H", "KC", "KD",
                 options=Options(scoring="FLOP"))
    knock_now(h, "KD")
    assert h.result.outcome is Outcome.UNDERCUT and h.result.points == 2


@pytest.mark.parametrize("suit, card", [("SPADES", "5S"), ("HEARTS", "5H")])
def test_003_doubler_score_and_undercut_and_gin_boxes_doubled_not_the_box_for_winning(
        suit: str, card: str) -> None:
    o = Options(knock_deck=True, doublers=(suit,), scoring="BOXES")
    h = position(GIN, HIGH, "9C", "KC", options=o, knock_card=card)
    knock_now(h, "KC")
    assert h.result.doubled and h.result.points == 200 and h.result.boxes == 1 + 2 * 2
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 4D", "AH 2H 3H 4C 5C 6C 8D 8C 8S 9H", "KC", "KD",
                 options=o, knock_card=card)
    knock_now(h, "KD")   # 4 against 9: a knock, one box, not doubled
    assert h.result.outcome is Outcome.KNOCK and h.result.points == 10 and h.result.boxes == 1


def test_003_the_discard_does_not_need_to_be_a_spade() -> None:
    o = Options(knock_deck=True, doublers=("SPADES",))
    h = position(LOW, HIGH, "9C", "KC", options=o, knock_card="9S")
    knock_now(h, "KC")                  # a club discarded, the knock card's spade doubles
    assert h.result.doubled and h.result.points == 146


def test_003_the_game_continues_with_additional_deals_until_the_game_length() -> None:
    for scoring in ("BOXES", "GAME_ONLY"):
        record = play_game(Options(scoring=scoring), PascalRandom(11), (Standard(), Standard()))
        assert max(record.scores) >= 100 and len(record.hands) > 1


def test_003_flop_gin_each_hand_is_scored_separately() -> None:
    record = play_game(Options(scoring="FLOP"), PascalRandom(11), (Standard(), Standard()))
    decided = [h for h in record.hands if h.result.winner is not None]
    assert len(decided) == 1 and record.hands[-1] is decided[0]     # draws are dealt again
    assert record.sheet.totals[record.winner] == decided[0].result.points in (1, 2, 4)


def test_003_point_difference_difference_plus_game_bonus_and_box_bonus() -> None:
    o = Options(scoring="BOXES")
    c = column(o, (130, 60), (6, 3))
    assert c.game_bonus == (100, 0) and c.box_bonus == (75, 0)
    assert c.totals == (70 + 100 + 75, 0) and c.winner == 0 and c.net == 245


def test_003_the_points_leader_can_lose_the_game_on_boxes() -> None:
    o = Options(scoring="BOXES")
    c = column(o, (105, 95), (1, 8))
    assert c.totals == (10 + 100, 7 * 25) and c.winner == 1 and c.net == 65


def test_003_game_only_the_player_with_more_points_receives_1_point() -> None:
    c = column(Options(scoring="GAME_ONLY"), (104, 77), (0, 0))
    assert c.totals == (1, 0) and c.winner == 0


def test_003_shutout_the_final_score_of_the_winner_is_doubled() -> None:
    c = column(Options(scoring="BOXES", shutout=True), (110, 0), (3, 0))
    assert c.shutout and c.totals == (2 * (110 + 100 + 75), 0)
    c = column(Options(scoring="GAME_ONLY", shutout=True), (110, 0), (0, 0))
    assert c.totals == (2, 0)
    c = column(Options(shutout=True), (110, 0), (0, 0))          # the original's total too
    assert c.totals == (220, 0)
    assert not column(Options(scoring="BOXES"), (110, 0), (3, 0)).shutout   # optional


def test_003_a_whole_boxes_game_adds_up_on_its_score_sheet() -> None:
    o = preset("CARD ROOM")
    record = play_game(o, PascalRandom(21), (Expert(seed=1), Standard()))
    points, boxes = [0, 0], [0, 0]
    for h in record.hands:
        if h.result.winner is not None:
            points[h.result.winner] += h.result.points
            boxes[h.result.winner] += h.result.boxes
    c = record.sheet.columns[0]
    assert c.points == tuple(points) and c.boxes == tuple(boxes) == record.boxes
    lead = 0 if points[0] > points[1] else 1
    extra = [max(0, boxes[s] - boxes[1 - s]) * 25 for s in (0, 1)]
    totals = [extra[0], extra[1]]
    totals[lead] += points[lead] - points[1 - lead] + 100
    if points[1 - lead] == 0:
        totals[lead] *= 2
    assert c.totals == tuple(totals) and record.winner == c.winner


def test_003_a_draw_hand_deals_a_new_hand() -> None:
    game = Game(Options(scoring="BOXES", winner_deals=True), PascalRandom(1))
    h = game.hand
    while h.phase is not Phase.OVER:      # both draw and throw back: the stock runs out
        s = h.to_move
        if h.phase is Phase.DRAW:
            h.draw_stock(s)
        elif h.phase is Phase.DISCARD:
            h.discard(s, h.drawn)
        else:
            h.play_on(s)
    assert game.record().outcome is Outcome.DRAW and not game.over
    dealer = game.dealer
    game.next_hand()
    assert game.dealer == dealer and game.boxes == [0, 0]


# ---- Hollywood (today's players; none of the sources) ---------------------------------

def test_hollywood_a_players_nth_win_goes_in_the_first_n_games() -> None:
    game = Game(Options(scoring="HOLLYWOOD"), PascalRandom(4))
    record_wins = [0, 0]
    while not game.over:
        play_hand(game.hand, (Standard(), Standard()))
        before = [list(p) for p in game.column_points]
        r = game.record()
        if r.winner is not None:
            record_wins[r.winner] += 1
            n = min(record_wins[r.winner], 3)
            for i in range(3):
                gained = game.column_points[i][r.winner] - before[i][r.winner]
                open_before = max(before[i]) < 100
                assert gained == (r.points if i < n and open_before else 0)
        if not game.over:
            game.next_hand()
    s = game.sheet()
    assert len(s.columns) == 3 and all(max(c.points) >= 100 for c in s.columns)
    assert s.totals == (sum(c.totals[0] for c in s.columns), sum(c.totals[1] for c in s.columns))


# ---- the knocker's melds at their best (every source; issue 12) -----------------------

def test_the_knocker_arranges_its_melds_to_give_the_least_away() -> None:
    k = parse("QH QC QD QS 4S 5S 6S 7S AD 2H")
    d = parse("8S 9H 9D 3C 4C 5D 6D KH KD JC")
    r = settle_out(0, (k, d), Options(), one("2C"))
    assert one("7S") in r.deadwood_cards[0] and r.layoffs == ()      # 7S kept loose
    assert r.deadwood == (10, 74) and r.points == 64
    # With 7S in the run the defender would lay off 8S: 3 against 66, 63 points.


def test_the_knocker_keeps_its_least_deadwood_when_nothing_is_gained() -> None:
    r = settle_out(0, (parse(LOW), parse(HIGH)), Options(), one("9C"))
    assert r.deadwood == (2, 75)


# ---- 001: the classic program ----------------------------------------------------------

OFFER = Options(upcard_offer=True)


def test_001_you_first_decide_whether_or_not_you_want_the_faced_up_card() -> None:
    h = position(LOW, HIGH, "2H", options=OFFER)
    assert h.phase is Phase.UPCARD_OFFER and h.to_move == 0
    m = h.take_upcard(0)
    assert m.act is Act.DRAW_PILE and m.card == one("2H") and h.phase is Phase.DISCARD
    with pytest.raises(IllegalMove, match="just taken from the discard pile"):
        h.discard(0, one("2H"))
    h.undo_draw(0)                      # back to the offer, not to a free draw
    assert h.phase is Phase.UPCARD_OFFER


def test_001_decline_then_the_dealer_is_offered_it() -> None:
    h = position(LOW, HIGH, "2H", options=OFFER)
    m = h.decline_upcard(0)
    assert m.act is Act.DECLINE and h.phase is Phase.UPCARD_OFFER and h.to_move == 1
    h.take_upcard(1)
    h.discard(1, one("KS"))
    assert h.phase is Phase.DRAW and h.to_move == 0 and not h.view(0).stock_only


def test_001_both_decline_and_the_first_player_draws_from_the_stock() -> None:
    h = position(LOW, HIGH, "2H", options=OFFER)
    h.decline_upcard(0)
    h.decline_upcard(1)
    assert h.phase is Phase.DRAW and h.to_move == 0 and h.view(0).stock_only
    with pytest.raises(IllegalMove, match="both players declined the upcard"):
        h.draw_pile(0)
    h.draw_stock(0)
    assert not h.view(0).stock_only


def test_001_the_offer_refuses_every_other_action_with_a_sentence() -> None:
    h = position(LOW, HIGH, "2H", options=OFFER)
    with pytest.raises(IllegalMove, match="seat 0 cannot draw from the stock now: it must take or decline"):
        h.draw_stock(0)
    with pytest.raises(IllegalMove, match="it is seat 0's turn"):
        h.decline_upcard(1)
    plain = position(LOW, HIGH, "2H")
    with pytest.raises(IllegalMove, match="cannot take the upcard now: it must draw first"):
        plain.take_upcard(0)


def test_001_gin_bonus_20_and_undercut_bonus_10() -> None:
    o = preset("CLASSIC")
    assert (o.gin_bonus, o.undercut_bonus) == (20, 10) and o.upcard_offer
    h = position(GIN, HIGH, "9C", "KC", options=o)
    h.decline_upcard(0)
    h.decline_upcard(1)
    knock_now(h, "KC")
    assert h.result.points == 20 + 75


def test_001_the_dealer_is_determined_by_splitting_cards() -> None:
    assert preset("CLASSIC").random_first
    assert {Game(preset("CLASSIC"), PascalRandom(s)).dealer for s in range(10)} == {0, 1}


def test_001_the_computer_takes_or_declines_by_its_pile_formula() -> None:
    # 7H makes a set of sevens: taken; KD makes nothing: declined.
    other = "8S 8H 9D TD JH QS 3C 4C 5D 6D"
    for hand10, upcard, take in (("AS 2S 3S 4H 5H 6H 7D 7C KC QC", "7H", True),
                                 ("AS 2S 3S 4H 5H 6H 7D 7C 9C 2D", "KD", False)):
        h = position(hand10, other, upcard, options=OFFER)
        v = h.view(0)
        assert (choose_draw(v) is Draw.PILE) is take
        for player in (Standard(), Expert(seed=1), load_player("easy")):
            assert player.offer(v) is take
        assert hint(v).offer is take


def test_001_a_bot_with_only_choose_discard_can_answer_the_offer() -> None:
    class Lowest(Player):
        def choose_discard(self, view):  # type: ignore[no-untyped-def]
            return max(legal_discards(view), key=lambda c: c.value)

    record = play_game(Options(upcard_offer=True, score_limit=0), PascalRandom(2), (Lowest(), Lowest()))
    assert len(record.hands) == 1     # declined twice (the default: the stock), then played


# ---- 004: the PC manual ----------------------------------------------------------------

def test_004_the_10_point_limit_assumes_the_highest_unmatched_card_is_discarded() -> None:
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 9D", HIGH, "9C", "KC")
    h.draw_stock(0)                      # 11 cards: 9D + KC loose, 19
    assert h.knock_options(0) == {one("KC"): 9, one("9D"): 10}


def test_004_first_player_to_reach_100_points_wins_with_25_point_bonuses() -> None:
    o = Options()
    assert (o.gin_bonus, o.undercut_bonus, o.score_limit, o.scoring) == (25, 25, 100, "TOTAL")
    assert preset("ORIGINAL") == o


# ---- presets and checks ----------------------------------------------------------------

def test_presets_set_their_rules_and_each_rule_stays_settable() -> None:
    room = preset("CARD ROOM")
    assert room.knock_deck and room.scoring == "BOXES" and room.doublers == ("SPADES",)
    assert room.with_(doublers=()).doublers == ()
    assert preset("ORIGINAL", room) == Options()
    assert set(PRESETS) == {"ORIGINAL", "CARD ROOM", "CLASSIC"}


@pytest.mark.parametrize("changes, words", [
    ({"knock_deck": True, "oklahoma": True}, "not both"),
    ({"doublers": ("SPADES",)}, "need the knock card"),
    ({"knock_deck": True, "doublers": ("CLUBS",)}, "doublers"),
    ({"scoring": "boxes"}, "scoring is one of"),
    ({"deal_eleven": True, "upcard_offer": True}, "deal of eleven"),
    ({"box_bonus": 30}, "box bonus"),
])
def test_options_refuse_what_no_source_describes_in_one_sentence(changes: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Options(**changes)


# ---- through the runner ------------------------------------------------------------------

@pytest.mark.parametrize("flags", [
    ["--scoring", "boxes", "--knock-card", "deck", "--doublers", "spades,hearts", "--shutout",
     "--deal", "11", "--winner-deals", "--random-first"],
    ["--scoring", "game-only", "--upcard-offer", "--shutout"],
    ["--scoring", "flop", "--knock-card", "deck", "--doublers", "spades"],
    ["--scoring", "hollywood", "--upcard-offer", "--winner-deals"],
    ["--scoring", "total", "--deal", "11"],
])
def test_a_whole_game_under_each_scoring_method_through_the_runner(flags: list[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "port.match", "--a", "standard", "--b", "expert",
                          "--games", "2", "--workers", "1", "--json", *flags],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["a"]["games_won"] + r["b"]["games_won"] + r["games_drawn"] == 2
    assert r["a"]["final"] + r["b"]["final"] > 0


def test_the_runner_refuses_a_combination_in_one_sentence() -> None:
    out = subprocess.run([sys.executable, "-m", "port.match", "--doublers", "spades", "--games", "1"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "the spades and hearts doublers need the knock card from a second deck" in out.stderr


@pytest.mark.parametrize("level", ["easy", "standard", "expert"])
def test_every_level_plays_the_card_room_and_the_classic_tables(level: str) -> None:
    for o in (preset("CARD ROOM"), preset("CLASSIC"), preset("CLASSIC").with_(scoring="HOLLYWOOD")):
        record = play_game(o.with_(score_limit=50), PascalRandom(9),
                           (load_player(level, 1), load_player("standard", 2)))
        assert record.sheet is not None and record.winner in (0, 1, None)


def test_hints_work_under_the_opening_discard_and_after_both_declined() -> None:
    h = position(GIN + " KH", HIGH, options=Options(deal_eleven=True))
    assert hint(h.view(0)).discard == one("KH")            # the loose card starts the pile
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 9C 2D", HIGH, "KD", options=OFFER)
    assert hint(h.view(0)).offer is False
    h.decline_upcard(0)
    h.decline_upcard(1)
    assert hint(h.view(0)).draw is Draw.STOCK
