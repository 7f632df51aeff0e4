"""The engine as a bot author meets it (issue 16), and under illegal calls (issue 14, point 6).

One test per point of issue 16, named after it; then a test per defect of issue 14's
engine point, each checking that the state is the same after the refused call.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from port.files import records
from port.ginrummy import files
from port.cards import CARDS, Card, PascalRandom, parse, shuffled_deck
from port.ginrummy.files import CFG, Config, Store
from port.ginrummy.main import menus, play
from port.ginrummy.main.table import Mode
from port.ginrummy.rules import (
    PILE_RUN_LIMIT, Act, BadArgument, DrawnBy, Event, Game, HandState, IllegalMove, Move, Options, Outcome,
    BONUS_CHOICES, Phase, settle_draw, settle_out,
)
from port.ginrummy.rules import settle as settle_module
from port.ginrummy.rules.players import Draw, KnockChoice, Player, knock_options, legal_discards, play_hand
from port.ginrummy.rules.state import View
from tests.ginrummy.helpers import open_game, set_hand, wait_for_turn
from tests.ginrummy.test_rules import position, run_down_to

ROOT = Path(__file__).resolve().parents[2]
HIGH = "KS QD JC 9H 8C 6S 5D 3C TD 4C"          # no melds
OTHER = "KC QH JD 9S 8D 6C 5S 3D TH 4D"         # no melds
APART = "AH 2H 3H 4D 5D 6D 9C TC JH 9D"         # clear of the issue's hand


def cards(t: str) -> list[Card]:
    return parse(t)


def one(t: str) -> Card:
    return parse(t)[0]


def snapshot(h: HandState) -> tuple:
    return (list(h.hands), list(h.stock), list(h.pile), h.to_move, h.phase, h.drawn,
            h.drawn_from_pile, list(h.gin_only), list(h.events), h.result, h.pile_run)


class PileGrabber(Player):
    """Always takes the pile card, throws its highest other card, never knocks."""

    name = "pilegrabber"

    def choose_draw(self, view: View) -> Draw:
        return Draw.PILE

    def choose_discard(self, view: View) -> Card:
        return max(legal_discards(view), key=lambda c: (c.value, c))

    def choose_knock(self, view: View) -> KnockChoice:
        return KnockChoice.PLAY_ON


# ---- 1. no endless hand ------------------------------------------------------------------

def test_issue16_endless_hand_is_a_draw() -> None:
    """Two players that always take the pile card: the hand ends as a draw after
    PILE_RUN_LIMIT pile draws in a row, and play_hand's turn cap is never met."""
    hand = position(HIGH, OTHER, "KH")
    record = play_hand(hand, (PileGrabber(), PileGrabber()), max_turns=PILE_RUN_LIMIT + 1)
    r = hand.result
    assert r.outcome is Outcome.DRAW and r.drawn_by is DrawnBy.PILE and r.points == 0
    assert record.turns == PILE_RUN_LIMIT
    assert [e.act for e in hand.events].count(Act.DRAW_PILE) == PILE_RUN_LIMIT
    assert hand.events[-1] == Event(0, Act.DRAW_HAND)        # at the start of seat 0's turn


def test_issue16_endless_hand_at_the_last_two_cards_is_a_draw() -> None:
    """The issue's case: two cards left in the stock and both keep taking the pile."""
    hand = position(HIGH, OTHER, "KH")
    run_down_to(hand, 2)
    assert hand.pile_run == 0
    play_hand(hand, (PileGrabber(), PileGrabber()))
    assert hand.result.drawn_by is DrawnBy.PILE and len(hand.stock) == 2


def test_issue16_the_pile_run_counts_pile_draws_in_a_row_only() -> None:
    hand = position(HIGH, OTHER, "KH", "2H 2C")
    hand.draw_pile(0)
    assert hand.pile_run == 1 and hand.view(0).pile_run == 1
    hand.undo_draw(0)                       # taken back: not counted
    assert hand.pile_run == 0
    hand.draw_pile(0)
    hand.discard(0, one("KS"))
    hand.draw_stock(1)                      # a stock draw starts the count again
    assert hand.pile_run == 0


