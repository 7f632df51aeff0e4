"""Watching a GinRummy table in the card room: the room game's screen (``roomplay``) in
a watch mode (docs/room.md, "Watching").

The room sends a watcher the table's public stream: each message's view holds what
both seats have seen in common (the pile, the stock's count, each seat's number of
cards, the public events), never a card in a hand. ``WatchTable`` reads it as the
player's screen reads its seat's view, seen from seat 0's chair with no cards of its
own: both hands are drawn as backs, the first player's where YOU sit, the second's
where the computer sits. Every move is played out at the computer's pace (a stream
that arrives all at once, the game so far when the watcher joins, is caught up at
once), a hand's end shows the room's Settlement as the players see it (both hands face
up) for ``HAND_HOLD`` frames or until CONTINUE, and the watcher is never more than a
hand behind. LEAVE (L, Q) goes back to the lobby; nothing the watcher does reaches
the table.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from port.ginrummy.main.context import Context
from port.ginrummy.main.play import (
    BACK_STEP, CONTINUE_BOX, CPU_Y, HAND_X, HAND_Y, LINE, MENU_BOX, MSG_X, MSG_Y, QUIT_BOX, result_lines,
)
from port.ginrummy.main.roomplay import (
    MY_CLOCK_X, STATUS_X, STATUS_Y, HUMAN_MODES, RoomPlayScreen, RoomTable, rating_lines,
)
from port.ginrummy.main.table import Mode, Shown
from port.ginrummy.rules import Act
from port.main.controller import Controller
from port.main.roomsession import STREAM, RoomSession, TableLink
from port.main.roomwidgets import draw_clock, status_text, watchers_text
from port.screen import Rect
from port.screen.profiles import BLACK, LIGHTGRAY, WHITE, YELLOW

HAND_HOLD = 10 * 30          # frames a hand's end stays for a watcher (10 s), unless CONTINUE sooner
LEAVE_BOX = Rect(QUIT_BOX.x, QUIT_BOX.y, QUIT_BOX.w, QUIT_BOX.h)
WATCH_LINE_Y = QUIT_BOX.y + 6


def seat_view(public: dict[str, Any]) -> dict[str, Any]:
    """A public view as seat 0's ``View`` reads, with no card of its own: its hand empty,
    nothing drawn, the other's size the second seat's."""
    sizes = public.get("hand_sizes") or [0, 0]
    return {**public, "seat": 0, "hand": [], "drawn": None, "drawn_from_pile": False, "play_to_gin": False,
            "opponent_hand_size": sizes[1], "stock_only": False}


class WatchTable(RoomTable):
    """A watched table, as the game screen reads a ``Table``: no seat of the watcher's."""

    def __init__(self, link: TableLink) -> None:
        super().__init__(link)
        self.sizes: tuple[int, int] = (0, 0)      # each seat's cards, as the public view counts them
        self.hold = 0                             # frames the hand's end has been up

    @property
    def sheet_shown(self) -> bool:
        return False                               # the game's end is the table page, with who won and how

    def shown(self) -> Shown:
        return Shown((), frozenset(), frozenset(), ())

    def tick(self) -> None:
        super().tick()
        if self.mode is Mode.HAND_END:
            self.hold += 1
            if self.hold >= HAND_HOLD:
                self.next_hand()
        else:
            self.hold = 0

    def next_hand(self) -> bool:
        self.hold = 0
        return super().next_hand()

    def _take(self) -> None:
        """The stream up to where the watcher joined (the room's ``watching`` said how
        far) is caught up at once; after it, never more than a hand behind."""
        for m in self.link.take():
            if m.get("type") in STREAM or m.get("type") == "timeout":
                self.queue.append(m)
                if isinstance(m.get("seq"), int) and m["seq"] <= self.link.sync_to:
                    self.history = len(self.queue)
        deals = [i for i, m in enumerate(self.queue) if m.get("type") == "deal"]
        if len(deals) >= 2:
            self.history = max(self.history, deals[-1])

    def _theirs(self, m: dict[str, Any]) -> bool:
        return m.get("type") == "event"            # every move is someone else's: each at its pace

    def _apply(self, m: dict[str, Any]) -> None:
        if m.get("type") == "timeout":
            self._note = f"STANDARD moved for {m.get('name')}: the clock ran out."
            return
        public = m.get("view")
        if isinstance(public, dict):
            sizes = public.get("hand_sizes") or [0, 0]
            self.sizes = (int(sizes[0] or 0), int(sizes[1] or 0))
            m = {**m, "view": seat_view(public)}
        super()._apply(m)
        if m.get("type") == "event":                # the RED bar over the pile: either seat took it
            self.computer_took_pile = (m.get("event") or {}).get("act") == Act.DRAW_PILE.value
        if self.mode in HUMAN_MODES.values() or self.mode is Mode.HUMAN_DRAW:
            self.mode = Mode.COMPUTER               # seat 0's turn is not the watcher's

    def to_move_name(self) -> str:
        view = self.view
        return "" if view is None else self.link.players[view.to_move]


