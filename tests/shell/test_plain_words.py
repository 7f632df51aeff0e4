"""The shell's plain sentences, from the newcomer's audit: a command-line word that is
not UTF-8 is a plain name, never an internal error; what the run writes (``--shots``,
``--record``) is checked before any window opens; an error inside either game is told in
that game's own name, at the prompt and on a web page's screen; and an error inside the
game while a script runs is the game's internal error, not a bad script line.

The real program runs in a subprocess where the command line is what matters.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyxel
import pytest

from port.cribbage.main.words import CRIBBAGE
from port.ginrummy.files import Store
from port.ginrummy.main.words import GINRUMMY
from port.main import app, cmdline, errorscreen
from port.main.driver import Driver
from port.main.launch import Launch
from port.screen import png
from port.screen.profiles import BLACK, LIGHTRED

TOP = Path(__file__).resolve().parents[2]
NOT_UTF8 = os.fsdecode(b"Bo\xffb")          # what Python makes of a word typed in Latin-1


def program(*args: str | bytes, cwd: Path, module: str = "port", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(TOP)}
    env.pop("GINRUMMY_DEBUG", None)
    env.pop("DISPLAY", None)                 # a window could not open: none is tried
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True,
                          text=True, errors="replace", timeout=timeout, env=env)


def launch_of(game, *words: str) -> Launch:
    got = cmdline.parse(list(words), io.StringIO(), io.StringIO(), game=game)
    assert isinstance(got, Launch)
    return got


# ---- a word that is not UTF-8 ---------------------------------------------------------

def test_a_word_that_is_not_utf8_is_a_plain_name(tmp_path: Path) -> None:
    """``ginrummy $'Bo\\xffb'`` once stopped on an internal error (pyxel.init reads the
    command line, and the name could not be drawn). Each such byte is a "?", a character
    the options menu allows in names: the options screen shows it and SAVE keeps it."""
    script = tmp_path / "s.txt"
    script.write_text("key o\nwait 2\nkey s\nwait 2\n")
    done = program(b"Bo\xffb", "--headless", "--script", str(script), "--shots", str(tmp_path / "shots"),
                   cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "name=Bo?b" in (tmp_path / "GINRUMMY.CFG").read_text()
    assert launch_of(GINRUMMY, NOT_UTF8).name == "Bo?b"
    assert launch_of(GINRUMMY, os.fsdecode(b"\xff\xfe")).name == "??"


def test_the_name_reaches_the_statistics_and_list_as_it_was_shown(headless_pyxel, tmp_path: Path) -> None:
    """A whole game (limit 000: one hand) under such a name: GINRUMMY.STA and ``list``."""
    from port.ginrummy.main.start import first_screen
    from tests.ginrummy.test_whole_game import keyboard_turn, play_whole_game

    words = [NOT_UTF8, "000", str(tmp_path)]
    got = launch_of(GINRUMMY, *words)
    got.headless, got.seed, got.shots = True, 5, tmp_path / "shots"
    d = Driver.start(got, first_screen)
    d.step()
    d.key("B")
    play_whole_game(d, keyboard_turn)
    d.key("M")
    assert [p.name for p in Store.open(tmp_path).stats()] == ["Bo?b"]
    listed = program("list", str(tmp_path), cwd=tmp_path)
    assert listed.returncode == 0 and "Bo?b" in listed.stdout and listed.stderr == ""


@pytest.mark.parametrize("module", ["port", "port.cribbage"])
def test_a_path_or_directory_that_is_not_utf8_is_shown_not_a_crash(tmp_path: Path, module: str) -> None:
    odd = os.fsencode(tmp_path) + b"/Spiele\xe4"
    os.mkdir(odd)
    listed = program("list", odd, cwd=tmp_path, module=module)
    assert listed.returncode == 0 and "Spiele?" in listed.stdout, listed.stderr
    started = program("--headless", odd + b"/missing", "1", "2", "3", "4", "5", "6", "7", b"\xfe",
                      "--shots", str(tmp_path / "shots"), cwd=tmp_path, module=module)
    assert started.returncode == 0 and started.stderr == "", started.stderr


# ---- what the run writes, checked first -----------------------------------------------

def test_shots_that_cannot_be_made_are_one_line_before_any_window(tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("in the way")
    done = program("--shots", str(tmp_path / "a file" / "shots"), cwd=tmp_path)   # no --headless
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("ginrummy: --shots: cannot make the directory ")
    assert "Not a directory" in done.stderr and "Traceback" not in done.stderr


def test_shots_are_made_before_the_game_starts(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "shots"
    done = program("--headless", "--shots", str(deep), "NODISK", cwd=tmp_path)
    assert done.returncode == 0 and png.read(deep / "final.png").width == 640


def test_shots_in_a_directory_that_refuses_writes(tmp_path: Path) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    if os.geteuid() != 0:
        locked.chmod(0o555)
    elif shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(locked)]).returncode != 0:
        pytest.skip("cannot make a read-only directory here: root without chattr +i")
    try:
        done = program("--headless", "--shots", str(locked), cwd=tmp_path)
    finally:
        if os.geteuid() != 0:
            locked.chmod(0o755)
        else:
            subprocess.run(["chattr", "-i", str(locked)])
    assert done.returncode == 2 and done.stderr.startswith("ginrummy: --shots: cannot write in ")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("where, says", [
    ("exists.txt", "already exists (a recording never replaces a file: give a new name)"),
    ("no/such/dir/rec.txt", "--record: cannot make"),
])
def test_a_recording_that_cannot_be_made_is_one_line_before_any_window(tmp_path: Path, where: str, says: str) -> None:
    (tmp_path / "exists.txt").write_text("someone's")
    done = program("--record", where, cwd=tmp_path)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.splitlines()) == 1
    assert (tmp_path / "exists.txt").read_text() == "someone's"


def test_parsing_the_command_line_makes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    launch_of(GINRUMMY, "--shots", "shots", "--record", "r.txt", "--headless")
    assert list(tmp_path.iterdir()) == []


# ---- an internal error, in the game's own name ----------------------------------------

BROKEN_BOT = """\
from port.cribbage.rules.players import Player


