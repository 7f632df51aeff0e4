"""Watchers of a table: the public stream, built from the seats' streams, never from the
hidden state (docs/room.md, "Watching").

A watcher is a third seat that sees only what both seats have seen in common. Each
message of the public stream is made from a pair of the seats' own messages, the same
``deal``, ``event`` or ``hand_end`` said to each seat at the same moment: their views
turned from "mine" and "theirs" into seat numbers (``absolute``), then only what the
two hold alike is kept (``common``). A card can reach a watcher only if both seats'
messages hold it at the same place, so only if the rules showed it to both: a card in
a hand, a stock draw, the crib before its show never can, whatever a view holds. No
hidden state is read here, and the players' chat is never sent.

A table's public stream is made when it is first watched (from the seats' streams as
the table keeps them, once, off the event loop), then kept as the seats' are (a
``tables.Stream``: the frames said, older hands compressed) and grown with each step of
the table; a watcher who joins mid-game gets it from its start (or from ``since``)
page by page as a ``sync`` is sent (``Room.stream``: within the connection's byte
budget and its queue, the table's live frames held until the pages are out). What one
client can make the room spend is bounded in ``port.room.limits`` (watchers a table,
tables a watcher, new watches an address).
"""
from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from port.protocol import VERSION, Message, dump
from port.room.errors import Refused
from port.room.limits import WATCH_STARTS, WATCH_STARTS_RATE, WATCHED_MAX, WATCHERS_MAX, Bucket
from port.room.tables import Stream
from port.room.tables import frame_text

# The room is passed in, not imported: the server imports this module.
Room = Any
Table = Any

PUBLIC = ("deal", "event", "hand_end")     # said to both seats alike: the public stream's kinds
ENVELOPE = ("v", "table", "seq")           # a seat's numbering, not the game's


# ---- the public stream: what both seats have seen in common ------------------------------------

def common(a: Any, b: Any) -> Any:
    """What two seats' values hold alike: an equal value whole, objects key by key (the
    keys both have), lists of one length item by item; anything else nothing (None)."""
    if a is b or (type(a) is type(b) and a == b):
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: common(v, b[k]) for k, v in a.items() if k in b}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [common(x, y) for x, y in zip(a, b)]
    return None


# Each game's View speaks for one seat ("my hand", "the opponent's size"): those fields
# are turned into per-seat lists by seat number, so that both seats' views say them
# alike where they are public (how many cards each holds) and differently where not.
_GIN_MINE = ("seat", "hand", "drawn", "drawn_from_pile", "play_to_gin", "opponent_hand_size", "stock_only")
_CRIB_MINE = ("seat", "hand", "kept", "my_crib", "opponent_left", "opponent_discarded")


def absolute(game: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's view (as JSON) by seat numbers: the other fields as they are, the
    seat's own ones as ``hand_sizes`` (and Cribbage's ``laid_away``) for both seats."""
    seat = view.get("seat")
    if seat not in (0, 1):
        return {}
    pair: list[Any] = [None, None]
    if game == "ginrummy":
        out = {k: v for k, v in view.items() if k not in _GIN_MINE}
        pair[seat], pair[1 - seat] = len(view.get("hand") or ()), view.get("opponent_hand_size")
        out["hand_sizes"] = pair
        return out
    out = {k: v for k, v in view.items() if k not in _CRIB_MINE}
    laid: list[Any] = [None, None]
    pair[seat], pair[1 - seat] = len(view.get("hand") or ()), view.get("opponent_left")
    laid[seat], laid[1 - seat] = bool(view.get("my_crib")), view.get("opponent_discarded")
    out["hand_sizes"], out["laid_away"] = pair, laid
    return out


def public_message(game: str, mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The public message of two seats' messages said at one moment (None: they are not
    a pair, which would be a fault of the room's)."""
    if mine.get("type") != theirs.get("type") or mine.get("type") not in PUBLIC:
        return None
    a, b = ({k: (absolute(game, v) if k == "view" else v) for k, v in m.items() if k not in ENVELOPE}
            for m in (mine, theirs))
    return common(a, b)


