"""The review screen, both games (docs/review.md): a player's decisions beside EXPERT's,
the costliest first, as lines of text the game makes, over the whole screen.

The first frame says EXPERT is looking; the next computes the lines (a hand takes a
fraction of a second, a whole game a few seconds). The lines scroll with the keys
(UP DOWN, PAGEUP PAGEDOWN, HOME END) and the red PREV PAGE / NEXT PAGE boxes; BACK
(B, Enter, Esc, or its box) returns to the screen that opened it, as it was.
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable

from port.main.controller import Controller, Session
from port.mouse import LEFT, RIGHT, Event, Key, Press
from port.screen import Rect
from port.screen.profiles import BLACK, LIGHTGRAY, WHITE, YELLOW

COLUMNS = 76              # characters a line: 8 + 76 * 8 = 616, inside the 640 width
ROWS = 18                 # lines a page, 14 apart (they stay apart on CGA's 200 lines)
TOP, LINE = 52, 14
BACK_BOX = Rect(16, 316, 64, 20)
PREV_BOX = Rect(96, 316, 104, 20)
NEXT_BOX = Rect(216, 316, 104, 20)
SCAN_UP, SCAN_DOWN, SCAN_PAGEUP, SCAN_PAGEDOWN, SCAN_HOME, SCAN_END = 0x48, 0x50, 0x49, 0x51, 0x47, 0x4F
ENTER, ESC = 13, 27


class ReviewScreen:
    """``lines``: made on the first frame after this screen is shown; each is wrapped
    to the screen's width (a wrapped line's rest indented). ``back``: the screen to
    return to."""

    def __init__(self, session: Session, title: str, lines: Callable[[], list[str]],
                 back: Controller) -> None:
        self.session = session
        self.title = title
        self.make = lines
        self.back = back
        self.rows: list[str] | None = None     # the wrapped lines, once made
        self.top = 0                           # the first row shown
        self.drawn = False

    # ---- input ----------------------------------------------------------------------

    def update(self, events: list[Event]) -> Controller | None:
        if self.rows is None:
            if not self.drawn:                 # the "looking" frame is shown first
                return self
            self.rows = wrap(self.make())
        for e in events:
            if isinstance(e, Key):
                if e.ascii in (ENTER, ESC) or e.char == "B":
                    return self.back
                if e.char in ("P", "N"):
                    self.scroll(-ROWS if e.char == "P" else ROWS)
                elif e.extended:
                    self.scroll({SCAN_UP: -1, SCAN_DOWN: 1, SCAN_PAGEUP: -ROWS, SCAN_PAGEDOWN: ROWS,
                                 SCAN_HOME: -10**6, SCAN_END: 10**6}.get(e.scan, 0))
            elif isinstance(e, Press) and e.button in (LEFT, RIGHT):
                if BACK_BOX.contains(e.x, e.y):
                    return self.back
                if PREV_BOX.contains(e.x, e.y):
                    self.scroll(-ROWS)
                elif NEXT_BOX.contains(e.x, e.y):
                    self.scroll(ROWS)
        return self

    def scroll(self, by: int) -> None:
        last = max(0, len(self.rows or ()) - ROWS)
        self.top = min(max(self.top + by, 0), last)

    # ---- drawing ----------------------------------------------------------------------

    def draw(self) -> None:
        s = self.session.screen
        s.set_page(0)
        s.clear(BLACK)
        s.text(8, 16, self.title[:COLUMNS].upper(), YELLOW)
        self.drawn = True
        if self.rows is None:
            s.text(8, TOP, "EXPERT IS LOOKING AT EACH DECISION...", WHITE)
            return
        for i, row in enumerate(self.rows[self.top:self.top + ROWS]):
            s.text(8, TOP + LINE * i, row, WHITE)
        s.button(*BACK_BOX, "BACK", "B")
        s.button(*PREV_BOX, "PREV PAGE", "P")
        s.button(*NEXT_BOX, "NEXT PAGE", "N")
        shown = f"LINES {self.top + 1}-{min(self.top + ROWS, len(self.rows))} OF {len(self.rows)}" \
            if self.rows else "NOTHING TO REVIEW"
        s.text(336, 322, shown, LIGHTGRAY)


def wrap(lines: list[str]) -> list[str]:
    """Each line at the screen's width, a wrapped line's rest indented two spaces."""
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, COLUMNS, subsequent_indent="  ") or [""]
    return out


__all__ = ["COLUMNS", "ROWS", "ReviewScreen", "wrap"]
