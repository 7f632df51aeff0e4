"""A real window: the game opens one under Xvfb (an X server in memory), runs a
script in it, and shows exactly what the headless run shows.

SDL_VIDEODRIVER=x11 makes SDL use the X server or fail (without it SDL may fall
back to an off-screen driver and no window would be proved). Skipped, with the
reason, where Xvfb is not installed; .ci/run installs it (xvfb, libgl1-mesa-dri),
so CI always runs it.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from port.screen import png
from port.screen.window import fitting_scale, fitting_size
from tests.window_helpers import in_xvfb, needs_xvfb, run_script

TOP = Path(__file__).resolve().parents[2]
SCRIPT = "move 200 100\nkey p\nkey b\nwait 2\nshot shown\n"


@needs_xvfb
def test_a_real_window_under_xvfb_shows_what_headless_shows(tmp_path):
    windowed = png.read(run_script(tmp_path / "window", SCRIPT, "--seed", "7", "EGA", window=True) / "shown.png")
    headless = png.read(run_script(tmp_path / "headless", SCRIPT, "--seed", "7", "EGA", window=False) / "shown.png")
    assert (windowed.width, windowed.height) == (640, 350)
    assert windowed.pixels == headless.pixels


# The real window's size, read back from SDL inside the program's own process.
PROBE = """
import ctypes, sys
from port.main.loop import init_pyxel
from port.main.launch import Launch
from port.screen.window import _pyxel_sdl
init_pyxel(Launch(profile=sys.argv[1]))
sdl = _pyxel_sdl()
sdl.SDL_GL_GetCurrentWindow.restype = ctypes.c_void_p
w, h = ctypes.c_int(), ctypes.c_int()
sdl.SDL_GetWindowSize(ctypes.c_void_p(sdl.SDL_GL_GetCurrentWindow()), ctypes.byref(w), ctypes.byref(h))
print(w.value, h.value)
"""


@needs_xvfb
@pytest.mark.parametrize("desktop, profile, window", [
    ("1366x768", "EGA", (1280, 700)),      # pyxel alone would open this at 1x (640x350)
    ("1920x1080", "EGA", (1280, 700)),     # 3x is 1050 high: no room left for a title bar
    ("2560x1440", "EGA", (2560, 1400)),
    ("1024x768", "EGA", (640, 350)),
    ("1366x768", "CGA", (1280, 400)),      # 640x200: 3x would be 600 high but 1920 wide
    # HERC's 720 columns: 2x would be 1440 wide; not 1x (720x348, half EGA's window)
    # but as large as its shape fits, the screen scaled into it (issue 33).
    ("1366x768", "HERC", (1366, 660)),
    ("1920x1080", "HERC", (1440, 696)),    # 2x fits: whole pixels, as EGA's
])
def test_the_window_opens_at_the_largest_whole_scale_the_desktop_holds(desktop, profile, window):
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER="x11")
    done = in_xvfb([sys.executable, "-c", PROBE, profile], desktop, env=env, timeout=60, cwd=TOP)
    assert done.returncode == 0, done.stderr
    assert tuple(map(int, done.stdout.split()[-2:])) == window


@pytest.mark.parametrize("desktop, scale", [((1366, 768), 2), ((800, 600), 1), ((600, 300), 1), ((3840, 2160), 6)])
def test_fitting_scale(desktop, scale):
    assert fitting_scale(640, 350, desktop) == scale


@pytest.mark.parametrize("desktop, profile, size", [
    ((1366, 768), (640, 350), (1280, 700)),
    ((1366, 768), (720, 348), (1366, 660)),     # HERC: not 720x348, half the EGA window
    ((1280, 1024), (720, 348), (1280, 618)),
    ((1920, 1080), (720, 348), (1440, 696)),    # a whole scale as large as EGA's: kept
    ((1024, 768), (720, 348), (720, 348)),      # EGA is 1x there too
])
def test_a_wider_display_opens_no_smaller_than_egas_window(desktop, profile, size):
    assert fitting_size(*profile, desktop) == size


@needs_xvfb
def test_an_error_in_a_window_frame_is_one_sentence_and_exit_status_1(tmp_path):
    """pyxel.run would print a traceback for an error in a frame: the game's frames say
    the one sentence instead, as main() does before the window opens."""
    code = ("import sys\n"
            "from port.ginrummy.main import menus\n"
            "def broken(self): raise ValueError('a broken title')\n"
            "menus.TitleScreen.draw_body = broken\n"
            "from port.ginrummy.main import main\n"
            "sys.exit(main(['NODISK']))\n")
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    done = in_xvfb([sys.executable, "-c", code], cwd=tmp_path,
                   env={**env, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "x11"}, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert ("ginrummy: internal error (ValueError: a broken title); run with GINRUMMY_DEBUG=1 "
            "for the details.") in done.stderr.splitlines()
