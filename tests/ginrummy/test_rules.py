"""GinRummy's rules, one test per rule sentence ("Rules of the Game", "Game Play")."""
from __future__ import annotations

import subprocess
import sys

import pytest

from port.cards import CARDS, Card, PascalRandom, parse, text
from port.ginrummy.rules import (
    Game,
    HandState,
    IllegalMove,
    Options,
    Outcome,
    Phase,
    best_layoffs,
    deadwood,
    settle_out,
)
from port.ginrummy.rules.options import FirstTurn
from port.cards import hand as hand_mask


def cards(t: str) -> list[Card]:
    return parse(t)


def one(t: str) -> Card:
    return parse(t)[0]


def deck_for(first: str, second: str, upcard: str, stock_top: str = "") -> list[Card]:
    """A deck that deals ``first`` to the player who moves first and ``second`` to the
    other, turns ``upcard`` up, and has ``stock_top`` (first card first) on the stock."""
    a, b, up, top = cards(first), cards(second), one(upcard), cards(stock_top)
    used = set(a) | set(b) | {up} | set(top)
    assert len(used) == len(a) + len(b) + 1 + len(top) == 21 + len(top)
    rest = [c for c in CARDS if c not in used]
    # The list's last card is the top: deal alternates first/second, then the upcard.
    order = [x for pair in zip(a, b) for x in pair] + [up] + top
    return rest + list(reversed(order))


def position(first: str, second: str, upcard: str, stock_top: str = "",
             options: Options = Options()) -> HandState:
    return HandState(options, deck_for(first, second, upcard, stock_top), first=0)


def snapshot(h: HandState) -> tuple:
    return (list(h.hands), list(h.stock), list(h.pile), h.to_move, h.phase, h.drawn,
            h.drawn_from_pile, list(h.gin_only), len(h.events), h.result)


LOW = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"          # deadwood 2 (runs AS-3S, 4H-6H, sevens)
GIN = "AS 2S 3S 4H 5H 6H 7H 7D 7C 7S"         # no deadwood
HIGH = "KS QD JC 9H 8C 6S 5D 3C TD 4C"          # no melds: deadwood 75


def play_out(h: HandState, knock: bool = True) -> None:
    """Draw from the stock and throw the drawn card back; knock when offered (or play on)."""
    while h.phase is not Phase.OVER:
        s = h.to_move
        if h.phase is Phase.DRAW:
            h.draw_stock(s)
        elif h.phase is Phase.DISCARD:
            h.discard(s, h.drawn)
        elif knock:
            h.knock(s)
        else:
            h.play_on(s)


# ---- the deal ------------------------------------------------------------------------

def test_deal_ten_cards_each_and_the_next_card_starts_the_pile() -> None:
    h = HandState.deal(Options(), PascalRandom(1))
    assert len(h.hand(0)) == len(h.hand(1)) == 10
    assert h.pile == [h.upcard]
    assert len(h.stock) == 52 - 21
    assert not set(h.hand(0)) & set(h.hand(1))


def test_same_seed_gives_the_same_deal_on_every_machine() -> None:
    # A recorded deal: PascalRandom is integer arithmetic, so this never changes.
    h = HandState.deal(Options(), PascalRandom(1991))
    assert text(h.hand(0)) == "4S 5S 8S JS QH 3D 8D QD 4C 8C"
    assert text(h.hand(1)) == "7S 9S KS 4H JH 2D 5C 7C 9C KC"
    assert str(h.upcard) == "QS"
    again = HandState.deal(Options(), PascalRandom(1991))
    assert again.hands == h.hands and again.stock == h.stock


def test_human_always_goes_first() -> None:
    game = Game(Options(score_limit=500), PascalRandom(5))
    for _ in range(3):
        assert game.hand.to_move == 0
        play_out(game.hand, knock=False)       # quickly: to the end of the stock
        game.record()
        game.next_hand()


def test_alternate_first_turn_is_a_setting_for_bot_matches() -> None:
    game = Game(Options(first_turn=FirstTurn.ALTERNATE), PascalRandom(5), first=1)
    assert game.hand.to_move == 1


# ---- a turn --------------------------------------------------------------------------

