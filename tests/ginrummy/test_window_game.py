"""A short scripted game in a real window under Xvfb: the player begins a game, draws,
discards and waits for the computer, and the window shows exactly what the same
script shows headless. Skipped, with the reason, where Xvfb is not installed
(.ci/run installs it, so CI always runs it)."""
from __future__ import annotations

from pathlib import Path

from port.ginrummy.main import play
from port.screen import png
from port.screen.profiles import RED
from tests.window_helpers import needs_xvfb, run_script

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


def _run(home: Path, window: bool) -> tuple[png.Indexed, png.Indexed]:
    shots = run_script(home, SCRIPT, "--seed", "1991", "Dave", window=window)
    return png.read(shots / "drawn.png"), png.read(shots / "played.png")


@needs_xvfb
def test_a_short_game_in_a_real_window_under_xvfb(tmp_path: Path) -> None:
    windowed = _run(tmp_path / "window", window=True)
    headless = _run(tmp_path / "headless", window=False)
    assert [w.pixels for w in windowed] == [h.pixels for h in headless]
    drawn, played = windowed
    assert drawn.pixels != played.pixels               # the game moved on
    # The red command boxes along the bottom: this is the game screen, not the title.
    y = play.DECK_BOX.y
    assert sum(drawn.at(x, y) == RED for x in range(play.DECK_BOX.x, play.DECK_BOX.x + play.DECK_BOX.w)) > 40
