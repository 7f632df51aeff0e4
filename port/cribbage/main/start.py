"""Cribbage's first screen: the title, or with GO "directly into the game", or with
``replay FILE`` the replay viewer (docs/records.md)."""
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
    return CribPlay(ctx) if session.launch.go else CribTitle(ctx)
