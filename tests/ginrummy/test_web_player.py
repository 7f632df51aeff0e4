"""What a player meets in a web page, on the real (headless) pyxel: touch as the left
button (a long press is the hint), the name tapped on on-screen keys, the page's
"click to start" not taken as the game's first click, and an internal error shown on
the game's own screen with the page kept alive. docs/web.md says why each is so."""
from __future__ import annotations

from pathlib import Path

import pyxel
import pytest

from port.main import app, errorscreen

from port.main import menus as shell_menus
from port.ginrummy.main import menus, play
from port.main.driver import Driver
from port.main.launch import Launch
from port.ginrummy.main.start import first_screen
from port.main.loop import Loop, make_session
from port.mouse import LEFT, MIDDLE, Press, Release
from port.screen.profiles import LIGHTRED, RED, WHITE
from tests.ginrummy.helpers import center, click_at, open_game, pixels_in, set_hand

MY_LOOSE = "KH QC JD 9S 8H 6C 5C 3H TC 4D"  # no melds
CPU = "KS QD JC 9H 8C 6S 5D 3C TD 4C"
LONG = 15                                   # frames: half a second at 30


def presses(d: Driver) -> list[Press]:
    return [e for _, e in d.loop.delivered if isinstance(e, Press)]


# ---- touch: a long press is the middle button -----------------------------------------

def test_a_long_press_held_still_is_the_middle_button(start) -> None:
    d = start(web=True)
    d.move(300, 40)
    d.press("left")
    d.step(LONG - 2)
    assert presses(d) == [Press(LEFT, 300, 40)]
    d.step(2)
    assert presses(d) == [Press(LEFT, 300, 40), Press(MIDDLE, 300, 40, chord=True)]
    d.step(LONG * 2)                        # once a press, however long it is held
    d.release("left")
    assert len(presses(d)) == 2


def test_a_press_that_moves_or_is_short_is_no_long_press(start) -> None:
    d = start(web=True)
    d.move(300, 40)
    d.press("left")
    d.step(3)
    d.move(330, 40)                          # a drag, not a press held still
    d.step(LONG * 2)
    d.release("left")
    d.click("left", 100, 100)
    d.step(LONG)
    assert [p.button for p in presses(d)] == [LEFT, LEFT]


def test_on_the_desktop_a_held_button_stays_the_left_button(start) -> None:
    d = start()                              # the real middle button and the chord serve
    d.press("left")
    d.step(LONG * 2)
    assert [p.button for p in presses(d)] == [LEFT]


def test_a_long_press_on_the_table_asks_for_the_hint(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, web=True)
    s = set_hand(d, MY_LOOSE, CPU, "KD", "8D")
    d.move(600, 200)                         # the table, away from every choice
    d.press("left")
    d.step(LONG)
    d.release("left")
    assert s.table.hint_target in ("deck", "pile")


def test_a_long_press_on_a_choice_is_that_choice_only(headless_pyxel, tmp_path: Path) -> None:
    """As the documentation's chord: the first button already chose."""
    d = open_game(tmp_path, web=True)
    s = set_hand(d, MY_LOOSE, CPU, "KD", "8D")
    d.move(*center(play.DECK_BOX))
    d.press("left")
    d.step(LONG)
    d.release("left")
    assert s.table.drawn is not None and s.table.hint_target is None


def test_in_a_page_a_mouses_middle_button_is_the_middle_button(headless_pyxel, tmp_path: Path) -> None:
    """pyxel 2.9.9's web build passes SDL's middle button on as MOUSE_BUTTON_MIDDLE, as
    on the desktop (docs/web.md): a real middle press, not a chord, and "this will work
    for hints ANYWHERE on the screen, even over normal choice areas"."""
    d = open_game(tmp_path, web=True)
    s = set_hand(d, MY_LOOSE, CPU, "KD", "8D")
    x, y = center(play.DECK_BOX)
    d.click("middle", x, y)
    assert [p for p in presses(d) if p.button == MIDDLE] == [Press(MIDDLE, x, y)]
    assert s.table.hint_target is not None and s.table.drawn is None


# ---- the page's "click to start" ----------------------------------------------------------

def test_a_button_held_when_the_game_starts_is_no_click(headless_pyxel, tmp_path: Path) -> None:
    launch = Launch(headless=True, path=tmp_path, web=True, shots=tmp_path)
    d = Driver.start(launch, first_screen)   # the title screen; nothing held
    rect = next(r for r, label, _, _ in d.controller.items if label == "BEGIN GAME")
    d.move(*center(rect))
    d.step()
    pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, True)   # the page's click, still down
    session = make_session(launch)
    d = Driver(Loop(session, first_screen(session)))
    d.step(LONG * 2)                         # no press, and no long press either
    d.release("left")
    assert isinstance(d.controller, menus.TitleScreen)
    assert not any(isinstance(e, (Press, Release)) for _, e in d.loop.delivered)
    d.click("left")                          # the player's own first click
    assert isinstance(d.controller, play.PlayScreen)


