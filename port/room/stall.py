"""Tables stalled by a full disk: the game kept, both seats told, and on again when
there is space.

A move is written to the store before anyone hears of it. When the store says it has
no room left (``StoreFull``: SQLite's SQLITE_FULL, the disk or its quota full), the move
is not refused (a bot would resign over a refused move, and nothing about the move is
wrong): it is held, in order, with any move the other seat sends meanwhile (one a
seat), the table's clock stops, and both seats are told once (``stalled``). The clocks'
tick tries the held moves again every ``RETRY`` seconds (one stalled table a tick
while there is still no space, so a thousand stalled tables cost one try a second,
not a thousand); when one is kept, the game
goes on where it stood: the moves are said as usual, both seats hear ``stall_over``,
the clock starts afresh, and an absent player's grace is moved on by the time the
table stood still. A game's end that cannot be written waits the same way (the table's
``ending``).
"""
from __future__ import annotations

import logging
import time
from typing import Any

from port.protocol import dump
from port.room.errors import Refused

log = logging.getLogger("cardroom")

RETRY = 1.0                   # seconds between tries of a stalled table's writes
FULL = "the room's disk is full: the game waits until there is space (nothing is lost)"

# The tables part is passed in, not imported: it imports this module.
Play = Any
Table = Any
Move = tuple[int, dict[str, Any], "str | None"]      # seat, move, by (None: the player)


class Stalls:
    """The stalled tables of one process: since when, when to try again, what is held."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.since: dict[str, float] = {}            # table id -> time.time() it stalled
        self.next: dict[str, float] = {}             # table id -> monotonic time of the next try
        self.held: dict[str, list[Move]] = {}

    def __contains__(self, table_id: str) -> bool:
        return table_id in self.since

    def stall(self, table: Table, why: str) -> None:
        """A write for ``table`` found no space: stop its clock, say so once."""
        self.next[table.id] = time.monotonic() + RETRY
        table.deadline = table.starts = None         # nor does a clock waiting on ``shown`` start
        if table.id in self.since:
            return
        self.since[table.id] = time.time()
        log.error("table %s: %s; the game waits until there is space", table.id, why)
        text = dump("stalled", table=table.id, reason=FULL)
        for name in table.players:
            self.play.room.deliver(name, text)

    def hold(self, table: Table, seat: int, move: dict[str, Any], by: str | None, first: bool = False) -> None:
        """Keep a move for when there is space (``first``: the one whose write failed)."""
        held = self.held.setdefault(table.id, [])
        if not first and any(s == seat for s, _, _ in held):
            raise Refused(f"{FULL}; your last move is kept already")
        if first:
            held.insert(0, (seat, move, by))
        else:
            held.append((seat, move, by))

    def due(self, table_id: str, mono: float) -> bool:
        return self.next.get(table_id, 0.0) <= mono

    async def retry(self, table: Table) -> bool:
        """Play the held moves in order, or write the game's end again: True if the
        table is no longer stalled."""
        self.next[table.id] = time.monotonic() + RETRY
        if table.id not in self.held:
            if table.ending is not None and table.finished is None:
                self.play.finish(table, *table.ending)
            else:
                self.over(table)
            return table.id not in self.since
        held = self.held.pop(table.id, [])
        while held:
            seat, move, by = held.pop(0)
            try:
                await self.play._play(table, seat, move, by)
            except Refused as exc:            # a move sent meanwhile the rules refuse now
                if by is None:
                    self.play.room.send(table.players[seat], "error", refused="move", table=table.id,
                                        reason=str(exc))
                continue
            if table.id in self.since:        # stalled again: the rest wait behind it
                self.held.setdefault(table.id, []).extend(held)
                return False
        return table.id not in self.since

    def over(self, table: Table) -> None:
        """A write for ``table`` went through: if it had stalled, it goes on."""
        since = self.since.pop(table.id, None)
        self.next.pop(table.id, None)
        if since is None:
            return
        stood = time.time() - since
        for seat in list(table.away):
            table.away[seat] += stood          # the grace does not run while the table cannot move
        log.info("table %s: there is space again; the game goes on after %.0f s", table.id, stood)
        text = dump("stall_over", table=table.id)
        for name in table.players:
            self.play.room.deliver(name, text)

    def forget(self, table_id: str) -> None:
        self.since.pop(table_id, None)
        self.next.pop(table_id, None)
        self.held.pop(table_id, None)


__all__ = ["FULL", "RETRY", "Stalls"]
