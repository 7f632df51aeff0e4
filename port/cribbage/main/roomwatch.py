"""Watching a Cribbage table in the card room: the room game's screen (``roomplay``) in a
watch mode (docs/room.md, "Watching").

The room sends a watcher the table's public stream: each view holds what both seats
have seen in common (each seat's number of cards and whether it has laid away, the
play, the starter once cut, the shows), never a card in a hand or in the crib before
its show. ``WatchTable`` plays it out as the player's screen plays its seat's stream,
from seat 0's chair with no cards of its own: both hands and both seats' crib cards are
backs, the first player where YOU sit, the second where the computer sits; each move
after the computer's pause, each box its five seconds (a key clears it sooner), the
boxes in both players' names. The game so far, sent at once when the watcher joins, is
caught up at once, and the watcher is never more than a hand behind. LEAVE (L, Q) goes
back to the lobby; nothing the watcher does reaches the table.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from port.cribbage.main import layout as L
from port.cribbage.main.context import CribContext
from port.cribbage.main.layout import COMPUTER, HUMAN, LINE
from port.cribbage.main.roomplay import (
    HIDDEN_CRIB, HIDDEN_HAND, KINDS, MY_CLOCK, RESIGN_BOX, RoomPlay, RoomTable, SeatHand,
)
from port.cribbage.main.table import Box
from port.cribbage.rules import Phase, View
from port.main.controller import Controller
from port.main.roomsession import RoomSession, TableLink
from port.main.roomwidgets import draw_clock, rating_line, status_text, watchers_text
from port.mouse import Key, Press
from port.protocol import ProtocolError, decode
from port.screen.profiles import LIGHTGRAY, LIGHTGREEN, LIGHTRED, WHITE, YELLOW

FIRST_BACKS = (HIDDEN_HAND + 20, HIDDEN_CRIB + 20)   # the first seat's hidden cards, as the screen numbers them
LEAVE_BOX = RESIGN_BOX


def seat_view(public: dict[str, Any]) -> dict[str, Any]:
    """A public view as seat 0's ``View`` reads, with no card of its own."""
    sizes = public.get("hand_sizes") or [0, 0]
    laid = public.get("laid_away") or [False, False]
    return {**public, "seat": 0, "hand": [], "kept": [], "my_crib": [], "opponent_left": sizes[1],
            "opponent_discarded": bool(laid[1])}


def named(text: str, name: str) -> str:
    """A box's words for the first seat by its name, not YOU."""
    for old, new in (("YOU SAY GO", f"{name} SAYS GO"), ("YOU DEAL.", f"{name} DEALS."), ("YOUR ", f"{name}'S ")):
        text = text.replace(old, new)
    return text


class WatchTable(RoomTable):
    """A watched table at the table's pace: no seat of the watcher's."""

    sees_own = False

    def __init__(self, link: TableLink, *, animate: bool = True) -> None:
        super().__init__(link, link.players[0], animate=animate)
        self.sizes: tuple[int, int] = (0, 0)
        self.laid: tuple[bool, bool] = (False, False)
        self.mark = self.name[:1]

    @property
    def hand(self) -> SeatHand:  # type: ignore[override]
        h = super().hand
        first, crib = FIRST_BACKS
        return replace(h, hands=(list(range(first, first + self.sizes[0])), h.hands[COMPUTER]),
                       cribs=((crib, crib + 1) if self.laid[0] else (), h.cribs[COMPUTER]))

    def _backs(self, seat: int) -> tuple[int, int]:
        return FIRST_BACKS if seat == HUMAN else (HIDDEN_HAND, HIDDEN_CRIB)

    def _view_of(self, m: dict[str, Any]) -> View | None:
        public = m.get("view")
        if not isinstance(public, dict):
            return None
        try:
            view = decode(View, seat_view(public))
        except ProtocolError:
            return None
        sizes, laid = public.get("hand_sizes") or [0, 0], public.get("laid_away") or [False, False]
        self.sizes, self.laid = (int(sizes[0] or 0), int(sizes[1] or 0)), (bool(laid[0]), bool(laid[1]))
        return view

    def _seat(self, seat: object) -> int:
        return COMPUTER if isinstance(seat, int) else -1     # every move is paced as the other's

    def _take(self) -> None:
        """The game up to where the watcher joined (the room's ``watching`` said how far)
        is caught up at once; after it, never more than a hand behind."""
        got = [m for m in self.link.take() if m.get("type") in KINDS]
        if not got:
            return
        self.pending.extend(got)
        upto = max((i + 1 for i, m in enumerate(self.pending)
                    if isinstance(m.get("seq"), int) and m["seq"] <= self.link.sync_to), default=0)
        deals = [i for i, m in enumerate(self.pending) if m["type"] == "deal"]
        if len(deals) >= 2:
            upto = max(upto, deals[-1])
        if upto:
            self._catch_up(upto)

    def _box(self, box: Box, pegs: tuple[tuple[int, int], ...] = ()) -> None:
        """Each box in both players' names, its five seconds (none waits for the watcher)."""
        super()._box(replace(box, title=named(box.title, self.name), lines=[named(x, self.name) for x in box.lines],
                             waits=False), pegs)

    def playing_line(self) -> str:
        h = self.hand
        if h.phase is Phase.DISCARD:
            return "Laying away to the crib."
        if h.phase is Phase.PLAY and h.to_act is not None:
            return f"{(self.name, self.them)[h.to_act]} is playing."
        return ""


