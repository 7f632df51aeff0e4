"""Cribbage's first screen: the title, or with GO "directly into the game", or with
``replay FILE`` the replay viewer (docs/records.md), or with ``--room URL`` the card
room's connection page (docs/room.md)."""
from __future__ import annotations

from port.cribbage.main.context import CribContext
from port.main.controller import Controller, Session


def first_screen(session: Session) -> Controller:
    from port.cribbage.main.menus import CribTitle
    from port.cribbage.main.play import CribPlay
    from port.cribbage.main.replay import CribReplay

    ctx = CribContext.start(session)
    ctx.title = CribTitle
    if session.launch.replay is not None:
        return CribReplay(ctx, session.launch.replay)
    if session.launch.room is not None:             # --room URL: straight to the card room
        from port.cribbage.main.room import ROOM
        from port.main.roompages import ConnectPage

        return ConnectPage(ctx, ROOM, session.launch.room)
    return CribPlay(ctx) if session.launch.go else CribTitle(ctx)
