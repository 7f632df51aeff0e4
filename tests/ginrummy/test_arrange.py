"""Arranging your own hand (issue 12; sources 001 and 004), through the real program:
sort by rank, sort by suit, melds on the left, and manual arranging by mouse and keys.
A table rule: off by default, so the original's screen is unchanged."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.ginrummy import files
from port.cards import Card, parse
from port.ginrummy.main import menus, play
from port.ginrummy.main.table import Mode
from port.screen.profiles import BLUE, RED
from tests.ginrummy.helpers import click_at, open_game, pixels_in, set_hand, shows_card

ME = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"        # a run of spades, a run of hearts, a set of 7s
CPU = "KS QD JC 9H 8C 6S 5D 3C TD 4C"


def text(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


@pytest.fixture
def game(headless_pyxel, tmp_path: Path):
    d = open_game(tmp_path)
    d.controller.ctx.config = d.controller.ctx.config.with_(arrange=True)
    return d


def shown(s: play.PlayScreen) -> str:
    return text(s.table.shown().cards)


def on_screen(d, cards: str) -> bool:
    """The hand the player sees, card by card, in this order."""
    return all(shows_card(d, play.HAND_X + i * play.HAND_STEP, play.HAND_Y, c)
               for i, c in enumerate(parse(cards)))


@pytest.mark.parametrize("how", ["key R", "click BY RANK"])
def test_sort_by_rank(game, how: str) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("R") if how == "key R" else click_at(game, play.RANK_BOX)
    assert shown(s) == "7S 7D 7C 6H 5H 4H 3S 2S 2D AS"
    assert on_screen(game, shown(s))


@pytest.mark.parametrize("how", ["key S", "click BY SUIT"])
def test_sort_by_suit(game, how: str) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("S") if how == "key S" else click_at(game, play.SUIT_BOX)
    assert shown(s) == "7S 3S 2S AS 6H 5H 4H 7D 2D 7C"
    assert on_screen(game, shown(s))


@pytest.mark.parametrize("how", ["key M", "click MELDS LEFT"])
def test_sort_puts_the_melds_left_and_the_deadwood_right(game, how: str) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    original = shown(s)
    game.key("S")
    assert shown(s) != original
    game.key("M") if how == "key M" else click_at(game, play.MELDS_BOX)
    assert shown(s) == original and shown(s).endswith("2D")       # the deadwood on the right


def test_click_card_a_then_card_b_puts_a_just_right_of_b(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("S")                                     # 7S 3S 2S AS 6H 5H 4H 7D 2D 7C
    click_at(game, play.ARRANGE_BOX)
    click_at(game, play.card_rect(0))                 # A = 7S
    assert s.table.picked == parse("7S")[0]
    click_at(game, play.card_rect(7))                 # B = 7D
    assert shown(s) == "3S 2S AS 6H 5H 4H 7D 7S 2D 7C"
    assert on_screen(game, shown(s))
    assert len(s.table.hand.hand(0)) == 10 and s.table.mode is Mode.HUMAN_DRAW   # nothing played


def test_arranging_by_keyboard_and_the_numbers_follow_the_order(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("S")
    game.key("A")
    game.key("9")                                     # A = 2D (the ninth card)
    game.key("1")                                     # after 7S
    assert shown(s) == "7S 2D 3S 2S AS 6H 5H 4H 7D 7C"
    game.key("A")                                     # done arranging
    game.key("D")                                     # draw from the deck
    game.key("2")                                     # the number under the second card
    assert s.table.hand.pile_top == parse("2D")[0]


def test_bars_still_show_the_least_deadwood_melds_when_a_meld_is_split(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("S")                                     # 7S ... 7D 2D 7C: the set is split
    bar_y = play.HAND_Y - 6
    for i, c in enumerate(s.table.shown().cards):
        x = play.HAND_X + i * play.HAND_STEP
        in_set = str(c) in ("7S", "7D", "7C")
        assert (pixels_in(game, x, bar_y, play.CARD_W, 4, BLUE) > 40) == in_set, str(c)
    # the loose 2D between 7D and 7C has no bar over it
    x = play.HAND_X + 8 * play.HAND_STEP
    assert pixels_in(game, x, bar_y, play.CARD_W, 4, BLUE) == 0


def test_a_manual_order_stays_until_the_next_sort_or_the_next_hand(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("R")
    ranked = shown(s)
    game.key("D")
    game.key("D")                                     # 8D thrown back: knock with 2?
    assert s.table.mode is Mode.KNOCK_PROMPT and shown(s) == ranked
    game.key("Y")
    assert s.table.mode is Mode.HAND_END
    game.key("RETURN")                                # the next hand
    assert s.table.mode is Mode.HUMAN_DRAW and s.table.order is None


def test_new_cards_join_a_manual_order_on_the_right(game) -> None:
    s = set_hand(game, ME, CPU, "KD", "8D")
    game.key("R")
    game.key("D")                                     # draw 8D
    game.key("1")                                     # throw 7D, keep 8D
    assert shown(s).endswith("8D")


def test_arranging_is_off_by_default_and_the_screen_is_the_originals(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    s = set_hand(d, ME, CPU, "KD", "8D")
    before = shown(s)
    d.key("R")
    d.key("S")
    d.key("A")
    assert shown(s) == before and not s.table.arranging
    assert pixels_in(d, *play.RANK_BOX, RED) == 0 and pixels_in(d, *play.ARRANGE_BOX, RED) == 0


# ---- the rules page and the file -----------------------------------------------------------

def test_table_rules_page_toggles_arrange_and_save_keeps_it(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    d.key("O")
    d.key("T")
    assert isinstance(d.controller, menus.RulesScreen)
    d.key("A")
    assert d.controller.ctx.config.arrange
    d.key("O")
    assert isinstance(d.controller, menus.OptionsScreen)
    d.key("S")
    assert files.Store.open(tmp_path).config.arrange
    assert "arrange=Y\n" in (tmp_path / files.CFG).read_text()


# GINRUMMY.CFG exactly as the version before the table rules wrote it (its SAVE of
# Dave, OKLAHOMA YES, LEVEL EXPERT): it must keep loading, whole, with no notice.
PREVIOUS_CFG = """GINRUMMY.CFG 1
9CDE049C name=Dave
6C45228D gin_bonus=25
DA5438D5 undercut_bonus=25
DA6CBB63 score_limit=100
B01698DB oklahoma=Y
195217F4 big_cards=N
948F1933 easy=N
F5963F76 knocking=Y
285F8762 pointer=0
0BB17106 sort=RANK
DA7C68A9 level=EXPERT
END 11 89B93D8A
"""


def test_a_configuration_file_of_the_previous_version_loads_whole(tmp_path: Path) -> None:
    (tmp_path / files.CFG).write_text(PREVIOUS_CFG)
    store = files.Store.open(tmp_path)
    assert store.config == files.Config(name="Dave", oklahoma=True, level="EXPERT")
    assert not store.config.arrange
    assert store.take_notices() == []
    assert (tmp_path / files.CFG).read_text() == PREVIOUS_CFG        # left as it was
