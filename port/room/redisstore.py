"""The room's store on one Redis server, for several room processes (on one machine or
several): they share the accounts, ratings, finished games and running tables, and
Redis says which process owns each table (a key set NX with an expiry) and who is in
the room. The same ``Store`` as ``port.room.store.SqliteStore``, call for call.

Every key starts with ``room:`` (docs/room-store.md lists them). Names are keyed in
lower case, so they are unique case-insensitively, as in SQLite's ``COLLATE NOCASE``.
The writes that must be atomic (a new account, a move at its index, a finished game)
are Lua scripts: Redis runs each whole, with nothing between its commands.

Fencing: a room process that owns tables (``RedisStore.me``, set by the hub) writes a
table's moves, its end or its removal only while the table's owner key names it; the
check and the write are one script, so a process whose table was taken over (it was
cut off from Redis, or stopped answering) can never write that table again: its write
is refused (``NotOwner``) and the table dropped from its memory (``lost``).
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from port.room.store import (GAMES, Account, FinishedGame, Rating, RatedGame, Standing, StoreError, TableRow,
                             check_game, check_table, history_rows, to_json, wrong_index)
from port.room.store import provisional as is_provisional

P = "room:"
BREAK = 1.0        # seconds a lost connection is not tried again (each call then fails at once)
DONE_TTL = 300_000  # ms a forwarded move's "done" mark is kept (a takeover looks for it)

# The forwarded command being handled (``"PROC:ID"``), set by the hub around it: its move
# is marked done in the same script that stores it, so a process that takes the table
# over knows not to apply it twice.
COMMAND: ContextVar[str | None] = ContextVar("room_command", default=None)


class NotOwner(StoreError):
    """This process no longer owns the table (another took it over): nothing written."""

# KEYS[1] the account hash; ARGV: name secret salt bot guest created. 1: made, 0: taken.
_CREATE_ACCOUNT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'secret', ARGV[2], 'salt', ARGV[3],
           'bot', ARGV[4], 'guest', ARGV[5], 'created', ARGV[6])
return 1
"""

# KEYS: the table hash, its moves list, the set of running tables, its owner key; ARGV:
# table_id game player0 player1 rules seed created owner owner-ttl-ms, then the moves so
# far. 1: opened (owned by ARGV[8] unless it is ''), 0: already open.
_OPEN_TABLE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'game', ARGV[2], 'player0', ARGV[3], 'player1', ARGV[4],
           'rules', ARGV[5], 'seed', ARGV[6], 'created', ARGV[7])
redis.call('DEL', KEYS[2])
for i = 10, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('SADD', KEYS[3], ARGV[1])
if ARGV[8] ~= '' then redis.call('SET', KEYS[4], ARGV[8], 'PX', ARGV[9]) end
return 1
"""

# The fence, at the head of every script that writes a running table: KEYS[1] is its
# owner key, ARGV[1] this process ('' : no fencing, a store used on its own). The
# owner key absent (run out after CLAIM_TTL): the writer takes it again.
_FENCE = """
if ARGV[1] ~= '' then
  local owner = redis.call('GET', KEYS[1])
  if owner == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  elseif owner ~= ARGV[1] then return -2 end
