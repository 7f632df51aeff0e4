"""What the room's processes share: who is in the room, who sits at which table, which
process applies each table, and the messages between players on different processes.

``LocalHub`` is the room in one process (the default, with SQLite): all of it is this
process's own memory. ``RedisHub`` (``--redis URL``) is several processes on one
Redis: presence and table owners live in Redis (``port.room.redisstore``), and each
process listens on its own channel (``room:proc:ID``) for the messages meant for its
players and the intentions meant for its tables, and on ``room:all`` for players
leaving and coming back. A table is applied by one process only: the one that holds
its owner key (set NX). Each process beats a heartbeat key (``room:alive:ID``, with
the lease as its expiry); when a process dies its heartbeat runs out, and the next
process asked about one of its tables takes it over, made again from the moves in Redis.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any

from port.protocol import Message

# The room (``port.room.server.Room``) and its tables are passed in, not imported: the
# server imports this module, and no two modules import each other.
Room = Any
Table = Any

log = logging.getLogger("cardroom")

CLAIM_TTL = 7 * 24 * 3600.0   # a table's owner key: the owner's heartbeat says whether it still holds it
TABLE_MESSAGES = ("move", "sync", "shown", "resign", "rematch", "chat", "mute", "watch", "unwatch")
INVITATION_MESSAGES = ("counter", "accept", "decline", "cancel")


class Hub:
    """The single-process answers; ``RedisHub`` overrides what is shared."""

    def __init__(self) -> None:
        self.room: Room | None = None
        self._seated: dict[str, set[str]] = {}

    def attach(self, room: Room) -> None:
        self.room = room

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def new_id(self, prefix: str) -> str:
        return prefix + secrets.token_hex(6)

    # who is here
    def _conn_entry(self, name: str) -> dict[str, Any] | None:
        assert self.room is not None
        conn = self.room.conns.get(name.lower())
        return None if conn is None or conn.name is None else self.room.lobby.entry(conn)

    def present(self, name: str) -> bool:
        return self.find(name) is not None

    def find(self, name: str) -> dict[str, Any] | None:
        return self._conn_entry(name)

    def everyone(self) -> list[dict[str, Any]]:
        assert self.room is not None
        return [self.room.lobby.entry(c) for c in self.room.conns.values() if c.name is not None]

    def here(self, name: str, entry: dict[str, Any]) -> None:
        pass

    def absent(self, name: str) -> None:
        pass

    def announce(self, kind: str, name: str) -> None:
        pass

    def forward(self, name: str, text: str) -> None:
        """A message for a player not connected here: in one process, nobody to tell
        (a player who comes back asks for what it missed: ``sync``)."""

    # who sits where
    def seat(self, name: str, table_id: str) -> None:
        self._seated.setdefault(name.lower(), set()).add(table_id)

    def unseat(self, name: str, table_id: str) -> None:
        ids = self._seated.get(name.lower())
        if ids is not None:
            ids.discard(table_id)
            if not ids:
                del self._seated[name.lower()]

    def seated(self, name: str) -> set[str]:
        return set(self._seated.get(name.lower(), ()))

    def playing(self, name: str) -> int:
        assert self.room is not None
        tables = self.room.tables
        return sum(1 for i in self.seated(name) if i not in tables or tables[i].finished is None)

    def other_tables(self, name: str, known: set[str]) -> list[dict[str, Any]]:
        return []

    # who applies which table
    def claim(self, table_id: str) -> bool:
        return True

    def release(self, table_id: str) -> None:
        pass

    async def route(self, who: Any, msg: Message) -> bool:
        """Pass the message to the process that holds its table or invitation; False:
        it is for this process."""
        return False

    def take_over(self, table_id: str) -> Table | None:
        return None


LocalHub = Hub


class Remote:
    """A player connected to another process, as the owner of its table sees it."""

    def __init__(self, room: Room, name: str, bot: bool, guest: bool) -> None:
        self.room, self.name, self.bot, self.guest = room, name, bot, guest

    def put(self, text: str) -> bool:
        self.room.deliver(self.name, text)
        return True


class RedisHub(Hub):
    """Several processes on one Redis (``port.room.redisstore.RedisStore`` is the store)."""

    def __init__(self, store: Any, url: str, table_ttl: float = 10.0, presence_ttl: float = 60.0) -> None:
        super().__init__()
        import redis

        self.store = store
        self.url = url
        self.me = "p" + secrets.token_hex(4)
        self.table_ttl = table_ttl
        self.presence_ttl = presence_ttl
        self.redis = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=10)
        # Pub/sub channels are the server's, not a database's: name them by the database.
        db = self.redis.connection_pool.connection_kwargs.get("db", 0)
        self.channel_all = f"room:{db}:all"
        self.listener: asyncio.Task[None] | None = None
        self.pubsub: Any = None
        # Where each player on another process is: learnt from its presence once, kept
        # by the "back" and "left" announcements (a GET a message was the hot path).
        self.whereabouts: dict[str, str] = {}
        self.outbox: list[tuple[str, str]] = []     # (channel, payload): one round trip a step
        self.lives: dict[str, tuple[bool, float]] = {}        # proc -> (alive, when asked)
        self.owners: dict[str, tuple[str | None, float]] = {}  # table -> (owner, when asked)

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self.async_redis = aioredis.Redis.from_url(self.url)
        self.pubsub = self.async_redis.pubsub()
        await self.pubsub.subscribe(self._channel(self.me), self.channel_all)
        self.heartbeat()
        self.listener = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
        if self.pubsub is not None:
            await self.pubsub.aclose()
            await self.async_redis.aclose()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{self.me}-{secrets.token_hex(5)}"

    def _channel(self, proc: str) -> str:
        return self.channel_all.replace(":all", f":proc:{proc}")

    # who is here: Redis's presence keys, one per player, refreshed while connected
    def find(self, name: str) -> dict[str, Any] | None:
        local = self._conn_entry(name)
        if local is not None:
            return local
        raw = self.redis.get(f"room:presence:{name.lower()}")
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
        if known is not None and now - known[1] < self.table_ttl / 4:
            return known[0]
        living = bool(self.redis.exists(f"room:alive:{proc}"))
        self.lives[proc] = (living, now)
        return living

    def heartbeat(self) -> None:
        self.redis.set(f"room:alive:{self.me}", "1", px=int(self.table_ttl * 1000))

    def here(self, name: str, entry: dict[str, Any]) -> None:
        self.store.set_presence(name.lower(), {**entry, "proc": self.me}, self.presence_ttl)

    def absent(self, name: str) -> None:
        self.store.drop_presence(name.lower())

    def announce(self, kind: str, name: str) -> None:
        self._post(self.channel_all, json.dumps({"op": kind, "name": name, "from": self.me}))

    def forward(self, name: str, text: str) -> None:
        proc = self.whereabouts.get(name.lower())
        if proc is None:
            entry = self.find(name)
            proc = entry.get("proc") if entry is not None else None
            if proc is None or proc == self.me:
                return
            self.whereabouts[name.lower()] = proc
        self._post(self._channel(proc), json.dumps({"op": "deliver", "to": name, "text": text}))

    def _post(self, channel: str, payload: str) -> None:
        """Publish at the end of this step of the event loop, with the step's others in
        one pipeline: a move's 3 to 6 messages cost one round trip to Redis, not one each."""
        if not self.outbox:
            try:
                asyncio.get_running_loop().call_soon(self._flush)
            except RuntimeError:             # no loop (a test calling in): at once
                self.outbox.append((channel, payload))
                self._flush()
                return
        self.outbox.append((channel, payload))

    def _flush(self) -> None:
        out, self.outbox = self.outbox, []
        if not out:
            return
        pipe = self.redis.pipeline(transaction=False)
        for channel, payload in out:
            pipe.publish(channel, payload)
        try:
            pipe.execute()
        except Exception:
            log.exception("the room could not publish %d messages to Redis", len(out))

    # who sits where: a set per player in Redis
    def seat(self, name: str, table_id: str) -> None:
        self.redis.sadd(f"room:seated:{name.lower()}", table_id)

    def unseat(self, name: str, table_id: str) -> None:
        self.redis.srem(f"room:seated:{name.lower()}", table_id)

    def seated(self, name: str) -> set[str]:
        return {m.decode() for m in self.redis.smembers(f"room:seated:{name.lower()}")}

    def other_tables(self, name: str, known: set[str]) -> list[dict[str, Any]]:
        out = []
        for table_id in sorted(self.seated(name) - known):
            row = self.store.table(table_id)
            if row is None:
                continue
            seat = [p.lower() for p in row.players].index(name.lower()) if name.lower() in \
                [p.lower() for p in row.players] else None
            rules = {k: v for k, v in row.rules.items() if k != "_room"}
            clock = row.rules.get("_room", {}).get("clock", 0)
            out.append({"table": table_id, "game": row.game, "players": list(row.players), "rules": rules,
                        "clock": clock, "over": False, "seat": seat})
        return out

    # who applies which table: an owner key with an expiry
    def claim(self, table_id: str) -> bool:
        """Own a table. The claim lasts as long as this process's heartbeat (renewing
        a key per table was 300 round trips a second at 1,000 tables): a claim whose
        process has stopped beating is taken over."""
        if self.store.claim_table(table_id, self.me, CLAIM_TTL):
            return True
        owner = self.store.table_owner(table_id)
        if owner is not None and owner != self.me and not self.alive(owner):
            self.redis.delete(f"room:owner:{table_id}")
            return self.store.claim_table(table_id, self.me, CLAIM_TTL)
        return owner == self.me

    def release(self, table_id: str) -> None:
        self.owners.pop(table_id, None)
        if self.store.table_owner(table_id) == self.me:
            self.redis.delete(f"room:owner:{table_id}")

    def owner(self, table_id: str) -> str | None:
        """Who applies a table, asked of Redis at most a few times a lease."""
        now = time.monotonic()
        known = self.owners.get(table_id)
        if known is not None and now - known[1] < self.table_ttl / 4:
            return known[0]
        got = self.store.table_owner(table_id)
        self.owners[table_id] = (got, now)
        return got

    def refresh_presence(self) -> None:
        assert self.room is not None
        pipe = self.redis.pipeline(transaction=False)
        for conn in list(self.room.conns.values()):
            if conn.name is not None:
                entry = {**self.room.lobby.entry(conn), "proc": self.me}
                pipe.set(f"room:presence:{conn.name.lower()}", json.dumps(entry, separators=(",", ":")),
                         px=int(self.presence_ttl * 1000))
        pipe.execute()

    async def route(self, who: Any, msg: Message) -> bool:
        assert self.room is not None
        if msg.type in TABLE_MESSAGES:
            table_id = msg["table"]
            if table_id in self.room.tables:
                return False
            owner = self.owner(table_id)
        elif msg.type in INVITATION_MESSAGES:
            if msg["id"] in self.room.invitations:
                return False
            owner = msg["id"][1:].split("-")[0]
        else:
            return False
        if owner is not None and owner != self.me and not self.alive(owner):
            # Its process is gone: the table is anybody's, made again from Redis here.
            if msg.type in TABLE_MESSAGES and self.store.table_owner(msg["table"]) == owner:
                self.redis.delete(f"room:owner:{msg['table']}")
                self.owners.pop(msg["table"], None)
            return False
        if owner is None or owner == self.me:
            return False
        self._post(self._channel(owner), json.dumps(
            {"op": "command", "name": who.name, "bot": who.bot, "guest": who.guest,
             "type": msg.type, "fields": dict(msg.fields)}))
        return True

    def take_over(self, table_id: str) -> Table | None:
        """A table whose process is gone (its owner key ran out): made again here."""
        assert self.room is not None
        row = self.store.table(table_id)
        if row is None or not self.claim(table_id):
            return None
        return self.room.play.load(row, time.time())

    async def _listen(self) -> None:
        assert self.room is not None
        last = beat = time.monotonic()
        while True:
            try:
                got = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                    timeout=min(1.0, self.table_ttl / 4))
                now = time.monotonic()
                if now - beat > self.table_ttl / 4:
                    beat = now
                    self.heartbeat()
                if now - last > self.presence_ttl / 3:
                    last = now
                    self.refresh_presence()
                if got is None:
                    continue
                await self._handle(json.loads(got["data"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a fault reading the room's Redis channel")
                await asyncio.sleep(0.5)

    async def _handle(self, data: dict[str, Any]) -> None:
        room = self.room
        assert room is not None
        op = data.get("op")
        if op == "deliver":
            conn = room.conns.get(str(data["to"]).lower())
            if conn is not None:
                conn.put(data["text"])
        elif op == "command":
            who = Remote(room, data["name"], bool(data["bot"]), bool(data["guest"]))
            await room.answer(who, Message(data["type"], data["fields"]))
        elif op in ("left", "back") and data.get("from") != self.me:
            name = str(data["name"]).lower()
            if op == "back":
                self.whereabouts[name] = str(data["from"])
            elif self.whereabouts.get(name) == data["from"]:
                del self.whereabouts[name]
            (room.left if op == "left" else room.came_back)(data["name"])
        elif op == "back":
            self.whereabouts.pop(str(data["name"]).lower(), None)       # here now


__all__ = ["Hub", "LocalHub", "RedisHub", "Remote"]