class WatchScreen(RoomPlayScreen):
    """The game screen watching ``link``'s table; LEAVE is ``back`` (the lobby)."""

    def __init__(self, ctx: Context, session: RoomSession, link: TableLink,
                 back: Callable[[], Controller]) -> None:
        super().__init__(ctx, session, link, back)
        self.table = WatchTable(link)

    table: WatchTable

    # ---- who sits there ----------------------------------------------------------------

    def names(self) -> tuple[str, str]:
        return self.link.players[0], self.link.players[1]

    def playing_line(self) -> str:
        if self.link.away_left() is not None:
            return ""
        name = self.table.to_move_name()
        return f"{name} is playing." if name else ""

    def game_end_lines(self) -> list[str]:
        end = self.link.end
        if end is None:
            return ["The room is finishing the game."]
        players = self.link.players
        winner, loser = end.get("winner"), end.get("loser")
        if winner is None:
            lines = ["THE GAME IS A DRAW."]
        else:
            lines = [f"{str(winner)[:12].upper()} WINS THE GAME."]
            if loser is None:
                loser = players[1] if winner == players[0] else players[0]
        who = str(loser or "")[:12].upper()
        how = {"resigned": f"{who} RESIGNED.", "clock": f"{who}'S CLOCK RAN OUT.",
               "away": f"{who} DID NOT COME BACK."}.get(str(end.get("how")))
        if how:
            lines.append(how)
        scores = end.get("scores") or [0, 0]
        lines.append(f"{scores[0]} TO {scores[1]}.")
        return lines + rating_lines(end, *players)

    # ---- input: LEAVE, and CONTINUE at a hand's end --------------------------------------

    def _taken(self, e: Any) -> bool:
        return False                                # no chat: a watcher hears none and says none

    def _key_target(self, ch: str) -> object:
        if ch in ("L", "Q"):
            return "leave"
        if self.table.mode is Mode.HAND_END and ch in ("\r", " ", "C"):
            return "continue"
        return None

    def _target_at(self, x: int, y: int) -> object:
        if LEAVE_BOX.contains(x, y) or (self.table.mode is Mode.GAME_END and MENU_BOX.contains(x, y)):
            return "leave"
        if self.table.mode is Mode.HAND_END and CONTINUE_BOX.contains(x, y):
            return "continue"
        return None

    def _press(self, p: Any) -> Controller | None:
        target = self._target_at(p.x, p.y)
        return self._choose(target) if target is not None else self

    def _choose(self, target: object) -> Controller | None:
        if target == "leave":
            return self.back()
        if target == "continue":
            self.table.next_hand()
        return self

    def _after_tick(self) -> Controller | None:
        return self

    # ---- drawing -----------------------------------------------------------------------

    def _draw_human(self) -> None:
        s = self.ctx.session.screen
        for i in range(self.table.sizes[0]):
            s.back(HAND_X + i * BACK_STEP, HAND_Y)

    def _draw_boxes(self) -> None:
        s = self.ctx.session.screen
        s.text(16, WATCH_LINE_Y, f"WATCHING {self.link.players[0][:12]} v {self.link.players[1][:12]}".upper(),
               LIGHTGRAY)
        s.button(*LEAVE_BOX, "LEAVE", "L")

    def _draw_message(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        lines: list[str] = []
        if t.mode is Mode.COMPUTER:
            lines = [self.playing_line()]
        elif t.mode is Mode.HAND_END and t.result is not None:
            lines = result_lines(t.result, "", t.options, t.hand.knock_card, names=self.names())
            s.button(*CONTINUE_BOX, "CONTINUE", "C")
        elif t.mode is Mode.GAME_END:
            lines = self.game_end_lines()
            s.button(*MENU_BOX, "LOBBY", "L")
        if t.message:
            lines = [t.message]
        for i, line in enumerate(lines[:7]):
            s.text(MSG_X + 16, MSG_Y + LINE * i, line[:34], WHITE)

    def _draw_room(self) -> None:
        """The clocks under both names, the status line and how many watch; no chat."""
        s = self.ctx.session.screen
        first, second = (n[:8] for n in self.names())
        draw_clock(s, self.link, 1, HAND_X + 8 * len(second) + 12, CPU_Y - LINE + 1)
        s.fill(0, STATUS_Y - 2, 640, 10, BLACK)
        s.text(16, STATUS_Y, first, LIGHTGRAY)
        draw_clock(s, self.link, 0, MY_CLOCK_X, STATUS_Y + 1)
        count = watchers_text(self.link)
        status = status_text(self.session, self.link)
        if status:
            s.text(STATUS_X, STATUS_Y, status[:(640 - STATUS_X) // 8 - len(count) - 1], YELLOW)
        if count:
            s.text(640 - 8 - 8 * len(count), STATUS_Y, count, LIGHTGRAY)


def watch(ctx: Context, session: RoomSession, link: TableLink, back: Callable[[], Controller]) -> Controller:
    """The GinRummy screen watching ``link``'s table (``RoomGame.play`` for a watched link)."""
    return WatchScreen(ctx, session, link, back)


__all__ = ["HAND_HOLD", "WatchScreen", "WatchTable", "seat_view", "watch"]