end
"""

# KEYS: the owner key, the table hash, its moves list, then (a forwarded move) its done
# mark; ARGV: owner, owner-ttl-ms, index, move. -2: not the owner; -1: no such table;
# otherwise the list's length before (== index: the move was added).
_ADD_MOVE = _FENCE + """
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
local have = redis.call('LLEN', KEYS[3])
if have ~= tonumber(ARGV[3]) then return have end
redis.call('RPUSH', KEYS[3], ARGV[4])
if KEYS[4] then redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[5]) end
return have
"""

# KEYS: the owner key, the table hash, its moves list, the set of running tables;
# ARGV: owner, owner-ttl-ms, table_id. -2: not the owner; 1: dropped.
_DROP_TABLE = _FENCE + """
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[3])
return 1
"""

# Take a table (KEYS[1] its owner key) for ARGV[1] (ttl ARGV[2] ms) when it has no owner,
# is ARGV[1]'s already, or its owner is gone: the owner's heartbeat (ARGV[3] .. owner,
# whose value is its lease in ms) has run out, or nobody listens on the owner's channel
# (ARGV[4] .. owner: its connection to Redis is closed) and its last beat is older than
# ARGV[5] of its lease (a live process beats and listens again within that). Returns
# the owner after the call.
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner ~= false and owner ~= ARGV[1] then
  local alive = ARGV[3] .. owner
  local left = redis.call('PTTL', alive)
  if left >= 0 then
    local listening = redis.call('PUBSUB', 'NUMSUB', ARGV[4] .. owner)[2]
    local lease = tonumber(redis.call('GET', alive) or '0') or 0
    if listening > 0 or lease - left <= lease * tonumber(ARGV[5]) then return owner end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
"""

# KEYS: counter, tables set, table hash, moves list, then per player the games-of zset,
# then per rated player its rating hash, history zset, and the game's two leaderboards
# (established, provisional), then the owner key. ARGV: prefix, game, p0, p1, record,
# result, finished, table_id, the number of rated players, then per rated player: rating
# rd vol games, the name as written, its result field (wins, draws, losses; "" with no
# history), whether provisional ("1"/"0"), and its history entry (JSON; "" for none);
# then owner, owner-ttl-ms. -2: not the owner.
_FINISH_GAME = """
local rated = tonumber(ARGV[9])
local owner_key, me = KEYS[#KEYS], ARGV[10 + rated * 8]
if me ~= '' then
  local owner = redis.call('GET', owner_key)
  if owner ~= false and owner ~= me then return -2 end
end
local n = redis.call('INCR', KEYS[1])
redis.call('HSET', ARGV[1] .. 'game:' .. n, 'game', ARGV[2], 'player0', ARGV[3], 'player1', ARGV[4],
           'record', ARGV[5], 'result', ARGV[6], 'finished', ARGV[7])
redis.call('ZADD', KEYS[5], n, n)
redis.call('ZADD', KEYS[6], n, n)
for i = 1, rated do
  local a = 9 + (i - 1) * 8
  local k = 6 + (i - 1) * 4
  redis.call('HSET', KEYS[k + 1], 'rating', ARGV[a + 1], 'rd', ARGV[a + 2], 'vol', ARGV[a + 3],
             'games', ARGV[a + 4], 'name', ARGV[a + 5])
  if ARGV[a + 6] ~= '' then redis.call('HINCRBY', KEYS[k + 1], ARGV[a + 6], 1) end
  if ARGV[a + 8] ~= '' then redis.call('ZADD', KEYS[k + 2], n, n .. ':' .. ARGV[a + 8]) end
  local member = string.lower(ARGV[a + 5])
  local top, other = KEYS[k + 3], KEYS[k + 4]
  if ARGV[a + 7] == '1' then top, other = KEYS[k + 4], KEYS[k + 3] end
  redis.call('ZADD', top, -tonumber(ARGV[a + 1]), member)
  redis.call('ZREM', other, member)
end
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('SREM', KEYS[2], ARGV[8])
return n
"""

# KEYS[1] the account hash, KEYS[2] the set of its tokens; ARGV: prefix, then the new
# secret and salt (none: the account is deleted). Every token of the account goes.
# 0: no such account.
_ACCOUNT_TOKENS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for _, t in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('DEL', ARGV[1] .. 'token:' .. t) end
redis.call('DEL', KEYS[2])
if #ARGV == 3 then
  redis.call('HSET', KEYS[1], 'secret', ARGV[2], 'salt', ARGV[3])
else
  redis.call('DEL', KEYS[1])
