"""The table rules on screen (issue 12, the screen half), through the real program: the
TABLE RULES page, its presets, and what the game screen shows under each rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.ginrummy import files
from port.cards import parse
from port.ginrummy.main import menus, play, tablerules
from port.ginrummy.main.table import Mode
from port.screen.profiles import LIGHTGRAY, RED, WHITE, YELLOW
from tests.ginrummy.helpers import (click_at, open_game, pixels_in, red_over, shows_card, shows_text, to_play,
                                wait_for_turn)
from tests.ginrummy.test_rules import deck_for


@pytest.fixture
def rules_page(headless_pyxel, tmp_path: Path):
    d = open_game(tmp_path)
    d.key("O")
    d.key("T")
    assert isinstance(d.controller, menus.RulesScreen)
    return d


def value_shown(d, i: int) -> bool:
    """The rule's value, beside its box, as the configuration has it now."""
    r = menus.rule_rect(i)
    return shows_text(d, r.x + r.w + 16, r.y + 6, tablerules.RULES[i].value(d.controller.ctx.config), WHITE)


def hot_letter(rule: tablerules.Rule) -> str:
    return rule.label[rule.hot] if isinstance(rule.hot, int) else rule.hot


def cfg(d) -> files.Config:
    return d.controller.ctx.config


def test_every_rule_shows_its_value_and_the_defaults_are_the_originals(rules_page) -> None:
    d = rules_page
    assert cfg(d) == files.Config()
    shown = [r.value(cfg(d)) for r in tablerules.RULES]
    assert shown == ["FIXED 10", "TOTAL", "NONE", "NO", "NO", "NO", "COMPUTER", "NO", "25", "NO"]
    assert all(value_shown(d, i) for i in range(len(tablerules.RULES)))
    assert shows_text(d, menus.PRESET_X, menus.preset_rect(3).y + 6, "NOW: ORIGINAL", WHITE)


@pytest.mark.parametrize(("key", "field", "values"), [
    ("K", "knock_card", ["OKLAHOMA", "DECK", "FIXED"]),
    ("S", "scoring", ["BOXES", "GAME_ONLY", "FLOP", "HOLLYWOOD", "TOTAL"]),
    ("D", "doublers", [("SPADES",), ("HEARTS",), ("SPADES", "HEARTS"), ()]),
    ("H", "shutout", [True, False]),
    ("U", "upcard_offer", [True, False]),
    ("1", "deal_eleven", [True, False]),
    ("F", "random_first", [True, False]),
    ("W", "winner_deals", [True, False]),
    ("B", "box_bonus", [10, 15, 20, 25]),
    ("A", "arrange", [True, False]),
])
def test_each_rule_steps_through_its_values_by_key(rules_page, key: str, field: str, values: list) -> None:
    d = rules_page
    i = [hot_letter(r) for r in tablerules.RULES].index(key)
    for want in values:
        d.key(key)
        assert getattr(cfg(d), field) == want
        assert value_shown(d, i)


def test_a_click_steps_on_and_the_right_button_steps_back(rules_page) -> None:
    d = rules_page
    click_at(d, menus.rule_rect(1))                       # SCORING
    assert cfg(d).scoring == "BOXES"
    click_at(d, menus.rule_rect(1), "right")
    click_at(d, menus.rule_rect(1), "right")
    assert cfg(d).scoring == "HOLLYWOOD" and value_shown(d, 1)


def test_the_knock_card_and_the_options_pages_oklahoma_agree(rules_page) -> None:
    d = rules_page
    d.key("K")
    d.key("K")                                            # FROM A DECK
    assert cfg(d).knock_deck and not cfg(d).oklahoma
    d.key("O")                                            # back to the options page
    assert isinstance(d.controller, menus.OptionsScreen)
    d.key("O")                                            # OKLAHOMA: YES
    assert cfg(d).oklahoma and not cfg(d).knock_deck and cfg(d).knock_card == "OKLAHOMA"
    d.key("T")
    assert value_shown(d, 0) and tablerules.RULES[0].value(cfg(d)) == "OKLAHOMA UPCARD"


def test_oklahoma_on_the_options_page_turns_off_what_cannot_go_with_it(rules_page) -> None:
    d = rules_page
    d.key("C")                                            # CARD ROOM: knock deck, doublers, deal 11
    d.key("O")
    d.key("O")                                            # OKLAHOMA: YES
    c = cfg(d)
    assert c.knock_card == "OKLAHOMA" and c.doublers == () and not c.deal_eleven
    assert c.options().oklahoma and c.scoring == "BOXES"  # the rest of the card room stays
    d.key("O")                                            # NO: the fixed 10
    assert cfg(d).knock_card == "FIXED"


