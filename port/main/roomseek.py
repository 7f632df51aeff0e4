"""The lobby's PLAY NOW and BLOCK (issue 38, section 1): what the lobby page asks the
room and says on its status line, beside the pages (``port.main.roompages``).

PLAY NOW seeks a game with the player's own rules (the options and table rules in
force, no hints) and a clock of 1:00 a move, falling back on the house bot of the
player's own LEVEL (EASY when the options say EASY): the first person whose seek fits
sits down at once, else the house bot after the room's wait (15 s). While it looks, the
box reads CANCEL and the status line "Looking for a game... (0:07)". BLOCK keeps the
player picked away (no invitations either way, no chat, never paired); the row then
says BLOCKED, to this player only, and the box UNBLOCK. A shared unit: it knows no
game (the game's rules come through its ``RoomGame``).
"""
from __future__ import annotations

from typing import Any

from port.main.context import GameContext
from port.main.controller import Controller
from port.main.roomgame import RoomGame
from port.main.roomsession import RoomSession
from port.screen import Rect
from port.screen.profiles import YELLOW

PLAY_NOW_CLOCK = 60                  # seconds a move, as a new invitation starts
# The lobby's boxes of this module, in its right-hand column (between INVITE and PROFILE,
# and under PROFILE).
# The lobby's right-hand column, a box every 24 lines: PG UP, INVITE, PLAY NOW, WATCH, PROFILE, BLOCK.
SEEK_RECT, BLOCK_RECT = Rect(520, 116, 96, 20), Rect(520, 188, 96, 20)


def level_of(ctx: GameContext) -> str:
    """The house bot to fall back on: the player's own level against the computer."""
    cfg = ctx.config
    if bool(getattr(cfg, "easy", False)):
        return "easy"
    level = str(getattr(cfg, "level", "STANDARD")).lower()
    return level if level in ("easy", "standard", "expert") else "standard"


def play_now(ctx: GameContext, room: RoomGame, session: RoomSession) -> None:
    """Ask the room for a game: the player's rules and clock, its level's house bot."""
    session.seek(room.game, {**room.my_rules(ctx), "hints": False}, PLAY_NOW_CLOCK, level_of(ctx))


def seek_line(session: RoomSession) -> str:
    """The status line while PLAY NOW looks: "Looking for a game... (0:07)"."""
    waited = int(session.seek_seconds())
    return f"Looking for a game... ({waited // 60}:{waited % 60:02d})  CANCEL (C) stops it."


def where_mine(session: RoomSession, p: dict[str, Any], where: str) -> str:
    """The WHERE column as this player sees it: BLOCKED for a player it blocked."""
    return "BLOCKED" if session.is_blocked(str(p.get("name", ""))) else where


class SeekAndBlock:
    """The lobby page's PLAY NOW (N; CANCEL, C, while it looks) and BLOCK (K; UNBLOCK for
    one blocked), mixed into ``LobbyPage``: its boxes at ``seek_box`` and ``block_box``
    say what they would do now."""

    ctx: GameContext
    room: RoomGame
    session: RoomSession | None
    picked: str | None
    line: str
    items: list[Any]
    seek_box: int
    block_box: int

    def boxes(self) -> None:
        assert self.session is not None
        seeking = self.session.seeking is not None
        rect, _, _, act = self.items[self.seek_box]
        self.items[self.seek_box] = (rect, "CANCEL" if seeking else "PLAY NOW", "C" if seeking else "N", act)
        rect, _, _, act = self.items[self.block_box]
        blocked = self.picked is not None and self.session.is_blocked(self.picked)
        self.items[self.block_box] = (rect, "UNBLOCK" if blocked else "BLOCK", "K", act)

    def play_now(self) -> Controller:
        assert self.session is not None
        self.line = ""
        if self.session.seeking is not None:
            self.session.cancel_seek()
        elif self.session.status != "open":
            self.line = "Not connected to the room: PLAY NOW again when the line is back."
        else:
            play_now(self.ctx, self.room, self.session)
        self.boxes()
        return self          # type: ignore[return-value]

    def block(self) -> Controller:
        assert self.session is not None
        name = self.picked or ""
        if not name or name == self.session.name:
            self.line = "Pick a player first (the arrows or a click), then BLOCK." if not name else "That is you."
            return self      # type: ignore[return-value]
        self.line = ""
        self.session.block(name, not self.session.is_blocked(name))
        return self          # type: ignore[return-value]

    def status(self) -> tuple[str, int]:
        text, colour = super().status()      # type: ignore[misc]
        if not text and self.session is not None and self.session.seeking is not None:
            return seek_line(self.session), YELLOW
        return text, colour


__all__ = ["BLOCK_RECT", "PLAY_NOW_CLOCK", "SEEK_RECT", "SeekAndBlock", "level_of", "play_now", "seek_line",
           "where_mine"]