def test_a_turn_is_draw_then_discard() -> None:
    h = position(HIGH, LOW, "KH", "QC")
    with pytest.raises(IllegalMove):
        h.discard(0, one("KS"))                 # must draw first
    assert h.draw_stock(0).card == one("QC")
    with pytest.raises(IllegalMove):
        h.draw_pile(0)                          # one draw per turn
    h.discard(0, one("KS"))
    assert h.to_move == 1 and h.phase is Phase.DRAW and h.pile_top == one("KS")


def test_card_drawn_from_pile_cannot_be_discarded_that_turn() -> None:
    h = position(HIGH, LOW, "KH")
    h.draw_pile(0)
    before = snapshot(h)
    with pytest.raises(IllegalMove, match="just taken from the discard pile"):
        h.discard(0, one("KH"))
    assert snapshot(h) == before


def test_pile_draw_can_be_undone_before_discarding() -> None:
    h = position(HIGH, LOW, "KH")
    start = snapshot(h)
    h.draw_pile(0)
    h.undo_draw(0)
    assert snapshot(h)[:8] == start[:8]
    assert h.phase is Phase.DRAW and h.pile_top == one("KH")


def test_stock_draw_cannot_be_undone() -> None:
    h = position(HIGH, LOW, "KH", "QC")
    h.draw_stock(0)
    before = snapshot(h)
    with pytest.raises(IllegalMove, match="only a draw from the discard pile"):
        h.undo_draw(0)
    assert snapshot(h) == before


def test_discard_cannot_be_undone() -> None:
    h = position(HIGH, LOW, "KH", "QC")
    h.draw_stock(0)
    h.discard(0, one("KS"))
    with pytest.raises(IllegalMove):
        h.undo_draw(0)


# ---- illegal actions -------------------------------------------------------------------

def test_illegal_actions_raise_and_change_nothing() -> None:
    h = position(HIGH, LOW, "KH", "QC")
    before = snapshot(h)
    for act in (lambda: h.draw_stock(1),                 # wrong turn
                lambda: h.knock(0),                      # nothing to knock on yet
                lambda: h.undo_draw(0)):
        with pytest.raises(IllegalMove):
            act()
        assert snapshot(h) == before
    h.draw_stock(0)
    before = snapshot(h)
    with pytest.raises(IllegalMove, match="not in seat 0's hand"):
        h.discard(0, one("AS"))                          # a card not held
    assert snapshot(h) == before


def test_knocking_over_the_knock_value_is_refused() -> None:
    h = position(HIGH, LOW, "KH", "QC")
    h.draw_stock(0)
    h.discard(0, one("KS"))                              # deadwood far over 10
    assert h.phase is Phase.DRAW and h.to_move == 1
    with pytest.raises(IllegalMove):
        h.knock(0)


# ---- knocking ----------------------------------------------------------------------------

def test_knock_offered_when_deadwood_is_at_most_the_knock_value() -> None:
    # After drawing 8D and discarding it the hand keeps deadwood 2D = 2 <= 10.
    h = position(LOW, HIGH, "KH", "8D")
    h.draw_stock(0)
    h.discard(0, one("8D"))
    assert h.phase is Phase.KNOCK and h.to_move == 0


def test_knocking_is_optional() -> None:
    h = position(LOW, HIGH, "KH", "8D")
    h.draw_stock(0)
    h.discard(0, one("8D"))
    h.play_on(0)
    assert h.phase is Phase.DRAW and h.to_move == 1 and h.result is None


def test_knock_value_is_ten() -> None:
    assert Options().knock_value(one("5C")) == 10
    # Deadwood exactly 10 may knock, 11 may not.
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S TH", HIGH, "KH", "8D")
    h.draw_stock(0)
    h.discard(0, one("8D"))
    assert h.phase is Phase.KNOCK
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S TH", HIGH, "KH", "AC")
    h.draw_stock(0)
    h.discard(0, one("AS"))       # breaks the run: 2S 3S TH AC = 16
    assert h.phase is Phase.DRAW