class WatchPlay(RoomPlay):
    """The game screen watching ``link``'s table; LEAVE is ``back`` (the lobby)."""

    def __init__(self, ctx: CribContext, session: RoomSession, link: TableLink,
                 back: Callable[[], Controller]) -> None:
        super().__init__(ctx, session, link, back)
        self.table: WatchTable = WatchTable(link, animate=not ctx.session.launch.noanimation)

    # ---- input: LEAVE; any other key or click clears a box sooner ---------------------------

    def update(self, events: list[Any]) -> Controller | None:
        self.session.poll()
        return super(RoomPlay, self).update(events)

    def _record(self) -> None:
        self.recorded = True            # the record is the players' to fetch; a watcher finds it in HISTORY

    def _input(self, e: Key | Press) -> Controller | None:
        target = self._key_target(e) if isinstance(e, Key) else self._target_at(e.x, e.y)
        t = self.table
        if target == "lobby":
            return self.back()
        if target == "last_count":
            t.recall()
        elif t.box is not None:
            t.dismiss()
        return self

    def _key_target(self, k: Key) -> object:
        if k.char in ("L", "Q") or (k.char == "\r" and self.table.over):
            return "lobby"
        return "last_count" if k.char == "C" else None

    def _target_at(self, x: int, y: int) -> object:
        t = self.table
        if LEAVE_BOX.contains(x, y) or (t.over and L.MENU_BOX.contains(x, y)):
            return "lobby"
        if t.last_count and L.LAST_COUNT_BOX.contains(x, y):
            return "last_count"
        return None

    # ---- drawing -------------------------------------------------------------------

    def _draw_human(self, hidden: set[int]) -> None:
        s = self.ctx.session.screen
        for i, c in enumerate(self.table.hand.hands[HUMAN]):
            if c not in hidden:
                s.back(*L.hand_slot(HUMAN, i))

    def _crib_label(self, dealer: int) -> str:
        return f"{self.link.players[dealer][:6].upper()}'S CRIB"

    def _draw_scores(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        first, second = t.front
        s.text(L.SCORES_X, L.SCORES_Y, f"{t.them[:8]:<8}  {second:>3}", LIGHTRED)
        s.text(L.SCORES_X, L.SCORES_Y + LINE, f"{t.name[:8]:<8}  {first:>3}", LIGHTGREEN)
        s.text(L.SCORES_X, L.SCORES_Y + 2 * LINE, f"{'LIMIT':<8}  {t.options.limit:>3}", LIGHTGRAY)
        s.text(L.SCORES_X, L.SCORES_Y + 3 * LINE + 4, f"{(t.name, t.them)[t.hand.dealer][:8]} DEALS", WHITE)

    def _draw_boxes(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        s.text(L.LAY_AWAY_BOX.x, L.LAY_AWAY_BOX.y + 6, f"WATCHING {t.name[:8]} v {t.them[:8]}", LIGHTGRAY)
        if t.last_count:
            s.button(*L.LAST_COUNT_BOX, "LAST COUNT", "C")
        s.button(*LEAVE_BOX, "LEAVE", "L")

    def _message_lines(self) -> list[str]:
        lines = [status_text(self.session, self.link)] + ([] if self.table.busy else [self.table.playing_line()])
        return [line for line in lines if line][:3]

    def _draw_beside(self) -> None:
        """Both clocks (the second seat's beside its name, the first's over its cards) and
        how many watch; no chat: a watcher hears none."""
        s = self.ctx.session.screen
        link, t = self.link, self.table
        draw_clock(s, link, COMPUTER, L.CPU_X + s.text_width(t.them) + 12, L.CPU_LABEL_Y + 1)
        draw_clock(s, link, HUMAN, *MY_CLOCK)
        count = watchers_text(link)
        if count:
            s.text(L.SCORES_X, L.SCORES_Y + 4 * LINE + 4, count, LIGHTGRAY)

    def _draw_game_end(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        end = t.end or {}
        r = L.SHOW
        self._frame(r)
        winner = end.get("winner")
        head = f"{str(winner)[:12].upper()} WINS." if winner else "THE GAME IS OVER."
        s.text(r.x + (r.w - s.text_width(head, 2)) // 2, r.y + 24, head, YELLOW, 2)
        loser = str(end.get("loser") or "").upper()[:12]
        first, second = t.front
        lines = {"resigned": [f"{loser} RESIGNED."],
                 "clock": [f"{loser} LOST ON THE CLOCK:", "THREE MOVES IN A ROW TIMED OUT."],
                 "away": [f"{loser} DID NOT COME BACK IN TIME."]}.get(str(end.get("how")),
                                                                      [f"{t.name} {first}, {t.them} {second}."])
        if end.get("how") == "played" and t.game.skunk:
            lines.append("A SKUNK: IT COUNTS AS TWO GAMES.")
        ratings = end.get("ratings") or {}
        rows = [rating_line(n, ratings.get(n) or {}, 12) for n in self.link.players] if end.get("rated") else []
        y = r.y + 64
        for line in lines + ([] if rows else ["NOT RATED."]):
            s.text(r.x + (r.w - s.text_width(line)) // 2, y, line, WHITE)
            y += LINE
        x = r.x + (r.w - max((s.text_width(row) for row in rows), default=0)) // 2
        for row in rows:
            s.text(x, y + LINE, row, WHITE)
            y += LINE
        s.button(*L.MENU_BOX, "LOBBY", "L")


def watch(ctx: CribContext, session: RoomSession, link: TableLink, back: Callable[[], Controller]) -> Controller:
    """The Cribbage screen watching ``link``'s table (``RoomGame.play`` for a watched link)."""
    return WatchPlay(ctx, session, link, back)


__all__ = ["WatchPlay", "WatchTable", "named", "seat_view", "watch"]
