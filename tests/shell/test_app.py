"""The frame loop's resources: a long headless run does not grow; its audio driver."""
from __future__ import annotations

import os
import resource
import subprocess
import sys

import pyxel


def test_headless_frames_keep_no_screencast(headless_pyxel) -> None:
    # pyxel records frames for its screencast; headless at an unpaced rate that would
    # keep every frame (220 KB at 640x350). 2,000 frames must not grow the process.
    def rss_mb() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024

    for _ in range(200):
        pyxel.flip()
    before = rss_mb()
    for _ in range(2000):
        pyxel.flip()
    assert rss_mb() - before < 50


def test_the_dummy_audio_driver_is_set_for_headless_runs_only() -> None:
    """Headless there is no sound to make (the dummy driver spares SDL's noise); a window,
    the desktop's or a web page's, keeps the real driver (tests/test_web.py shows the
    page's run leaves it unset)."""
    code = ("import os\n"
            "from port.main.launch import Launch\n"
            "from port.main.loop import init_pyxel\n"
            "init_pyxel(Launch(headless=True))\n"
            "print(os.environ.get('SDL_AUDIODRIVER'))\n")
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "dummy", done.stdout + done.stderr
