"""Helpers for driving the real game through the headless driver in tests."""
from __future__ import annotations

from pathlib import Path

from port.cards import Card
from port.ginrummy.main import play
from port.main.driver import Driver
from port.main.launch import Launch
from port.ginrummy.main.start import first_screen
from port.ginrummy.main.words import GINRUMMY
from port.ginrummy.main.table import Mode
import pyxel

from port.screen import resources
from port.screen.profiles import RED, WHITE, YELLOW
from tests.ginrummy.test_rules import deck_for


def open_game(tmp_path: Path, **fields: object) -> Driver:
    """The real program as a run with these command-line fields would start it."""
    fields.setdefault("path", tmp_path)
    fields.setdefault("seed", 7)
    fields.setdefault("shots", tmp_path / "shots")
    fields = {"program": GINRUMMY.program, "title": GINRUMMY.title, **fields}
    d = Driver.start(Launch(headless=True, **fields), first_screen)
    d.step()
    return d


def to_play(d: Driver) -> play.PlayScreen:
    if not isinstance(d.controller, play.PlayScreen):
        d.key("B")
    assert isinstance(d.controller, play.PlayScreen)
    return d.controller


def set_hand(d: Driver, first: str, second: str, upcard: str, stock_top: str = "") -> play.PlayScreen:
    """Deal this hand: ``first`` to you, ``second`` to the computer."""
    screen = to_play(d)
    screen.table.redeal(deck_for(first, second, upcard, stock_top))
    d.step()
    return screen


def center(r: tuple[int, int, int, int]) -> tuple[int, int]:
    return r[0] + r[2] // 2, r[1] + r[3] // 2


def click_at(d: Driver, rect: tuple[int, int, int, int], button: str = "left") -> None:
    d.click(button, *center(rect))


def position_of(screen: play.PlayScreen, card: Card) -> int:
    return screen.table.shown().cards.index(card)


def wait_for_turn(d: Driver, screen: play.PlayScreen, limit: int = 400) -> None:
    """Let the computer play, at its own pace, until it is your move or the hand ends."""
    for _ in range(limit):
        if screen.table.mode is not Mode.COMPUTER:
            return
        d.step()
    raise AssertionError("the computer did not finish its turn")


def pixels_in(d: Driver, x: int, y: int, w: int, h: int, colour: int) -> int:
    """How many pixels of a colour the monitor shows in a logical rectangle (EGA)."""
    snap = d.snapshot()
    width = d.screen.profile.width
    return sum(1 for yy in range(y, y + h) for xx in range(x, x + w) if snap[yy * width + xx] == colour)


def yellow_over(d: Driver, x: int, y: int, w: int = play.CARD_W, h: int = 6) -> bool:
    return pixels_in(d, x, y, w, h, YELLOW) > w


def red_over(d: Driver, x: int, y: int, w: int = play.CARD_W, h: int = 6) -> bool:
    return pixels_in(d, x, y, w, h, RED) > w


def shows_text(d: Driver, x: int, y: int, line: str, colour: int = WHITE) -> bool:
    """Whether the monitor shows this line of 8x8 text with its top-left corner at the
    logical (x, y) (EGA): every pixel of the glyphs lit in ``colour``, every other pixel of
    the line's cells not, compared as data against the font itself."""
    w = resources.Font.width(line)
    want = pyxel.Image(w, 8)
    want.cls(0)
    d.screen.font.draw(want, 0, 0, line, 1)
    glyph = resources.indices_of(want)
    snap = d.snapshot()
    width = d.screen.profile.width
    return all((snap[(y + yy) * width + x + xx] == colour) == (glyph[yy * w + xx] == 1)
               for yy in range(8) for xx in range(w))


def shows_card(d: Driver, x: int, y: int, card: Card, big: bool = False) -> bool:
    """Whether the monitor shows this card face at the logical (x, y): drawing the same
    card again over it changes no pixel (any other card would)."""
    before = d.screen.snapshot()          # the page as composed, without the pointer
    d.screen.card(x, y, card, big)
    return d.screen.snapshot() == before