def test_issue16_one_pile_draw_short_of_the_limit_plays_on() -> None:
    hand = position(HIGH, OTHER, "KH")
    grab = PileGrabber()
    for _ in range(PILE_RUN_LIMIT - 1):
        s = hand.to_move
        hand.draw_pile(s)
        hand.discard(s, grab.choose_discard(hand.view(s)))
    assert hand.phase is Phase.DRAW and hand.pile_run == PILE_RUN_LIMIT - 1
    s = hand.to_move
    hand.draw_pile(s)
    move = hand.discard(s, grab.choose_discard(hand.view(s)))   # the last of the run still discards
    assert move.over and move.result.drawn_by is DrawnBy.PILE and move.phase is Phase.OVER


def test_issue16_endless_hand_on_the_screen_ends_with_a_message(headless_pyxel, tmp_path: Path) -> None:
    """The screen game: you and a pile-taking computer; the hand ends and says why."""
    d = open_game(tmp_path)
    screen = set_hand(d, HIGH, OTHER, "KH")
    screen.table.computer = PileGrabber()
    for _ in range(4 * PILE_RUN_LIMIT):
        mode = screen.table.mode
        if mode is Mode.HAND_END:
            break
        if mode is Mode.HUMAN_DRAW:
            d.key("P")
        elif mode is Mode.HUMAN_DISCARD:
            d.key("1")
        elif mode is Mode.KNOCK_PROMPT:
            d.key("N")
        else:
            wait_for_turn(d, screen)
        d.step()
    assert screen.table.mode is Mode.HAND_END
    r = screen.table.result
    assert r.outcome is Outcome.DRAW and r.drawn_by is DrawnBy.PILE
    assert play.result_lines(r, "PLAYER") == [
        "DRAW HAND: THE DISCARD PILE", f"WAS TAKEN {PILE_RUN_LIMIT} TIMES IN A", "ROW. NO SCORE."]
    d.key("C")                               # and the game goes on
    d.step()
    assert screen.table.mode is Mode.HUMAN_DRAW and screen.table.game.hands_played == 1


# ---- 2. the discard phase's question ---------------------------------------------------

def test_issue16_knock_options_say_which_discards_go_out() -> None:
    # The issue's hand: with QD drawn all 11 cards count 11, yet throwing QD leaves 1.
    h = position("2C 3C 4C 6H 7H 8H KS KD KC AS", APART, "7S", "QD")
    h.draw_stock(0)
    assert h.deadwood(0) == 11 and not h.can_knock(0)        # all 11 cards, as documented
    assert h.knock_options(0) == {one("AS"): 10, one("QD"): 1}
    assert knock_options(h.view(0)) == h.knock_options(0)
    assert knock_options(h.view(1)) == {} and h.knock_options(1) == {}
    h.discard(0, one("QD"))
    assert h.phase is Phase.KNOCK and h.deadwood(0) == 1 and h.can_knock(0)
    assert h.knock_options(0) == {}                          # not discarding now


def test_issue16_knock_options_leave_out_the_pile_card_and_respect_play_to_gin() -> None:
    h = position("2C 3C 4C 6H 7H 8H KS KD KC AS", APART, "QD")
    h.draw_pile(0)                                           # QD from the pile: not throwable
    assert h.knock_options(0) == {one("AS"): 10}
    gin_only = position("AS 2S 3S 4H 5H 6H 7D 7C 7S KD", HIGH, "KH", "8D 9S 7H")
    gin_only.draw_stock(0)
    gin_only.discard(0, one("8D"))
    gin_only.play_to_gin(0)
    gin_only.draw_stock(1)
    gin_only.discard(1, one("9S"))
    gin_only.draw_stock(0)                                   # 7H: gin by throwing KD
    assert gin_only.knock_options(0) == {one("KD"): 0}


def test_issue16_deadwood_and_can_knock_docstrings_are_exact() -> None:
    assert "11 cards" in HandState.deadwood.__doc__ and "knock_options" in HandState.deadwood.__doc__
    assert "11 cards" in HandState.can_knock.__doc__ and "knock_options" in HandState.can_knock.__doc__


# ---- 3. public settlement takes cards and checks them ------------------------------------

def test_issue16_settlement_takes_card_lists_and_refuses_a_68_deadwood_knock() -> None:
    knocker = cards("KS QD JC 9H 8C 6S 5D 3C 6D AC")         # 68 deadwood
    other = cards("AS 2S 3S 4H 5H 6H 7D 7C 7S 2D")
    with pytest.raises(IllegalMove, match="seat 0 cannot knock with 68 deadwood: the knock value is 10"):
        settle_out(0, (knocker, other), Options(), one("KH"))
    r = settle_out(1, (knocker, other), Options(), one("KH"))
    assert (r.outcome, r.winner, r.points) == (Outcome.KNOCK, 1, 66)
    ok = Options(oklahoma=True)
    with pytest.raises(IllegalMove, match="knock value is 5"):
        settle_out(0, (knocker, other), ok, one("5H"))
    with pytest.raises(IllegalMove, match="only gin"):
        settle_out(1, (knocker, other), ok, one("AH"))