def test_oklahoma_knock_value_is_the_first_upcards_value() -> None:
    ok = Options(oklahoma=True)
    assert ok.knock_value(one("5C")) == 5
    assert ok.knock_value(one("KD")) == 10          # face cards count 10
    assert ok.knock_value(one("AH")) == 0           # an Ace: gin only
    h = position(LOW, HIGH, "AD", "8D", options=ok)   # deadwood 2 but an Ace upcard
    h.draw_stock(0)
    h.discard(0, one("8D"))
    assert h.phase is Phase.DRAW                     # no knock offered


def test_oklahoma_knock_value_holds_whether_or_not_the_upcard_is_taken() -> None:
    h = position(LOW, HIGH, "3D", "8D", options=Options(oklahoma=True))
    h.draw_pile(0)                                   # take the 3D upcard
    assert h.knock_value == 3
    h.discard(0, one("2D"))                          # deadwood 3D = 3 <= 3
    assert h.phase is Phase.KNOCK


def test_knocking_disabled_means_gin_only_and_knock_card_shows_zero() -> None:
    off = Options(knocking=False)
    assert off.knock_value(one("5C")) == 0
    h = position(LOW, HIGH, "KH", "8D", options=off)
    h.draw_stock(0)
    h.discard(0, one("8D"))
    assert h.phase is Phase.DRAW


def test_play_to_gin_stops_knock_offers_for_the_rest_of_the_hand() -> None:
    h = position(LOW, HIGH, "KH", "8D 9S 8S")
    h.draw_stock(0)
    h.discard(0, one("8D"))
    h.play_to_gin(0)
    h.draw_stock(1)
    h.discard(1, one("9S"))
    h.draw_stock(0)                                  # 8S
    h.discard(0, one("8S"))                          # still deadwood 2: no offer now
    assert h.phase is Phase.DRAW and h.to_move == 1
    assert h.view(0).play_to_gin


def test_gin_ends_the_hand_at_once_without_an_offer() -> None:
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S KD", HIGH, "KH", "7H")
    h.draw_stock(0)
    h.discard(0, one("KD"))                          # 7H joins the hearts: gin
    assert h.phase is Phase.OVER and h.result.outcome is Outcome.GIN


# ---- scoring -------------------------------------------------------------------------------

def test_gin_scores_the_gin_bonus_plus_the_opponents_deadwood() -> None:
    gin = cards(GIN)
    other = cards(HIGH)
    r = settle_out(0, (gin, other), Options(), one("KH"))
    assert (r.outcome, r.winner, r.points) == (Outcome.GIN, 0, 25 + deadwood(cards(HIGH)))


@pytest.mark.parametrize("bonus", [10, 15, 20, 25])
def test_gin_bonus_options(bonus: int) -> None:
    r = settle_out(0, (cards(GIN), cards(HIGH)),
                   Options(gin_bonus=bonus), one("KH"))
    assert r.points == bonus + 75


def test_no_layoffs_on_gin() -> None:
    gin = cards(GIN)
    other = "4S 8H 3H KD QD JC 9C 5C 2C TD"        # 4S, 8H, 3H would lay off on a knock
    r = settle_out(0, (gin, cards(other)), Options(), one("KH"))
    assert r.layoffs == () and r.deadwood[1] == deadwood(cards(other))


def test_knocker_with_fewer_points_scores_the_difference() -> None:
    k = cards(LOW)                                   # deadwood 2
    d = cards(HIGH)                                  # 66, nothing lays off? 8C? no
    r = settle_out(0, (k, d), Options(), one("KH"))
    assert (r.outcome, r.winner) == (Outcome.KNOCK, 0)
    assert r.points == r.deadwood[1] - 2


def test_layoffs_on_the_knockers_melds_including_chains() -> None:
    # Knocker: 6H 7H 8H, 2C 3C 4C, 9S 9D 9C, deadwood 5D. The defender lays 5H, then
    # 4H onto the hearts (a chain), 9H onto the nines.
    k = cards("6H 7H 8H 2C 3C 4C 9S 9D 9C 5D")
    d = cards("5H 4H 9H KS KD QC JC TC 2D 3S")
    r = settle_out(0, (k, d), Options(), one("7S"))
    assert sorted(map(str, r.layoffs)) == ["4H", "5H", "9H"]
    assert r.deadwood == (5, 25) and r.points == 20


