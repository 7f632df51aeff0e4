"""A short scripted game in a real window under Xvfb: the player begins a game, draws,
discards and waits for the computer, and the window shows exactly what the same
script shows headless. Skipped, with the reason, where Xvfb is not installed
(.ci/run installs it, so CI always runs it)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from port.main import play
from port.screen import png
from port.screen.profiles import RED

SCRIPT = """\
# begin, draw from the deck, throw the card back, let the computer play
move 600 250
key b
wait 2
key d
shot drawn
key d
wait 80
key p
key 1
wait 80
shot played
"""


def _run(tmp_path: Path, name: str, extra_env: dict[str, str], prefix: list[str],
         args: list[str]) -> tuple[png.Indexed, png.Indexed]:
    home = tmp_path / name
    home.mkdir()
    script = home / "game.txt"
    script.write_text(SCRIPT)
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", **extra_env)
    done = subprocess.run([*prefix, sys.executable, "-m", "port", *args, "--script", str(script),
                           "--shots", str(home), "--seed", "1991", "Dave"],
                          cwd=home, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return png.read(home / "drawn.png"), png.read(home / "played.png")


@pytest.mark.skipif(shutil.which("xvfb-run") is None,
                    reason="Xvfb is not installed (Debian: apt-get install xvfb libgl1-mesa-dri; .ci/run does)")
def test_a_short_game_in_a_real_window_under_xvfb(tmp_path: Path) -> None:
    windowed = _run(tmp_path, "window", {"SDL_VIDEODRIVER": "x11"},
                    ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24"], [])
    headless = _run(tmp_path, "headless", {}, [], ["--headless"])
    assert [w.pixels for w in windowed] == [h.pixels for h in headless]
    drawn, played = windowed
    assert drawn.pixels != played.pixels               # the game moved on
    # The red command boxes along the bottom: this is the game screen, not the title.
    y = play.DECK_BOX.y
    assert sum(drawn.at(x, y) == RED for x in range(play.DECK_BOX.x, play.DECK_BOX.x + play.DECK_BOX.w)) > 40
