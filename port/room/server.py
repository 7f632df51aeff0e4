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
``archive`` (finished games), ``house`` (the room's own bots), ``seeks`` (PLAY NOW),
``blocks``, and ``limits`` holds every limit.
"""
from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import math
import os
import random
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from port.protocol import GAMES, Message, ProtocolError, dump, parse
from port.room import accounts, ratings
from port.room.archive import Archive
from port.room.blocks import Blocks
from port.room.errors import Refused
from port.room.house import House
from port.room.hub import Hub, LocalHub
from port.room.invitations import Invitations
from port.room.limits import (CONNECTIONS_PER_ADDRESS, DESCRIPTORS_LOOK, DESCRIPTORS_SPARE, GUESTS_PER_ADDRESS,
                              GUESTS_ROOM, GUESTS_ROOM_RATE, LOGIN_WITHIN, LOOK_BURST, LOOK_RATE,
                              NO_DESCRIPTORS_SAID, REGISTERS_PER_ADDRESS, SEEK_WAIT, SEND_QUEUE, SYNC_QUEUE, TOKEN_TTL,
                              Bucket, Limiter, RateLimit, SendBudget)
from port.room.lobby import Lobby
from port.room.play import Play
from port.room.seeks import Seeks
from port.room.store import Rating, Store, StoreError, StoreFull
from port.room.tables import SHOWN_WAIT, Table
from port.room.watch import Watch

log = logging.getLogger("cardroom")

CLOCK_DEFAULT = 60           # seconds a decision, unless the invitation says otherwise
GRACE = 120.0                # seconds a dropped player has to come back
INVITE_TTL = 120.0           # an invitation (each round of it) lives this long
TICK = 0.2                   # how often the clocks are looked at
PUBLIC = ("register", "login", "guest", "resume", "ping", "bye")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
WRITE_BATCH = 64             # frames a connection's writer takes from its queue at once
REMOTE_BUDGETS = 10_000      # players on other processes whose budgets are kept (then all forgotten)


@dataclass
class Conn:
    """One connection: who it is once logged in, what it watches, its limits."""

    ws: Any
    address: str
    name: str | None = None
    token: bytes | None = None       # the hash of the session's token (``logout`` revokes it)
    bot: bool = False
    guest: bool = False
    watching: bool = False
    game: str | None = None          # the program the player is in, as its lobby said
    rate: RateLimit = field(default_factory=RateLimit)
    looks: RateLimit = field(default_factory=lambda: RateLimit(LOOK_RATE, LOOK_BURST))   # games, top, profile
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
                 invite_ttl: float = INVITE_TTL, shown_wait: float = SHOWN_WAIT, trusted: Iterable[str] = (),
                 per_address: int = CONNECTIONS_PER_ADDRESS, login_within: float = LOGIN_WITHIN,
                 guests_per_address: int = GUESTS_PER_ADDRESS, house_levels: Sequence[str] = (),
                 seek_wait: float = SEEK_WAIT) -> None:
        self.store = store
        self.hub = hub or LocalHub()
        self.rng = rng or random.SystemRandom()
        self.grace = grace
        self.clock_default = clock_default
        self.invite_ttl = invite_ttl
        self.shown_wait = shown_wait
        self.conns: dict[str, Conn] = {}
        self.tables: dict[str, Table] = {}
        self.limiter = Limiter()
        self.trusted = networks(trusted)
        self.per_address = per_address            # 0: no limit
        self.login_within = login_within
        self.connections: Counter[str] = Counter()  # open connections per address
        self.guests_here = Bucket(max(1, guests_per_address), guests_per_address / 60.0)   # N a minute
        self.guests_room = Bucket(GUESTS_ROOM, GUESTS_ROOM_RATE, keys=1)
        self.registers = Bucket(REGISTERS_PER_ADDRESS, REGISTERS_PER_ADDRESS / 60.0)     # N a minute
        self.guests_limited = guests_per_address > 0
        self.no_descriptors_said: float | None = None
        self.descriptors_looked = 0.0
        self.ticker: asyncio.Task[None] | None = None
        # A table's stream to a player on another process (Redis): its live messages to
        # the player held meanwhile, and the player's budget here (``_stream_on``).
        self.remote_held: dict[tuple[str, str], list[str]] = {}
        self.remote_order: dict[tuple[str, str], tuple[asyncio.Lock, list[int]]] = {}   # the lock, its users
        self.remote_budgets: dict[str, SendBudget] = {}
        # The parts of the room, each owning its messages (``on_<type>``).
        self.lobby = Lobby(self)
        self.invitations = Invitations(self)
        self.play = Play(self)
        self.archive = Archive(self)
        self.house = House(self, house_levels)       # the room's own bots (issue 38)
        self.seeks = Seeks(self, seek_wait)           # PLAY NOW
        self.blocks = Blocks(self)
        self.watch = Watch(self)
        self.handlers: dict[str, Callable[[Any, Message], Awaitable[None]]] = {
            name[3:]: getattr(part, name)
            for part in (self, self.lobby, self.invitations, self.play, self.archive, self.seeks, self.blocks,
                         self.watch)
            for name in dir(part) if name.startswith("on_")}
        self.hub.attach(self)

    # ---- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        asyncio.get_running_loop().set_exception_handler(self.loop_fault)
        await self.hub.start()
        self.house.start()               # in the room before the tables that wait for them
        self.seeks.start()
        self.play.resume_tables()
        for name in self.store.guests():      # guests of a room stopped while they were in it
            self.guest_left(name)
        self.ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        await self.house.stop()
        await self.hub.stop()

    # ---- connections -----------------------------------------------------------------------

    async def handler(self, ws: Any) -> None:
        """One connection, from its first message to its close."""
        address = client_address(ws, self.trusted)
        if self.per_address and self.connections[address] >= self.per_address:
            await _refuse(ws, f"too many connections from your address ({self.per_address} at most): close one first")
            return
        self.connections[address] += 1
        conn = Conn(ws, address)
        writer = asyncio.create_task(conn.write_loop())
        deadline = asyncio.get_running_loop().call_later(self.login_within, self._not_logged_in, conn)
        try:
            while True:
                # decode=False: a text frame that is not UTF-8 reaches ``parse``, which
                # answers it in a sentence (websockets would close the connection, 1007).
                await self.receive(conn, await ws.recv(decode=False))
        except Exception as exc:    # a dropped connection is a normal end
            if not _closed(exc):
                log.exception("connection from %s ended by a fault", address)
        finally:
            deadline.cancel()
            writer.cancel()
            self.connections[address] -= 1
            if self.connections[address] <= 0:
                del self.connections[address]
            await self.gone(conn)

    def _not_logged_in(self, conn: Conn) -> None:
        """A connection that has not logged in within its time is closed: one that never
        does would hold a descriptor for ever."""
        if conn.name is None:
            reason = f"log in within {self.login_within:g} s: this connection is closed"
            if not (conn.put(dump("error", refused="connection", reason=reason)) and conn.put(None)):
                self._drop(conn)

    def loop_fault(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's faults: out of file descriptors, asyncio's accept says so
        (with a traceback) many times a second; that is one line a minute here, and the
        connections the room has are served on."""
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            self._out_of_descriptors()
            return
        loop.default_exception_handler(context)

    def _out_of_descriptors(self) -> None:
        now = time.monotonic()
        if self.no_descriptors_said is None or now - self.no_descriptors_said >= NO_DESCRIPTORS_SAID:
            self.no_descriptors_said = now
            log.error("out of file descriptors (%s open connections, a limit of %s): new connections wait "
                      "until some close", sum(self.connections.values()), descriptor_limit())

    def watch_descriptors(self, mono: float) -> None:
        """uvloop's libuv turns a connection away itself when descriptors run out (it
        accepts on a spare one and closes it at once), so no fault reaches the room:
        every second the room counts its open descriptors and says it the same way (a
        socket not yet a websocket holds one too, so the room's own count of connections
        would not tell; the count is about 1 ms at 8,000 descriptors)."""
        if mono < self.descriptors_looked + DESCRIPTORS_LOOK:
            return
        self.descriptors_looked = mono
        try:
            full = len(os.listdir("/proc/self/fd")) >= descriptor_limit() - DESCRIPTORS_SPARE
        except OSError as exc:              # reading the list takes a descriptor too
            full = exc.errno in (errno.EMFILE, errno.ENFILE)
        if full:
            self._out_of_descriptors()

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
        except StoreFull:
            who.put(dump("error", refused=msg.type, reason="the room's disk is full: try again later"))
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
        if conn.guest:
            self.guest_left(name)

    def left(self, name: str) -> None:
        """A player left the room: away at the tables here, out of the invitations here."""
        self.play.left(name)
        self.invitations.left(name)
        self.seeks.left(name)
        self.watch.left(name)
        self.lobby.changed(name)

    def came_back(self, name: str) -> None:
        """A player is back: at each table here where it was away, the opponent is told."""
        self.play.came_back(name)
        self.watch.came_back(name)

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
        if self.remote_held and table is not None:
            held = self.remote_held.get((name.lower(), table))
            if held is not None:
                held.append(text)
                return
        self.hub.forward(name, text)

    async def stream(self, who: Any, table: str, pages: Iterator[list[str]], tail: Callable[[], list[str]]) -> None:
        """A table's frames to one player, page by page, then ``tail()`` (the table's
        state: its clock, an absence, its end). Each page waits until the connection's
        answers so far are paid for and its queue has room; the table's live messages
        to it are held meanwhile and follow the stream, in order."""
        if not isinstance(who, Conn):      # a player on another process: through the hub
            await self._stream_on(who, table, pages, tail)
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

    async def _stream_on(self, who: Any, table: str, pages: Iterator[list[str]],
                         tail: Callable[[], list[str]]) -> None:
        """``stream`` to a player connected to another process (Redis): a page a turn of
        the loop through the hub, each paid for from the player's budget here, so a sync
        costs this process what it sends and no more of its loop than a connection's share;
        the table's live messages to the player are held meanwhile and follow, in order.
        (The player's process queues the pages as its connection reads them:
        ``RedisHub._relay``.) One stream of a table to a player at a time."""
        key = (who.name.lower(), table)
        order, users = self.remote_order.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with order:
                if len(self.remote_budgets) > REMOTE_BUDGETS:
                    self.remote_budgets.clear()
                budget = self.remote_budgets.setdefault(key[0], SendBudget())
                before = tail()
                held = self.remote_held[key] = []
                try:
                    for page in pages:
                        wait = budget.wait(time.monotonic())
                        await asyncio.sleep(wait)        # 0: still a turn of the loop between pages
                        now = time.monotonic()
                        for text in page:
                            budget.spend(len(text), now)
                            self.hub.forward(who.name, text)
                    for text in before if held else tail():
                        self.hub.forward(who.name, text)
                finally:
                    del self.remote_held[key]
                    for text in held:
                        self.hub.forward(who.name, text)
        finally:
            users[0] -= 1
            if not users[0]:
                del self.remote_order[key]

    def _drop(self, conn: Conn) -> None:
        while not conn.queue.empty():
            conn.queue.get_nowait()
        conn.queue.put_nowait(None)

    # ---- the door: accounts and sessions --------------------------------------------------------

    async def on_register(self, conn: Conn, msg: Message) -> None:
        name, now = _checked_name(msg["name"]), time.monotonic()
        # A taken name is refused before the hash is made; it guesses no password, so it
        # counts against nobody. The hash (scrypt: ~0.1 s of CPU) is paid for from the
        # address's allowance of new accounts.
        wait = self.registers.wait(conn.address, now)
        if wait > 0:
            raise Refused(f"too many new accounts from your address: try again in {math.ceil(wait)} s")
        if self.store.account(name) is not None:
            raise Refused(f"the name {name} is taken")
        self.registers.take(conn.address, now)
        # Off the event loop, so no table waits for it.
        secret, salt = await asyncio.to_thread(accounts.hash_password, msg["password"])
        if not self.store.create_account(name, secret, salt, bool(msg.get("bot", False))):
            raise Refused(f"the name {name} is taken")
        self.limiter.succeeded(name, conn.address)
        account = self.store.account(name)
        assert account is not None
        self._welcome(conn, account)

    async def on_login(self, conn: Conn, msg: Message) -> None:
        name, now = msg["name"], time.monotonic()
        account = await self._password_try(conn, name, msg["password"], now, token=msg.get("token"))
        self.limiter.succeeded(account.name, conn.address)
        self._welcome(conn, account)

    async def _password_try(self, conn: Conn, name: str, password: str, now: float,
                            token: str | None = None) -> Any:
        """The account, if the password is its own and the throttle lets this try through
        (a wrong password counts against the name, the address and both together);
        else Refused. A name with no account guesses no password: it counts nothing (a
        bot's first login, before it registers, is one)."""
        account = self.store.account(name)
        if account is None or account.guest:
            raise Refused(f"there is no account {name}: register it first")
        known = False
        if token is not None:
            owner = self.store.account_by_token(accounts.token_hash(token), time.time())
            known = owner is not None and owner.name.lower() == account.name.lower()
        wait, what = self.limiter.wait(account.name, conn.address, now, known)
        if wait > 0:
            raise Refused(_held(what, account.name, wait))
        if not await asyncio.to_thread(accounts.check_password, password, account.secret, account.salt):
            self.limiter.failed(account.name, conn.address, now)
            raise Refused(f"wrong password for {account.name}")
        return account

    async def on_guest(self, conn: Conn, msg: Message) -> None:
        now = time.monotonic()
        if self.guests_limited and not self.guests_here.take(conn.address, now):
            wait = math.ceil(self.guests_here.wait(conn.address, now))
            raise Refused(f"too many new guests from your address: try again in {wait} s")
        if self.guests_limited and not self.guests_room.take("", now):
            raise Refused("too many new guests in the room just now: try again in a few seconds")

        def taken(n: str) -> bool:
            # A name with games in the records stays that guest's: a new guest of the
            # same name would be shown the old one's games.
            return self.store.account(n) is not None or self.hub.present(n) or bool(self.store.games_of(n, 1))
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
        conn.token = accounts.token_hash(token)
        conn.ratings = {g: self.store.rating(account.name, g) for g in GAMES}
        self.hub.here(account.name, self.lobby.entry(conn))
        conn.put(dump("welcome", name=account.name, token=token, bot=conn.bot, guest=conn.guest,
                      ratings={g: _rating_fields(r) for g, r in conn.ratings.items()}))
        self.came_back(account.name)
        self.hub.announce("back", account.name)
        conn.put(dump("tables", tables=self.play.summaries(account.name)))
        self.lobby.changed(account.name)

    async def on_logout(self, conn: Any, msg: Message) -> None:
        """Leave, and the session's token resumes nothing from now on (``bye`` leaves it
        working: a ``bye`` is a drop, for the tables)."""
        if isinstance(conn, Conn) and conn.token is not None:
            self.store.revoke_token(conn.token)
            conn.token = None
        await self.on_bye(conn, msg)

    async def on_password(self, conn: Any, msg: Message) -> None:
        """A new password, given the old one: every session token of the account is
        revoked (a stolen one with it), and this connection gets a new one."""
        if not isinstance(conn, Conn) or conn.guest:
            raise Refused("a guest has no password: register a name of your own")
        assert conn.name is not None
        try:
            await self._password_try(conn, conn.name, msg["old"], time.monotonic())
        except Refused as exc:
            raise Refused(f"{exc}: the password is unchanged") from None
        secret, salt = await asyncio.to_thread(accounts.hash_password, msg["new"])
        self.store.set_password(conn.name, secret, salt)
        token = accounts.new_token()
        self.store.set_token(conn.name, accounts.token_hash(token), time.time() + TOKEN_TTL)
        conn.token = accounts.token_hash(token)
        conn.put(dump("password_changed", token=token))

    def guest_left(self, name: str) -> None:
        """A guest's account goes once it is neither in the room nor at a running table
        (a guest seated at one stays until that table ends, played, resigned, or its
        grace run out): what it finished stays in the records, under its name."""
        if self.hub.present(name):
            return
        for table_id in self.hub.seated(name):
            table = self.tables.get(table_id)
            if table.finished is None if table is not None else self.store.table(table_id) is not None:
                return
        try:
            self.store.drop_account(name)
        except StoreError as exc:
            log.warning("the guest %s could not be removed: %s", name, exc)

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
        self.seeks.tick(mono)
        self.play.tick(now, mono)
        self.watch_descriptors(mono)


def _checked_name(name: str) -> str:
    """A name for a new account, or Refused in the sentence ``accounts.check_name`` gives."""
    try:
        return accounts.check_name(name, new=True)
    except ValueError as exc:
        text = str(exc)[:-1] if str(exc).endswith(".") else str(exc)
        raise Refused(text[:1].lower() + text[1:]) from None


def _held(what: str, name: str, wait: float) -> str:
    """The throttle's refusal: who is held, and for how long."""
    if what == "address":
        return f"too many failed logins from your address: try again in {math.ceil(wait)} s"
    return f"too many wrong passwords for {name}: try again in {math.ceil(wait)} s"


def networks(given: Iterable[str]) -> tuple[Network, ...]:
    """``--trusted-proxy``'s addresses and networks (``127.0.0.1``, ``10.0.0.0/8``, a
    comma-separated list); ValueError with one sentence for one that is not."""
    out = []
    for item in given:
        for part in filter(None, (p.strip() for p in item.split(","))):
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"{part!r} is not an address or a network (10.0.0.1, 10.0.0.0/8)") from None
    return tuple(out)


