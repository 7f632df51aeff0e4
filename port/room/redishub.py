"""Several room processes on one Redis (``--redis URL``): presence and table owners live
in Redis (``port.room.redisstore``), and each process listens on its own channel
(``room:DB:proc:ID``) for the messages meant for its players and the requests meant for
its tables, and on ``room:DB:all`` for players leaving and coming back. A table is
applied by one process only: the one its owner key names, and Redis refuses any other's
writes to it (the fence, ``port.room.redisstore``).

Nothing the hub sends waits on Redis with the event loop stopped: it goes through the
``Link`` (``redis.asyncio``), one pipeline a turn of the loop, a move's write included
(its table waits for it, the others go on), and a turn's messages for one process are
one ``PUBLISH``. Only rare reads that must be answered at once are synchronous.

A process whose tables are asked for and which does not answer is looked at in Redis
(``_CLAIM``): gone when its heartbeat (``room:alive:ID``, beaten every quarter lease)
has run out, or nobody listens on its channel (its connection to Redis is closed, as
when it is killed) and its last beat is older than ``STALE`` of its lease. Its tables
are then taken over where they are asked for, made again from the moves in Redis, and
the requests it never answered are handled there; the players are told meanwhile
(``notice``). docs/room.md ("Past one process: Redis") has the whole story.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from port.protocol import Message, dump
from port.room.errors import Refused
from port.room.hub import INVITATION_MESSAGES, TABLE_MESSAGES, Hub, Remote
from port.room.limits import SEND_QUEUE
from port.room.tables import BLOCK

Table = Any

log = logging.getLogger("cardroom")

# ---- several processes on one Redis ----------------------------------------------------------

LEASE = 4.0          # seconds a heartbeat lives (--lease); beaten every quarter of it
STALE = 0.375        # of a lease: a silent owner's last beat older than this, it is gone
ACK_WAIT = 1.0       # seconds a forwarded request waits for its owner's ack before the owner is looked at
RESEND = 5.0         # a request its owner heard, alive, but has not acked: sent again (it dedups by id)
HELD = 5.0           # seconds messages for a process that does not listen are kept and tried again
BACKOFF = (0.2, 5.0)  # the first and the longest wait between tries at a Redis that is away
QUEUE_MOST = 50_000  # commands kept for Redis while it is away; the oldest go past this
RS, US = "\x1e", "\x1f"   # a channel message's records and fields (JSON text never holds either)
_TAIL = re.compile(r'"table":"([^"]+)","seq":(\d+)\}$')   # a stream message's last fields

AWAY = "the room has lost its store for a moment: try again shortly"
MOVING = "The room's process that held this table stopped answering: another is taking it over."
MOVED = "The table goes on: another process of the room holds it now."


@dataclass
class Sent:
    """A request passed to the process that owns its table (or invitation), not yet acked."""

    id: int
    owner: str
    table: str | None
    who: Any
    msg: Message
    at: float
    heard: bool = True       # PUBLISH said someone listened
    told: bool = False       # the player was told the table is being moved


class Link:
    """Commands to Redis from the event loop without stopping it: queued, sent as one
    pipeline a turn of the loop (``redis.asyncio``), each answer handed to its callback.
    While Redis is away the queue is kept (the oldest dropped past ``QUEUE_MOST``) and
    sent again, in order, once it is back."""

    def __init__(self, hub: RedisHub, client: Any) -> None:
        self.hub, self.client = hub, client
        self.queue: list[tuple[tuple[Any, ...], Callable[[Any], None] | None, Callable[[], None] | None]] = []
        self.wake = asyncio.Event()

    def send(self, *args: Any, then: Callable[[Any], None] | None = None,
             failed: Callable[[], None] | None = None) -> None:
        """Queue a command; ``then`` gets its answer; ``failed``, if given, is called
        instead of keeping the command when Redis cannot be reached."""
        self.queue.append((args, then, failed))
        self.wake.set()

    async def ask(self, *args: Any, away: BaseException | None = None) -> Any:
        """A command's answer. With ``away``, that is raised if Redis cannot be reached
        (else the command waits for Redis to be back)."""
        got: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        failed = None if away is None else (lambda: got.done() or got.set_exception(away))
        self.send(*args, then=lambda r: got.done() or got.set_result(r), failed=failed)
        return await got

    async def run(self) -> None:
        import redis

        delay = BACKOFF[0]
        while True:
            await self.wake.wait()
            self.wake.clear()
            self.hub.seal()
            batch, self.queue = self.queue, []
            if not batch:
                continue
            try:
                pipe = self.client.pipeline(transaction=False)
                for args, _, _ in batch:
                    pipe.execute_command(*args)
                results = await pipe.execute(raise_on_error=False)
            except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
                self.hub.trouble(exc)
                for _, _, failed in batch:
                    if failed is not None:
                        failed()
                self.queue[:0] = [item for item in batch if item[2] is None]
                del self.queue[:max(0, len(self.queue) - QUEUE_MOST)]
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])
                self.wake.set()
                continue
            delay = BACKOFF[0]
            self.hub.fine()
            for (args, then, _), result in zip(batch, results):
                if then is not None:
                    try:
                        then(result)
                    except Exception:
                        log.exception("a fault after the Redis command %s", args[0])


class RedisHub(Hub):
    """Several processes on one Redis (``port.room.redisstore.RedisStore`` is the store)."""

    def __init__(self, store: Any, url: str, table_ttl: float = LEASE, presence_ttl: float = 60.0) -> None:
        super().__init__()
        import redis

        from port.room.redisstore import client

        self.store = store
        self.url = url
        self.me = "p" + secrets.token_hex(4)
        self.table_ttl = table_ttl               # the lease
        self.beat = table_ttl / 4
        self.presence_ttl = presence_ttl
        self.redis = client(url)                 # the few reads that must be answered at once
        self.redis_errors = (redis.ConnectionError, redis.TimeoutError, OSError)
        self.no_script = redis.exceptions.NoScriptError
        # Pub/sub channels are the server's, not a database's: name them by the database.
        db = self.redis.connection_pool.connection_kwargs.get("db", 0)
        self.channel_all = f"room:{db}:all"
        self.channels = f"room:{db}:proc:"
        store.me, store.lost, store.trouble = self.me, self.lost, self.trouble
        self.link: Link | None = None
        self.tasks: list[asyncio.Task[None]] = []              # the Link's, the listener, the watch
        self.spawned: set[asyncio.Task[None]] = set()          # requests handled, owners looked at
        # Where each player on another process is: learnt from its presence once, kept
        # by the "back" and "left" announcements (a GET a message was the hot path).
        self.whereabouts: dict[str, str] = {}
        self.entries: dict[str, dict[str, Any]] = {}         # our players' presence, refreshed
        self.lives: dict[str, tuple[bool, float]] = {}        # proc -> (alive, when asked)
        self.owners: dict[str, str | None] = {}               # table -> its owner, as last learnt
        self.mail: dict[str, list[str]] = {}                  # proc (or "all") -> records this turn
        self.mail_sent: dict[str, list[Sent]] = {}            # proc -> the requests among them
        self.held: dict[str, tuple[float, float]] = {}        # proc not listening -> (since, next try)
        self.waiting: dict[str, deque[Sent]] = {}             # owner -> requests not acked yet
        self.acks: dict[str, int] = {}                        # proc -> its last request handled here
        self.handled: dict[str, OrderedDict[int, None]] = {}  # proc -> its recent requests handled here
        self.checking: set[str] = set()
        self.relayed: dict[tuple[str, str], int] = {}         # (player, table) -> last seq passed on
        self.backlogs: dict[int, deque[str]] = {}              # a connection here (its id) -> frames past its queue
        self.last_ack: dict[str, float] = {}                  # owner -> when it last acked
        self.unseated: dict[str, set[str]] = {}
        self.next_id = 0
        self.down_since: float | None = None
        self.settle_until = 0.0

    # ---- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.async_redis = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, retry=Retry(NoBackoff(), 1))
        self.link = Link(self, self.async_redis)
        for script in (self.store._add_move, self.store._claim):
            self._read(lambda: self.redis.script_load(script.script), None)
        self.heartbeat()
        ready = asyncio.get_running_loop().create_future()
        self.tasks = [asyncio.create_task(self.link.run()), asyncio.create_task(self._listen(ready)),
                      asyncio.create_task(self._watch())]
        await asyncio.wait_for(ready, 10)

    async def stop(self) -> None:
        """Stopping on purpose: say so, give the tables back at once (another process
        takes each over when it is next asked for), stop beating."""
        assert self.room is not None
        for task in [*self.tasks[1:], *self.spawned]:
            task.cancel()
        try:
            script = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
            pipe = self.async_redis.pipeline(transaction=False)
            for table_id in self.room.tables:
                pipe.eval(script, 1, f"room:owner:{table_id}", self.me)
            pipe.delete(f"room:alive:{self.me}")
            pipe.publish(self.channel_all, RS.join([self.me, "X"]))
            await asyncio.wait_for(pipe.execute(), 5)
        except Exception as exc:              # Redis away: the heartbeat runs out instead
            log.warning("the room could not tell Redis it stops (%s)", _reason(exc))
        self.tasks[0].cancel()
        await self.async_redis.aclose()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{self.me}-{secrets.token_hex(5)}"

    def _channel(self, proc: str) -> str:
        return self.channel_all if proc == "all" else self.channels + proc

    # ---- Redis away and back ---------------------------------------------------------------

    def trouble(self, exc: BaseException) -> None:
        """A call to Redis failed: said once, in one sentence; the Link and the listener
        try again with a backoff."""
        if self.down_since is None:
            self.down_since = time.monotonic()
            log.error("the room lost its connection to Redis at %s (%s); trying again", self.url, _reason(exc))

    def fine(self) -> None:
        if self.down_since is None:
            return
        away, self.down_since = time.monotonic() - self.down_since, None
        log.warning("Redis at %s is back after %.1f s", self.url, away)
        # The others need a moment to beat and listen again before any is judged gone.
        self.settle_until = time.monotonic() + self.table_ttl
        self.heartbeat()
        for name, entry in self.entries.items():
            self._set_presence(name, entry)
        assert self.room is not None
        for table_id in list(self.room.tables):      # a table taken over meanwhile is not ours
            self._send("GET", f"room:owner:{table_id}", then=lambda got, t=table_id: self._still_ours(t, got))

    def _still_ours(self, table_id: str, got: Any) -> None:
        if isinstance(got, bytes) and got.decode() != self.me:
            self.lost(table_id)

    def lost(self, table_id: str) -> None:
        """Another process holds this table now (the fence refused a write): forget it here."""
        assert self.room is not None
        if self.room.tables.pop(table_id, None) is not None:
            log.warning("table %s is held by another process now: dropped here", table_id)
        self.owners.pop(table_id, None)

    def _send(self, *args: Any, then: Callable[[Any], None] | None = None,
              failed: Callable[[], None] | None = None) -> None:
        if self.link is not None:
            self.link.send(*args, then=then, failed=failed)
        else:                                # not started (a test calling in): at once
            got = self.redis.execute_command(*args)
            if then is not None:
                then(got)

    def _read(self, call: Callable[[], Any], default: Any) -> Any:
        """A read that must be answered now; with Redis away, ``default`` (said once)."""
        try:
            return call()
        except self.redis_errors as exc:
            self.trouble(exc)
            return default

    # ---- who is here: Redis's presence keys, one per player, refreshed while connected -------

    def find(self, name: str) -> dict[str, Any] | None:
        local = self._conn_entry(name)
        if local is not None:
            return local
        raw = self._read(lambda: self.redis.get(f"room:presence:{name.lower()}"), None)
        entry = None if raw is None else json.loads(raw)
        return entry if entry is not None and self.alive(entry.get("proc")) else None

    def everyone(self) -> list[dict[str, Any]]:
        entries = list(self.store.presence().values())
        living = {p for p in {e.get("proc") for e in entries} if self.alive(p)}
        return [{k: v for k, v in e.items() if k != "proc"} for e in entries if e.get("proc") in living]

    def alive(self, proc: object) -> bool:
        """Whether a room process is still there (its heartbeat key has not run out);
        asked of Redis at most a few times a lease per process."""
        if proc == self.me:
            return True
        if not isinstance(proc, str):
            return False
        now = time.monotonic()
        known = self.lives.get(proc)
        if known is not None and now - known[1] < self.beat:
            return known[0]
        living = bool(self._read(lambda: self.redis.exists(f"room:alive:{proc}"), True))
        self.lives[proc] = (living, now)
        return living

    def heartbeat(self) -> None:
        """The heartbeat's value is the lease (ms): another process tells from its time to
        live how long ago it was beaten."""
        ms = int(self.table_ttl * 1000)
        self._send("SET", f"room:alive:{self.me}", ms, "PX", ms)

    def here(self, name: str, entry: dict[str, Any]) -> None:
        """A player's presence: written before its ``welcome`` when it comes in (so every
        process finds it at once), through the Link when its entry changes."""
        new = name.lower() not in self.entries
        self.entries[name.lower()] = entry
        self._set_presence(name.lower(), entry, now=new)

    def _set_presence(self, name: str, entry: dict[str, Any], now: bool = False) -> None:
        text = json.dumps({**entry, "proc": self.me}, separators=(",", ":"), sort_keys=True)
        args = ("SET", f"room:presence:{name}", text, "PX", int(self.presence_ttl * 1000))
        if now:
            self._read(lambda: self.redis.execute_command(*args), None)
        else:
            self._send(*args)

    def absent(self, name: str) -> None:
        self.entries.pop(name.lower(), None)
        self.relayed = {k: v for k, v in self.relayed.items() if k[0] != name.lower()} if self.relayed else {}
        self._send("DEL", f"room:presence:{name.lower()}")

    def announce(self, kind: str, name: str) -> None:
        self._mail("all", f"{kind[0].upper()}{US}{name}")

    def forward(self, name: str, text: str) -> None:
        proc = self.whereabouts.get(name.lower())
        if proc is None:
            entry = self.find(name)
            proc = entry.get("proc") if entry is not None else None
            if proc is None or proc == self.me:
                return
            self.whereabouts[name.lower()] = proc
        self._mail(proc, f"D{US}{name}{US}{text}")

    # ---- the mail: a turn's records for each process, one PUBLISH each -----------------------

    def _mail(self, proc: str, record: str, sent: Sent | None = None) -> None:
        self.mail.setdefault(proc, []).append(record)
        if sent is not None:
            self.mail_sent.setdefault(proc, []).append(sent)
        if self.link is not None:
            self.link.wake.set()
        else:
            self.seal()

    def seal(self) -> None:
        """The turn's mail, one PUBLISH a process (called by the Link before it sends)."""
        for proc, last in self.acks.items():
            self.mail.setdefault(proc, []).append(f"A{US}{last}")
        self.acks = {}
        now = time.monotonic()
        for proc in list(self.mail):
            held = self.held.get(proc)
            if held is not None and now < held[1]:
                continue                       # not listening a moment ago: tried again soon
            records, sent = self.mail.pop(proc), self.mail_sent.pop(proc, [])
            payload = RS.join([self.me, *records])
            self._send("PUBLISH", self._channel(proc), payload,
                       then=lambda n, p=proc, r=records, s=sent: self._published(p, n, r, s),
                       failed=lambda p=proc, r=records, s=sent: self._unsent(p, r, s))

    def _unsent(self, proc: str, records: list[str], sent: list[Sent]) -> None:
        """Redis away: the players' messages wait for it (in order); the requests are
        refused, in one plain sentence, rather than kept waiting without a word."""
        kept = [r for r in records if r[0] != "C"]
        if kept:
            self.mail[proc] = kept + self.mail.get(proc, [])
        queue = self.waiting.get(proc)
        for s in sent:
            if queue is not None and s in queue:
                queue.remove(s)
            fields = {"table": s.table} if s.table else {}
            s.who.put(dump("error", refused=s.msg.type, reason=AWAY, **fields))

    def _published(self, proc: str, listeners: Any, records: list[str], sent: list[Sent]) -> None:
        if not isinstance(listeners, int) or listeners > 0 or proc == "all":
            self.held.pop(proc, None)
            return
        # Nobody listens on that process's channel: it is gone, or reconnecting. Its
        # players' messages are kept and tried again for HELD seconds; its requests are
        # looked at (``_check``), not sent again blindly.
        now = time.monotonic()
        since = self.held.get(proc, (now, now))[0]
        self.held[proc] = (since, now + 0.5)
        kept = [r for r in records if r[0] != "C"]
        if kept and now - since < HELD:
            self.mail[proc] = kept + self.mail.get(proc, [])
            asyncio.get_running_loop().call_later(0.5, self._wake)
        elif kept:
            self.held.pop(proc, None)
            self.whereabouts = {n: p for n, p in self.whereabouts.items() if p != proc}
        for s in sent:
            s.heard = False
        if sent:
            self._spawn(self._check(proc))

    def _wake(self) -> None:
        if self.link is not None:
            self.link.wake.set()

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.spawned.add(task)
        task.add_done_callback(self.spawned.discard)

    # ---- who sits where: a set per player in Redis -----------------------------------------

    # Sent through the Link; until Redis has them, this process's own reads see them
    # (``self._seated`` the tables added, ``self.unseated`` those taken away).
    def seat(self, name: str, table_id: str) -> None:
        super().seat(name, table_id)
        self._forget_unseat(name, table_id)
        self._send("SADD", f"room:seated:{name.lower()}", table_id,
                   then=lambda _, n=name, t=table_id: Hub.unseat(self, n, t))

    def unseat(self, name: str, table_id: str) -> None:
        Hub.unseat(self, name, table_id)
        self.unseated.setdefault(name.lower(), set()).add(table_id)
        self._send("SREM", f"room:seated:{name.lower()}", table_id,
                   then=lambda _, n=name, t=table_id: self._forget_unseat(n, t))

    def _forget_unseat(self, name: str, table_id: str) -> None:
        gone = self.unseated.get(name.lower())
        if gone is not None:
            gone.discard(table_id)
            if not gone:
                del self.unseated[name.lower()]

    def seated(self, name: str) -> set[str]:
        got = self._read(lambda: self.redis.smembers(f"room:seated:{name.lower()}"), set())
        return ({m.decode() for m in got} | super().seated(name)) - self.unseated.get(name.lower(), set())

    def other_tables(self, name: str, known: set[str]) -> list[dict[str, Any]]:
        out = []
        for table_id in sorted(self.seated(name) - known):
            row = self.store.table(table_id)
            if row is None:
                continue
            low = [p.lower() for p in row.players]
            seat = low.index(name.lower()) if name.lower() in low else None
            rules = {k: v for k, v in row.rules.items() if k != "_room"}
            clock = row.rules.get("_room", {}).get("clock", 0)
            out.append({"table": table_id, "game": row.game, "players": list(row.players), "rules": rules,
                        "clock": clock, "over": False, "seat": seat})
        return out

    # ---- who applies which table: an owner key, and the fence ------------------------------

    def claim(self, table_id: str) -> bool:
        """Own a table: one this process opened is its own already (the store set its
        owner key); another, if it has no owner or its owner is gone (``_CLAIM``)."""
        assert self.room is not None
        if table_id in self.room.tables or table_id == self.store.opened:
            return True
        got = self.store.take_table(table_id, "room:alive:", self.channels, STALE)
        self.owners[table_id] = got
        return got == self.me

    def release(self, table_id: str) -> None:
        self.owners.pop(table_id, None)
        script = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
        self._send("EVAL", script, 1, f"room:owner:{table_id}", self.me)

    async def _owner(self, table_id: str) -> str | None:
        """Who applies a table: as last learnt (an owner changes only when a table is
        taken over, and then the old one's silence or its fence tells), else asked; a
        player's message is refused in plain words if Redis cannot be asked (it may be
        gone before this process has heard: the message must not wait for its return)."""
        if table_id in self.owners:
            return self.owners[table_id]
        assert self.link is not None
        got = await self.link.ask("GET", f"room:owner:{table_id}", away=Refused(AWAY))
        owner = got.decode() if isinstance(got, bytes) else None
        if owner is not None:
            self.owners[table_id] = owner
        return owner

    async def add_move(self, table_id: str, index: int, move: dict[str, Any]) -> None:
        """A move kept through the Link: in the turn's pipeline with every other table's,
        the event loop free meanwhile (the table waits, in ``Play._play``)."""
        from port.room.store import StoreError

        if self.link is None:
            self.store.add_move(table_id, index, move)
            return
        away = StoreError(f"The room lost its connection to Redis at {self.url}.")
        if self.down_since is not None:
            raise away
        keys, args = self.store.move_command(table_id, index, move)
        got = await self.link.ask("EVALSHA", self.store._add_move.sha, len(keys), *keys, *args, away=away)
        if isinstance(got, self.no_script):                           # Redis restarted: its scripts are gone
            got = await self.link.ask("EVAL", self.store._add_move.script, len(keys), *keys, *args, away=away)
        if isinstance(got, Exception):
            raise StoreError(f"Redis at {self.url} refused a command ({_reason(got)}).")
        self.store.moved(table_id, index, int(got))

    def refresh_presence(self) -> None:
        for name, entry in self.entries.items():
            self._set_presence(name, entry)

    async def route(self, who: Any, msg: Message) -> bool:
        assert self.room is not None
        if msg.type in TABLE_MESSAGES:
            table_id = msg["table"]
            if table_id in self.room.tables:
                return False
            if self.down_since is not None:
                raise Refused(AWAY)
            owner = await self._owner(table_id)
            if table_id in self.room.tables:      # taken over here meanwhile
                return False
        elif msg.type in INVITATION_MESSAGES:
            if msg["id"] in self.room.invitations:
                return False
            owner = msg["id"][1:].split("-")[0]
            table_id = None
        else:
            return False
        if owner is None or owner == self.me:
            return False
        if self.down_since is not None:
            raise Refused(AWAY)
        self._pass(owner, table_id, who, msg)
        return True

    def _pass(self, owner: str, table_id: str | None, who: Any, msg: Message) -> Sent:
        self.next_id += 1
        sent = Sent(self.next_id, owner, table_id, who, msg, time.monotonic())
        self.waiting.setdefault(owner, deque()).append(sent)
        fields = json.dumps(dict(msg.fields), separators=(",", ":"))
        self._mail(owner, US.join(("C", str(sent.id), who.name, "1" if who.bot else "", "1" if who.guest else "",
                                   msg.type, fields)), sent)
        return sent

    async def _take(self, table_id: str) -> str:
        """``RedisStore.take_table`` through the Link: the table's owner after the claim."""
        from port.room.redisstore import CLAIM_TTL
        from port.room.store import StoreError

        assert self.link is not None
        script = self.store._claim
        args = (1, f"room:owner:{table_id}", self.me, int(CLAIM_TTL * 1000), "room:alive:", self.channels, STALE)
        away = StoreError(f"The room lost its connection to Redis at {self.url}.")
        got = await self.link.ask("EVALSHA", script.sha, *args, away=away)
        if isinstance(got, self.no_script):
            got = await self.link.ask("EVAL", script.script, *args, away=away)
        if isinstance(got, Exception):
            raise StoreError(f"Redis at {self.url} refused a command ({_reason(got)}).")
        return got.decode() if isinstance(got, bytes) else str(got)

    def take_over(self, table_id: str) -> Table | None:
        """A table asked for here that no living process holds: made again from Redis."""
        assert self.room is not None
        row = self.store.table(table_id)
        if row is None or not self.claim(table_id):
            return None
        log.info("table %s taken over here", table_id)
        return self.room.play.load(row, time.time())

    # ---- the owner that does not answer ------------------------------------------------------

    async def _watch(self) -> None:
        """Beat; refresh the presence; look at each owner whose oldest request waits."""
        last_beat = last_presence = time.monotonic()
        while True:
            await asyncio.sleep(min(0.5, self.beat))
            now = time.monotonic()
            if now - last_beat >= self.beat:
                last_beat = now
                self.heartbeat()
            if now - last_presence >= self.presence_ttl / 3:
                last_presence = now
                self.refresh_presence()
            for owner, queue in list(self.waiting.items()):
                # An owner that acks is there, only slow (a busy room): it is not looked at.
                if queue and now - queue[0].at > ACK_WAIT and now - self.last_ack.get(owner, 0.0) > ACK_WAIT:
                    self._spawn(self._check(owner))

    async def _check(self, owner: str) -> None:
        """An owner did not hear a request, or has not acked it: is it gone? Its tables
        are then taken over here and the requests handled here; while it lives they wait
        (sent again if it never heard them, or heard them long ago)."""
        from port.room.store import StoreError

        if owner in self.checking:
            return
        self.checking.add(owner)
        try:
            if time.monotonic() < self.settle_until:
                await asyncio.sleep(self.settle_until - time.monotonic())
            queue = self.waiting.pop(owner, deque())
            for s in queue:
                if s.table is not None and not s.told:
                    s.told = True
                    s.who.put(dump("notice", table=s.table, what="moving", text=MOVING))
            tables = list(dict.fromkeys(s.table for s in queue))
            for n, table_id in enumerate(tables):
                try:
                    await self._settle(owner, table_id, [s for s in queue if s.table == table_id])
                except StoreError:               # Redis away: they wait for it
                    left = [s for s in queue if s.table in tables[n:]]
                    self.waiting.setdefault(owner, deque()).extend(left)
                    break
        except Exception:
            log.exception("a fault looking at process %s", owner)
        finally:
            queue = self.waiting.get(owner)
            if queue:
                self.waiting[owner] = deque(sorted(queue, key=lambda s: s.id))
            self.checking.discard(owner)

    async def _settle(self, owner: str, table_id: str | None, sent: list[Sent]) -> None:
        assert self.room is not None
        if table_id is None:                 # invitations live in their process's memory
            if any(not s.heard for s in sent) or not self.alive(owner):
                for s in sent:
                    await self.room.answer(s.who, s.msg)      # here: refused in plain words
            else:
                self.waiting.setdefault(owner, deque()).extend(sent)
            return
        holder = await self._take(table_id)
        self.owners[table_id] = holder
        if holder == owner:                  # alive: wait on, or send again
            now = time.monotonic()
            for s in sent:
                if not s.heard or now - s.at > RESEND:
                    s.heard, s.at = True, now
                    fields = json.dumps(dict(s.msg.fields), separators=(",", ":"))
                    who = s.who
                    self._mail(owner, US.join(("C", str(s.id), who.name, "1" if who.bot else "",
                                               "1" if who.guest else "", s.msg.type, fields)), s)
            self.waiting.setdefault(owner, deque()).extend(sent)
            return
        self._unmail(owner, sent)            # not for the old owner any more
        if holder != self.me:                # another process took it: the requests go there
            for s in sent:
                self._pass(holder, table_id, s.who, s.msg)
            return
        table = self.room.tables.get(table_id)
        if table is None:
            row = self.store.table(table_id)
            table = self.room.play.load(row, time.time()) if row is not None else None
        log.info("table %s taken over from process %s (it stopped answering)", table_id, owner)
        if table is not None:
            await self._catch_up(table)
            for name in table.players:
                if name.lower() in self.room.conns:
                    self.room.send(name, "notice", table=table_id, what="moved", text=MOVED)
        done = self.store.done([f"{self.me}:{s.id}" for s in sent])
        for s, stored in zip(sent, done):
            if not (stored and s.msg.type == "move"):       # a move the old owner kept is not made twice
                await self.room.answer(s.who, s.msg)

    def _unmail(self, owner: str, sent: list[Sent]) -> None:
        """Take requests out of the mail not yet sent to their old owner."""
        heads = tuple(f"C{US}{s.id}{US}" for s in sent)
        if owner in self.mail:
            self.mail[owner] = [r for r in self.mail[owner] if not r.startswith(heads)]
            self.mail_sent[owner] = [s for s in self.mail_sent.get(owner, []) if s not in sent]

    async def _catch_up(self, table: Table) -> None:
        """Our players at a table taken over get what its old owner kept but never said:
        the stream after the last message passed on to them (as their own ``sync``)."""
        assert self.room is not None
        for name in table.players:
            conn = self.room.conns.get(name.lower())
            since = self.relayed.get((name.lower(), table.id))
            if conn is not None and since is not None:
                await self.room.answer(conn, Message("sync", {"table": table.id, "since": since}))

    # ---- what the other processes say -------------------------------------------------------------

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Our channel and the room's: subscribed again after any loss, with a backoff."""
        delay = BACKOFF[0]
        while True:
            pubsub = self.async_redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel(self.me), self.channel_all)
                if not ready.done():
                    ready.set_result(None)
                delay = BACKOFF[0]
                self.fine()
                async for got in pubsub.listen():
                    await self._heard(got["data"])
            except asyncio.CancelledError:
                raise
            except self.redis_errors as exc:
                self.trouble(exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])
            finally:
                try:
                    await pubsub.aclose()
                except Exception:
                    pass

    async def _heard(self, data: bytes) -> None:
        records = data.decode().split(RS)
        sender = records[0]
        for record in records[1:]:
            try:
                await self._record(sender, record)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a fault handling a message from process %s", sender)

    async def _record(self, sender: str, record: str) -> None:
        room = self.room
        assert room is not None
        op = record[0]
        if op == "D":
            _, name, text = record.split(US, 2)
            conn = room.conns.get(name.lower())
            if conn is not None:
                self._relay(conn, text)
                tail = _TAIL.search(text, len(text) - 80)
                if tail is not None:
                    self.relayed[(name.lower(), tail.group(1))] = int(tail.group(2))
        elif op == "C":
            # Each request on its own: one waiting for its table's write holds up no other
            # (those at one table keep their order: the table's lock is taken in turn).
            self._spawn(self._command(sender, record))
        elif op == "A":
            last = int(record[2:])
            self.last_ack[sender] = time.monotonic()
            queue = self.waiting.get(sender)
            while queue and queue[0].id <= last:
                queue.popleft()
        elif op in ("L", "B") and sender != self.me:
            name = record[2:]
            low = name.lower()
            if op == "B":
                self.whereabouts[low] = sender
            elif self.whereabouts.get(low) == sender:
                del self.whereabouts[low]
            (room.left if op == "L" else room.came_back)(name)
        elif op == "B":
            self.whereabouts.pop(record[2:].lower(), None)       # here now
        elif op == "X" and sender != self.me:                   # a process stopped on purpose
            self.lives[sender] = (False, time.monotonic())
            if self.waiting.get(sender):
                self._spawn(self._check(sender))

    def _relay(self, conn: Any, text: str) -> None:
        """A frame from another process for a player here: queued. A long stream (a
        sync's pages) can come faster than the player reads: what its queue has no room
        for waits here, in order, and is queued as room is made (``_feed``); a player
        whose wait grows past a queue more is let go as too slow, as ``Room.deliver``
        does. Never a frame silently lost."""
        assert self.room is not None
        backlog = self.backlogs.get(id(conn))
        if backlog is None:
            if conn.put(text):
                return
            backlog = self.backlogs[id(conn)] = deque()
            self._spawn(self._feed(conn, backlog))
        if len(backlog) >= SEND_QUEUE:
            log.warning("%s is too slow to read its messages: let go", conn.name)
            backlog.clear()
            self.room._drop(conn)
            return
        backlog.append(text)

    async def _feed(self, conn: Any, backlog: deque[str]) -> None:
        try:
            while backlog:
                if not await conn.room_for(min(len(backlog), BLOCK)):
                    return
                for _ in range(min(len(backlog), BLOCK)):
                    if not conn.put(backlog[0]):
                        break
                    backlog.popleft()
        finally:
            self.backlogs.pop(id(conn), None)
            backlog.clear()

    async def _command(self, sender: str, record: str) -> None:
        from port.room.redisstore import COMMAND

        assert self.room is not None
        _, ident, name, bot, guest, kind, fields = record.split(US, 6)
        number = int(ident)
        self.whereabouts[name.lower()] = sender
        seen = self.handled.setdefault(sender, OrderedDict())
        if number not in seen:
            seen[number] = None
            if len(seen) > 4096:
                seen.popitem(last=False)
            token = COMMAND.set(f"{sender}:{number}")
            try:
                await self.room.answer(Remote(self.room, name, bool(bot), bool(guest)), Message(kind, json.loads(fields)))
            finally:
                COMMAND.reset(token)
        self.acks[sender] = max(number, self.acks.get(sender, 0))
        self._wake()


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text.rstrip(".")


__all__ = ["Link", "RedisHub", "Sent"]
