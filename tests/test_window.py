"""A real window: the game opens one under Xvfb (an X server in memory), runs a
script in it, and shows exactly what the headless run shows.

SDL_VIDEODRIVER=x11 makes SDL use the X server or fail (without it SDL may fall
back to an off-screen driver and no window would be proved). Skipped, with the
reason, where Xvfb is not installed; .ci/run installs it (xvfb, libgl1-mesa-dri),
so CI always runs it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from port.screen import png

SCRIPT = "move 200 100\nkey p\nkey b\nwait 2\nshot shown\n"


def _run(tmp_path, name, extra_env, prefix, args):
    shots = tmp_path / name
    shots.mkdir()
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT)
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", **extra_env)
    done = subprocess.run([*prefix, sys.executable, "-m", "port", *args, "--script", str(script),
                           "--shots", str(shots), "--seed", "7", "EGA"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return png.read(shots / "shown.png")


@pytest.mark.skipif(shutil.which("xvfb-run") is None,
                    reason="Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri; .ci/run does)")
def test_a_real_window_under_xvfb_shows_what_headless_shows(tmp_path):
    windowed = _run(tmp_path, "window", {"SDL_VIDEODRIVER": "x11"},
                    ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24"], [])
    headless = _run(tmp_path, "headless", {}, [], ["--headless"])
    assert (windowed.width, windowed.height) == (640, 350)
    assert windowed.pixels == headless.pixels