@pytest.mark.parametrize("name", tablerules.PRESET_NAMES)
def test_a_preset_sets_its_whole_group_and_says_so(rules_page, name: str) -> None:
    d = rules_page
    d.key("S")
    d.key("H")                                            # a mix of our own first
    assert shows_text(d, menus.PRESET_X, menus.preset_rect(3).y + 6, "NOW: YOUR OWN", WHITE)
    click_at(d, menus.preset_rect(tablerules.PRESET_NAMES.index(name)))
    for field, value in tablerules.preset_fields(name).items():
        assert getattr(cfg(d), field) == value, field
    assert tablerules.preset_of(cfg(d)) == name
    assert shows_text(d, menus.PRESET_X, menus.preset_rect(3).y + 6, f"NOW: {name}", WHITE)
    assert all(value_shown(d, i) for i in range(len(tablerules.RULES)))


def test_the_presets_keys_and_the_original_is_every_default(rules_page) -> None:
    d = rules_page
    d.key("C")
    assert cfg(d).knock_deck and cfg(d).scoring == "BOXES" and "SPADES" in cfg(d).doublers
    d.key("L")
    assert cfg(d).upcard_offer and (cfg(d).gin_bonus, cfg(d).undercut_bonus) == (20, 10)
    d.key("R")
    assert cfg(d) == files.Config()


def test_the_preset_keeps_the_players_own_settings(rules_page) -> None:
    d = rules_page
    d.controller.ctx.config = cfg(d).with_(name="Ann", score_limit=250, big_cards=True, arrange=True)
    d.key("C")
    c = cfg(d)
    assert (c.name, c.score_limit, c.big_cards, c.arrange) == ("Ann", 250, True, True)


def test_save_keeps_the_table_rules(rules_page, tmp_path: Path) -> None:
    d = rules_page
    d.key("C")
    d.key("B")                                            # box bonus 10
    chosen = cfg(d)
    d.key("RETURN")                                       # back to the options page
    d.key("S")
    assert files.Store.open(tmp_path).config == chosen