def test_a_chain_needs_its_first_link() -> None:
    # 4H alone cannot lay off on 6H 7H 8H: 5H is missing.
    dw, laid = best_layoffs((hand_mask("6H 7H 8H"),), hand_mask("4H KS"))
    assert laid == 0 and dw == 14


def test_the_knocker_never_lays_off() -> None:
    # The knocker's deadwood 5D would extend the defender's 6D 7D 8D: it still counts.
    k = cards("6H 7H 8H 2C 3C 4C 9S 9D 9C 5D")
    d = cards("6D 7D 8D KS KD QC JC 2D 3S 4S")
    r = settle_out(0, (k, d), Options(), one("7S"))
    assert r.deadwood[0] == 5


def test_no_combining_deadwood_of_both_hands() -> None:
    # Knocker's loose 5D with the defender's 5S 5C would be a set: not allowed.
    k = cards("6H 7H 8H JC QC KC 9S 9D 9C 5D")
    d = "5S 5C KS KD 2D 3S AD TS 2H 3C"
    r = settle_out(0, (k, cards(d)), Options(), one("7S"))
    assert r.layoffs == () and r.deadwood == (5, deadwood(cards(d)))


def test_the_knockers_melds_are_not_rearranged_to_lay_off_more() -> None:
    # Knocker 7S 7H 7D 7C (one set of four); the defender's 6S 8S could only be laid off
    # if 7S were taken out to make a run: no rearranging.
    k = cards("7S 7H 7D 7C 2C 3C 4C JD QD KD")
    d = cards("6S 8S KS KH QC JC 2D 3S AD TS")
    r = settle_out(0, (k, d), Options(), one("7S"))
    assert r.layoffs == ()


def test_the_defender_chooses_its_melds_and_layoffs_together() -> None:
    # Knocker 7H 8H 9H. The defender's 4H 5H 6H is a run; laying 6H off would break it.
    # Keeping the run and laying nothing off leaves less deadwood.
    k = cards("7H 8H 9H 2C 3C 4C 9S 9D 9C AD")
    d = cards("4H 5H 6H KS KD QC JC 2D 3S TS")
    r = settle_out(0, (k, d), Options(), one("7S"))
    assert r.layoffs == ()
    assert r.deadwood[1] == deadwood(cards("KS KD QC JC 2D 3S TS"))


def test_the_knockers_melds_are_chosen_so_the_defender_gains_least() -> None:
    # The knocker's 5S 6S 7S 8S 9S 5H 5D 5C (loose 3H 3C) can be read two ways with the
    # same deadwood: 5S 5H 5D 5C + 6S 7S 8S 9S, or 5H 5D 5C + 5S 6S 7S 8S 9S. The second
    # would take the defender's 4S; the engine picks the first.
    k = cards("5S 6S 7S 8S 9S 3H 5H 5D 3C 5C")
    d = cards("2S 4S JS 4H 6H TH TD 7C 9C QC")
    r = settle_out(0, (k, d), Options(), one("KD"))
    assert r.layoffs == ()
    assert {" ".join(map(str, m)) for m in r.melds[0]} == {"5S 5H 5D 5C", "6S 7S 8S 9S"}
    assert r.deadwood == (6, 72) and r.points == 66


def test_undercut_when_the_defender_has_less() -> None:
    k = cards("AS 2S 3S 4H 5H 6H 7D 7C 7H 9D")          # deadwood 9
    d = cards("TS JS QS TH JH QH 2C 3C 4C 5D")          # deadwood 5
    r = settle_out(0, (k, d), Options(), one("KH"))
    assert (r.outcome, r.winner, r.points) == (Outcome.UNDERCUT, 1, 25 + 4)


def test_undercut_when_the_defender_has_the_same() -> None:
    k = cards("AS 2S 3S 4H 5H 6H 7D 7C 7H 5C")          # deadwood 5
    d = cards("TS JS QS TH JH QH 2C 3C 4C 5D")          # deadwood 5
    r = settle_out(0, (k, d), Options(), one("KH"))
    assert (r.outcome, r.winner, r.points) == (Outcome.UNDERCUT, 1, 25)