@pytest.mark.parametrize("hands,error", [
    ((1234, 5678), BadArgument),                              # masks: the unchecked path's input
    ((cards("AS 2S"), cards(OTHER)), IllegalMove),           # not ten cards
    ((cards(HIGH), cards("KS QH JD 9S 8D 6C 5S 3D TH 4D")), IllegalMove),   # KS in both
    ((cards(HIGH), cards(OTHER), cards(OTHER)), BadArgument),
    ("AS 2S", BadArgument),
])
def test_issue16_settlement_checks_its_inputs(hands: object, error: type) -> None:
    with pytest.raises(error):
        settle_out(0, hands, Options(), one("KH"))           # type: ignore[arg-type]
    with pytest.raises(error):
        settle_draw(hands, Options(), one("KH"))             # type: ignore[arg-type]


def test_issue16_settle_draw_takes_cards() -> None:
    r = settle_draw((cards(HIGH), cards(OTHER)), Options(), one("KH"))
    assert r.outcome is Outcome.DRAW and r.drawn_by is DrawnBy.STOCK and r.deadwood == (75, 75)


# ---- 4. actions say what happened -----------------------------------------------------

def test_issue16_actions_return_what_happened() -> None:
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 2D", HIGH, "KH", "8D QC")
    m = h.draw_pile(0)
    assert m == Move(0, Act.DRAW_PILE, one("KH"), Phase.DISCARD, 0)
    assert h.undo_draw(0) == Move(0, Act.UNDO, one("KH"), Phase.DRAW, 0)
    assert h.draw_stock(0) == Move(0, Act.DRAW_STOCK, one("8D"), Phase.DISCARD, 0)
    assert h.discard(0, one("8D")) == Move(0, Act.DISCARD, one("8D"), Phase.KNOCK, 0)
    assert h.play_on(0) == Move(0, Act.PLAY_ON, None, Phase.DRAW, 1)
    assert not h.draw_stock(1).over
    h.discard(1, one("QC"))
    h.draw_pile(0)
    h.discard(0, one("2D"))
    m = h.knock(0)
    assert m.over and m.phase is Phase.OVER and m.result is h.result
    assert (m.act, m.card, m.result.outcome) == (Act.KNOCK, None, Outcome.KNOCK)


def test_issue16_a_stock_draw_at_two_cards_says_the_hand_is_a_draw() -> None:
    h = position(HIGH, OTHER, "KH")
    run_down_to(h, 2)
    m = h.draw_stock(h.to_move)
    assert m.over and m.card is None and m.act is Act.DRAW_STOCK
    assert m.result.outcome is Outcome.DRAW and m.result.drawn_by is DrawnBy.STOCK


def test_issue16_a_gin_discard_says_the_hand_is_over() -> None:
    h = position("AS 2S 3S 4H 5H 6H 7D 7C 7S KD", HIGH, "KH", "7H")
    h.draw_stock(0)
    m = h.discard(0, one("KD"))
    assert m.over and m.result.outcome is Outcome.GIN and m.card == one("KD")


# ---- 5. messages name the action and the reason ---------------------------------------

def test_issue16_error_messages_name_the_action_and_the_reason() -> None:
    h = position(HIGH, OTHER, "KH", "QC")
    said = []
    for act in (lambda: h.discard(0, one("KS")), lambda: h.draw_stock(1), lambda: h.knock(0),
                lambda: h.draw_stock(2), lambda: h.undo_draw(0)):
        with pytest.raises(IllegalMove) as e:
            act()
        said.append(str(e.value))
    h.draw_stock(0)
    for act in (lambda: h.draw_pile(0), lambda: h.discard(0, one("AS")), lambda: h.undo_draw(0)):
        with pytest.raises(IllegalMove) as e:
            act()
        said.append(str(e.value))
    assert said == [
        "seat 0 cannot discard now: it must draw first",
        "seat 1 cannot draw from the stock now: it is seat 0's turn",
        "seat 0 cannot knock now: it must draw first",
        "cannot draw from the stock: there is no seat 2 (the seats are 0 and 1)",
        "seat 0 cannot undo the draw now: it must draw first",
        "seat 0 cannot draw from the pile now: it has drawn and must discard",
        "seat 0 cannot discard AS: it is not in seat 0's hand",
        "seat 0 cannot undo the draw: only a draw from the discard pile can be undone",
    ]
    h.discard(0, one("QC"))
    with pytest.raises(IllegalMove) as e:
        h.draw_stock(0)
    assert e.value.reason == "it is seat 1's turn"        # the reason alone, for the screen


