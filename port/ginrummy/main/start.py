"""GinRummy's first screen: the title, or with GO "directly into the game", or with
``replay FILE`` the replay viewer (docs/records.md)."""
from __future__ import annotations

from port.ginrummy.main.context import Context
from port.ginrummy.main.menus import TitleScreen
from port.ginrummy.main.play import PlayScreen
from port.ginrummy.main.replay import GinReplay
from port.main.controller import Controller, Session


def first_screen(session: Session) -> Controller:
    ctx = Context.start(session)
    ctx.title = TitleScreen
    if session.launch.replay is not None:
        return GinReplay(ctx, session.launch.replay)
    return PlayScreen(ctx, TitleScreen) if session.launch.go else TitleScreen(ctx)
