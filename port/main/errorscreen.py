"""What a web page shows when the game stops on an internal error.

On the desktop such an error is one sentence on stderr and exit status 1 (``port.main``).
A web page has neither a terminal nor an exit: pyxel's web loader shows stderr only
from a line starting with "Traceback", and a SystemExit there is a bare "SystemExit: 1"
overlay. So in a page the sentence is drawn on the game's own screen, which stays up
until the page is reloaded, and printed to the browser's console (docs/web.md).
"""
from __future__ import annotations

import textwrap

from port.main.controller import Controller, Session
from port.mouse import Event
from port.screen import LOGICAL_WIDTH
from port.screen.profiles import BLACK, LIGHTRED, WHITE

_COLUMNS = 72        # characters a line: the 8-pixel font, a margin either side


class ErrorScreen:
    """The sentence, wrapped, on page 0; every input ignored."""

    def __init__(self, session: Session, sentence: str) -> None:
        self.session = session
        self.sentence = sentence
        self.lines = textwrap.wrap(sentence, _COLUMNS)

    def update(self, events: list[Event]) -> Controller | None:
        return self

    def draw(self) -> None:
        s = self.session.screen
        s.set_page(0)
        s.clear(BLACK)
        x = (LOGICAL_WIDTH - 8 * _COLUMNS) // 2
        title = self.session.launch.title or "The game"
        s.text(x, 120, f"{title.upper()} HAS STOPPED", LIGHTRED, 2)
        for i, line in enumerate(self.lines):
            s.text(x, 160 + 14 * i, line, WHITE)
