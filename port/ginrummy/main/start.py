"""GinRummy's first screen: the title, or with GO "directly into the game", or with
``replay FILE`` the replay viewer (docs/records.md), or with ``--room URL`` the card
room's connection page (docs/room.md)."""
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
    if session.launch.room is not None:             # --room URL: straight to the card room
        from port.ginrummy.main.room import ROOM
        from port.main.roompages import ConnectPage

        return ConnectPage(ctx, ROOM, session.launch.room)
    return PlayScreen(ctx, TitleScreen) if session.launch.go else TitleScreen(ctx)
