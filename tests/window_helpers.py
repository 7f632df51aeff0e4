"""Running the real program on a script, in a real window under Xvfb or headless."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

XVFB = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24"]

# SDL_VIDEODRIVER=x11 makes SDL use the X server or fail (without it SDL could fall back
# to an off-screen driver, and no window would be proved).
needs_xvfb = pytest.mark.skipif(
    shutil.which("xvfb-run") is None,
    reason="Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri; .ci/run does)")


def run_script(home: Path, script: str, *words: str, window: bool, module: str = "port") -> Path:
    """``python -m MODULE WORDS --script`` in ``home`` (made here); returns where the
    shots are. ``module`` is the game: ``port`` (GinRummy) or ``port.cribbage``."""
    home.mkdir()
    (home / "script.txt").write_text(script)
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    prefix: list[str] = []
    if window:
        env["SDL_VIDEODRIVER"] = "x11"
        prefix = XVFB
    else:
        words = ("--headless", *words)
    done = subprocess.run([*prefix, sys.executable, "-m", module, *words,
                           "--script", str(home / "script.txt"), "--shots", str(home)],
                          cwd=home, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return home