def pairs(seat_messages: Sequence[tuple[int, Mapping[str, Any]]]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """A step's messages (seat, message) as pairs said to both seats: every message but an
    ``ask`` is said to both, in the same order."""
    each: list[list[Mapping[str, Any]]] = [[], []]
    for seat, m in seat_messages:
        if m.get("type") != "ask":
            each[seat].append(m)
    return list(zip(each[0], each[1]))


def public_messages(game: str, seat_messages: Sequence[tuple[int, Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The public stream's messages for seat messages in the order they were said."""
    out = []
    for mine, theirs in pairs(seat_messages):
        m = public_message(game, mine, theirs)
        if m is not None:
            out.append(m)
    return out


def public_frames(game: str, seat_frames: Sequence[tuple[int, str]], table_id: str) -> list[tuple[str, bool]]:
    """A table's public stream from its start, made from both seats' frames as they were
    said (read off the event loop: the frames are a copy): each public frame, and
    whether it is a deal."""
    said = [(seat, json.loads(frame)) for seat, frame in seat_frames]
    return [(frame_text({"v": VERSION, **m, "table": table_id, "seq": n}), m.get("type") == "deal")
            for n, m in enumerate(public_messages(game, said), 1)]


# ---- watchers ------------------------------------------------------------------------------

@dataclass
class Making:
    """A table's public stream being made (off the loop): the steps the table makes
    meanwhile wait here, and so does a second watcher's join."""

    steps: list[list[tuple[int, Mapping[str, Any]]]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Watch:
    """The room's watching part: ``watch``, ``unwatch``; the public streams of the tables
    watched, and what the tables say that watchers hear (the clocks, timeouts, the end)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.streams: dict[str, Stream] = {}
        self.watchers: dict[str, dict[str, str]] = {}        # table -> watcher (lower case) -> its name
        self.watching: dict[str, set[str]] = {}              # watcher (lower case) -> tables
        self.starts = Bucket(WATCH_STARTS, WATCH_STARTS_RATE)  # new watches per address (a join's cost)
        self.making: dict[str, Making] = {}
        self.one_at_a_time = asyncio.Semaphore(1)            # streams made off the loop: one at once

    # ---- the messages ----------------------------------------------------------------------

    async def on_watch(self, who: Any, msg: Message) -> None:
        table_id = msg.get("table") or self._table_of(msg.get("name"))
        fields = {"table": table_id, **({"since": msg["since"]} if "since" in msg.fields else {})}
        if await self.room.hub.route(who, Message("watch", fields)):
            return
        table = self.room.tables.get(table_id) or self.room.hub.take_over(table_id)
        if table is None:
            raise Refused(f"there is no table {table_id[:40]} in play")
        if table.seat_of(who.name) is not None:
            raise Refused("you play at that table: watch another")
        key = who.name.lower()
        self._may_start(who, table, again=key in self.watchers.get(table.id, {}))
        stream = await self._stream(table)
        if stream is None:
            raise Refused("that table has closed")
        here = self.watchers.setdefault(table.id, {})
        here[key] = who.name
        self.watching.setdefault(key, set()).add(table.id)
        last = stream.count
        who.put(dump("watching", table=table.id, game=table.game, players=list(table.players), rules=table.rules,
                     clock=table.clock, last=last, watchers=len(here)))
        self._tell_count(table, but=key)
        # The stream so far as a sync is sent: page by page, within the connection's byte
        # budget and its queue; the table's frames said meanwhile are held and follow.
        await self.room.stream(who, table.id, stream.pages(min(msg.get("since", 0), last), last),
                               lambda: self._state(table))

    async def on_unwatch(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        if not self.drop(who.name, msg["table"]):
            raise Refused(f"you are not watching table {msg['table'][:40]}")
        who.put(dump("unwatched", table=msg["table"]))

    def _table_of(self, name: str | None) -> str:
        """The table a player plays at now (the newest, if more than one)."""
        if name is None:
            raise Refused("a watch message names a table or a player")
        running = []
        for table_id in self.room.hub.seated(name):
            table = self.room.tables.get(table_id)
            if table is None or table.finished is None:
                running.append((table.created if table is not None else 0.0, table_id))
        if not running:
            raise Refused(f"{name} is not playing at a table")
        return max(running)[1]

    def _may_start(self, who: Any, table: Table, again: bool) -> None:
        """A watch within the limits (``port.room.limits``), or Refused in one sentence.
        Each ``watch`` sends the stream so far, so each (a new one, or one ``again``
        after a drop) is paid from the address's allowance."""
        if not again:
            if table.finished is not None:
                raise Refused("that game is over")
            if len(self.watchers.get(table.id, ())) >= WATCHERS_MAX:
                raise Refused(f"that table has as many watchers as it takes ({WATCHERS_MAX})")
            if len(self.watching.get(who.name.lower(), ())) >= WATCHED_MAX:
                raise Refused(f"you watch {WATCHED_MAX} tables already: stop watching one first")
        address = getattr(who, "address", who.name)      # a player on another process: by its name
        now = time.monotonic()
        if not self.starts.take(address, now):
            wait = math.ceil(self.starts.wait(address, now))
            raise Refused(f"too many new watches from your address: try again in {wait} s")

    async def _stream(self, table: Table) -> Stream | None:
        """The table's public stream, made when first watched from both seats' frames: read
        off the event loop (a long game's is a tenth of a second of CPU), one table at a
        time; the steps made meanwhile are added once it is made. None: the table closed
        meanwhile."""
        stream = self.streams.get(table.id)
        if stream is not None:
            return stream
        making = self.making.get(table.id)
        if making is not None:
            await making.done.wait()
            return self.streams.get(table.id)
        making = self.making[table.id] = Making()
        try:
            async with self.one_at_a_time:
                seat_frames = [(seat, frame) for seat in (0, 1) for frame in table.since(seat, 0)]
                frames = await asyncio.to_thread(public_frames, table.game, seat_frames, table.id)
            if self.making.get(table.id) is not making:
                return None                       # the table was forgotten meanwhile
            stream = Stream()
            for frame, deal in frames:
                stream.add(frame, deal)
            for out in making.steps:
                self._grow(table, stream, out)
            self.streams[table.id] = stream
            return stream
        finally:
            if self.making.get(table.id) is making:
                del self.making[table.id]
            making.done.set()

    def _grow(self, table: Table, stream: Stream,
              seat_messages: Sequence[tuple[int, Mapping[str, Any]]]) -> list[str]:
        """The public messages of seat messages, numbered on, added to the stream: their frames."""
        said = []
        for m in public_messages(table.game, seat_messages):
            frame = frame_text({"v": VERSION, **m, "table": table.id, "seq": stream.count + 1})
            stream.add(frame, m.get("type") == "deal")
            said.append(frame)
        return said

    def _state(self, table: Table) -> list[str]:
        """What a join ends with: the game's end as it was said, or the clock now."""
        if table.finished is not None:
            return [table.finished["said"]]
        if table.deadline is None or table.asked is None:
            return []
        return [dump("clock", table=table.id, seat=table.asked, name=table.players[table.asked],
                     seconds=table.seconds_left(time.time()), running=table.starts is None)]

    # ---- what the tables say ------------------------------------------------------------------

    def step(self, table: Table) -> None:
        """The table made a step (its seats' messages on ``table.driver.out``, not yet
        numbered): a watched table's public stream grows, its watchers hear it."""
        if table.driver is None:
            return
        making = self.making.get(table.id)
        if making is not None:
            making.steps.append(list(table.driver.out))
            return
        stream = self.streams.get(table.id)
        if stream is None:
            return
        for frame in self._grow(table, stream, table.driver.out):
            self.tell(table, frame)

    def tell(self, table: Table, text: str) -> None:
        """A message of the table's that watchers hear too (a clock, a timeout, the end);
        one whose stream so far is still being sent gets it after (``Room.stream``)."""
        for name in self.watchers.get(table.id, {}).values():
            self.room.deliver(name, text, table.id)

    def forget(self, table_id: str) -> None:
        """The table is gone (its rematch time over, abandoned): its watchers with it."""
        self.streams.pop(table_id, None)
        self.making.pop(table_id, None)
        for key in self.watchers.pop(table_id, {}):
            self._unlist(key, table_id)

    def drop(self, name: str, table_id: str) -> bool:
        """``name`` stops watching ``table_id`` (False: it was not); the players hear."""
        key = name.lower()
        if self.watchers.get(table_id, {}).pop(key, None) is None:
            return False
        self._unlist(key, table_id)
        table = self.room.tables.get(table_id)
        if table is not None:
            self._tell_count(table)
        return True

    def _unlist(self, key: str, table_id: str) -> None:
        tables = self.watching.get(key)
        if tables is not None:
            tables.discard(table_id)
            if not tables:
                del self.watching[key]

    def left(self, name: str) -> None:
        """A watcher left the room: it watches nothing here any more."""
        for table_id in list(self.watching.get(name.lower(), ())):
            self.drop(name, table_id)

    def came_back(self, name: str) -> None:
        """A player is back: at each watched table here it sits at, it hears how many watch."""
        for table_id in self.room.hub.seated(name):
            table = self.room.tables.get(table_id)
            if table is not None and self.watchers.get(table_id):
                self.room.send(name, "watchers", table=table_id, count=len(self.watchers[table_id]))

    def _tell_count(self, table: Table, but: str | None = None) -> None:
        """How many watch: to both players and to every watcher (but the one just told)."""
        here = self.watchers.get(table.id, {})
        text = dump("watchers", table=table.id, count=len(here))
        for p in table.players:
            self.room.deliver(p, text, table.id)
        for key, name in here.items():
            if key != but:
                self.room.deliver(name, text, table.id)


__all__ = ["Watch", "absolute", "common", "pairs", "public_frames", "public_message",
           "public_messages"]
