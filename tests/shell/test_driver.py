"""The scripted driver: the script format, screenshots, errors, and the command
line `python -m port --headless --script FILE --shots DIR` in a subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from port.main.driver import ScriptError
from port.mouse import Key, Press
from port.screen import png

TOP = Path(__file__).resolve().parents[2]


def got(driver, kind):
    return [e for _, e in driver.loop.delivered if isinstance(e, kind)]


SCRIPT = """\
# every command once
wait 2
key p b           # two keys, two frames each
type Hi
move 100 120
press left
release left
click right 20 30
down shift
key ctrl+c
up shift
shot middle
wait
"""


def test_script_drives_the_test_screen_and_saves_shots(start, tmp_path):
    d = start(shots=tmp_path)
    d.run_text(SCRIPT)
    assert d.loop.frame == 2 + 4 + 4 + 2 + 2 + 2 + 1
    assert [k.ascii for k in got(d, Key)][:4] == [ord("p"), ord("b"), ord("H"), ord("i")]
    assert got(d, Key)[-1] == Key(3, 0x2E)
    assert [(p.button, p.x, p.y) for p in got(d, Press)] == [(0, 100, 120), (1, 20, 30)]
    shot = png.read(tmp_path / "middle.png")
    assert (shot.width, shot.height) == (640, 350)
    assert d.controller.screen.pointer == 1 and d.controller.big     # P and B were acted on


def test_shot_is_the_screen_as_shown_with_the_pointer(start, tmp_path):
    d = start(shots=tmp_path, profile="CGA")
    d.move(320, 175)
    d.step()
    shot = png.read(d.shot("cga"))
    assert (shot.width, shot.height) == (640, 200)
    assert shot.pixels == d.snapshot() and shot.palette == d.screen.profile.palette


def test_quit_ends_the_script(start):
    d = start()
    d.run_text("key q\nwait 100\n")
    assert d.controller is None and d.loop.frame == 1


@pytest.mark.parametrize("line", ["jump 3", "key NOSUCHKEY", "press thumb", "move 10", "wait x"])
def test_bad_lines_are_reported_with_their_number(start, line):
    d = start()
    with pytest.raises(ScriptError, match=r"<script>:2:"):
        d.run_text("wait 1\n" + line + "\n")


def test_command_line_runs_a_script_headless_and_saves_shots(tmp_path):
    script = tmp_path / "demo.txt"
    script.write_text("move 200 100\nkey p\nshot one\nclick left 56 236\n")
    shots = tmp_path / "shots"
    shots.mkdir()
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "port", "--headless", "--script", str(script),
                           "--shots", str(shots), "HERC"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    one, final = png.read(shots / "one.png"), png.read(shots / "final.png")
    assert (final.width, final.height) == (720, 348)
    assert one.pixels != final.pixels              # the pointer moved and a shape changed
