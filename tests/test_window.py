"""A real window: the game opens one under Xvfb (an X server in memory), runs a
script in it, and shows exactly what the headless run shows.

SDL_VIDEODRIVER=x11 makes SDL use the X server or fail (without it SDL may fall
back to an off-screen driver and no window would be proved). Skipped, with the
reason, where Xvfb is not installed; .ci/run installs it (xvfb, libgl1-mesa-dri),
so CI always runs it.
"""
from __future__ import annotations

from port.screen import png
from tests.window_helpers import needs_xvfb, run_script

SCRIPT = "move 200 100\nkey p\nkey b\nwait 2\nshot shown\n"


@needs_xvfb
def test_a_real_window_under_xvfb_shows_what_headless_shows(tmp_path):
    windowed = png.read(run_script(tmp_path / "window", SCRIPT, "--seed", "7", "EGA", window=True) / "shown.png")
    headless = png.read(run_script(tmp_path / "headless", SCRIPT, "--seed", "7", "EGA", window=False) / "shown.png")
    assert (windowed.width, windowed.height) == (640, 350)
    assert windowed.pixels == headless.pixels
