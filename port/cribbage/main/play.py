"""Cribbage's game screen (video page 0). A first stand-in: the real table follows."""
from __future__ import annotations

from port.cribbage.main.context import CribContext
from port.main.controller import Controller
from port.mouse import Event, Key
from port.screen.profiles import BLACK, WHITE


class CribPlay:
    def __init__(self, ctx: CribContext) -> None:
        self.ctx = ctx
        ctx.session.screen.set_page(0)

    def update(self, events: list[Event]) -> Controller | None:
        for e in events:
            if isinstance(e, Key) and e.char == "Q" and self.ctx.title is not None:
                return self.ctx.title(self.ctx)
        return self

    def draw(self) -> None:
        s = self.ctx.session.screen
        s.set_page(0)
        s.clear(BLACK)
        s.text(16, 16, "CRIBBAGE", WHITE)
