"""The table rules on screen (issue 12, the screen half), through the real program: the
TABLE RULES page, its presets, and what the game screen shows under each rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from port import files
from port.main import menus, tablerules
from port.screen.profiles import LIGHTGRAY, WHITE
from tests.main_helpers import click_at, open_game, shows_text


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
