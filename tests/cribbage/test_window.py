"""A short scripted game of Cribbage in a real window under Xvfb: the deal, laying
away, the cut and the first plays, and the window shows exactly what the same script
shows headless. Skipped, with the reason, where Xvfb is not installed."""
from __future__ import annotations

from pathlib import Path

from port.cribbage.main import layout as L
from port.screen import png
from port.screen.profiles import RED
from tests.window_helpers import needs_xvfb, run_script

SCRIPT = """\
# begin, clear who deals, let the deal land, lay away two cards, play on
move 600 250
key b
wait 2
key space
wait 60
shot dealt
key 1
key 2
key enter
wait 200
shot played
"""


def _run(home: Path, window: bool) -> tuple[png.Indexed, png.Indexed]:
    shots = run_script(home, SCRIPT, "--seed", "1993", "Dave", "61", window=window, module="port.cribbage")
    return png.read(shots / "dealt.png"), png.read(shots / "played.png")


@needs_xvfb
def test_a_short_game_in_a_real_window_under_xvfb(tmp_path: Path) -> None:
    windowed = _run(tmp_path / "window", window=True)
    headless = _run(tmp_path / "headless", window=False)
    assert [w.pixels for w in windowed] == [h.pixels for h in headless]
    dealt, played = windowed
    assert dealt.pixels != played.pixels               # the game moved on
    box = L.LAY_AWAY_BOX                               # the game screen's red boxes
    assert sum(dealt.at(x, box.y) == RED for x in range(box.x, box.x + box.w)) > 40
