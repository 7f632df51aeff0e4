"""What a Cribbage player sees, read from the screen as data (on any display profile),
and a deal of given cards put on the real table, for the tests of the boxes, the pace
of the score and LAST COUNT."""
from __future__ import annotations

import pyxel

from port.cards import card, parse
from port.cribbage.main import layout as L
from port.cribbage.main.table import Box, CribTable
from port.cribbage.rules import HandState, Phase
from port.main.driver import Driver
from port.screen import resources
from port.screen.profiles import WHITE, YELLOW
from tests.cribbage.helpers import card_index


def shows_line(d: Driver, x: int, y: int, line: str, colour: int = WHITE) -> bool:
    """Whether the monitor shows this line of 8x8 text with its top-left corner at the
    logical (x, y), on whatever profile is in use: every pixel of the glyphs in the
    colour the profile gives ``colour``, every other pixel of the line's cells not,
    compared as data against the font itself."""
    s = d.screen
    w = resources.Font.width(line)
    want = pyxel.Image(w, 8)
    want.cls(0)
    s.font.draw(want, 0, 0, line, 1)
    glyph = resources.indices_of(want)
    snap = d.snapshot()
    width = s.profile.width
    x0, y0, fg = s.px(x), s.py(y), s.look.fg(colour)
    return all((snap[(y0 + yy) * width + x0 + xx] == fg) == (glyph[yy * w + xx] == 1)
               for yy in range(8) for xx in range(w))


def shows_box(d: Driver, box: Box) -> bool:
    """Whether the box is on the screen: its title and every line where the game
    screen puts them (the show box lists its lines from the left, the information box
    centres them)."""
    s = d.screen
    r = L.SHOW if box.show is not None else L.INFO
    if not shows_line(d, r.x + (r.w - s.text_width(box.title)) // 2, r.y + 10, box.title, YELLOW):
        return False
    if box.show is not None:
        return all(shows_line(d, r.x + 12, r.y + 112 + L.LINE * i, line) for i, line in enumerate(box.lines))
    return all(shows_line(d, r.x + (r.w - s.text_width(line)) // 2, r.y + 28 + L.LINE * i, line)
               for i, line in enumerate(box.lines))


def deal(t: CribTable, yours: str, computers: str, starter: str) -> None:
    """Put a deal of these cards on the table at the start of a game (NOANIMATION: no
    cards in flight yet): your six, the computer's six, the starter under them. The
    dealer is the one the cut chose."""
    h = t.hand
    assert h.phase is Phase.DISCARD and not h.events and not any(b.flights for b in t.beats)
    mine, its = parse(yours), parse(computers)
    first, second = (its, mine) if h.dealer == L.HUMAN else (mine, its)
    t.game.hand = HandState.from_cards(h.dealer, first, second, card(starter), h.scores, h.options)
    t.computer.begin_hand(t.hand.view(L.COMPUTER))


def lay_away(d: Driver, t: CribTable, cards: str) -> None:
    """Pick these two of your cards and LAY AWAY."""
    for c in parse(cards):
        d.key(str(card_index(t, c) + 1))
    d.key("ENTER")
    assert t.hand.discarded(L.HUMAN)


def play_hinted(d: Driver, t: CribTable) -> None:
    """Your move in the play: the card the hint names."""
    d.key("H")
    d.key(str(card_index(t, t.hint[0]) + 1))


__all__ = ["deal", "lay_away", "play_hinted", "shows_box", "shows_line"]
