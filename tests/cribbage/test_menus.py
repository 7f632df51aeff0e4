"""Cribbage's title, options and statistics screens through the headless driver, every
documented key and mouse path, on real temporary directories."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.cribbage.main.menus import CribOptions, CribStats, CribTitle, stats_rows
from port.cribbage.main.play import CribPlay
from port.cribbage import files as cf
from tests.cribbage.helpers import click_at, open_cribbage

BEGIN, OPTIONS, STATISTICS, CARD_ROOM, QUIT = ((240, 124 + 26 * i, 160, 20) for i in range(5))
MAIN_MENU = (48, 16, 200, 20)
NAME_BOX = (384, 56, 96, 20)


def row(i: int) -> tuple[int, int, int, int]:
    """The options' rows: SCORE LIMIT, SKUNKING, BIG CARDS, POINTER, LEVEL, then SAVE."""
    return (48, 96 + 30 * i, 200, 20) if i < 5 else (48, 96 + 30 * 5 + 10, 200, 20)


@pytest.mark.parametrize("how", ["B", "ENTER", "click", "right click"])
def test_begin_game(tmp_path: Path, how: str) -> None:
    d = open_cribbage(tmp_path)
    assert isinstance(d.controller, CribTitle)
    if how == "click":
        click_at(d, BEGIN)
    elif how == "right click":
        click_at(d, BEGIN, "right")
    else:
        d.key(how)
    assert isinstance(d.controller, CribPlay)


def test_title_options_statistics_quit(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path)
    d.key("O")
    assert isinstance(d.controller, CribOptions)
    click_at(d, MAIN_MENU)
    assert isinstance(d.controller, CribTitle)
    click_at(d, OPTIONS)
    assert isinstance(d.controller, CribOptions)
    d.key("ENTER")
    assert isinstance(d.controller, CribTitle)
    d.key("S")
    assert isinstance(d.controller, CribStats)
    d.key("ENTER")
    click_at(d, STATISTICS)
    assert isinstance(d.controller, CribStats)
    d.key("M")
    assert isinstance(d.controller, CribTitle)
    d.key("Q")
    assert not d.loop.running


def test_quit_by_click(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path)
    click_at(d, QUIT)
    assert not d.loop.running


def test_go_goes_straight_into_the_game(tmp_path: Path) -> None:
    assert isinstance(open_cribbage(tmp_path, go=True).controller, CribPlay)


def test_the_name_takes_cribbages_characters_up_to_8_backspace_only(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path)
    d.key("O")
    d.key("N")
    d.type('A.b,"-:')     # . and , are Cribbage's, not GinRummy's
    d.type("*_=")         # not allowed: ignored
    d.type("/?xyz")       # past 8: ignored
    d.key("BACKSPACE")
    d.type("9")
    d.key("ENTER")
    assert d.controller.ctx.config.name == 'A.b,"-:9'
    click_at(d, NAME_BOX)                        # "clicking ... within the red box"
    d.type("Jo Ann")
    d.click("left", 600, 300)                    # "pressing ENTER (or a mouse button)"
    assert d.controller.ctx.config.name == "Jo Ann"
    assert not (tmp_path / "CRIBBAGE.CFG").exists()   # not saved until SAVE


@pytest.mark.parametrize("how", ["+", "-", "left", "right"])
def test_score_limit_cycles_121_and_61(tmp_path: Path, how: str) -> None:
    d = open_cribbage(tmp_path)
    d.key("O")
    cfg = lambda: d.controller.ctx.config  # noqa: E731
    assert cfg().score_limit == 121
    for want in (61, 121):
        if how in ("+", "-"):
            d.key(how)
        else:
            click_at(d, row(0), how)
        assert cfg().score_limit == want


def test_skunking_big_cards_pointer_level_and_save(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path)
    d.key("O")
    opts = d.controller
    d.key("K")
    d.key("B")
    for _ in range(8):
        d.key("P")                               # seven shapes, round again
    click_at(d, row(4))                          # LEVEL
    click_at(d, row(1))                          # SKUNKING again: NO
    click_at(d, row(1), "right")                 # and YES
    cfg = opts.ctx.config
    assert (cfg.skunking, cfg.big_cards, cfg.pointer, cfg.level) == (True, True, 1, "EXPERT")
    assert d.screen.pointer == 1
    click_at(d, row(3), "right")                 # POINTER back one
    assert opts.ctx.config.pointer == 0
    d.key("S")
    assert opts.saved_note == "Options saved."
    assert cf.CribStore.open(tmp_path).config == opts.ctx.config
    click_at(d, row(5))                          # SAVE by click
    assert opts.saved_note == "Options saved."


def test_save_with_nodisk_says_so_and_writes_nothing(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, nodisk=True)
    d.key("O")
    d.key("S")
    assert d.controller.saved_note.startswith("NODISK")
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_overrides_but_does_not_overwrite(tmp_path: Path) -> None:
    cf.CribStore.open(tmp_path).save_config(cf.CribConfig(name="Saved", score_limit=121))
    d = open_cribbage(tmp_path, name="Dave", score_limit=61)
    cfg = d.controller.ctx.config
    assert (cfg.name, cfg.score_limit) == ("Dave", 61)
    assert cf.CribStore.open(tmp_path).config.name == "Saved"


def test_statistics_show_the_players_figures(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    store.record_game(cf.CribGame("Dave", True, True, 8, 60, 4, 22))
    d = open_cribbage(tmp_path, name="Dave")
    click_at(d, STATISTICS)
    assert isinstance(d.controller, CribStats)
    rows = dict(stats_rows(d.controller.ctx.store.player("Dave")))
    assert rows == {"NAME": "Dave", "AVERAGE POINTS IN HAND": "7.50", "AVERAGE POINTS IN CRIB": "5.50",
                    "GAMES WON": "2", "GAMES LOST": "0", "HANDS PLAYED": "8"}
    click_at(d, (256, 316, 128, 20))             # MAIN MENU
    assert isinstance(d.controller, CribTitle)


def test_a_damaged_file_is_told_on_the_title(tmp_path: Path) -> None:
    (tmp_path / "CRIBBAGE.STA").write_bytes(b"junk\n")
    d = open_cribbage(tmp_path)
    assert any("CRIBBAGE.STA was damaged" in n for n in d.controller.notices)
