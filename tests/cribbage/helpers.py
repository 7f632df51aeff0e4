"""Helpers for driving the real Cribbage program through the headless driver."""
from __future__ import annotations

from pathlib import Path

from port.cribbage.main import layout as L
from port.cribbage.main.play import CribPlay
from port.cribbage.main.start import first_screen
from port.cribbage.main.words import CRIBBAGE
from port.cribbage.main.table import CribTable
from port.main.driver import Driver
from port.main.launch import Launch

MAX_STEPS = 6000


def open_cribbage(tmp_path: Path, **fields: object) -> Driver:
    """The real program as a run with these command-line fields would start it."""
    fields.setdefault("path", tmp_path)
    fields.setdefault("seed", 7)
    fields.setdefault("shots", tmp_path / "shots")
    fields = {"program": CRIBBAGE.program, "title": CRIBBAGE.title, **fields}
    d = Driver.start(Launch(headless=True, **fields), first_screen)
    d.step()
    return d


def in_game(d: Driver) -> CribPlay:
    if not isinstance(d.controller, CribPlay):
        d.key("B")
    assert isinstance(d.controller, CribPlay)
    return d.controller


def center(r: tuple[int, int, int, int]) -> tuple[int, int]:
    return r[0] + r[2] // 2, r[1] + r[3] // 2


def click_at(d: Driver, rect: tuple[int, int, int, int], button: str = "left") -> None:
    d.click(button, *center(rect))


def box_up(t: CribTable) -> bool:
    beat = t.beat
    return beat is not None and beat.box is not None


def until_yours(d: Driver, t: CribTable, dismiss=None, limit: int = MAX_STEPS) -> None:
    """Run frames (clearing boxes with ``dismiss`` if given) until you have a move to
    make or the game is over."""
    for _ in range(limit):
        if t.over or t.your_turn_to_lay_away() or t.your_turn_to_play():
            return
        if dismiss is not None and box_up(t) and t.age > 2:
            dismiss()
        else:
            d.step()
    raise AssertionError("the game did not come back to you")


def card_index(t: CribTable, card: int) -> int:
    return t.hand.hands[L.HUMAN].index(card)


def pixels_in(d: Driver, x: int, y: int, w: int, h: int, colour: int) -> int:
    snap = d.snapshot()
    width = d.screen.profile.width
    return sum(1 for yy in range(y, y + h) for xx in range(x, x + w) if snap[yy * width + xx] == colour)