# ---- 6. the bonuses are the documented ones ----------------------------------------------

@pytest.mark.parametrize("bonus", [10, 15, 20, 25])
def test_issue16_options_accept_the_documented_bonuses(bonus: int) -> None:
    o = Options(gin_bonus=bonus, undercut_bonus=bonus)
    assert (o.gin_bonus, o.undercut_bonus) == (bonus, bonus)


@pytest.mark.parametrize("field,value,error,says", [
    ("gin_bonus", 30, ValueError, "the gin bonus is one of 10, 15, 20, 25 (the documentation's choices), not 30"),
    ("undercut_bonus", 0, ValueError, "the undercut bonus is one of 10, 15, 20, 25"),
    ("gin_bonus", -5, ValueError, "not -5"),
    ("gin_bonus", 25.0, TypeError, "a whole number"),
    ("undercut_bonus", True, TypeError, "a whole number"),
    ("score_limit", 100.0, TypeError, "the score limit is a whole number"),
    ("oklahoma", 1, TypeError, "oklahoma is True or False"),
    ("first_turn", "seat0", TypeError, "first_turn is a FirstTurn"),
])
def test_issue16_options_refuse_other_bonuses_with_a_clear_message(
        field: str, value: object, error: type, says: str) -> None:
    with pytest.raises(error) as e:
        Options(**{field: value})
    assert says in str(e.value)


@pytest.mark.parametrize("line", ["gin_bonus=30", "undercut_bonus=5", "gin_bonus=twenty", "gin_bonus=-25",
                                  "undercut_bonus=" + "9" * 5000])
def test_issue16_a_cfg_with_a_bad_bonus_loads_with_defaults_and_a_message(tmp_path: Path, line: str) -> None:
    (tmp_path / CFG).write_bytes(records.pack(CFG, [line, "name=Dave", "score_limit=250"]))
    store = Store.open(tmp_path)
    assert store.config == Config(name="Dave", score_limit=250)     # the rest kept, bonuses 25
    notices = store.take_notices()
    assert len(notices) == 1 and "GINRUMMY.CFG" in notices[0]


def test_issue16_the_options_screen_starts_from_a_damaged_cfg(headless_pyxel, tmp_path: Path) -> None:
    (tmp_path / CFG).write_bytes(records.pack(CFG, ["gin_bonus=30", "name=Dave"]))
    d = open_game(tmp_path)
    d.key("O")
    d.step()
    assert isinstance(d.controller, menus.OptionsScreen)
    assert d.controller.cfg.gin_bonus == 25
    d.key("G")                                     # the GIN bonus cycles on from the default
    d.step()
    assert d.controller.cfg.gin_bonus == BONUS_CHOICES[0]


# ---- 7. the knocker's melds: one wording, the code's -------------------------------------

def test_issue16_the_knockers_criterion_is_worded_as_the_code_does() -> None:
    doc = settle_module.__doc__ or ""
    engine = (ROOT / "docs" / "engine.md").read_text()
    # Issue 12 made it the knocker's melds at their best (docs/engine.md): one wording still.
    phrase = "scores best for the knocker after the defender's best layoffs"
    assert phrase in " ".join(doc.split()) and phrase in " ".join(engine.split())
    assert "lay off least on" not in doc and "gain least" not in " ".join(doc.split())
    # The code: here the least-deadwood arrangement leaving the defender most is the best.
    k = cards("5S 6S 7S 8S 9S 3H 5H 5D 3C 5C")
    d = cards("2S 4S JS 4H 6H TH TD 7C 9C QC")
    assert settle_out(0, (k, d), Options(), one("KD")).deadwood == (6, 72)


# ---- issue 14, point 6: illegal calls change nothing -------------------------------------