@pytest.mark.parametrize("bonus", [10, 15, 20, 25])
def test_undercut_bonus_options(bonus: int) -> None:
    k = cards("AS 2S 3S 4H 5H 6H 7D 7C 7H 9D")
    d = cards("TS JS QS TH JH QH 2C 3C 4C 5D")
    assert settle_out(0, (k, d), Options(undercut_bonus=bonus), one("KH")).points == bonus + 4


def test_oklahoma_spade_upcard_doubles_every_point() -> None:
    k = cards("AS 2S 3S 4H 5H 6H 7D 7C 7H 9D")
    d = cards("TS JS QS TH JH QH 2C 3C 4C 5D")
    plain = settle_out(0, (k, d), Options(oklahoma=True), one("KH"))
    spade = settle_out(0, (k, d), Options(oklahoma=True), one("KS"))
    assert spade.doubled and not plain.doubled
    assert spade.points == 2 * plain.points == 2 * (25 + 4)


def test_oklahoma_spade_doubles_even_with_knocking_disabled() -> None:
    gin = cards(GIN)
    r = settle_out(0, (gin, cards(HIGH)), Options(oklahoma=True, knocking=False), one("9S"))
    assert r.points == 2 * (25 + 75)


def test_no_doubling_without_oklahoma() -> None:
    gin = cards(GIN)
    assert settle_out(0, (gin, cards(HIGH)), Options(), one("9S")).points == 25 + 75


# ---- a draw hand ----------------------------------------------------------------------------

def run_down_to(h: HandState, left: int) -> None:
    """Both players draw from the stock and throw the card back until `left` remain."""
    while len(h.stock) > left:
        s = h.to_move
        h.draw_stock(s)
        h.discard(s, h.drawn)


def test_stock_draw_with_two_cards_left_ends_the_hand_as_a_draw() -> None:
    h = position(HIGH, "KC QH JD 9S 8D 6C 5S 3D TH 4D", "KH")
    run_down_to(h, 2)
    assert h.phase is Phase.DRAW
    assert h.draw_stock(h.to_move).card is None
    assert h.phase is Phase.OVER and h.result.outcome is Outcome.DRAW
    assert h.result.points == 0 and h.result.winner is None


def test_with_two_cards_left_a_player_may_still_take_the_pile_and_play_on() -> None:
    h = position(HIGH, "KC QH JD 9S 8D 6C 5S 3D TH 4D", "KH")
    run_down_to(h, 2)
    s = h.to_move
    top = h.pile_top
    h.draw_pile(s)
    h.discard(s, next(c for c in h.hand(s) if c != top))
    assert h.phase is Phase.DRAW and len(h.stock) == 2


def test_a_draw_hand_scores_nothing_but_counts_as_a_hand_played() -> None:
    game = Game(Options(score_limit=100), PascalRandom(3))
    run_down_to(game.hand, 2)
    game.hand.draw_stock(game.hand.to_move)
    game.record()
    assert game.scores == [0, 0] and game.hands_played == 1 and not game.over


# ---- the game --------------------------------------------------------------------------------

def test_game_ends_when_a_score_reaches_the_limit() -> None:
    game = Game(Options(score_limit=50), PascalRandom(11))
    while True:
        play_out(game.hand)
        game.record()
        if game.over:
            break
        assert max(game.scores) < 50
        game.next_hand()
    assert max(game.scores) >= 50
    assert game.winner == (0 if game.scores[0] > game.scores[1] else 1)
    with pytest.raises(IllegalMove):
        game.next_hand()


def test_limit_zero_plays_exactly_one_hand_even_a_draw() -> None:
    game = Game(Options(score_limit=0), PascalRandom(3))
    run_down_to(game.hand, 2)
    game.hand.draw_stock(game.hand.to_move)
    game.record()
    assert game.over and game.winner is None and game.hands_played == 1


def test_score_limit_range() -> None:
    Options(score_limit=999)
    with pytest.raises(ValueError):
        Options(score_limit=1000)


# ---- the core stays plain Python ----------------------------------------------------------------

def test_rules_core_never_imports_pyxel() -> None:
    code = ("import sys; sys.modules['pyxel'] = None\n"
            "import port.cards, port.ginrummy.rules, port.ginrummy.rules.melds, port.ginrummy.rules.settle, port.ginrummy.rules.state\n"
            "import importlib.util\n"
            "if importlib.util.find_spec('port.files'): import port.files\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
