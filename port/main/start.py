"""The first screen of a run: the title, or with GO "directly into the game"."""
from __future__ import annotations

from port.main.context import Context
from port.main.controller import Controller, Session
from port.main.menus import TitleScreen
from port.main.play import PlayScreen


def first_screen(session: Session) -> Controller:
    ctx = Context.start(session)
    return PlayScreen(ctx, TitleScreen) if session.launch.go else TitleScreen(ctx)
