"""GinRummy's first screen: the title, or with GO "directly into the game"."""
from __future__ import annotations

from port.ginrummy.main.context import Context
from port.ginrummy.main.menus import TitleScreen
from port.ginrummy.main.play import PlayScreen
from port.main.controller import Controller, Session


def first_screen(session: Session) -> Controller:
    ctx = Context.start(session)
    ctx.title = TitleScreen
    return PlayScreen(ctx, TitleScreen) if session.launch.go else TitleScreen(ctx)