def test_the_title_says_when_the_table_is_not_the_originals(rules_page) -> None:
    d = rules_page
    assert tablerules.summary(cfg(d)) == ""
    d.key("C")
    d.key("RETURN")
    d.key("M")
    assert isinstance(d.controller, menus.TitleScreen)
    line = "TABLE RULES CARD ROOM"
    assert shows_text(d, (640 - len(line) * 8) // 2, 294, line, LIGHTGRAY)


def test_rules_that_cannot_go_together_give_way_to_the_one_chosen(rules_page) -> None:
    d = rules_page
    d.key("D")                                            # doublers SPADES: they read the knock deck
    assert cfg(d).doublers == ("SPADES",) and cfg(d).knock_card == "DECK"
    d.key("K")                                            # FIXED 10: no knock deck, no doublers
    assert cfg(d).knock_card == "FIXED" and cfg(d).doublers == ()
    d.key("U")                                            # the upcard offer ...
    d.key("1")                                            # ... and the deal of 11 turns no upcard
    assert cfg(d).deal_eleven and not cfg(d).upcard_offer
    d.key("U")
    assert cfg(d).upcard_offer and not cfg(d).deal_eleven
    assert all(value_shown(d, i) for i in range(len(tablerules.RULES)))
    cfg(d).options()                                      # the engine takes every step's rules


# ---- the game screen under the table rules -----------------------------------------------

ME = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"        # deadwood 2
CPU = "KS QD JC 9H 8C 6S 5D 3C TD 4C"       # deadwood 75


def game_with(tmp_path: Path, **rules: object):
    d = open_game(tmp_path)
    d.controller.ctx.config = d.controller.ctx.config.with_(**rules)
    return d


def deal(d, first: str, second: str, upcard: str, stock_top: str = "", who_first: int = 0,
         knock_card: str = "") -> play.PlayScreen:
    """Deal this hand: ``first`` to the seat moving first (0 you, 1 the computer)."""
    s = to_play(d)
    s.table.redeal(deck_for(first, second, upcard, stock_top), first=who_first,
                   knock_card=parse(knock_card)[0] if knock_card else None)
    d.step()
    return s


def message_shows(d, row: int, line: str) -> bool:
    return shows_text(d, play.MSG_X + 16, play.MSG_Y + play.LINE * row, line, WHITE)


@pytest.mark.parametrize("how", ["key T", "click TAKE", "click the pile"])
def test_the_upcard_question_take(headless_pyxel, tmp_path: Path, how: str) -> None:
    d = game_with(tmp_path, upcard_offer=True)
    s = deal(d, ME, CPU, "KD", "8D")
    assert s.table.mode is Mode.UPCARD_OFFER and message_shows(d, 0, "Take the upcard?")
    assert pixels_in(d, *play.TAKE_BOX, RED) > 0 and pixels_in(d, *play.DECLINE_BOX, RED) > 0
    {"key T": lambda: d.key("T"), "click TAKE": lambda: click_at(d, play.TAKE_BOX),
     "click the pile": lambda: click_at(d, play.PILE_RECT)}[how]()
    assert s.table.mode is Mode.HUMAN_DISCARD and s.table.drawn == parse("KD")[0] and s.table.drawn_from_pile
    d.key("U")                                            # undo: the question again
    assert s.table.mode is Mode.UPCARD_OFFER and s.table.hand.pile_top == parse("KD")[0]


@pytest.mark.parametrize("how", ["key D", "click DECLINE"])
def test_the_upcard_question_decline_then_the_dealer_then_the_stock(headless_pyxel, tmp_path: Path,
                                                                    how: str) -> None:
    d = game_with(tmp_path, upcard_offer=True)
    s = deal(d, ME, CPU, "KD", "8D")
    d.key("D") if how == "key D" else click_at(d, play.DECLINE_BOX)
    assert s.table.mode is Mode.COMPUTER                  # the dealer is asked next
    wait_for_turn(d, s)                                   # KD is no use to it: declined too
    assert s.table.mode is Mode.HUMAN_DRAW and s.table.hand.stock_only
    assert message_shows(d, 0, "Both declined the upcard:")
    d.key("P")                                            # the pile is refused, with the reason
    assert s.table.mode is Mode.HUMAN_DRAW and "stock" in s.table.message
    d.key("D")
    assert s.table.mode is Mode.HUMAN_DISCARD and not s.table.drawn_from_pile


def test_the_computer_is_asked_first_and_its_decline_is_said(headless_pyxel, tmp_path: Path) -> None:
    d = game_with(tmp_path, upcard_offer=True)
    s = deal(d, CPU, ME, "KD", "8D", who_first=1)         # you deal: the computer is asked first
    wait_for_turn(d, s)
    assert s.table.mode is Mode.UPCARD_OFFER
    assert message_shows(d, 0, "The computer declined it.") and message_shows(d, 1, "Take the upcard?")
    d.key("H")
    assert s.table.hint_target in ("take", "decline")
    box = play.TAKE_BOX if s.table.hint_target == "take" else play.DECLINE_BOX
    assert pixels_in(d, box.x, box.y - 7, box.w, 4, YELLOW) > box.w


@pytest.mark.parametrize("how", ["key -", "click the eleventh card"])
def test_the_deal_of_eleven_your_opening_discard_starts_the_pile(headless_pyxel, tmp_path: Path, how: str) -> None:
    d = game_with(tmp_path, deal_eleven=True)
    s = deal(d, ME, CPU, "9C")                            # 9C: your eleventh card
    t = s.table
    assert t.mode is Mode.HUMAN_DISCARD and t.opening and len(t.shown().cards) == 11
    assert t.hand.pile == [] and message_shows(d, 0, "Start the pile: discard")
    assert shows_text(d, play.HAND_X + 10 * play.HAND_STEP + 20, play.HAND_Y + play.CARD_H + 4, "-", WHITE)
    eleventh = t.shown().cards[10]
    d.key("U")
    d.key("D")                                            # nothing drawn: nothing to undo or throw back
    assert t.mode is Mode.HUMAN_DISCARD and t.message == "" and len(t.hand.hand(0)) == 11
    d.key("-") if how == "key -" else click_at(d, play.card_rect(10))
    assert t.hand.pile_top == eleventh and t.mode is Mode.COMPUTER     # not a turn: no knock
    assert len(t.hand.hand(0)) == 10


def test_the_deal_of_eleven_the_computer_starts_the_pile(headless_pyxel, tmp_path: Path) -> None:
    d = game_with(tmp_path, deal_eleven=True)
    s = deal(d, CPU, ME, "9C", who_first=1)
    assert s.table.mode is Mode.COMPUTER
    wait_for_turn(d, s)
    t = s.table
    assert t.mode is Mode.HUMAN_DRAW and len(t.hand.pile) == 1 and len(t.hand.hand(1)) == 10
    assert shows_card(d, play.PILE_X, play.ROW_Y, t.hand.pile_top)


def test_the_knock_card_from_its_own_deck_is_shown_with_its_value(headless_pyxel, tmp_path: Path) -> None:
    d = game_with(tmp_path, knock_deck=True, doublers=("SPADES",))
    s = deal(d, ME, CPU, "KD", "8D", knock_card="7S")
    assert s.table.hand.knock_value == 7
    assert shows_card(d, play.KNOCK_X, play.ROW_Y, parse("7S")[0])
    assert shows_text(d, play.KNOCK_X + (play.CARD_W - 56) // 2, play.KNOCK_VALUE_Y, "VALUE 7",
                      LIGHTGRAY)
    assert red_over(d, play.KNOCK_X - 4, play.ROW_Y - 4, play.CARD_W + 8, 2)    # a spade: doubled
    s = deal(d, ME, CPU, "KD", "8D", knock_card="AH")
    assert s.table.hand.knock_value == 0
    assert shows_text(d, play.KNOCK_X + (play.CARD_W - 64) // 2, play.KNOCK_VALUE_Y, "GIN ONLY",
                      LIGHTGRAY)
    assert not red_over(d, play.KNOCK_X - 4, play.ROW_Y - 4, play.CARD_W + 8, 2)


def test_boxes_and_the_dealer_under_the_scores(headless_pyxel, tmp_path: Path) -> None:
    d = game_with(tmp_path, scoring="BOXES", winner_deals=True, name="Ann")
    d.controller.ctx.config = d.controller.ctx.config.with_(name="Ann")
    s = deal(d, "6H 7H 8H 2C 3C 4C 9S 9D 9C KD", "KS QD JC 5S 8C 6S 5D 3D TD 4S", "QH", "9H")
    assert shows_text(d, play.SCORE_X, 20 + 3 * play.LINE, "BOXES 0 TO 0", WHITE)
    assert shows_text(d, play.SCORE_X, 20 + 4 * play.LINE, "DEALER COMPUTER", LIGHTGRAY)
    d.key("D")
    d.key("0")                                            # gin: 25 + 56, one box and two for gin
    assert s.table.mode is Mode.HAND_END
    assert message_shows(d, 2, "YOU SCORE 81, 3 BOXES.")
    assert shows_text(d, play.SCORE_X, 20 + 3 * play.LINE, "BOXES 3 TO 0", WHITE)
    d.key("RETURN")                                       # the winner deals the next hand
    assert s.table.dealer == 0 and s.table.mode is Mode.COMPUTER
    assert shows_text(d, play.SCORE_X, 20 + 4 * play.LINE, "DEALER Ann", LIGHTGRAY)


def test_a_doubled_hand_says_which_knock_card_doubled_it(headless_pyxel, tmp_path: Path) -> None:
    d = game_with(tmp_path, knock_deck=True, doublers=("HEARTS",))
    s = deal(d, "6H 7H 8H 2C 3C 4C 9S 9D 9C KD", "KS QD JC 5S 8C 6S 5D 3D TD 4S", "QH", "9H",
             knock_card="TH")
    d.key("D")
    d.key("0")
    r = s.table.result
    assert r.doubled and r.points == 2 * 81
    assert "HEART KNOCK CARD: DOUBLED." in play.result_lines(r, "PLAYER", s.table.options, parse("TH")[0])
    assert message_shows(d, 2, "HEART KNOCK CARD: DOUBLED.")


def test_nothing_of_the_table_rules_shows_with_the_defaults(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    s = deal(d, ME, CPU, "KD", "8D")
    assert s.table.mode is Mode.HUMAN_DRAW and s.table.dealer == 1     # the computer deals: you go first
    assert not play.dealer_shown(s.table.options) and not s.table.options.boxes
    assert pixels_in(d, play.SCORE_X, 20 + 3 * play.LINE, 120, 22, WHITE) == 0
    assert pixels_in(d, play.SCORE_X, 20 + 4 * play.LINE, 120, 8, LIGHTGRAY) == 0


def test_the_sheet_says_when_the_points_leader_loses_on_boxes() -> None:
    from port.ginrummy.rules.options import Options
    from port.ginrummy.rules.scoring import sheet
    opts = Options(scoring="BOXES", score_limit=100)
    # the computer 104 points and 1 box, you 60 points and 9 boxes: 44 + 100 against 200
    s = sheet(opts, [[60, 104]], [[9, 1]])
    assert s.winner == 0
    lines = play.sheet_lines(s, opts)
    assert lines[0] == f"YOU WIN BY {s.net}."
    assert "THE COMPUTER HAD MORE POINTS BUT LOST ON BOXES." in lines
    rows = dict(play.sheet_rows(s, opts))
    assert rows["POINTS"] == ["60", "104"] and rows["BOXES"] == ["9", "1"]
    assert rows["GAME BONUS"] == ["0", "100"] and rows["BOX BONUS"] == ["200", "0"]
    assert rows["FINAL"] == [str(t) for t in s.totals] and "SHUTOUT" not in rows
