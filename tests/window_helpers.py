"""Running the real program on a script, in a real window under Xvfb or headless."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXIT_MARK = "__window_exit="

# SDL_VIDEODRIVER=x11 makes SDL use the X server or fail (without it SDL could fall back
# to an off-screen driver, and no window would be proved).
needs_xvfb = pytest.mark.skipif(
    shutil.which("xvfb-run") is None,
    reason="Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri; .ci/run does)")


def first_display() -> int:
    """Where xvfb-run -a starts looking for a free display: apart for each of pytest-xdist's
    workers (gw0, gw1, ...), since two xvfb-run -a started at once can both pick the same
    free number and one of them then fails."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    return 99 + 20 * index


def in_xvfb(args: list[str], desktop: str = "1024x768", **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run ``args`` on a fresh Xvfb display and return the program's own exit status and
    output. xvfb-run's own status is not the program's: on a loaded machine its clean-up
    of its temporary directory can fail (exit 5) after the program ended well."""
    shell = f'"$@"; echo "{EXIT_MARK}$?" >&2'
    done = subprocess.run(["xvfb-run", "-a", "-n", str(first_display()), "-s", f"-screen 0 {desktop}x24",
                           "sh", "-c", shell, "sh", *args],
                          capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    lines = done.stderr.splitlines()
    marks = [line for line in lines if line.startswith(EXIT_MARK)]
    if not marks:                      # the display never started: xvfb-run's word stands
        return done
    kept = [line for line in lines if not line.startswith(EXIT_MARK)
            and not line.startswith("xvfb-run: error: problem while cleaning up")]
    return subprocess.CompletedProcess(done.args, int(marks[-1][len(EXIT_MARK):]), done.stdout,
                                       "".join(line + "\n" for line in kept))


def run_script(home: Path, script: str, *words: str, window: bool, module: str = "port") -> Path:
    """``python -m MODULE WORDS --script`` in ``home`` (made here); returns where the
    shots are. ``module`` is the game: ``port`` (GinRummy) or ``port.cribbage``."""
    home.mkdir()
    (home / "script.txt").write_text(script)
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    if window:
        env["SDL_VIDEODRIVER"] = "x11"
    else:
        words = ("--headless", *words)
    args = [sys.executable, "-m", module, *words, "--script", str(home / "script.txt"), "--shots", str(home)]
    done = (in_xvfb(args, cwd=home, env=env, timeout=120) if window else
            subprocess.run(args, cwd=home, env=env, capture_output=True, text=True, timeout=120))
    assert done.returncode == 0, done.stdout + done.stderr
    return home