def test_issue14_a_float_seat_is_refused_before_the_stock_changes() -> None:
    h = HandState.deal(Options(), PascalRandom(1))
    before = snapshot(h)
    for seat in (0.0, 1.0, True, False, "0", None, 0j):
        with pytest.raises(BadArgument) as e:
            h.draw_stock(seat)                     # type: ignore[arg-type]
        assert isinstance(e.value, TypeError) and isinstance(e.value, IllegalMove)
        assert snapshot(h) == before
    for seat in (2, -1, 10**30):
        with pytest.raises(IllegalMove, match="there is no seat"):
            h.draw_pile(seat)
        assert snapshot(h) == before


@pytest.mark.parametrize("bad", [52, -1, 10**30, -(10**30), 0.0, 12.0, True, False, "5", "AS", None, 1.5, b"x"])
def test_issue14_bad_card_values_raise_the_engines_error(bad: object) -> None:
    h = HandState.deal(Options(), PascalRandom(1))
    h.draw_stock(0)
    before = snapshot(h)
    with pytest.raises(IllegalMove) as e:
        h.discard(0, bad)                          # type: ignore[arg-type]
    assert str(e.value).startswith("seat 0 cannot discard ")
    assert snapshot(h) == before


def test_issue14_a_held_card_as_a_plain_int_is_a_card() -> None:
    h = HandState.deal(Options(), PascalRandom(1))
    h.draw_stock(0)
    c = h.hand(0)[0]
    assert h.discard(0, int(c)).card == c and isinstance(h.pile_top, Card)


@pytest.mark.parametrize("make", [
    lambda deck: HandState(Options(), deck, first=2),
    lambda deck: HandState(Options(), deck, first=1.0),
    lambda deck: HandState(Options(), deck[:-1]),
    lambda deck: HandState(Options(), deck[:-1] + deck[:1]),
    lambda deck: HandState(Options(), [float(c) for c in deck]),
    lambda deck: HandState(Options(), [str(c) for c in deck]),
    lambda deck: HandState(None, deck),
    lambda deck: Game(Options(), PascalRandom(1), first=2),
    lambda deck: Game(Options(), PascalRandom(1), first=True),
    lambda deck: Game(Options(), None),
    lambda deck: Game({"gin_bonus": 25}, PascalRandom(1)),
])
def test_issue14_constructors_refuse_impossible_arguments(make) -> None:  # noqa: ANN001
    with pytest.raises(IllegalMove):
        make(list(shuffled_deck(PascalRandom(3))))


def test_issue14_a_deck_of_plain_ints_deals_cards() -> None:
    deck = [int(c) for c in shuffled_deck(PascalRandom(3))]
    h = HandState(Options(), deck, first=1)
    assert h.to_move == 1 and all(isinstance(c, Card) for c in h.hand(0) + h.stock + h.pile)


def test_issue14_readers_check_the_seat_too() -> None:
    h = HandState.deal(Options(), PascalRandom(1))
    for read in (h.hand, h.deadwood, h.can_knock, h.view, h.knock_options):
        with pytest.raises(IllegalMove):
            read(-1)
        with pytest.raises(BadArgument):
            read(0.0)


BAD_VALUES = [0, 1, 2, -1, 0.0, 1.0, True, False, "0", "AS", None, 52, -52, 10**100, b"", [], CARDS[5]]


def test_issue14_random_illegal_calls_raise_illegal_move_and_change_nothing() -> None:
    """Random calls with wrong types and values through whole hands: each one either is
    legal, or raises IllegalMove (BadArgument for a wrong type) with the state equal."""
    rng = random.Random(14)
    refused = 0
    for deal in range(6):
        h = HandState.deal(Options(), PascalRandom(deal))
        grab = PileGrabber()
        while h.phase is not Phase.OVER:
            for _ in range(12):
                name = rng.choice(["draw_stock", "draw_pile", "undo_draw", "discard", "knock",
                                   "play_on", "play_to_gin"])
                args = [rng.choice(BAD_VALUES)]
                if name == "discard":
                    args.append(rng.choice(BAD_VALUES + h.hand(h.to_move)))
                before = snapshot(h)
                trial = h.copy()
                try:
                    getattr(trial, name)(*args)
                except IllegalMove:
                    refused += 1
                    assert snapshot(trial) == before, (name, args)
            # then a legal move, so every phase is visited
            s = h.to_move
            if h.phase is Phase.DRAW:
                h.draw_stock(s) if rng.random() < 0.7 else h.draw_pile(s)
            elif h.phase is Phase.DISCARD:
                h.discard(s, grab.choose_discard(h.view(s)))
            else:
                h.play_on(s) if rng.random() < 0.8 else h.knock(s)
    assert refused > 500
