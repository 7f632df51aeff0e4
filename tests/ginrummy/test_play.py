"""The game screen, driven through the real program with keys and mouse clicks."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from port.ginrummy import files
from port.cards import parse
from port.ginrummy.main import menus, play
from port.ginrummy.main.table import NO_DECK_UNDO, Mode
from port.ginrummy.rules import Outcome
from port.screen.profiles import BLUE, GREEN, LIGHTRED, RED, WHITE
from tests.ginrummy.helpers import (
    click_at, open_game, pixels_in, position_of, red_over, set_hand, shows_card, shows_text, to_play,
    wait_for_turn,
    yellow_over,
)

ME = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"        # deadwood 2 (2D)
CPU = "KS QD JC 9H 8C 6S 5D 3C TD 4C"       # no melds
MY_LOOSE = "KH QC JD 9S 8H 6C 5C 3H TC 4D"  # no melds


@pytest.fixture
def game(headless_pyxel, tmp_path: Path):
    return open_game(tmp_path)


def card(t: str):
    return parse(t)[0]


# ---- drawing ------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["key D", "click deck", "click DECK box"])
def test_draw_from_the_deck(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    {"key D": lambda: game.key("D"),
     "click deck": lambda: click_at(game, play.DECK_RECT),
     "click DECK box": lambda: click_at(game, play.DECK_BOX)}[how]()
    assert s.table.mode is Mode.HUMAN_DISCARD and s.table.drawn == card("8D")
    assert not s.table.drawn_from_pile


@pytest.mark.parametrize("how", ["key P", "click pile", "click DISCARD PILE box"])
def test_draw_from_the_discard_pile(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    {"key P": lambda: game.key("P"),
     "click pile": lambda: click_at(game, play.PILE_RECT),
     "click DISCARD PILE box": lambda: click_at(game, play.PILE_BOX)}[how]()
    assert s.table.drawn == card("KD") and s.table.drawn_from_pile


# ---- discarding ---------------------------------------------------------------------------

def test_discard_by_the_number_under_the_card(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    target = s.table.shown().cards[2]
    game.key("3")
    assert s.table.hand.pile_top == target and target not in s.table.hand.hand(0)


def test_key_0_discards_the_tenth_card(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    tenth = s.table.shown().cards[9]
    game.key("0")
    assert s.table.hand.pile_top == tenth


def test_discard_by_clicking_the_card(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    target = s.table.shown().cards[4]
    game.click("right", *play.card_rect(4)[:2])          # either button chooses
    assert s.table.hand.pile_top == target


@pytest.mark.parametrize("how", ["key D", "click pile", "click DRAWN CARD box"])
def test_discard_the_drawn_card(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    {"key D": lambda: game.key("D"),
     "click pile": lambda: click_at(game, play.PILE_RECT),
     "click DRAWN CARD box": lambda: click_at(game, play.DRAWN_BOX)}[how]()
    assert s.table.hand.pile_top == card("8D")
    assert s.table.mode is Mode.COMPUTER


def test_the_card_taken_from_the_pile_cannot_be_thrown_back(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("P")
    game.key("D")                                   # the drawn card: refused
    assert s.table.mode is Mode.HUMAN_DISCARD and s.table.drawn == card("KD")


# ---- undo ------------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["key U", "click the drawn card", "click UNDO box"])
def test_undo_a_draw_from_the_pile(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("P")
    {"key U": lambda: game.key("U"),
     "click the drawn card": lambda: click_at(game, play.DRAWN_RECT),
     "click UNDO box": lambda: click_at(game, play.UNDO_BOX)}[how]()
    assert s.table.mode is Mode.HUMAN_DRAW and s.table.hand.pile_top == card("KD")
    assert len(s.table.hand.hand(0)) == 10


@pytest.mark.parametrize("how", ["key U", "click the drawn card", "click UNDO box"])
def test_no_undo_of_a_deck_draw_keeps_the_card_and_says_so(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    {"key U": lambda: game.key("U"),
     "click the drawn card": lambda: click_at(game, play.DRAWN_RECT),
     "click UNDO box": lambda: click_at(game, play.UNDO_BOX)}[how]()
    assert s.table.mode is Mode.HUMAN_DISCARD and s.table.drawn == card("8D")
    assert s.table.hand.pile_top == card("KD")            # nothing thrown away
    first, second = textwrap.wrap(NO_DECK_UNDO, 34)
    assert shows_text(game, play.MSG_X + 16, play.MSG_Y, first)
    assert shows_text(game, play.MSG_X + 16, play.MSG_Y + play.LINE, second)


def test_no_undo_of_a_deck_draw_or_of_a_discard(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    game.key("U")
    assert s.table.mode is Mode.HUMAN_DISCARD and s.table.drawn == card("8D")
    game.key("1")
    game.key("U")
    assert s.table.mode is Mode.COMPUTER


# ---- the computer's turn ---------------------------------------------------------------------

def test_after_you_discard_the_computer_draws_and_discards(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D 2H")
    game.key("D")
    game.key("D")
    assert s.table.mode is Mode.COMPUTER
    wait_for_turn(game, s)
    assert s.table.mode is Mode.HUMAN_DRAW
    assert len(s.table.hand.hand(1)) == 10                  # it drew one and threw one
    assert s.table.hand.pile_top not in s.table.hand.hand(1)
    assert [e.seat for e in s.table.hand.events][-2:] == [1, 1]


def test_the_computer_is_paced_so_a_person_can_follow(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D 2H")
    game.key("D")
    game.key("D")
    game.step(3)
    assert s.table.mode is Mode.COMPUTER            # not yet: it waits between steps


def test_red_bar_over_the_pile_when_the_computer_takes_your_discard(game) -> None:
    # The computer holds 9S 9D: your 9C makes its set, so it takes it from the pile
    # (and, with 5H 6H QD JS still loose, cannot knock yet).
    s = set_hand(game, "KS JC 9C 8S 6S 5D TD AH 2H JD", "9S 9D 2C 3C 4C 5H 6H KD QD JS",
                 "KH", "8D 4S")
    game.key("D")
    game.key(str(position_of(s, card("9C")) + 1)[-1])
    wait_for_turn(game, s)
    assert s.table.computer_took_pile
    assert red_over(game, play.PILE_X, play.ROW_Y - 22)
    game.key("D")                                    # your next turn: the bar goes
    assert not red_over(game, play.PILE_X, play.ROW_Y - 22)


def test_no_red_bar_when_the_computer_draws_from_the_deck(game) -> None:
    # All low cards: your KS would only raise its deadwood, so it draws from the deck.
    s = set_hand(game, MY_LOOSE, "AC 2D 3S 4S 7C 6D 7H 8S 9C AH", "KD", "KS 2H")
    game.key("D")
    game.key("D")
    wait_for_turn(game, s)
    assert not s.table.computer_took_pile
    assert not red_over(game, play.PILE_X, play.ROW_Y - 22)


# ---- the screen ------------------------------------------------------------------------------

def test_blue_bars_over_sets_and_green_bars_over_runs(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    shown = s.table.shown()
    assert shown.cards[:3] == tuple(parse("7S 7D 7C"))       # sets first (by suit order)
    bar_y = play.HAND_Y - 6
    assert pixels_in(game, play.HAND_X, bar_y, 3 * play.HAND_STEP - 6, 4, BLUE) > 100
    assert pixels_in(game, play.HAND_X + 3 * play.HAND_STEP, bar_y, 3 * play.HAND_STEP - 6, 4, GREEN) > 100
    # the loose 2D has no bar
    assert pixels_in(game, play.HAND_X + 9 * play.HAND_STEP, bar_y, play.CARD_W, 4, BLUE) == 0


def test_unmatched_cards_sorted_by_rank_or_by_suit(tmp_path: Path, headless_pyxel) -> None:
    d = open_game(tmp_path)
    s = set_hand(d, MY_LOOSE, CPU, "KD", "8D")
    assert " ".join(map(str, s.table.shown().cards)) == "KH QC JD TC 9S 8H 6C 5C 4D 3H"
    s.table.sort = "SUIT"
    assert " ".join(map(str, s.table.shown().cards)) == "9S KH 8H 3H JD 4D QC TC 6C 5C"


def test_deck_count_turns_red_at_seven_or_fewer(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD")
    count_box = (play.DECK_X + 14, play.ROW_Y + 4, 20, 8)
    assert pixels_in(game, *count_box, WHITE) > 10 and pixels_in(game, *count_box, LIGHTRED) == 0
    del s.table.hand.stock[:-7]                       # a deck with 7 left
    game.step()
    assert pixels_in(game, *count_box, LIGHTRED) > 10   # the palette's readable red


# ---- knocking -------------------------------------------------------------------------------

def knock_position(game):
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("D")
    game.key("D")                                    # throw back 8D: deadwood 2
    assert s.table.mode is Mode.KNOCK_PROMPT
    return s


@pytest.mark.parametrize("how", ["key Y", "click YES", "click the knock card"])
def test_knock_prompt_yes_knocks(game, how: str) -> None:
    s = knock_position(game)
    {"key Y": lambda: game.key("Y"), "click YES": lambda: click_at(game, play.YES_BOX),
     "click the knock card": lambda: click_at(game, play.KNOCK_RECT)}[how]()
    assert s.table.mode is Mode.HAND_END and s.table.result.outcome is Outcome.KNOCK
    assert s.table.result.winner == 0


@pytest.mark.parametrize("how", ["key N", "click NO", "click the pile"])
def test_knock_prompt_no_plays_on(game, how: str) -> None:
    s = knock_position(game)
    {"key N": lambda: game.key("N"), "click NO": lambda: click_at(game, play.NO_BOX),
     "click the pile": lambda: click_at(game, play.PILE_RECT)}[how]()
    assert s.table.mode is Mode.COMPUTER


@pytest.mark.parametrize("how", ["key P", "click PLAY TO GIN"])
def test_knock_prompt_play_to_gin_stops_the_question(game, how: str) -> None:
    s = knock_position(game)
    {"key P": lambda: game.key("P"), "click PLAY TO GIN": lambda: click_at(game, play.GIN_BOX)}[how]()
    assert s.table.hand.gin_only[0]
    wait_for_turn(game, s)
    game.key("D")
    game.key("D")                                    # still deadwood 2: not asked again
    assert s.table.mode in (Mode.COMPUTER, Mode.HAND_END)


def test_no_knock_prompt_with_knocking_disabled(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    d.controller.ctx.config = d.controller.ctx.config.with_(knocking=False)
    s = set_hand(d, ME, CPU, "KD", "8D")
    d.key("D")
    d.key("D")
    assert s.table.mode is Mode.COMPUTER


def test_the_knock_card_shows_zero_with_knocking_disabled(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    d.controller.ctx.config = d.controller.ctx.config.with_(knocking=False)
    s = set_hand(d, ME, CPU, "KD", "8D")
    assert s.table.hand.knock_value == 0


def test_oklahoma_spade_upcard_red_box_around_the_knock_card(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    d.controller.ctx.config = d.controller.ctx.config.with_(oklahoma=True)
    s = set_hand(d, ME, CPU, "5S", "8D")
    assert s.table.hand.knock_value == 5
    assert pixels_in(d, play.KNOCK_X - 4, play.ROW_Y - 4, play.CARD_W + 8, 2, RED) > 40
    s = set_hand(d, ME, CPU, "5C", "8D")
    assert pixels_in(d, play.KNOCK_X - 4, play.ROW_Y - 4, play.CARD_W + 8, 2, RED) == 0


# ---- hints ----------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["key H", "middle button", "left+right away from choices"])
def test_hint_puts_a_yellow_bar_on_the_recommended_card(game, how: str) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.key("D")
    if how == "key H":
        game.key("H")
    elif how == "middle button":
        game.click("middle", 600, 200)
    else:
        game.move(600, 200)
        game.step()
        import pyxel
        pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, True)
        pyxel.set_btn(pyxel.MOUSE_BUTTON_RIGHT, True)
        game.step()
        pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, False)
        pyxel.set_btn(pyxel.MOUSE_BUTTON_RIGHT, False)
        game.step()
    target = s.table.hint_target
    if target == s.table.drawn:
        assert yellow_over(game, play.DRAWN_X, play.ROW_Y - 22)
    else:
        i = position_of(s, target)
        assert yellow_over(game, play.HAND_X + i * play.HAND_STEP, play.HAND_Y - 14)


def test_hint_on_the_draw_points_at_the_deck_or_the_pile(game) -> None:
    s = set_hand(game, "KS JC 9C 8S 6S 5D TD AH 2H JD", "QH QC 3D 4S 7H 8H 5C 2C JS 4D", "9H", "8D")
    game.key("H")
    assert s.table.hint_target in ("deck", "pile")
    x = play.PILE_X if s.table.hint_target == "pile" else play.DECK_X
    assert yellow_over(game, x, play.ROW_Y - 22)


def test_middle_button_hints_even_over_a_choice_area(game) -> None:
    s = set_hand(game, MY_LOOSE, CPU, "KD", "8D")
    game.click("middle", *play.DECK_RECT[:2])
    assert s.table.hint_target is not None and s.table.mode is Mode.HUMAN_DRAW


# ---- the hand's end and the game's end --------------------------------------------------

def test_hand_end_shows_both_hands_and_layoff_bars(game) -> None:
    # You knock with 6H 7H 8H ...; the computer lays off 5H (and 4H) on your hearts.
    s = set_hand(game, "6H 7H 8H 2C 3C 4C 9S 9D 9C 5D", "5H 4H KS KD QC JC TC 2D 3S 9H", "KH", "QS")
    game.key("D")
    game.key("D")
    game.key("Y")
    r = s.table.result
    assert r.outcome is Outcome.KNOCK and {str(c) for c in r.layoffs} == {"4H", "5H", "9H"}
    # the computer's row (face up now) carries RED bars over its laid-off cards, in the
    # meld-bar row, so nothing red runs into the first line of the hand's result
    assert pixels_in(game, play.RESULT_X, play.CPU_Y + 8 - 6, 10 * play.RESULT_STEP, 4, RED) > 3 * 40
    assert pixels_in(game, play.RESULT_X, play.CPU_Y + 8 + play.CARD_H, 10 * play.RESULT_STEP, 8, RED) == 0
    assert shows_text(game, play.MSG_X + 16, play.MSG_Y, play.result_lines(r, "PLAYER")[0])


def test_continue_after_the_hand_deals_the_next(game) -> None:
    s = knock_position(game)
    game.key("Y")
    assert s.table.scores[0] > 0
    game.key("RETURN")
    assert s.table.mode is Mode.HUMAN_DRAW and s.table.game.hands_played == 1


def test_the_game_ends_at_the_limit_then_play_again_or_main_menu(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, score_limit=0)
    s = knock_position(d)
    d.key("Y")
    click_at(d, play.CONTINUE_BOX)
    assert s.table.mode is Mode.GAME_END
    d.key("A")                                        # play again from zero
    again = d.controller
    assert isinstance(again, play.PlayScreen) and again is not s and again.table.scores == (0, 0)
    knock_position(d)
    d.key("Y")
    d.key("C")
    click_at(d, play.MENU_BOX)
    assert isinstance(d.controller, menus.TitleScreen)


def test_a_finished_game_is_recorded_in_statistics_and_high_scores(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, score_limit=0, name="Dave")
    knock_position(d)
    d.key("Y")
    d.key("C")
    store = files.Store.open(tmp_path)
    p = store.player("Dave")
    assert (p.won, p.hands) == (1, 1)
    assert store.high_scores()[0].name == "Dave"


# ---- quitting ---------------------------------------------------------------------------------

def test_quit_asks_for_confirmation(game) -> None:
    s = to_play(game)
    game.key("Q")
    assert s.quit_asked
    game.key("N")
    assert not s.quit_asked and game.controller is s
    click_at(game, play.QUIT_BOX)
    click_at(game, play.YES_BOX)
    assert isinstance(game.controller, menus.TitleScreen)


def test_double_click_on_quit_leaves_at_once(game) -> None:
    to_play(game)
    click_at(game, play.QUIT_BOX)
    click_at(game, play.QUIT_BOX)
    assert isinstance(game.controller, menus.TitleScreen)


def test_quitting_after_a_finished_hand_updates_the_statistics(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Quitter")
    knock_position(d)
    d.key("Y")
    d.key("C")
    d.key("Q")
    d.key("Y")
    p = files.Store.open(tmp_path).player("Quitter")
    assert p.hands == 1 and p.won == 1


def test_quitting_before_any_finished_hand_records_nothing(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Nobody")
    to_play(d)
    d.key("Q")
    d.key("Y")
    assert "Nobody" not in files.Store.open(tmp_path).players()


@pytest.mark.parametrize("sort, loose", [("RANK", "3H 2D AS"), ("SUIT", "AS 3H 2D")])
def test_your_deadwood_at_the_hands_end_keeps_your_sort_order(game, sort: str, loose: str) -> None:
    s = set_hand(game, "5C 6C 7C 8C 9H 9D 9S AS 2D 3H", "KS QD JC TH 4S 6S 5D 3C TD 4C", "KD", "QH")
    s.table.sort = sort
    game.key("D")
    game.key("D")                                    # throw back QH: knock with 6
    game.key("Y")
    assert s.table.mode is Mode.HAND_END
    for i, c in enumerate(parse(loose), start=7):   # after the seven melded cards
        assert shows_card(game, play.HAND_X + i * play.HAND_STEP, play.HAND_Y, c)