class Broken(Player):
    def discard(self, view):
        raise ValueError("a broken bot")

    def play(self, view):
        raise ValueError("a broken bot")
"""


def test_cribbage_stopped_by_an_error_says_cribbage_at_the_prompt(tmp_path: Path) -> None:
    """An error inside the game while a script runs is the game's internal error (exit
    1, in Cribbage's name), not a bad line of the script (exit 2)."""
    (tmp_path / "bot.py").write_text(BROKEN_BOT)
    (tmp_path / "s.txt").write_text("wait 200\nkey space\nwait 100\n")
    done = program("--headless", "NODISK", "GO", "--computer", "bot.py:Broken", "--script", "s.txt",
                   "--shots", "shots", cwd=tmp_path, module="port.cribbage")
    assert done.returncode == 1
    assert done.stderr == ("cribbage: internal error (ValueError: a broken bot); "
                           "run with GINRUMMY_DEBUG=1 for the details.\n")


def cribbage_stopped(tmp_path: Path, web: bool) -> Driver:
    """Cribbage's own first screen, its computer broken, run by pyxel.run's callbacks."""
    (tmp_path / "bot.py").write_text(BROKEN_BOT)
    got = launch_of(CRIBBAGE, "NODISK", "GO", "--computer", str(tmp_path / "bot.py") + ":Broken")
    got.headless, got.web, got.shots = True, web, tmp_path / "shots"
    return Driver.start(got, CRIBBAGE.first_screen())


def test_on_a_web_page_cribbage_stopped_by_an_error_shows_cribbage(headless_pyxel, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    d = cribbage_stopped(tmp_path, web=True)
    update, draw = app.frame_callbacks(d.loop)
    for _ in range(200):
        update()
        draw()
        pyxel.flip()
        if isinstance(d.controller, errorscreen.ErrorScreen):
            break
    assert isinstance(d.controller, errorscreen.ErrorScreen) and d.loop.running
    sentence = d.controller.sentence
    assert sentence.startswith("Cribbage stopped on an internal error (ValueError: a broken bot)")
    out, err = capsys.readouterr()
    assert sentence in out and sentence in err and "GinRummy" not in out + err
    update()
    draw()
    pyxel.flip()
    shown = d.snapshot()
    # The heading, as the player sees it, is "CRIBBAGE HAS STOPPED" in the 16-pixel font.
    s = d.screen
    s.set_page(0)
    s.clear(BLACK)
    s.text((640 - 8 * errorscreen._COLUMNS) // 2, 120, "CRIBBAGE HAS STOPPED", LIGHTRED, 2)
    s.present(None)
    expected = d.snapshot()
    band = slice(120 * 640, 136 * 640)
    assert shown[band] == expected[band]
    assert sum(1 for b in shown[band] if b == LIGHTRED) > 500


def test_on_the_desktop_cribbage_stopped_by_an_error_is_one_line_in_its_name(
        headless_pyxel, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = cribbage_stopped(tmp_path, web=False)
    update, draw = app.frame_callbacks(d.loop)
    with pytest.raises(SystemExit) as stop:
        for _ in range(200):
            update()
            draw()
            pyxel.flip()
    assert stop.value.code == 1
    assert capsys.readouterr().err == ("cribbage: internal error (ValueError: a broken bot); "
                                      "run with GINRUMMY_DEBUG=1 for the details.\n")
