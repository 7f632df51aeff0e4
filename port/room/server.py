"""The card room's server: one asyncio process, one handler per connection (the
``websockets`` documentation's shape), the tables owned here and applied only here.

What a client sends is checked once at the edge (``port.protocol.parse``) and then
handled by one ``on_<type>`` method; what it gets back is one JSON message per frame.
A client never holds a game: it sends intentions (a move, an invitation) and draws
what it is told, its seat's ``View`` and nothing more. Every move is written to the
store before anyone hears of it, so a server killed at any moment starts again with
every table at the last move it acknowledged (``Room.resume_tables``).

Several processes can share one Redis (``--redis``): then ``port.room.hub`` carries
the messages between them; each table is still applied by one process only (its
owner), and the others pass their players' intentions to it.

This module is the room's edge (lila-ws's socket layer): the connections, the door
(accounts and tokens) and the dispatch of each message to the part that owns it; the
parts are modules of their own: ``lobby``, ``invitations``, ``play`` (the tables),
``archive`` (finished games), and ``limits`` holds every limit.
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from port.protocol import GAMES, Message, ProtocolError, dump, parse
from port.room import accounts, ratings
from port.room.archive import Archive
from port.room.errors import Refused
from port.room.hub import Hub, LocalHub
from port.room.invitations import Invitations
from port.room.limits import SEND_QUEUE, SYNC_QUEUE, TOKEN_TTL, Limiter, RateLimit, SendBudget
from port.room.lobby import Lobby
from port.room.play import Play
from port.room.store import Rating, Store, StoreError
from port.room.tables import Table

log = logging.getLogger("cardroom")

CLOCK_DEFAULT = 60           # seconds a decision, unless the invitation says otherwise
GRACE = 120.0                # seconds a dropped player has to come back
INVITE_TTL = 120.0           # an invitation (each round of it) lives this long
TICK = 0.2                   # how often the clocks are looked at
PUBLIC = ("register", "login", "guest", "resume", "ping", "bye")
WRITE_BATCH = 64             # frames a connection's writer takes from its queue at once


@dataclass
class Conn:
    """One connection: who it is once logged in, what it watches, its limits."""

    ws: Any
    address: str
    name: str | None = None
    bot: bool = False
    guest: bool = False
    watching: bool = False
    game: str | None = None          # the program the player is in, as its lobby said
    rate: RateLimit = field(default_factory=RateLimit)
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    ratings: dict[str, Rating] = field(default_factory=dict)
    # Fairness: what its answers cost is paid from ``budget`` (bytes) while ``answering``;
    # a sync's pages wait for room in the queue (``roomy``) and hold the table's live
    # messages back meanwhile (``held``), so the stream arrives whole and in order.
    budget: SendBudget = field(default_factory=SendBudget)
    answering: bool = False
    held: dict[str, list[str]] = field(default_factory=dict)
    roomy: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def put(self, text: str | None) -> bool:
        """Queue a frame (None: close once what is queued has gone)."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            return False
        if self.answering and text is not None:
            self.budget.spend(len(text), time.monotonic())
        return True

    async def paid(self) -> None:
        """Wait until this connection's answers so far are paid for."""
        wait = self.budget.wait(time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)

    async def room_for(self, n: int) -> bool:
        """Wait until ``n`` more frames leave its queue no fuller than ``SYNC_QUEUE``
        (the rest is for the live messages meanwhile); False: the connection is closed."""
        while not self.closed and self.queue.qsize() + n > SYNC_QUEUE:
            self.roomy.clear()
            await self.roomy.wait()
        return not self.closed

    async def write_loop(self) -> None:
        """Send what is queued, in order; a slow client slows nobody else. What is queued
        at once goes out in one write to the socket (a move's frames to a seat are two
        or three: one system call, not three)."""
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                batch = [await self.queue.get()]
                while batch[-1] is not None and len(batch) < WRITE_BATCH and not self.queue.empty():
                    batch.append(self.queue.get_nowait())
                if not self.roomy.is_set() and self.queue.qsize() <= SYNC_QUEUE // 2:
                    self.roomy.set()
                texts = [t for t in batch if t is not None]
                if len(texts) == 1:
                    await self.ws.send(texts[0])
                elif texts:
                    await _send_together(self.ws, texts)
                if batch[-1] is None:
                    await self.ws.close()
                    return
        except ConnectionClosed:
            return           # the reading side sees the close and ends the connection
        finally:
            self.closed = True
            self.roomy.set()


