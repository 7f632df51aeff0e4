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
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from port.checks import IllegalMove
from port.files.gamerecord import Ending, Meta
from port.protocol import GAMES, Message, ProtocolError, dump, dumps, parse
from port.room import accounts, ratings
from port.room.games import DRIVERS, RulesError, replay
from port.room.hub import Hub, LocalHub
from port.room.store import Rating, Store, StoreError, TableRow
from port.room.tables import CHAT_KEPT, SHOWN_WAIT, TIMEOUTS_TO_FORFEIT, Table

log = logging.getLogger("cardroom")

CLOCK_DEFAULT = 60           # seconds a decision, unless the invitation says otherwise
GRACE = 120.0                # seconds a dropped player has to come back
INVITE_TTL = 120.0           # an invitation (each round of it) lives this long
REMATCH_TTL = 120.0          # a finished table waits this long for a rematch
TOKEN_TTL = 24 * 3600.0      # a session token resumes a session this long
INVITES_OPEN_MAX = 10        # open invitations one player may have sent
TICK = 0.2                   # how often the clocks are looked at
SEND_QUEUE = 2000            # messages waiting for one slow client before it is let go
PUBLIC = ("register", "login", "guest", "resume", "ping", "bye")


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
    rate: accounts.RateLimit = field(default_factory=accounts.RateLimit)
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    ratings: dict[str, Rating] = field(default_factory=dict)

    def put(self, text: str | None) -> bool:
        """Queue a frame (None: close once what is queued has gone)."""
        try:
            self.queue.put_nowait(text)
            return True
        except asyncio.QueueFull:
            return False

    async def write_loop(self) -> None:
        """Send what is queued, in order; a slow client slows nobody else."""
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self.ws.close()
                    return
                await self.ws.send(text)
        except ConnectionClosed:
            return           # the reading side sees the close and ends the connection


@dataclass
class Invitation:
    id: str
    sender: str                  # who invited first (seat 0)
    to: str
    game: str
    rules: dict[str, Any]
    clock: int
    proposer: str                # who made the last proposal: the other one answers it
    round: int = 1
    changed: tuple[str, ...] = ()
    expires: float = 0.0

    def other(self, name: str) -> str:
        return self.to if name.lower() == self.sender.lower() else self.sender

    def party(self, name: str) -> bool:
        return name.lower() in (self.sender.lower(), self.to.lower())

    def message(self) -> str:
        return dump("invitation", id=self.id, sender=self.sender, to=self.to, game=self.game, rules=self.rules,
                    clock=self.clock, proposer=self.proposer, round=self.round, changed=list(self.changed),
                    seconds=INVITE_TTL)


class Refused(Exception):
    """A request the room turns down: the sentence goes back as an error."""


