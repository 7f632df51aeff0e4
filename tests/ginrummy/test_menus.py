"""The title screen, the options menu, statistics and high scores, through the driver."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from port.ginrummy import files
from port.ginrummy.main.words import GINRUMMY
from port.main import cmdline
from port.main import menus as shell_menus
from port.ginrummy.main import menus, play
from port.screen.profiles import LIGHTGRAY, LIGHTRED
from tests.ginrummy.helpers import center, click_at, open_game, pixels_in, shows_text


@pytest.fixture
def title(headless_pyxel, tmp_path: Path):
    d = open_game(tmp_path)
    assert isinstance(d.controller, menus.TitleScreen)
    return d


def box(d, label: str):
    """The rect of a command box of the current menu, by its label."""
    for rect, text, _, _ in d.controller.items:
        if text == label:
            return rect
    raise AssertionError(f"no box {label!r} on {type(d.controller).__name__}")


# ---- the title screen ----------------------------------------------------------------

@pytest.mark.parametrize("how", ["key B", "key RETURN", "left click", "right click"])
def test_begin_game(title, how: str) -> None:
    if how.startswith("key"):
        title.key(how.split()[1])
    else:
        click_at(title, box(title, "BEGIN GAME"), how.split()[0])
    assert isinstance(title.controller, play.PlayScreen)


def test_menus_are_drawn_on_the_second_video_page(title) -> None:
    assert title.screen.page == 1
    title.key("B")
    assert title.screen.page == 0


@pytest.mark.parametrize("key,label,screen", [
    ("O", "OPTIONS", menus.OptionsScreen),
    ("H", "HIGH SCORES", menus.ScoresScreen),
    ("S", "STATISTICS", menus.StatsScreen),
])
def test_title_boxes_by_key_and_by_click(title, key: str, label: str, screen: type) -> None:
    title.key(key)
    assert isinstance(title.controller, screen)
    title.key("M")
    assert isinstance(title.controller, menus.TitleScreen)
    click_at(title, box(title, label))
    assert isinstance(title.controller, screen)
    title.key("RETURN")
    assert isinstance(title.controller, menus.TitleScreen)


def test_statistics_and_high_scores_go_back_by_a_click_on_main_menu(title) -> None:
    for key in ("S", "H"):
        title.key(key)
        click_at(title, menus.MENU_BOX)
        assert isinstance(title.controller, menus.TitleScreen)


@pytest.mark.parametrize("how", ["key Q", "click"])
def test_quit_exits_the_program(title, how: str) -> None:
    title.key("Q") if how == "key Q" else click_at(title, box(title, "QUIT"))
    assert not title.loop.running


def test_high_scores_box_does_nothing_with_nodisk(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, nodisk=True)
    d.key("H")
    assert isinstance(d.controller, menus.TitleScreen)


def test_go_goes_straight_into_the_game(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, go=True)
    assert isinstance(d.controller, play.PlayScreen)


def test_title_shows_the_options_the_game_starts_with(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Mike", score_limit=250)
    cfg = d.controller.ctx.config
    assert (cfg.name, cfg.score_limit) == ("Mike", 250)
    # The command line overrides but does not overwrite the saved options.
    assert files.Store.open(tmp_path).config.name == "PLAYER"


def test_a_damaged_file_is_reported_on_the_title_screen(headless_pyxel, tmp_path: Path) -> None:
    (tmp_path / files.STA).write_bytes(b"\x00garbage\xff" * 20)
    d = open_game(tmp_path)
    assert any("GINRUMMY.STA" in n for n in d.controller.notices)


# ---- the options menu -----------------------------------------------------------------

@pytest.fixture
def options(title):
    title.key("O")
    assert isinstance(title.controller, menus.OptionsScreen)
    return title


def cfg(d) -> files.Config:
    return d.controller.ctx.config


@pytest.mark.parametrize("key,field", [("G", "gin_bonus"), ("U", "undercut_bonus")])
def test_bonus_options_cycle_10_15_20_25(options, key: str, field: str) -> None:
    seen = []
    for _ in range(4):
        options.key(key)
        seen.append(getattr(cfg(options), field))
    assert seen == [10, 15, 20, 25]


def test_score_limit_left_or_plus_up_right_or_minus_down_by_50(options) -> None:
    options.key("KP_PLUS")
    assert cfg(options).score_limit == 150
    options.key("MINUS")
    options.key("MINUS")
    assert cfg(options).score_limit == 50
    click_at(options, box(options, "SCORE LIMIT"), "left")
    assert cfg(options).score_limit == 100
    click_at(options, box(options, "SCORE LIMIT"), "right")
    click_at(options, box(options, "SCORE LIMIT"), "right")
    click_at(options, box(options, "SCORE LIMIT"), "right")
    assert cfg(options).score_limit == 500              # round from 0 to 500


@pytest.mark.parametrize("key,label,field", [
    ("O", "OKLAHOMA", "oklahoma"), ("B", "BIG CARDS", "big_cards"), ("E", "EASY", "easy"),
    ("K", "KNOCKING", "knocking"),
])
def test_yes_no_options_toggle_by_key_and_click(options, key: str, label: str, field: str) -> None:
    before = getattr(cfg(options), field)
    options.key(key)
    assert getattr(cfg(options), field) is (not before)
    click_at(options, box(options, label))
    assert getattr(cfg(options), field) is before


def test_pointer_option_has_seven_shapes(options) -> None:
    shapes = []
    for _ in range(7):
        options.key("P")
        shapes.append(cfg(options).pointer)
    assert sorted(shapes) == list(range(7)) and options.screen.pointer == shapes[-1]


def test_sort_option_rank_or_suit(options) -> None:
    options.key("R")
    assert cfg(options).sort == "SUIT"
    click_at(options, box(options, "SORT"))
    assert cfg(options).sort == "RANK"


def test_level_option_standard_or_expert(options) -> None:
    options.key("L")
    assert cfg(options).level == "EXPERT"


def test_main_menu_by_m_enter_or_click(options) -> None:
    options.key("M")
    assert isinstance(options.controller, menus.TitleScreen)
    options.key("O")
    options.key("RETURN")
    assert isinstance(options.controller, menus.TitleScreen)
    options.key("O")
    click_at(options, box(options, "MAIN MENU"))
    assert isinstance(options.controller, menus.TitleScreen)


def test_save_writes_the_options_file(options, tmp_path: Path) -> None:
    options.key("O")
    options.key("K")
    options.key("S")
    saved = files.Store.open(tmp_path).config
    assert saved.oklahoma and not saved.knocking


def test_changes_without_save_are_not_written(options, tmp_path: Path) -> None:
    options.key("O")
    assert not files.Store.open(tmp_path).config.oklahoma


# ---- the name ---------------------------------------------------------------------------

def test_name_typed_after_n_ends_with_enter(options) -> None:
    options.key("N")
    options.type("Bob-1")
    options.key("RETURN")
    assert cfg(options).name == "Bob-1"
    assert isinstance(options.controller, menus.OptionsScreen)


def test_name_backspace_is_the_only_editing_key_and_eight_characters_at_most(options) -> None:
    click_at(options, menus.NAME_FIELD)
    options.type("Schoenberger")
    options.key("BACKSPACE")
    options.type("x")
    options.click("left", 600, 300)                  # a mouse button ends it too
    assert cfg(options).name == "Schoenbx"


def test_name_letters_not_allowed_are_ignored(options) -> None:
    options.key("N")
    options.type("A#B*C")
    options.key("RETURN")
    assert cfg(options).name == "ABC"


def test_question_mark_lists_the_players_to_pick_from(headless_pyxel, tmp_path: Path) -> None:
    import datetime

    store = files.Store.open(tmp_path)
    for name in ("Ann", "Ron-Hill"):
        store.record_game(files.GameRecord(name, 10, 5, 1, 100, False, files.Result.WON,
                                           datetime.date(1993, 5, 1)))
    d = open_game(tmp_path)
    d.key("O")
    click_at(d, box(d, "?"))
    assert isinstance(d.controller, menus.PlayersScreen)
    assert d.controller.names == ["Ron-Hill", "Ann"]
    click_at(d, box(d, "Ann"))
    assert isinstance(d.controller, menus.OptionsScreen) and cfg(d).name == "Ann"


def test_nokeyboard_ignores_keys_except_while_typing_the_name(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, nokeyboard=True)
    d.key("O")
    assert isinstance(d.controller, menus.TitleScreen)
    click_at(d, box(d, "OPTIONS"))
    click_at(d, box(d, "NAME"))
    d.type("Mo")
    d.key("RETURN")
    assert cfg(d).name == "Mo"


# ---- statistics and high scores ----------------------------------------------------------

def test_statistics_show_the_current_players_totals(headless_pyxel, tmp_path: Path) -> None:
    import datetime

    store = files.Store.open(tmp_path)
    store.record_game(files.GameRecord("Dave", 120, 80, 6, 100, False, files.Result.WON,
                                       datetime.date(1991, 1, 1)))
    d = open_game(tmp_path, name="Dave")
    d.key("S")
    p = d.controller.ctx.store.player("Dave")
    assert (p.won, p.lost, p.hands) == (1, 0, 6) and p.average == 20


def test_high_scores_list_the_best_averages(headless_pyxel, tmp_path: Path) -> None:
    import datetime

    store = files.Store.open(tmp_path)
    for name, score, hands in (("Low", 100, 10), ("High", 100, 4)):
        store.record_game(files.GameRecord(name, score, 50, hands, 100, True, files.Result.WON,
                                           datetime.date(2004, 2, 2)))
    d = open_game(tmp_path)
    d.key("H")
    assert [h.name for h in d.controller.ctx.store.high_scores()] == ["High", "Low"]


def test_the_screen_saver_waits_two_seconds_per_point_of_the_score_limit(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, score_limit=300)
    assert d.screen.saver.timeout_frames == 600 * 30
    d.key("O")
    for _ in range(6):
        d.key("MINUS")                         # down to 0: the one-minute minimum
    assert d.screen.saver.timeout_frames == 60 * 30
    d.key("KP_PLUS")                           # 50 points: 100 seconds
    assert d.screen.saver.timeout_frames == 100 * 30
    d.key("M")
    d.key("B")                                 # in the game too
    d.step(100 * 30 - 10)
    assert not d.screen.saver.blank
    d.step(20)
    assert d.screen.saver.blank


# ---- what the menus say stays on the screen and off the buttons ---------------------------

@pytest.mark.parametrize("nodisk", [False, True])
def test_the_save_note_stands_beside_save_clear_of_level(headless_pyxel, tmp_path: Path, nodisk: bool) -> None:
    d = open_game(tmp_path, nodisk=nodisk)
    d.key("O")
    d.key("S")
    note = d.controller.saved_note
    assert note == ("NODISK: options are not saved." if nodisk else "Options saved.")
    assert shows_text(d, *menus.SAVED_NOTE_AT, note, LIGHTRED)
    level = box(d, "LEVEL")
    assert pixels_in(d, level.x, level.y, level.w, level.h, LIGHTRED) == 0


def test_start_up_notices_wrap_inside_the_screen(headless_pyxel, tmp_path: Path) -> None:
    # The command line's own notices: a long path that is not there, and extra words.
    words = ["\\NO\\SUCH\\" + "DIRECTORY" * 6, *"1 2 3 4 5 6 7 8".split()]
    launch = cmdline.parse(words, io.StringIO(), io.StringIO(), game=GINRUMMY)
    assert max(map(len, launch.notices)) > shell_menus.NOTICE_COLUMNS           # too long for one row
    d = open_game(tmp_path, notices=launch.notices)
    lines = shell_menus.notice_lines(d.controller.notices)
    assert " ".join(lines).startswith(" ".join(launch.notices[0].split()))
    for i, line in enumerate(lines):
        assert len(line) <= shell_menus.NOTICE_COLUMNS
        assert shows_text(d, 8, 308 + 14 * i, line, LIGHTRED)


def test_every_one_of_twenty_players_can_be_picked_by_keyboard(headless_pyxel, tmp_path: Path) -> None:
    import datetime

    store = files.Store.open(tmp_path)
    for n in range(20):
        store.record_game(files.GameRecord(f"P{n:02}", 10, 5, 1, 100, False, files.Result.WON,
                                           datetime.date(1993, 5, 1)))
    d = open_game(tmp_path)
    d.key("O")
    click_at(d, box(d, "?"))
    names = list(d.controller.names)
    assert len(names) == 20
    for i, key in enumerate("1234567890ABCDEFGHIJ"):
        # the key is shown beside its name, in both columns
        col, row = divmod(i, 10)
        assert shows_text(d, 96 + 220 * col, 66 + 24 * row, key, LIGHTGRAY)
    d.key("0")
    assert cfg(d).name == names[9]
    click_at(d, box(d, "?"))
    d.key("J")
    assert isinstance(d.controller, menus.OptionsScreen) and cfg(d).name == names[19]
    click_at(d, box(d, "?"))
    d.key("A")
    assert cfg(d).name == names[10]


def test_the_title_names_the_player_once(title) -> None:
    line = menus.title_lines(title.controller.ctx.config)[0]
    assert line.startswith("NAME PLAYER   LIMIT") and "PLAYER PLAYER" not in line
    s = title.screen
    assert shows_text(title, (640 - s.text_width(line)) // 2, 266, line)
