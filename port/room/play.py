"""The tables in play: opening one, its moves, its clocks, its end (recorded and rated),
and what its seats may ask of it (sync, rematch, chat, mute).

A table is applied here only (lila's "round"): a move is checked by the game's rules,
written to the store, then said to the seats. In Redis mode the process that owns a
table is the only one that applies it; the others pass their players' intentions on
(``port.room.hub``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from datetime import date
from typing import Any

from port.checks import IllegalMove
from port.files.gamerecord import Ending, Meta
from port.protocol import VERSION, Message, ProtocolError, dump
from port.room import ratings
from port.room.errors import Refused
from port.room.games import RulesError, replay
from port.room.stall import FULL, Stalls
from port.room.store import Rating, StoreError, StoreFull, TableRow
from port.room.tables import CHAT_KEPT, TIMEOUTS_TO_FORFEIT, Table
from port.room.tables import frame_text

log = logging.getLogger("cardroom")

REMATCH_TTL = 120.0          # a finished table waits this long for a rematch

# The room is passed in, not imported: the server imports this module.
Room = Any


class Play:
    """The room's tables part. The tables themselves are the room's (``room.tables``:
    the hub and the command line read them too)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.stalls = Stalls(self)
        self.moved: dict[str, set[int]] = {}    # table -> the seats that made a move of their own
        # A table's moves one at a time: a move's write may wait on the store (Redis), and
        # nothing else at its table (a move, a resignation, a sync) may see it until kept.
        self.orders: dict[str, asyncio.Lock] = {}
        self.standins: set[asyncio.Task[None]] = set()
        self.retrying: asyncio.Task[None] | None = None    # the stalled tables tried again, in turn

    def _order(self, table: Table) -> asyncio.Lock:
        return self.orders.setdefault(table.id, asyncio.Lock())

    # ---- tables made again -----------------------------------------------------------------

    def resume_tables(self) -> None:
        """Every table the store says is running, made again at its last move; its
        players are away until they come back (each with the grace time from now)."""
        now = time.time()
        for row in self.room.store.running_tables():
            if not self.room.hub.claim(row.table_id):
                continue
            self.load(row, now)

    def load(self, row: TableRow, now: float) -> Table | None:
        room = self.room
        extra = row.rules.get("_room", {}) if isinstance(row.rules.get("_room"), dict) else {}
        rules = {k: v for k, v in row.rules.items() if k != "_room"}
        try:
            table = Table.resumed(row.table_id, row.game, row.players, rules, row.seed, int(extra.get("clock", 0)),
                                  [(int(m["seat"]), m["move"]) for m in row.moves],
                                  bots=tuple(extra.get("bots", (False, False))),
                                  guests=tuple(extra.get("guests", (False, False))))
        except (IllegalMove, ProtocolError, RulesError, KeyError, TypeError, ValueError) as exc:
            log.error("table %s could not be resumed (%s); it is left in the store", row.table_id, exc)
            return None
        for seat in (0, 1):
            if not room.hub.present(table.players[seat]):
                table.away[seat] = now + room.grace
        table.arm(now, shown_wait=room.shown_wait)
        room.tables[table.id] = table
        self.moved[table.id] = {int(m["seat"]) for m in row.moves if "by" not in m}
        for name in table.players:
            room.hub.seat(name, table.id)
        room.house.attach(table)             # a house bot at it sits down again
        return table

    # ---- who is at a table -------------------------------------------------------------------

    def local_tables(self, name: str) -> list[Table]:
        """The tables this process holds with ``name`` at them."""
        tables = self.room.tables
        return [t for t in (tables.get(i) for i in list(self.room.hub.seated(name))) if t is not None]

    def left(self, name: str) -> None:
        """A player left the room: away at the tables here (the opponent told)."""
        room, now = self.room, time.time()
        for table in self.local_tables(name):
            seat = table.seat_of(name)
            if table.finished is None and seat is not None and seat not in table.away:
                table.away[seat] = now + room.grace
                room.send(table.players[1 - seat], "away", table=table.id, name=table.players[seat],
                          seconds=room.grace)

    def came_back(self, name: str) -> None:
        """A player is back: at each table here where it was away, the opponent is told."""
        for table in self.local_tables(name):
            seat = table.seat_of(name)
            if seat is not None and table.away.pop(seat, None) is not None:
                self.room.send(table.players[1 - seat], "back", table=table.id, name=table.players[seat])
            if table.id in self.stalls:
                self.room.send(name, "stalled", table=table.id, reason=FULL)

    def summaries(self, name: str) -> list[dict[str, Any]]:
        """The tables of ``name`` for its ``tables`` message: here, then on other processes."""
        here = [t.summary(name) for t in self.local_tables(name)]
        return here + self.room.hub.other_tables(name, {t["table"] for t in here})

    # ---- a table opens ------------------------------------------------------------------------

    def open_table(self, game: str, players: tuple[str, str], rules: dict[str, Any], clock: int) -> Table:
        """A new table: dealt, written to the store, its first messages sent."""
        room = self.room
        seed = room.rng.getrandbits(32)
        kinds = [room.hub.find(p) or {} for p in players]
        bots = (bool(kinds[0].get("bot")), bool(kinds[1].get("bot")))
        guests = (bool(kinds[0].get("guest")), bool(kinds[1].get("guest")))
        table = Table.new(room.hub.new_id("t"), game, players, rules, seed, clock, bots=bots, guests=guests)
        stored = {**rules, "_room": {"clock": clock, "bots": list(bots), "guests": list(guests)}}
        room.store.open_table(TableRow(table.id, game, players, stored, seed, time.time()))
        room.hub.claim(table.id)
        room.tables[table.id] = table
        for seat, name in enumerate(players):
            room.hub.seat(name, table.id)
            room.send(name, "start", table=table.id, game=game, players=list(players), seat=seat, rules=rules,
                      clock=clock)
        self._after(table, time.time())
        for name in players:
            room.lobby.changed(name)
        return table

    def _table(self, who: Any, msg: Message) -> tuple[Table, int]:
        table = self.room.tables.get(msg["table"])
        if table is None:
            table = self.room.hub.take_over(msg["table"])
        seat = table.seat_of(who.name) if table is not None else None
        if table is None or seat is None:
            raise Refused(f"you are not at table {msg['table'][:40]}")
        return table, seat

    # ---- moves ----------------------------------------------------------------------------------

    async def on_move(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        if table.finished is not None:
            raise Refused("that game is over")
        if table.id in self.stalls:
            self.stalls.hold(table, seat, msg["move"], None)      # played when there is space
        else:
            await self._play(table, seat, msg["move"], by=None)
        self.moved.setdefault(table.id, set()).add(seat)
        table.timeouts[seat] = 0

    async def _play(self, table: Table, seat: int, move: dict[str, Any], by: str | None) -> None:
        """Make a move at a table: the rules check it, the store keeps it, then the
        seats hear of it. A move the store cannot keep is taken back."""
        async with self._order(table):
            if table.finished is not None or table.driver is None:
                raise Refused("that game is over")
            index = len(table.driver.moves)
            try:
                table.driver.apply(seat, move)
            except (IllegalMove, ProtocolError) as exc:
                raise Refused(_seat_words(str(exc), table)) from None
            stored = {"seat": seat, "move": move} if by is None else {"seat": seat, "move": move, "by": by}
            try:
                await self.room.hub.add_move(table.id, index, stored)
            except StoreError as exc:
                table.driver = replay(table.game, table.rules, table.seed, table.driver.moves[:-1])
                table.driver.out = []
                if not isinstance(exc, StoreFull):
                    raise
                self.stalls.hold(table, seat, move, by, first=True)     # not refused: kept for later
                self.stalls.stall(table, str(exc))
                return
            self.stalls.over(table)
            self._after(table, time.time())

    def _after(self, table: Table, now: float) -> None:
        """Send what the last step owes each seat; start the next clock; end a game that is over."""
        room = self.room
        room.watch.step(table)              # a watched table's public stream, from the seats' messages
        after_hand = False
        for seat, kind, frame in table.drain():
            room.deliver(table.players[seat], frame, table.id)
            after_hand = after_hand or kind == "hand_end"
        if table.driver.over:
            self.finish(table, "played", None)
            return
        if table.arm(now, after_hand, room.shown_wait) is not None:
            self._tell_clock(table, now)

    def _clock(self, table: Table, now: float) -> str:
        """The asked seat's clock: its seconds, and whether it runs (a person's waits
        until the question is on its screen)."""
        assert table.asked is not None
        # Said twice a move: written as the seats' frames are.
        return frame_text({"v": VERSION, "type": "clock", "table": table.id, "seat": table.asked,
                           "name": table.players[table.asked], "seconds": table.seconds_left(now),
                           "running": table.starts is None})

    def _tell_clock(self, table: Table, now: float) -> None:
        clock = self._clock(table, now)
        self.room.deliver(table.players[0], clock, table.id)
        self.room.deliver(table.players[1], clock, table.id)
        self.room.watch.tell(table, clock)

    async def on_shown(self, who: Any, msg: Message) -> None:
        """The player's screen shows its question ``seq``: its clock starts now."""
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        now = time.time()
        if table.finished is None and table.id not in self.stalls and table.show(seat, msg["seq"], now):
            self._tell_clock(table, now)

    # ---- the end -----------------------------------------------------------------------------------

    def finish(self, table: Table, how: str, loser: int | None) -> None:
        """The game is over (played out, resigned, forfeited): record it, rate it, say it.
        If the store cannot keep it now, the clocks' tick tries again (``ending``)."""
        room = self.room
        table.ending = (how, loser)
        table.deadline = table.starts = None
        driver = table.driver
        winner = driver.winner() if loser is None else 1 - loser
        scores = driver.scores()
        roles = tuple("room bot" if b else "room guest" if g else "room player" for b, g in zip(table.bots, table.guests))
        meta = Meta(table.players, (roles[0], roles[1]), date=date.today().isoformat(), seed=table.seed)
        # A game resigned, lost on the clock or left: the record says who won and how,
        # and holds every hand played, the one it stopped in as far as it went.
        ending = Ending(how, loser) if loser is not None else None
        record = driver.record(meta, ending)
        before = {p: room.store.rating(p, table.game) for p in table.players}
        new: dict[str, Rating] | None = None
        unrated = self._unrated(table)
        if unrated is None:
            score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
            a, b = ratings.update(before[table.players[0]], before[table.players[1]], score)
            new = {table.players[0]: a, table.players[1]: b}
        result = {"how": how, "winner": None if winner is None else table.players[winner],
                  "loser": None if loser is None else table.players[loser], "scores": list(scores),
                  "hands": len(driver.played(ending)), "seed": table.seed, "rules": table.rules,
                  "rated": new is not None, **({"unrated": unrated} if unrated else {})}
        try:
            number = room.store.finish_game(table.id, table.game, table.players, record, result, new, before)
        except StoreFull as exc:                # the tick tries again (``ending``)
            self.stalls.stall(table, str(exc))
            return
        self.stalls.over(table)
        changes = {p: {"before": ratings.shown(before[p]), "after": ratings.shown((new or before)[p]),
                       "change": round((new or before)[p].rating - before[p].rating)} for p in table.players}
        said = dump("game_end", table=table.id, number=number, how=how, winner=result["winner"],
                    scores=list(scores), rated=new is not None, ratings=changes,
                    **({"unrated": unrated} if unrated else {}))
        table.finished = {**result, "number": number, "at": time.monotonic(), "said": said}
        table.deadline = table.asked = table.ending = None
        table.settle()
        for p in table.players:
            conn = room.conns.get(p.lower())
            if conn is not None and new is not None:
                conn.ratings[table.game] = new[p]
            room.deliver(p, said, table.id)
        room.watch.tell(table, said)
        for p in table.players:
            room.lobby.changed(p)
        for seat in (0, 1):
            if table.guests[seat]:
                room.guest_left(table.players[seat])       # gone meanwhile: its account goes now

    def _unrated(self, table: Table) -> str | None:
        """Why the game is not rated (None: it is). A guest's game is not; nor, as lichess
        does not rate an aborted game, one where a player has made no move of its own
        (the clock's stand-in moving for it does not count): resigning at once would
        otherwise farm a rating from a second account."""
        if any(table.guests):
            return "a guest's game is not rated"
        seats = self.moved.get(table.id, set())
        idle = [table.players[seat] for seat in (0, 1) if seat not in seats]
        if not idle:
            return None
        who = "neither player made a move" if len(idle) == 2 else f"{idle[0]} made no move"
        return f"{who}: an aborted game is not rated"

    async def on_resign(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        async with self._order(table):
            if table.finished is not None:
                raise Refused("that game is over")
            self.finish(table, "resigned", seat)

    # ---- what a seat asks of its table -----------------------------------------------------------

    async def on_sync(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        async with self._order(table):
            pass                                     # a move being kept is said first
        stream = table.streams[seat]
        # The frames as they were said, a page at a time (the edge paces them: a sync
        # costs what it sends, and no more of the loop than its connection's share).
        pages = stream.pages(msg.get("since", 0), stream.count)
        since = msg.get("since", 0)
        await self.room.stream(who, table.id, pages, lambda: self._state(table, seat, since))

    def _state(self, table: Table, seat: int, since: int) -> list[str]:
        """What a sync ends with: for a new screen (from 0) the chat said at the table so
        far; then the game's end as it was said, or the clock and an absence as they
        are now."""
        out = [dump("chat", table=table.id, name=name, text=text)
               for name, text, hidden in (table.chat if since == 0 else ()) if hidden != seat]
        if table.finished is not None:
            return [*out, table.finished["said"]]
        if table.deadline is not None and table.asked is not None:
            out.append(self._clock(table, time.time()))
        other = 1 - seat
        if other in table.away:
            out.append(dump("away", table=table.id, name=table.players[other],
                            seconds=round(max(0.0, table.away[other] - time.time()), 1)))
        return out

    async def on_rematch(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        if table.finished is None:
            raise Refused("a rematch is offered when the game is over")
        self.room.blocks.refuse(who.name, table.players[1 - seat], "rematches")
        table.rematch.add(seat)
        if len(table.rematch) < 2:
            self.room.send(table.players[1 - seat], "rematch", table=table.id, name=who.name)
            return
        table.rematch.clear()
        self.open_table(table.game, (table.players[1], table.players[0]), table.rules, table.clock)

    async def on_chat(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        text = dump("chat", table=table.id, name=who.name, text=msg["text"])
        who.put(text)
        muted = table.muted[1 - seat] or self.room.blocks.between(who.name, table.players[1 - seat])
        if not muted:
            self.room.deliver(table.players[1 - seat], text, table.id)
        # Kept (the last few, in memory) for a player who comes back with a new screen.
        table.chat = [*table.chat, (who.name, msg["text"], 1 - seat if muted else None)][-CHAT_KEPT:]

    async def on_mute(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        table.muted[seat] = msg["on"]
        who.put(dump("muted", table=table.id, on=msg["on"]))

    # ---- the clocks ------------------------------------------------------------------------------------

    def tick(self, now: float, mono: float) -> None:
        """Run out what has run out at each table: move clocks, absences, rematch offers."""
        tables = list(self.room.tables.values())
        stalled = self.stalls.since
        if stalled:
            due = [t for t in tables if t.id in stalled and self.stalls.due(t.id, mono)]
            if due and (self.retrying is None or self.retrying.done()):
                self.retrying = asyncio.get_running_loop().create_task(self._retry(due))
        for table in tables:
            # Most tables have nothing due: passed over at the cost of a few reads (the
            # tick looks at every table five times a second; 4,000 tables and their
            # finished ones waiting for a rematch were 3 % of the room's CPU).
            if table.finished is None:
                if (table.ending is None and not table.away and (table.deadline is None or table.deadline > now)
                        and (table.starts is None or table.starts > now)):
                    continue
            elif mono - table.finished["at"] <= REMATCH_TTL:
                continue
            if stalled and table.id in stalled:         # nothing runs out at a stalled table meanwhile
                continue
            try:
                self._tick_table(table, now, mono)
            except StoreError as exc:      # the store is failing: said once a tick, tried again next
                log.error("table %s: %s", table.id, exc)
            except Exception:
                log.exception("a fault at table %s", table.id)

    async def _retry(self, due: list[Table]) -> None:
        """The stalled tables' held moves tried again, one table after another; one that
        finds no space yet ends the round (the others wait for the next second)."""
        for table in due:
            try:
                if not await self.stalls.retry(table):
                    return
            except StoreError as exc:
                log.error("table %s: %s", table.id, exc)
            except Exception:
                log.exception("a fault at table %s", table.id)

    def _tick_table(self, table: Table, now: float, mono: float) -> None:
        lock = self.orders.get(table.id)
        if lock is not None and lock.locked():
            return                               # a move is being kept: its clock is armed after
        if table.finished is not None:
            if mono - table.finished["at"] > REMATCH_TTL:
                self._forget(table)
            return
        if table.ending is not None:
            self.finish(table, *table.ending)          # the store could not keep it before
            return
        for seat, until in list(table.away.items()):
            if until <= now:
                if (1 - seat) in table.away:
                    self._abandon(table)
                else:
                    self.finish(table, "away", seat)
                return
        if table.starts is not None and table.starts <= now:
            table.starts = None                        # never said shown: it runs now
            self._tell_clock(table, now)
        if table.deadline is not None and table.deadline <= now:
            self._clock_ran_out(table, now)

    def _clock_ran_out(self, table: Table, now: float) -> None:
        seat = table.asked
        assert seat is not None
        try:
            move = table.standin_move(seat)
        except Exception:
            log.exception("the stand-in could not move at table %s; its clock is stopped", table.id)
            table.deadline = None
            return
        table.timeouts[seat] += 1
        count = table.timeouts[seat]
        # The move made goes to its own seat only: Cribbage's lay-away names the crib's
        # cards; the others see the move as the stream's event shows it to them.
        fields = {"table": table.id, "seat": seat, "name": table.players[seat], "count": count,
                  "forfeit": count >= TIMEOUTS_TO_FORFEIT}
        said = dump("timeout", **fields)
        self.room.deliver(table.players[seat], dump("timeout", **fields, move=move), table.id)
        self.room.deliver(table.players[1 - seat], said, table.id)
        self.room.watch.tell(table, said)
        if count >= TIMEOUTS_TO_FORFEIT:
            self.finish(table, "clock", seat)
            return
        table.deadline = None                    # armed again once the stand-in's move is kept
        task = asyncio.get_running_loop().create_task(self._stand_in(table, seat, move))
        self.standins.add(task)
        task.add_done_callback(self.standins.discard)

    async def _stand_in(self, table: Table, seat: int, move: dict[str, Any]) -> None:
        try:
            await self._play(table, seat, move, by="clock")
        except StoreError as exc:                # the store is failing: tried again in a second
            log.error("table %s: %s", table.id, exc)
            table.timeouts[seat] -= 1
            table.deadline = time.time() + 1.0
        except Refused:
            pass                                 # the game ended meanwhile

    def _abandon(self, table: Table) -> None:
        """Both players gone past their grace: the game counts for nothing."""
        self.room.store.drop_table(table.id)
        self._forget(table)
        for seat in (0, 1):
            if table.guests[seat]:
                self.room.guest_left(table.players[seat])

    def _forget(self, table: Table) -> None:
        room = self.room
        self.stalls.forget(table.id)
        self.moved.pop(table.id, None)
        room.tables.pop(table.id, None)
        self.orders.pop(table.id, None)
        room.watch.forget(table.id)
        room.hub.release(table.id)
        for name in table.players:
            room.hub.unseat(name, table.id)


def _seat_words(text: str, table: Table) -> str:
    """The engine's "seat 1" in a player's words: the seat's name."""
    for seat in (0, 1):
        text = text.replace(f"seat {seat}'s", f"{table.players[seat]}'s").replace(f"seat {seat} ", f"{table.players[seat]} ")
    return text


__all__ = ["Play", "REMATCH_TTL"]