def _trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in trusted)


def forwarded(peer: str, header: Sequence[str], trusted: Sequence[Network]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the
    last address in X-Forwarded-For that is not a trusted proxy (each proxy appends the
    address it heard from, so only the part the trusted proxies wrote is believed; what
    a client wrote before them is not)."""
    if not trusted or not _trusted(peer, trusted):
        return peer
    hops = [h.strip() for line in header for h in line.split(",") if h.strip()]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer                  # a hop that is not an address: believe none of it
        if not _trusted(hop, trusted):
            return hop
    return peer


def client_address(ws: Any, trusted: Sequence[Network]) -> str:
    peer = str((getattr(ws, "remote_address", None) or ("?",))[0])
    if not trusted:
        return peer
    request = getattr(ws, "request", None)
    header = request.headers.get_all("X-Forwarded-For") if request is not None else []
    return forwarded(peer, header, trusted)


async def _refuse(ws: Any, reason: str) -> None:
    """Say why in one message, then close (1013: try again later)."""
    try:
        await ws.send(dump("error", refused="connection", reason=reason))
        await ws.close(1013, "too many connections")
    except Exception:           # it went first: nothing to tell
        pass


def descriptor_limit() -> int:
    import resource

    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _rating_fields(r: Rating) -> dict[str, Any]:
    return {"rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games, "shown": ratings.shown(r),
            "provisional": ratings.provisional(r)}


def _closed(exc: Exception) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, (ConnectionClosed, ConnectionError, asyncio.CancelledError))


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


__all__ = ["Conn", "Room", "client_address", "forwarded", "networks", "new_id"]