class Room:
    """The room's state and its answers to every message."""

    def __init__(self, store: Store, hub: Hub | None = None, rng: random.Random | None = None,
                 grace: float = GRACE, clock_default: int = CLOCK_DEFAULT,
                 invite_ttl: float = INVITE_TTL, shown_wait: float = SHOWN_WAIT) -> None:
        self.store = store
        self.hub = hub or LocalHub()
        self.rng = rng or random.SystemRandom()
        self.grace = grace
        self.clock_default = clock_default
        self.invite_ttl = invite_ttl
        self.shown_wait = shown_wait
        self.conns: dict[str, Conn] = {}
        self.tables: dict[str, Table] = {}
        self.invitations: dict[str, Invitation] = {}
        self.limiter = accounts.Limiter(per_name=5, per_address=20, window=60.0)
        self.ticker: asyncio.Task[None] | None = None
        self.hub.attach(self)

    # ---- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        await self.hub.start()
        self.resume_tables()
        self.ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
        await self.hub.stop()

    def resume_tables(self) -> None:
        """Every table the store says is running, made again at its last move; its
        players are away until they come back (each with the grace time from now)."""
        now = time.time()
        for row in self.store.running_tables():
            if not self.hub.claim(row.table_id):
                continue
            self._load(row, now)

    def _load(self, row: TableRow, now: float) -> Table | None:
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
            if not self.hub.present(table.players[seat]):
                table.away[seat] = now + self.grace
        table.arm(now, shown_wait=self.shown_wait)
        self.tables[table.id] = table
        for name in table.players:
            self.hub.seat(name, table.id)
        return table

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
        if not conn.rate.allow(time.monotonic()):
            await asyncio.sleep(conn.rate.wait())
            conn.rate.allow(time.monotonic())
        try:
            msg = parse(raw)
        except ProtocolError as exc:
            conn.put(dump("error", refused="message", reason=str(exc)))
            return
        await self.answer(conn, msg)

    async def answer(self, who: Any, msg: Message) -> None:
        """Handle one checked message from a connection here (or, in Redis mode, from a
        player connected to another process: ``who`` is then a ``hub.Remote``)."""
        if who.name is None and msg.type not in PUBLIC:
            who.put(dump("error", refused=msg.type, reason="log in first (login, register or guest)"))
            return
        handler: Callable[[Any, Message], Awaitable[None]] = getattr(self, "on_" + msg.type)
        try:
            await handler(who, msg)
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
        now = time.time()
        for table in self._local_tables(name):
            seat = table.seat_of(name)
            if table.finished is None and seat is not None and seat not in table.away:
                table.away[seat] = now + self.grace
                self.send(table.players[1 - seat], "away", table=table.id, name=table.players[seat],
                          seconds=self.grace)
        for inv in [i for i in self.invitations.values() if i.party(name)]:
            self._close_invitation(inv, f"{name} left the room")
        self._presence_changed(name)

    def came_back(self, name: str) -> None:
        """A player is back: at each table here where it was away, the opponent is told."""
        for table in self._local_tables(name):
            seat = table.seat_of(name)
            if seat is not None and table.away.pop(seat, None) is not None:
                self.send(table.players[1 - seat], "back", table=table.id, name=table.players[seat])

    # ---- sending ---------------------------------------------------------------------------

    def send(self, to: str, kind: str, /, **fields: Any) -> None:
        self.deliver(to, dump(kind, **fields))

    def deliver(self, name: str, text: str) -> None:
        conn = self.conns.get(name.lower())
        if conn is not None:
            if not conn.put(text):
                log.warning("%s is too slow to read its messages: let go", name)
                self._drop(conn)
            return
        self.hub.forward(name, text)

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
        self.hub.here(account.name, self._entry(conn))
        conn.put(dump("welcome", name=account.name, token=token, bot=conn.bot, guest=conn.guest,
                      ratings={g: _rating_fields(r) for g, r in conn.ratings.items()}))
        self.came_back(account.name)
        self.hub.announce("back", account.name)
        tables = [t.summary(account.name) for t in self._local_tables(account.name)]
        conn.put(dump("tables", tables=tables + self.hub.other_tables(account.name, {t["table"] for t in tables})))
        self._presence_changed(account.name)

    # ---- the lobby -----------------------------------------------------------------------------

    def _entry(self, conn: Conn) -> dict[str, Any]:
        assert conn.name is not None
        playing = self.hub.playing(conn.name)
        return {"name": conn.name, "bot": conn.bot, "guest": conn.guest,
                "ratings": {g: ratings.shown(r) for g, r in conn.ratings.items()},
                "status": "playing" if playing else "free", "tables": playing, "game": conn.game}

    async def on_lobby(self, conn: Conn, msg: Message) -> None:
        conn.watching = bool(msg.get("watch", conn.watching))
        game = msg.get("game")
        if game is not None and game != conn.game:
            conn.game = game                 # the lobbies grey the other game's players
            assert conn.name is not None
            self._presence_changed(conn.name)
        players = sorted(self.hub.everyone(), key=lambda e: e["name"].lower())
        conn.put(dump("lobby", players=players))

    def _presence_changed(self, name: str) -> None:
        conn = self.conns.get(name.lower())
        entry = self._entry(conn) if conn is not None else {"name": name, "gone": True}
        if conn is not None:
            self.hub.here(name, entry)
        text = dump("presence", player=entry)
        for other in self.conns.values():
            if other.watching and other is not conn:
                other.put(text)

    # ---- invitations ------------------------------------------------------------------------------

    async def on_invite(self, who: Any, msg: Message) -> None:
        to = msg["to"]
        if to.lower() == who.name.lower():
            raise Refused("you cannot invite yourself")
        entry = self.hub.find(to)
        if entry is None:
            raise Refused(f"{to} is not in the room")
        mine = [i for i in self.invitations.values() if i.sender.lower() == who.name.lower()]
        if len(mine) >= INVITES_OPEN_MAX:
            raise Refused(f"you have {INVITES_OPEN_MAX} invitations open already: wait for their answers")
        game = msg["game"]
        rules = self._rules(game, msg.get("rules"))
        clock = msg.get("clock", self.clock_default)
        inv = Invitation(self.hub.new_id("i"), who.name, entry["name"], game, rules, clock, who.name,
                         expires=time.monotonic() + self.invite_ttl)
        self.invitations[inv.id] = inv
        self._tell_both(inv)

    def _rules(self, game: str, given: Any) -> dict[str, Any]:
        try:
            return DRIVERS[game].check_rules(given)
        except RulesError as exc:
            raise Refused(str(exc)) from None

    def _invitation(self, who: Any, msg: Message) -> Invitation:
        inv = self.invitations.get(msg["id"])
        if inv is None or not inv.party(who.name):
            raise Refused(f"there is no invitation {msg['id'][:40]} for you (it may have expired)")
        return inv

    def _answering(self, who: Any, inv: Invitation, doing: str) -> None:
        if inv.proposer.lower() == who.name.lower():
            raise Refused(f"you cannot {doing} your own proposal: {inv.other(who.name)} answers it")

    async def on_counter(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        inv = self._invitation(who, msg)
        self._answering(who, inv, "change")
        rules = self._rules(inv.game, {**inv.rules, **(msg.get("rules") or {})})
        clock = msg.get("clock", inv.clock)
        changed = tuple(k for k in rules if rules[k] != inv.rules.get(k)) + (("clock",) if clock != inv.clock else ())
        if not changed:
            raise Refused("a proposal back changes at least one rule (or accept this one)")
        inv.rules, inv.clock, inv.changed = rules, clock, changed
        inv.proposer, inv.round = who.name, inv.round + 1
        inv.expires = time.monotonic() + self.invite_ttl
        self._tell_both(inv)

    async def on_accept(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        inv = self._invitation(who, msg)
        self._answering(who, inv, "accept")
        del self.invitations[inv.id]
        self._tell_both(inv, closed="accepted")
        self.open_table(inv.game, (inv.sender, inv.to), inv.rules, inv.clock)

    async def on_decline(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        inv = self._invitation(who, msg)
        self._close_invitation(inv, f"declined by {who.name}")

    async def on_cancel(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        inv = self._invitation(who, msg)
        self._close_invitation(inv, f"withdrawn by {who.name}")

    def _close_invitation(self, inv: Invitation, why: str) -> None:
        self.invitations.pop(inv.id, None)
        self._tell_both(inv, closed=why)

    def _tell_both(self, inv: Invitation, closed: str | None = None) -> None:
        text = inv.message() if closed is None else dump("invitation_closed", id=inv.id, why=closed)
        self.deliver(inv.sender, text)
        self.deliver(inv.to, text)

    # ---- tables ------------------------------------------------------------------------------------

    def open_table(self, game: str, players: tuple[str, str], rules: dict[str, Any], clock: int) -> Table:
        """A new table: dealt, written to the store, its first messages sent."""
        seed = self.rng.getrandbits(32)
        kinds = [self.hub.find(p) or {} for p in players]
        bots = (bool(kinds[0].get("bot")), bool(kinds[1].get("bot")))
        guests = (bool(kinds[0].get("guest")), bool(kinds[1].get("guest")))
        table = Table.new(self.hub.new_id("t"), game, players, rules, seed, clock, bots=bots, guests=guests)
        stored = {**rules, "_room": {"clock": clock, "bots": list(bots), "guests": list(guests)}}
        self.store.open_table(TableRow(table.id, game, players, stored, seed, time.time()))
        self.hub.claim(table.id)
        self.tables[table.id] = table
        for seat, name in enumerate(players):
            self.hub.seat(name, table.id)
            self.send(name, "start", table=table.id, game=game, players=list(players), seat=seat, rules=rules,
                      clock=clock)
        self._after(table, time.time())
        for name in players:
            self._presence_changed(name)
        return table

    def _local_tables(self, name: str) -> list[Table]:
        """The tables this process holds with ``name`` at them."""
        return [t for t in (self.tables.get(i) for i in list(self.hub.seated(name))) if t is not None]

    def _table(self, who: Any, msg: Message) -> tuple[Table, int]:
        table = self.tables.get(msg["table"])
        if table is None:
            table = self.hub.take_over(msg["table"])
        seat = table.seat_of(who.name) if table is not None else None
        if table is None or seat is None:
            raise Refused(f"you are not at table {msg['table'][:40]}")
        return table, seat

    async def on_move(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        if table.finished is not None:
            raise Refused("that game is over")
        self._play(table, seat, msg["move"], by=None)
        table.timeouts[seat] = 0

    def _play(self, table: Table, seat: int, move: dict[str, Any], by: str | None) -> None:
        """Make a move at a table: the rules check it, the store keeps it, then the
        seats hear of it. A move the store cannot keep is taken back."""
        index = len(table.driver.moves)
        try:
            table.driver.apply(seat, move)
        except (IllegalMove, ProtocolError) as exc:
            raise Refused(_seat_words(str(exc), table)) from None
        stored = {"seat": seat, "move": move} if by is None else {"seat": seat, "move": move, "by": by}
        try:
            self.store.add_move(table.id, index, stored)
        except StoreError:
            table.driver = replay(table.game, table.rules, table.seed, table.driver.moves[:-1])
            table.driver.out = []
            raise
        self._after(table, time.time())

    def _after(self, table: Table, now: float) -> None:
        """Send what the last step owes each seat; start the next clock; end a game that is over."""
        out = table.drain()
        for seat, msg in out:
            self.deliver(table.players[seat], dumps(msg))
        after_hand = any(m["type"] == "hand_end" for _, m in out)
        if table.driver.over:
            self.finish(table, "played", None)
            return
        if table.arm(now, after_hand, self.shown_wait) is not None:
            self._tell_clock(table, now)

    def _clock(self, table: Table, now: float) -> str:
        """The asked seat's clock: its seconds, and whether it runs (a person's waits
        until the question is on its screen)."""
        assert table.asked is not None
        return dump("clock", table=table.id, seat=table.asked, name=table.players[table.asked],
                    seconds=table.seconds_left(now), running=table.starts is None)

    def _tell_clock(self, table: Table, now: float) -> None:
        clock = self._clock(table, now)
        self.deliver(table.players[0], clock)
        self.deliver(table.players[1], clock)

    async def on_shown(self, who: Any, msg: Message) -> None:
        """The player's screen shows its question ``seq``: its clock starts now."""
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        now = time.time()
        if table.finished is None and table.show(seat, msg["seq"], now):
            self._tell_clock(table, now)

    def finish(self, table: Table, how: str, loser: int | None) -> None:
        """The game is over (played out, resigned, forfeited): record it, rate it, say it.
        If the store cannot keep it now, the clocks' tick tries again (``ending``)."""
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
        before = {p: self.store.rating(p, table.game) for p in table.players}
        new: dict[str, Rating] | None = None
        if not any(table.guests):
            score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
            a, b = ratings.update(before[table.players[0]], before[table.players[1]], score)
            new = {table.players[0]: a, table.players[1]: b}
        result = {"how": how, "winner": None if winner is None else table.players[winner],
                  "loser": None if loser is None else table.players[loser], "scores": list(scores),
                  "hands": len(driver.played(ending)), "seed": table.seed}
        number = self.store.finish_game(table.id, table.game, table.players, record, result, new)
        changes = {p: {"before": ratings.shown(before[p]), "after": ratings.shown((new or before)[p]),
                       "change": round((new or before)[p].rating - before[p].rating)} for p in table.players}
        said = dump("game_end", table=table.id, number=number, how=how, winner=result["winner"],
                    scores=list(scores), rated=new is not None, ratings=changes)
        table.finished = {**result, "number": number, "at": time.monotonic(), "said": said}
        table.deadline = table.asked = table.ending = None
        table.settle()
        for p in table.players:
            conn = self.conns.get(p.lower())
            if conn is not None and new is not None:
                conn.ratings[table.game] = new[p]
            self.deliver(p, said)
        for p in table.players:
            self._presence_changed(p)

    async def on_resign(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        if table.finished is not None:
            raise Refused("that game is over")
        self.finish(table, "resigned", seat)

    async def on_sync(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        for m in table.since(seat, msg.get("since", 0)):
            who.put(dumps(m))
        if msg.get("since", 0) == 0:          # a new screen: the chat said at the table so far
            for name, text, hidden in table.chat:
                if hidden != seat:
                    who.put(dump("chat", table=table.id, name=name, text=text))
        if table.finished is not None:
            who.put(table.finished["said"])          # the game's end, as it was said
            return
        if table.deadline is not None and table.asked is not None:
            who.put(self._clock(table, time.time()))
        other = 1 - seat
        if other in table.away:
            who.put(dump("away", table=table.id, name=table.players[other],
                         seconds=round(max(0.0, table.away[other] - time.time()), 1)))

    async def on_rematch(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        if table.finished is None:
            raise Refused("a rematch is offered when the game is over")
        table.rematch.add(seat)
        if len(table.rematch) < 2:
            self.send(table.players[1 - seat], "rematch", table=table.id, name=who.name)
            return
        table.rematch.clear()
        self.open_table(table.game, (table.players[1], table.players[0]), table.rules, table.clock)

    async def on_chat(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        text = dump("chat", table=table.id, name=who.name, text=msg["text"])
        who.put(text)
        muted = table.muted[1 - seat]
        if not muted:
            self.deliver(table.players[1 - seat], text)
        # Kept (the last few, in memory) for a player who comes back with a new screen.
        table.chat = [*table.chat, (who.name, msg["text"], 1 - seat if muted else None)][-CHAT_KEPT:]

    async def on_mute(self, who: Any, msg: Message) -> None:
        if await self.hub.route(who, msg):
            return
        table, seat = self._table(who, msg)
        table.muted[seat] = msg["on"]
        who.put(dump("muted", table=table.id, on=msg["on"]))

    # ---- finished games ---------------------------------------------------------------------------

    async def on_games(self, who: Any, msg: Message) -> None:
        name = msg.get("name", who.name)
        rows = self.store.games_of(name)
        who.put(dump("games", name=name, games=[{"number": g.number, "game": g.game, "players": list(g.players),
                                                 "result": g.result, "finished": g.finished} for g in rows]))

    async def on_game(self, who: Any, msg: Message) -> None:
        row = self.store.game(msg["number"])
        if row is None or who.name.lower() not in (p.lower() for p in row.players):
            raise Refused(f"game {msg['number']} is not one of yours")
        who.put(dump("record", number=row.number, game=row.game, players=list(row.players), result=row.result,
                     text=row.record))

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
        """Run out what has run out: move clocks, absences, invitations, rematch offers."""
        for inv in [i for i in self.invitations.values() if i.expires <= mono]:
            self._close_invitation(inv, "expired")
        for table in list(self.tables.values()):
            try:
                self._tick_table(table, now, mono)
            except StoreError as exc:      # the store is failing: said once a tick, tried again next
                log.error("table %s: %s", table.id, exc)
            except Exception:
                log.exception("a fault at table %s", table.id)

    def _tick_table(self, table: Table, now: float, mono: float) -> None:
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
        for p in table.players:
            self.send(p, "timeout", table=table.id, seat=seat, name=table.players[seat], count=count, move=move,
                      forfeit=count >= TIMEOUTS_TO_FORFEIT)
        if count >= TIMEOUTS_TO_FORFEIT:
            self.finish(table, "clock", seat)
            return
        self._play(table, seat, move, by="clock")

    def _abandon(self, table: Table) -> None:
        """Both players gone past their grace: the game counts for nothing."""
        self.store.drop_table(table.id)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        self.hub.release(table.id)
        for name in table.players:
            self.hub.unseat(name, table.id)


def _rating_fields(r: Rating) -> dict[str, Any]:
    return {"rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games, "shown": ratings.shown(r),
            "provisional": ratings.provisional(r)}


def _seat_words(text: str, table: Table) -> str:
    """The engine's "seat 1" in a player's words: the seat's name."""
    for seat in (0, 1):
        text = text.replace(f"seat {seat}'s", f"{table.players[seat]}'s").replace(f"seat {seat} ", f"{table.players[seat]} ")
    return text


def _closed(exc: Exception) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, (ConnectionClosed, ConnectionError, asyncio.CancelledError))


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(6)


__all__ = ["Conn", "Invitation", "Room", "new_id"]