# ---- the name on on-screen keys ------------------------------------------------------------

def pad(d: Driver, key: str) -> None:
    click_at(d, shell_menus.pad_rect(shell_menus.PAD_KEYS.index(key)))


def test_the_name_can_be_tapped_on_on_screen_keys(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, web=True)
    d.key("O")
    click_at(d, menus.NAME_FIELD)
    assert d.controller.pad
    for key in ("B", "O", "X", "DEL", "B", "SPC", "-", "1"):
        pad(d, key)
    assert d.controller.typed == "BOB -1"
    d.move(*center(shell_menus.pad_rect(shell_menus.PAD_KEYS.index("2"))))
    d.press("left")
    d.step(LONG * 2)                         # a long press on a key types it once
    d.release("left")
    assert d.controller.typed == "BOB -12" and d.controller.typing
    pad(d, "DEL")
    pad(d, "OK")
    assert not d.controller.typing and d.controller.cfg.name == "BOB -1"
    assert isinstance(d.controller, menus.OptionsScreen)


def test_keys_still_type_and_a_tap_off_the_keys_ends_the_name(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, web=True)
    d.key("O")
    d.key("N")
    d.type("Al")
    pad(d, "F")
    d.click("left", 600, 20)                 # "pressing ENTER (or a mouse button)"
    assert d.controller.cfg.name == "AlF" and not d.controller.typing


def test_the_keys_are_drawn_only_while_typing_in_a_web_page(headless_pyxel, tmp_path: Path) -> None:
    first = shell_menus.pad_rect(0)
    for web, typing, shown in ((True, True, True), (True, False, False), (False, True, False)):
        home = tmp_path / f"{web}{typing}"
        home.mkdir()
        d = open_game(home, web=web)
        d.key("O")
        if typing:
            d.key("N")
        d.step()
        assert (pixels_in(d, first.x, first.y, first.w, 1, RED) > 0) == shown, (web, typing)


# ---- an internal error -----------------------------------------------------------------

class Broken:
    """A screen that fails in its update (or its draw): an internal error."""

    def __init__(self, session, where: str = "update") -> None:
        self.session, self.where = session, where

    def update(self, events):
        if self.where == "update":
            raise ValueError("a broken screen")
        return self

    def draw(self):
        if self.where == "draw":
            raise KeyError("a broken drawing")


@pytest.mark.parametrize("where", ["update", "draw"])
def test_in_a_web_page_an_internal_error_stays_on_the_screen(
        start, capsys: pytest.CaptureFixture[str], where: str) -> None:
    d = start(lambda session: Broken(session, where), web=True, program="ginrummy", title="GinRummy")
    update, draw = app.frame_callbacks(d.loop)      # what pyxel.run calls in the page
    for _ in range(30):                              # alive: no SystemExit, no traceback
        update()
        draw()
        pyxel.flip()
    assert isinstance(d.controller, errorscreen.ErrorScreen) and d.loop.running
    sentence = d.controller.sentence
    assert sentence.startswith("GinRummy stopped on an internal error (")
    assert ("ValueError: a broken screen" if where == "update" else "KeyError") in sentence
    assert sentence.endswith("Reload the page to start again.")
    out, err = capsys.readouterr()
    assert sentence in out and sentence in err          # the browser's console, and stderr
    assert "Traceback" not in out + err
    assert pixels_in(d, 0, 120, 640, 16, LIGHTRED) > 100     # the heading ...
    assert pixels_in(d, 0, 160, 640, 10, WHITE) > 100        # ... and the sentence, drawn


def test_on_the_desktop_an_error_in_a_frame_is_one_line_and_exit_status_1(
        start, capsys: pytest.CaptureFixture[str]) -> None:
    d = start(Broken, program="ginrummy", title="GinRummy")
    update, _ = app.frame_callbacks(d.loop)
    with pytest.raises(SystemExit) as stop:          # pyxel.run exits with it, quietly
        update()
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("ginrummy: internal error (ValueError: a broken screen); run with")
    assert err.count("\n") == 1


def test_with_ginrummy_debug_the_traceback_comes_through(start, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_DEBUG", "1")
    update, _ = app.frame_callbacks(start(Broken, web=True).loop)
    with pytest.raises(ValueError):
        update()
