"""Cribbage's first screen: the title, or with GO "directly into the game"."""
from __future__ import annotations

from port.cribbage.main.context import CribContext
from port.main.controller import Controller, Session


def first_screen(session: Session) -> Controller:
    from port.cribbage.main.menus import CribTitle
    from port.cribbage.main.play import CribPlay

    ctx = CribContext.start(session)
    ctx.title = CribTitle
    return CribPlay(ctx) if session.launch.go else CribTitle(ctx)