async def _send_together(ws: Any, texts: list[str]) -> None:
    """Several text messages as one write to the socket: websockets' own framing
    (``protocol.send_text``: compression, masking, the connection's state checked by
    ``send_context``), the frames' bytes joined before they reach the transport."""
    async with ws.send_context():
        for text in texts:
            ws.protocol.send_text(text.encode())
        ws.transport.write(b"".join(ws.protocol.data_to_send()))


class Room:
    """The room's state and its answers to every message."""

    def __init__(self, store: Store, hub: Hub | None = None, rng: random.Random | None = None,
                 grace: float = GRACE, clock_default: int = CLOCK_DEFAULT,
                 invite_ttl: float = INVITE_TTL) -> None:
        self.store = store
        self.hub = hub or LocalHub()
        self.rng = rng or random.SystemRandom()
        self.grace = grace
        self.clock_default = clock_default
        self.invite_ttl = invite_ttl
        self.conns: dict[str, Conn] = {}
        self.tables: dict[str, Table] = {}
        self.limiter = Limiter()
        self.ticker: asyncio.Task[None] | None = None
        # The parts of the room, each owning its messages (``on_<type>``).
        self.lobby = Lobby(self)
        self.invitations = Invitations(self)
        self.play = Play(self)
        self.archive = Archive(self)
        self.handlers: dict[str, Callable[[Any, Message], Awaitable[None]]] = {
            name[3:]: getattr(part, name)
            for part in (self, self.lobby, self.invitations, self.play, self.archive)
            for name in dir(part) if name.startswith("on_")}
        self.hub.attach(self)

    # ---- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        await self.hub.start()
        self.play.resume_tables()
        self.ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        await self.hub.stop()

    # ---- connections -----------------------------------------------------------------------

    async def handler(self, ws: Any) -> None:
        """One connection, from its first message to its close."""
        address = str((getattr(ws, "remote_address", None) or ("?",))[0])
        conn = Conn(ws, address)
        writer = asyncio.create_task(conn.write_loop())
        try:
            async for raw in ws:
                await self.receive(conn, raw)
        except Exception as exc:    # a dropped connection is a normal end
            if not _closed(exc):
                log.exception("connection from %s ended by a fault", address)
        finally:
            writer.cancel()
            await self.gone(conn)

    async def receive(self, conn: Conn, raw: str | bytes) -> None:
        # Past the rate, a client's messages wait their turn: this connection is read no
        # faster (websockets then stops reading its socket), a fast bot loses nothing,
        # and a flood slows only its sender.
        while not conn.rate.allow(time.monotonic()):       # (a timer may wake a little early)
            await asyncio.sleep(conn.rate.wait())
        # Past its budget of bytes (what its answers made the room send), likewise.
        await conn.paid()
        try:
            msg = parse(raw)
        except ProtocolError as exc:
            conn.put(dump("error", refused="message", reason=str(exc)))
            return
        conn.answering = True
        try:
            await self.answer(conn, msg)
        finally:
            conn.answering = False

    async def answer(self, who: Any, msg: Message) -> None:
        """Handle one checked message from a connection here (or, in Redis mode, from a
        player connected to another process: ``who`` is then a ``hub.Remote``)."""
        if who.name is None and msg.type not in PUBLIC:
            who.put(dump("error", refused=msg.type, reason="log in first (login, register or guest)"))
            return
        try:
            await self.handlers[msg.type](who, msg)
        except Refused as exc:
            fields = {"table": msg.get("table")} if msg.get("table") else {}
            who.put(dump("error", refused=msg.type, reason=str(exc), **fields))
        except StoreError as exc:
            who.put(dump("error", refused=msg.type, reason=f"the room could not keep that: {exc}"))
        except Exception:
            log.exception("a fault answering %s", msg.type)
            who.put(dump("error", refused=msg.type, reason="the room could not do that: a fault of the room's, logged"))

    async def gone(self, conn: Conn) -> None:
        """A connection closed (on purpose or not): the same for the tables."""
        name = conn.name
        if name is None or self.conns.get(name.lower()) is not conn:
            return
        del self.conns[name.lower()]
        self.hub.absent(name)
        self.left(name)
        self.hub.announce("left", name)

    def left(self, name: str) -> None:
        """A player left the room: away at the tables here, out of the invitations here."""
        self.play.left(name)
        self.invitations.left(name)
        self.lobby.changed(name)

    def came_back(self, name: str) -> None:
        """A player is back: at each table here where it was away, the opponent is told."""
        self.play.came_back(name)

    # ---- sending ---------------------------------------------------------------------------

    def send(self, to: str, kind: str, /, **fields: Any) -> None:
        self.deliver(to, dump(kind, **fields), fields.get("table"))

    def deliver(self, name: str, text: str, table: str | None = None) -> None:
        """A frame to a player, here or on another process. A frame of a table (``table``)
        whose stream this connection is being sent waits for the end of it."""
        conn = self.conns.get(name.lower())
        if conn is not None:
            held = conn.held.get(table) if table is not None and conn.held else None
            if held is not None and len(held) < SEND_QUEUE:
                held.append(text)
            elif held is not None or not conn.put(text):
                log.warning("%s is too slow to read its messages: let go", name)
                self._drop(conn)
            return
        self.hub.forward(name, text)

    async def stream(self, who: Any, table: str, pages: Iterator[list[str]], tail: Callable[[], list[str]]) -> None:
        """A table's frames to one player, page by page, then ``tail()`` (the table's
        state: its clock, an absence, its end). Each page waits until the connection's
        answers so far are paid for and its queue has room; the table's live messages
        to it are held meanwhile and follow the stream, in order."""
        if not isinstance(who, Conn):      # a player on another process: at once, through the hub
            for page in pages:
                for text in page:
                    who.put(text)
            for text in tail():
                who.put(text)
            return
        before = tail()
        held = who.held[table] = []
        try:
            for page in pages:
                await who.paid()
                if not await who.room_for(len(page)):
                    return
                for text in page:
                    who.put(text)
            # Nothing of the table's happened meanwhile: its state as it is now (the
            # clock's seconds left); else as it was, and what happened follows.
            for text in before if held else tail():
                who.put(text)
        finally:
            del who.held[table]
            for text in held:
                if not who.put(text):
                    self._drop(who)
                    break

    def _drop(self, conn: Conn) -> None:
        while not conn.queue.empty():
            conn.queue.get_nowait()
        conn.queue.put_nowait(None)

    # ---- accounts ----------------------------------------------------------------------------

    async def on_register(self, conn: Conn, msg: Message) -> None:
        try:
            name = accounts.check_name(msg["name"])
        except ValueError as exc:
            text = str(exc)[:-1] if str(exc).endswith(".") else str(exc)
            raise Refused(text[:1].lower() + text[1:]) from None
        if not self.limiter.allow(name, conn.address, time.monotonic()):
            raise Refused("too many tries from here: wait a minute")
        # scrypt takes ~0.1 s of CPU: off the event loop, so no table waits for it.
        secret, salt = await asyncio.to_thread(accounts.hash_password, msg["password"])
        if not self.store.create_account(name, secret, salt, bool(msg.get("bot", False))):
            self.limiter.failed(name, conn.address, time.monotonic())
            raise Refused(f"the name {name} is taken")
        account = self.store.account(name)
        assert account is not None
        self._welcome(conn, account)

    async def on_login(self, conn: Conn, msg: Message) -> None:
        name, now = msg["name"], time.monotonic()
        if not self.limiter.allow(name, conn.address, now):
            raise Refused("too many failed logins: wait a minute")
        account = self.store.account(name)
        if account is None or account.guest:
            self.limiter.failed(name, conn.address, now)
            raise Refused(f"there is no account {name}: register it first")
        if not await asyncio.to_thread(accounts.check_password, msg["password"], account.secret, account.salt):
            self.limiter.failed(name, conn.address, now)
            raise Refused(f"wrong password for {account.name}")
        self.limiter.succeeded(name, conn.address)
        self._welcome(conn, account)

    async def on_guest(self, conn: Conn, msg: Message) -> None:
        def taken(n: str) -> bool:
            return self.store.account(n) is not None or self.hub.present(n)
        for _ in range(20):
            name = accounts.guest_name(taken, self.rng)
            if self.store.create_account(name, b"", b"", False, guest=True):
                account = self.store.account(name)
                assert account is not None
                self._welcome(conn, account)
                return
        raise Refused("no guest name is free just now: try again")

    async def on_resume(self, conn: Conn, msg: Message) -> None:
        account = self.store.account_by_token(accounts.token_hash(msg["token"]), time.time())
        if account is None:
            raise Refused("that session has ended: log in again")
        self._welcome(conn, account, token=msg["token"])

    def _welcome(self, conn: Conn, account: Any, token: str | None = None) -> None:
        if conn.name is not None and conn.name.lower() != account.name.lower():
            raise Refused(f"this connection is logged in as {conn.name} already")
        old = self.conns.get(account.name.lower())
        if old is not None and old is not conn:
            old.name = None
            if not (old.put(dump("error", refused="session", reason=f"{account.name} logged in from elsewhere"))
                    and old.put(None)):      # told, then closed; a full queue: just closed
                self._drop(old)
        conn.name, conn.bot, conn.guest = account.name, bool(account.bot), bool(account.guest)
        self.conns[account.name.lower()] = conn
        if token is None:
            token = accounts.new_token()
            self.store.set_token(account.name, accounts.token_hash(token), time.time() + TOKEN_TTL)
        conn.ratings = {g: self.store.rating(account.name, g) for g in GAMES}
        self.hub.here(account.name, self.lobby.entry(conn))
        conn.put(dump("welcome", name=account.name, token=token, bot=conn.bot, guest=conn.guest,
                      ratings={g: _rating_fields(r) for g, r in conn.ratings.items()}))
        self.came_back(account.name)
        self.hub.announce("back", account.name)
        conn.put(dump("tables", tables=self.play.summaries(account.name)))
        self.lobby.changed(account.name)

    async def on_ping(self, who: Any, msg: Message) -> None:
        who.put(dump("pong", **({"t": msg["t"]} if "t" in msg.fields else {})))

    async def on_bye(self, conn: Any, msg: Message) -> None:
        conn.put(dump("bye"))
        if isinstance(conn, Conn):
            conn.put(None)

    # ---- the clocks ------------------------------------------------------------------------------------

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                self.tick(time.time(), time.monotonic())
            except Exception:
                log.exception("a fault in the room's clocks")

    def tick(self, now: float, mono: float) -> None:
        """Run out what has run out: invitations, then each table's clocks, absences and
        rematch offers."""
        self.invitations.tick(mono)
        self.play.tick(now, mono)


def _rating_fields(r: Rating) -> dict[str, Any]:
    return {"rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games, "shown": ratings.shown(r),
            "provisional": ratings.provisional(r)}


def _closed(exc: Exception) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, (ConnectionClosed, ConnectionError, asyncio.CancelledError))


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


__all__ = ["Conn", "Room", "new_id"]
