"""Cribbage's menu screens on video page 1, on the shell's ``Menu`` and ``NameMenu``:
the title, the options menu and the player's statistics (no high scores in Cribbage)."""
from __future__ import annotations

from collections.abc import Callable

from port.cribbage.main.context import CribContext
from port.cribbage import files as crib_files
from port.files import players
from port.main.controller import Controller
from port.main.menus import Menu, NameMenu, Page, notice_lines, yes_no
from port.mouse import Key
from port.screen import Rect
from port.screen.profiles import LIGHTGRAY, LIGHTRED, WHITE, YELLOW

ENTER = 13
# "Upper and lower case letters, numbers 0 through 9, characters ! . , " - : / ? and
# spaces are also allowed" (GinRummy's set has no . or ,).
NAME_CHARS = players.NAME_CHARS | {".", ","}
NAME_FIELD = Rect(384, 56, 96, 20)
ROW_X, ROW_W, ROW_Y0, ROW_DY = 48, 200, 96, 30


class CribTitle(Menu):
    """BEGIN GAME (B, Enter), OPTIONS (O), STATISTICS (S), the port's CARD ROOM (C: play
    people, docs/room.md) and QUIT (Q)."""

    def __init__(self, ctx: CribContext) -> None:
        super().__init__(ctx)  # type: ignore[arg-type]
        self.notices = ctx.take_notices()
        x, w, y, dy = 240, 160, 124, 26       # five boxes, clear of the line under them
        self.add(Rect(x, y, w, 20), "BEGIN GAME", "B", lambda b: self.begin())
        self.add(Rect(x, y + dy, w, 20), "OPTIONS", "O", lambda b: CribOptions(self.ctx))
        self.add(Rect(x, y + 2 * dy, w, 20), "STATISTICS", "S", lambda b: CribStats(self.ctx))
        self.add(Rect(x, y + 3 * dy, w, 20), "CARD ROOM", "C", lambda b: self.card_room())
        self.add(Rect(x, y + 4 * dy, w, 20), "QUIT", "Q", lambda b: None)

    def card_room(self) -> Controller:
        from port.cribbage.main.room import ROOM
        from port.main.roompages import ConnectPage

        return ConnectPage(self.ctx, ROOM)  # type: ignore[arg-type]

    def begin(self) -> Controller:
        from port.cribbage.main.play import CribPlay

        return CribPlay(self.ctx)

    def on_key(self, k: Key) -> Controller | None:
        return self.begin() if k.ascii == ENTER else super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        title = "CRIBBAGE"
        s.text((640 - s.text_width(title, 4)) // 2, 24, title, YELLOW, 4)
        sub = "A port of David Teach's DOS card game, version 2.0"
        s.text((640 - s.text_width(sub)) // 2, 72, sub, LIGHTGRAY)
        cfg = self.ctx.config
        line = (f"NAME {cfg.name}   LIMIT {cfg.score_limit}   SKUNKING {yes_no(cfg.skunking)}"
                f"   LEVEL {cfg.level}")
        s.text((640 - s.text_width(line)) // 2, 262, line, WHITE)
        for i, line in enumerate(notice_lines(self.notices, rows=4)):
            s.text(8, 290 + 14 * i, line, LIGHTRED)


class CribOptions(NameMenu):
    """MAIN MENU (M, Enter), NAME (N), SCORE LIMIT (+/-, either button), SKUNKING (K),
    BIG CARDS (B), POINTER (P), LEVEL (L, the port's), SAVE (S)."""

    name_chars = NAME_CHARS
    name_field = NAME_FIELD

    def __init__(self, ctx: CribContext) -> None:
        super().__init__(ctx)  # type: ignore[arg-type]
        rows: list[tuple[str, str | None, Callable[[int], Controller | None]]] = [
            ("SCORE LIMIT", None, lambda b: self.limit()),
            ("SKUNKING", "K", lambda b: self.toggle("skunking")),
            ("BIG CARDS", "B", lambda b: self.toggle("big_cards")),
            ("POINTER", "P", self.next_pointer),
            ("LEVEL", "L", lambda b: self.set(level="EXPERT" if self.cfg.level == "STANDARD" else "STANDARD")),
        ]
        for i, (label, hot, action) in enumerate(rows):
            self.add(Rect(ROW_X, ROW_Y0 + ROW_DY * i, ROW_W, 20), label, hot, action)
        self.add(Rect(ROW_X, 16, ROW_W, 20), "MAIN MENU", "M", lambda b: self.title())
        self.add(Rect(ROW_X, 56, ROW_W, 20), "NAME", "N", lambda b: self.start_typing())
        self.add(NAME_FIELD, "", None, lambda b: self.start_typing())   # "the red box around the name"
        self.add(Rect(ROW_X, ROW_Y0 + ROW_DY * len(rows) + 10, ROW_W, 20), "SAVE", "S", lambda b: self.save())

    def limit(self) -> Controller:
        """ "cycles the pegging board total between 121 and 61 pegs. Use either mouse
        button, or the + or - keys": two values, so every way flips it."""
        return self.set(score_limit=61 if self.cfg.score_limit == 121 else 121)

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ENTER:
            return self.title()
        if k.char in ("+", "-"):
            return self.limit()
        return super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        cfg = self.cfg
        values = [str(cfg.score_limit), yes_no(cfg.skunking), yes_no(cfg.big_cards),
                  str(cfg.pointer + 1), cfg.level]
        for (rect, _, _, _), value in zip(self.items, values):
            s.text(rect.x + rect.w + 16, rect.y + 6, value, WHITE)
        s.text(ROW_X + ROW_W + 64, ROW_Y0 + 6, "+ / -  OR EITHER BUTTON", LIGHTGRAY)
        s.pointer_at(ROW_X + ROW_W + 64, ROW_Y0 + ROW_DY * 3 + 2, cfg.pointer)
        s.text(ROW_X + ROW_W + 120, ROW_Y0 + ROW_DY * 4 + 6, "THE COMPUTER'S PLAY", LIGHTGRAY)
        if self.saved_note:
            s.text(ROW_X, 300, self.saved_note, LIGHTRED)


class CribStats(Page):
    """The current player's cumulative statistics; MAIN MENU (M, Enter) goes back."""

    def draw_body(self) -> None:
        s = self.screen
        p = self.ctx.store.player(self.ctx.config.name)
        head = "PLAYER STATISTICS"
        s.text((640 - s.text_width(head, 2)) // 2, 40, head, YELLOW, 2)
        for i, (k, v) in enumerate(stats_rows(p)):
            s.text(160, 100 + 22 * i, k, LIGHTGRAY)
            s.text(420, 100 + 22 * i, v, WHITE)


def stats_rows(p: crib_files.CribStats) -> list[tuple[str, str]]:
    """The figures the documentation names: the averages in hand and crib, games won
    and lost (a skunk counts two), hands played, the name."""
    return [("NAME", p.name), ("AVERAGE POINTS IN HAND", f"{p.hand_average:.2f}"),
            ("AVERAGE POINTS IN CRIB", f"{p.crib_average:.2f}"),
            ("GAMES WON", str(p.won)), ("GAMES LOST", str(p.lost)),
            ("HANDS PLAYED", str(p.hands))]


__all__ = ["CribOptions", "CribStats", "CribTitle", "NAME_CHARS", "stats_rows"]