end
return 1
"""

# KEYS[1] the owner key; ARGV: owner, ttl in ms. Only the owner extends its claim.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""


def _moves(table_id: str) -> str:
    # Not "room:table:ID:moves": a table called "x:moves" would be table x's moves.
    return f"{P}moves:{table_id}"


def _key(name: str) -> str:
    return name.lower()


def _tokens(name: str) -> str:
    return f"{P}tokens:{_key(name)}"


def _ms(ttl: float) -> int:
    return max(1, math.ceil(ttl * 1000))


def _text(value: bytes | None) -> str:
    return (value or b"").decode()


CLAIM_TTL = 7 * 24 * 3600.0   # a table's owner key (the owner's heartbeat says whether it still holds it)


def client(url: str) -> redis.Redis:
    """A synchronous client for the event loop: a command is tried again once, at once
    (a connection Redis closed while it was away is made again), never with redis-py's
    default backoff (seconds with every table stopped); then it fails and the room says
    so (the hub tries Redis again, with a backoff, on its own)."""
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5, retry=Retry(NoBackoff(), 1))


class RedisStore:
    """The store on the Redis server at ``url`` (``redis://host:port/db``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.me = ""                                        # the owning process, for the fence
        self.lost: Callable[[str], None] = lambda table_id: None   # a table taken over elsewhere
        self.trouble: Callable[[BaseException], None] = lambda exc: None  # the connection failed
        self._broken_until = 0.0
        self.opened = ""                                    # the last table opened (owned) here
        try:
            self._r = client(url)
            self._r.ping()
        except (redis.RedisError, ValueError, OSError):
            raise StoreError(f"The room cannot reach Redis at {url}.") from None
        self._create = self._r.register_script(_CREATE_ACCOUNT)
        self._open = self._r.register_script(_OPEN_TABLE)
        self._add_move = self._r.register_script(_ADD_MOVE)
        self._finish = self._r.register_script(_FINISH_GAME)
        self._renew = self._r.register_script(_RENEW)
        self._account_tokens = self._r.register_script(_ACCOUNT_TOKENS)
        self._drop = self._r.register_script(_DROP_TABLE)
        self._claim = self._r.register_script(_CLAIM)

    @contextmanager
    def _redis(self) -> Iterator[redis.Redis]:
        # A connection just lost is not tried again for BREAK seconds: every table's
        # call would otherwise wait for its own refused connect.
        if time.monotonic() < self._broken_until:
            raise StoreError(f"The room lost its connection to Redis at {self.url}.")
        try:
            yield self._r
        except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
            self._broken_until = time.monotonic() + BREAK
            self.trouble(exc)
            raise StoreError(f"The room lost its connection to Redis at {self.url}.") from None
        except redis.RedisError as e:
            raise StoreError(f"Redis at {self.url} refused a command ({str(e).splitlines()[0]}).") from None

    def _fence(self, table_id: str, got: int) -> None:
        if got == -2:
            self.lost(table_id)
            raise NotOwner(f"The table {table_id} is held by another process of the room now.")

    # -- accounts --------------------------------------------------------------------

    def create_account(self, name: str, secret: bytes, salt: bytes, bot: bool, guest: bool = False) -> bool:
        with self._redis():
            made = self._create(keys=[f"{P}account:{_key(name)}"],
                                args=[name, bytes(secret), bytes(salt), int(bot), int(guest), repr(time.time())])
        return bool(made)

    def account(self, name: str) -> Account | None:
        with self._redis() as r:
            return _account(r.hgetall(f"{P}account:{_key(name)}"))

    def set_token(self, name: str, token_hash: bytes, expires: float) -> None:
        key = f"{P}token:{bytes(token_hash).hex()}"
        with self._redis() as r:
            if not r.exists(f"{P}account:{_key(name)}"):
                raise StoreError(f"There is no account called {name!r}.")
            pipe = r.pipeline(transaction=True)
            pipe.hset(key, mapping={"name": name, "expires": repr(expires)})
            pipe.expireat(key, math.ceil(expires))     # Redis drops the token when it is over
            # The account's tokens, so a new password revokes them all (a token gone by
            # its expiry leaves its hash here until the set's own expiry, the latest's).
            pipe.sadd(_tokens(name), bytes(token_hash).hex())
            pipe.expireat(_tokens(name), math.ceil(expires))
            pipe.execute()

    def account_by_token(self, token_hash: bytes, now: float) -> Account | None:
        with self._redis() as r:
            got = r.hmget(f"{P}token:{bytes(token_hash).hex()}", "name", "expires")
            if got[0] is None or float(got[1]) <= now:
                return None
            return _account(r.hgetall(f"{P}account:{_key(_text(got[0]))}"))

    def revoke_token(self, token_hash: bytes) -> None:
        key = f"{P}token:{bytes(token_hash).hex()}"
        with self._redis() as r:
            name = r.hget(key, "name")
            pipe = r.pipeline(transaction=True)
            pipe.delete(key)
            if name is not None:
                pipe.srem(_tokens(_text(name)), bytes(token_hash).hex())
            pipe.execute()

    def set_password(self, name: str, secret: bytes, salt: bytes) -> None:
        with self._redis():
            done = self._account_tokens(keys=[f"{P}account:{_key(name)}", _tokens(name)],
                                        args=[P, bytes(secret), bytes(salt)])
        if not done:
            raise StoreError(f"There is no account called {name!r}.")

    def drop_account(self, name: str) -> None:
        with self._redis() as r:
            self._account_tokens(keys=[f"{P}account:{_key(name)}", _tokens(name)], args=[P])
            r.delete(*(f"{P}rating:{g}:{_key(name)}" for g in GAMES))
            self._drop_blocks(r, name)

    def guests(self) -> list[str]:
        # Only guests have names like Guest1234 (port.room.accounts), so the scan is of them.
        with self._redis() as r:
            keys = list(r.scan_iter(match=f"{P}account:guest*", count=500))
            pipe = r.pipeline(transaction=False)
            for k in keys:
                pipe.hmget(k, "name", "guest")
            rows = pipe.execute()
        return sorted(_text(n) for n, g in rows if n is not None and g == b"1")

    # -- ratings and finished games --------------------------------------------------

    def rating(self, name: str, game: str) -> Rating:
        return self.ratings([name], game)[name]

    def ratings(self, names: Sequence[str], game: str) -> dict[str, Rating]:
        check_game(game)
        with self._redis() as r:
            pipe = r.pipeline(transaction=False)
            for name in names:
                pipe.hmget(f"{P}rating:{game}:{_key(name)}", "rating", "rd", "vol", "games")
            rows = pipe.execute()
        return {name: _rating(row) for name, row in zip(names, rows)}

    def finish_game(self, table_id: str, game: str, players: tuple[str, str], record: str,
                    result: dict[str, Any], ratings: dict[str, Rating] | None,
                    before: dict[str, Rating] | None = None) -> int:
        check_game(game)
        rated = list((ratings or {}).items())
        finished = time.time()
        history = {name: (other, score, b, a) for name, other, score, b, a in
                   history_rows(players, result, ratings, before)}
        keys = [f"{P}games:next", f"{P}tables", f"{P}table:{table_id}", f"{P}moves:{table_id}",
                f"{P}games:of:{_key(players[0])}", f"{P}games:of:{_key(players[1])}"]
        args: list[Any] = [P, game, players[0], players[1], record, to_json(result), repr(finished),
                           table_id, len(rated)]
        for name, r in rated:
            keys += [f"{P}rating:{game}:{_key(name)}", f"{P}history:{game}:{_key(name)}",
                     f"{P}top:{game}", f"{P}top:{game}:provisional"]
            point = history.get(name)
            field = "" if point is None else {1.0: "wins", 0.5: "draws"}.get(point[1], "losses")
            entry = "" if point is None else to_json(
                {"name": name, "opponent": point[0], "score": point[1], "before": _fields(point[2]),
                 "after": _fields(point[3]), "finished": finished})
            args += [repr(float(r.rating)), repr(float(r.rd)), repr(float(r.vol)), int(r.games), name, field,
                     "1" if is_provisional(r) else "0", entry]
        keys.append(f"{P}owner:{table_id}")
        args += [self.me, _ms(CLAIM_TTL)]
        with self._redis():
            number = int(self._finish(keys=keys, args=args))
        self._fence(table_id, number)
        return number

    def game(self, number: int) -> FinishedGame | None:
        with self._redis() as r:
            return _finished(number, r.hgetall(f"{P}game:{int(number)}"))

    def games_of(self, name: str, limit: int = 50, records: bool = True) -> list[FinishedGame]:
        if limit <= 0:
            return []
        wanted = (b"game", b"player0", b"player1", b"result", b"finished") + ((b"record",) if records else ())
        with self._redis() as r:
            numbers = [int(n) for n in r.zrevrange(f"{P}games:of:{_key(name)}", 0, limit - 1)]
            pipe = r.pipeline(transaction=False)
            for n in numbers:
                pipe.hmget(f"{P}game:{n}", *wanted)
            rows = [dict(zip(wanted, got)) if got[0] is not None else {} for got in pipe.execute()]
        return [g for n, row in zip(numbers, rows) if (g := _finished(n, row)) is not None]

    # -- looking back ----------------------------------------------------------------

    def rating_history(self, name: str, game: str, limit: int = 50) -> list[RatedGame]:
        check_game(game)
        if limit <= 0:
            return []
        with self._redis() as r:
            got = r.zrevrange(f"{P}history:{game}:{_key(name)}", 0, limit - 1)
        out = []
        for member in got:
            number, _, text = _text(member).partition(":")
            e = json.loads(text)
            out.append(RatedGame(int(number), game, e["name"], e["opponent"], float(e["score"]),
                                 Rating(*e["before"]), Rating(*e["after"]), float(e["finished"])))
        return out

    def leaderboard(self, game: str, provisional: bool = False, start: int = 0,
                    limit: int = 20) -> list[Standing]:
        check_game(game)
        if limit <= 0:
            return []
        key = f"{P}top:{game}:provisional" if provisional else f"{P}top:{game}"
        with self._redis() as r:
            # Scores are minus the rating, so the order is the highest first, a tie by name.
            names = [_text(n) for n in r.zrange(key, max(0, start), max(0, start) + limit - 1)]
            return self._standings(r, names, game)

    def standing(self, name: str, game: str) -> Standing | None:
        check_game(game)
        with self._redis() as r:
            got = self._standings(r, [_key(name)], game)
        return got[0] if got else None

    def _standings(self, r: redis.Redis, keys: list[str], game: str) -> list[Standing]:
        fields = ("rating", "rd", "vol", "games", "wins", "draws", "losses")
        pipe = r.pipeline(transaction=False)
        for k in keys:
            pipe.hmget(f"{P}account:{k}", "name", "bot")
            pipe.hmget(f"{P}rating:{game}:{k}", *fields)
        got = pipe.execute()
        out = []
        for account, row in zip(got[0::2], got[1::2]):
            if account[0] is None:
                continue
            counts = [int(v or 0) for v in row[4:]]
            out.append(Standing(_text(account[0]), account[1] == b"1", _rating(row[:4]), *counts))
        return out

    def running_list(self) -> list[TableRow]:
        with self._redis() as r:
            ids = sorted(_text(t) for t in r.smembers(f"{P}tables"))
            pipe = r.pipeline(transaction=False)
            for i in ids:
                pipe.hgetall(f"{P}table:{i}")
            rows = pipe.execute()
        tables = [t for i, row in zip(ids, rows) if (t := _table(i, row, [])) is not None]
        return sorted(tables, key=lambda t: (-t.created, t.table_id))

    # -- blocks: room:blocks:WHO (a hash: whom in lower case -> as written), and
    # room:blockedby:WHOM (the set of who), so an account that goes takes its blocks along

    def set_block(self, who: str, whom: str, on: bool) -> None:
        with self._redis() as r:
            if not on:
                pipe = r.pipeline(transaction=True)
                pipe.hdel(f"{P}blocks:{_key(who)}", _key(whom))
                pipe.srem(f"{P}blockedby:{_key(whom)}", _key(who))
                pipe.execute()
                return
            names = r.pipeline(transaction=False).hget(f"{P}account:{_key(who)}", "name").hget(
                f"{P}account:{_key(whom)}", "name").execute()
            if None in names:
                raise StoreError(f"There is no account called {who if names[0] is None else whom!r}.")
            pipe = r.pipeline(transaction=True)
            pipe.hset(f"{P}blocks:{_key(who)}", _key(whom), names[1])
            pipe.sadd(f"{P}blockedby:{_key(whom)}", _key(who))
            pipe.execute()

    def blocks(self, who: str) -> list[str]:
        with self._redis() as r:
            return sorted((_text(v) for v in r.hvals(f"{P}blocks:{_key(who)}")), key=str.lower)

    def blocked(self, a: str, b: str) -> bool:
        with self._redis() as r:
            got = r.pipeline(transaction=False).hexists(f"{P}blocks:{_key(a)}", _key(b)).hexists(
                f"{P}blocks:{_key(b)}", _key(a)).execute()
        return any(got)

    def _drop_blocks(self, r: redis.Redis, name: str) -> None:
        """An account gone: its blocks, and everyone's blocks of it."""
        mine = [_text(k) for k in r.hkeys(f"{P}blocks:{_key(name)}")]
        of_me = [_text(k) for k in r.smembers(f"{P}blockedby:{_key(name)}")]
        pipe = r.pipeline(transaction=True)
        for whom in mine:
            pipe.srem(f"{P}blockedby:{whom}", _key(name))
        for who in of_me:
            pipe.hdel(f"{P}blocks:{who}", _key(name))
        pipe.delete(f"{P}blocks:{_key(name)}", f"{P}blockedby:{_key(name)}")
        pipe.execute()

    # -- running tables --------------------------------------------------------------

    def open_table(self, table: TableRow) -> None:
        check_table(table)
        key = f"{P}table:{table.table_id}"
        args = [table.table_id, table.game, table.players[0], table.players[1], to_json(table.rules),
                str(int(table.seed)), repr(table.created), self.me, _ms(CLAIM_TTL), *(to_json(m) for m in table.moves)]
        with self._redis():
            made = self._open(keys=[key, _moves(table.table_id), f"{P}tables", f"{P}owner:{table.table_id}"],
                              args=args)
        if not made:
            raise StoreError(f"The table {table.table_id} is already open.")
        self.opened = table.table_id

    def add_move(self, table_id: str, index: int, move: dict[str, Any]) -> None:
        keys, args = self.move_command(table_id, index, move)
        with self._redis():
            have = int(self._add_move(keys=keys, args=args))
        self.moved(table_id, index, have)

    def move_command(self, table_id: str, index: int, move: dict[str, Any]) -> tuple[list[str], list[Any]]:
        """The keys and arguments of ``_ADD_MOVE`` for a move (the hub sends it its own way)."""
        keys = [f"{P}owner:{table_id}", f"{P}table:{table_id}", _moves(table_id)]
        command = COMMAND.get()
        if command is not None:
            keys.append(f"{P}done:{command}")
        return keys, [self.me, _ms(CLAIM_TTL), int(index), to_json(move), DONE_TTL]

    def moved(self, table_id: str, index: int, have: int) -> None:
        """What ``_ADD_MOVE`` answered, as the store says it: nothing, or a StoreError."""
        self._fence(table_id, have)
        if have < 0:
            raise StoreError(f"There is no running table {table_id}.")
        if have != index:
            raise wrong_index(table_id, have, index)

    def table(self, table_id: str) -> TableRow | None:
        key = f"{P}table:{table_id}"
        with self._redis() as r:
            pipe = r.pipeline(transaction=True)     # the table and its moves as of one instant
            pipe.hgetall(key)
            pipe.lrange(_moves(table_id), 0, -1)
            row, moves = pipe.execute()
        return _table(table_id, row, moves)

    def running_tables(self) -> list[TableRow]:
        with self._redis() as r:
            ids = sorted(_text(t) for t in r.smembers(f"{P}tables"))
        tables = [t for i in ids if (t := self.table(i)) is not None]
        return sorted(tables, key=lambda t: (t.created, t.table_id))

    def drop_table(self, table_id: str) -> None:
        keys = [f"{P}owner:{table_id}", f"{P}table:{table_id}", _moves(table_id), f"{P}tables"]
        with self._redis():
            got = int(self._drop(keys=keys, args=[self.me, _ms(CLAIM_TTL), table_id]))
        self._fence(table_id, got)

    # -- which process owns a table; who is in the room -----------------------------

    def claim_table(self, table_id: str, owner: str, ttl: float) -> bool:
        with self._redis() as r:
            return bool(r.set(f"{P}owner:{table_id}", owner, nx=True, px=_ms(ttl)))

    def renew_table(self, table_id: str, owner: str, ttl: float) -> bool:
        with self._redis():
            return bool(self._renew(keys=[f"{P}owner:{table_id}"], args=[owner, _ms(ttl)]))

    def take_table(self, table_id: str, alive: str, channels: str, stale: float) -> str:
        """Own the table if it has no owner or its owner is gone (``_CLAIM``): the owner
        after the call (``self.me``: taken)."""
        with self._redis():
            got = self._claim(keys=[f"{P}owner:{table_id}"], args=[self.me, _ms(CLAIM_TTL), alive, channels, stale])
        return _text(got)

    def done(self, commands: Sequence[str]) -> list[bool]:
        """Whether each forwarded command (``"PROC:ID"``) stored its move."""
        if not commands:
            return []
        with self._redis() as r:
            return [v is not None for v in r.mget([f"{P}done:{c}" for c in commands])]

    def table_owner(self, table_id: str) -> str | None:
        with self._redis() as r:
            got = r.get(f"{P}owner:{table_id}")
        return None if got is None else _text(got)

    def set_presence(self, name: str, info: dict[str, Any], ttl: float) -> None:
        with self._redis() as r:
            r.set(f"{P}presence:{name}", to_json(info), px=_ms(ttl))

    def presence(self) -> dict[str, dict[str, Any]]:
        prefix = f"{P}presence:"
        with self._redis() as r:
            keys = sorted(r.scan_iter(match=f"{prefix}*", count=500))
            values = r.mget(keys) if keys else []
        # A key may expire between the scan and the read: it is simply gone.
        return {_text(k)[len(prefix):]: json.loads(v) for k, v in zip(keys, values) if v is not None}

    def drop_presence(self, name: str) -> None:
        with self._redis() as r:
            r.delete(f"{P}presence:{name}")

    def close(self) -> None:
        self._r.close()


def _account(row: dict[bytes, bytes]) -> Account | None:
    if not row:
        return None
    return Account(_text(row[b"name"]), row[b"secret"], row[b"salt"], row[b"bot"] == b"1",
                   row[b"guest"] == b"1", float(row[b"created"]))


def _fields(r: Rating) -> list[Any]:
    return [r.rating, r.rd, r.vol, r.games]


def _rating(row: list[bytes | None]) -> Rating:
    if row[0] is None:
        return Rating()
    return Rating(float(row[0]), float(row[1] or 0), float(row[2] or 0), int(row[3] or 0))


def _finished(number: int, row: dict[bytes, bytes]) -> FinishedGame | None:
    if not row:
        return None
    return FinishedGame(int(number), _text(row[b"game"]), (_text(row[b"player0"]), _text(row[b"player1"])),
                        _text(row.get(b"record")), json.loads(row[b"result"]), float(row[b"finished"]))


def _table(table_id: str, row: dict[bytes, bytes], moves: list[bytes]) -> TableRow | None:
    if not row or b"game" not in row:
        return None
    return TableRow(table_id, _text(row[b"game"]), (_text(row[b"player0"]), _text(row[b"player1"])),
                    json.loads(row[b"rules"]), int(row[b"seed"]), float(row[b"created"]),
                    tuple(json.loads(m) for m in moves))
