"""PLAY NOW: the seek pool, pairing, and the fallback to a house bot (issue 38, section 1).

A ``seek`` says: a game, the rules and the clock the player wants (each may be left
out: then any), and the house bot to fall back on. The room pairs it at once with the
oldest seek in the pool that fits it; otherwise it waits in the pool, and after
``--seek-wait`` seconds (15) the house bot of its level sits down with the player.

**Fits** (docs/room.md, "PLAY NOW"): the same game; every rule both seeks name has the
same value in both (a rule one of them leaves out takes the other's value, a rule
neither names the game's default), and the rules together are ones the room takes;
the same clock, or one of them leaves it out (then the other's; neither: the room's
default); two different players, neither of whom has blocked the other. The table is
dealt with the rules together; who sits in seat 0 is drawn at random.

One seek a player: a new one replaces the last; ``cancel_seek`` withdraws it; leaving
the room ends it. With no house bots (``--house-bots none``) a seek waits for a person
for ``SEEK_LONGEST`` seconds at most. In Redis mode the pool is shared (the hash
``room:seeks``): a seek is paired with one on any process; taking a seek out of the
pool is one HDEL, so of two processes pairing the same seek at once only one has it.
The fallback runs on the seeker's own process.
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from port.protocol import Message, dump
from port.room.errors import Refused
from port.room.games import DRIVERS, RulesError
from port.room.limits import SEEK_LONGEST

log = logging.getLogger("cardroom")

# The room is passed in, not imported: the server imports this module.
Room = Any


@dataclass
class Seek:
    name: str
    game: str
    rules: dict[str, Any]             # the rules the player named (checked); the others: any
    clock: int | None                 # None: any
    level: str | None                 # the house bot to fall back on (None: no house bots)
    since: float = field(default_factory=time.time)
    proc: str = ""                    # the process that holds the seeker's connection (Redis mode)


def _same(a: Any, b: Any) -> bool:
    """Two values of a rule: a list (GinRummy's doublers) in any order."""
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))
    return bool(a == b)


def fits(a: Seek, b: Seek, clock_default: int) -> tuple[dict[str, Any], int] | None:
    """The table's (rules, clock) when the two seeks fit each other, else None."""
    if a.game != b.game or a.name.lower() == b.name.lower():
        return None
    if any(not _same(a.rules[k], b.rules[k]) for k in a.rules.keys() & b.rules.keys()):
        return None
    if a.clock is not None and b.clock is not None and a.clock != b.clock:
        return None
    try:
        rules = DRIVERS[a.game].check_rules({**b.rules, **a.rules})
    except RulesError:
        return None                  # each alone is valid, together they are not
    clock = a.clock if a.clock is not None else b.clock if b.clock is not None else clock_default
    return rules, clock


class LocalPool:
    """The seeks of a room of one process, oldest first."""

    def __init__(self) -> None:
        self._seeks: dict[str, Seek] = {}

    def add(self, seek: Seek) -> None:
        self._seeks.pop(seek.name.lower(), None)
        self._seeks[seek.name.lower()] = seek

    def take(self, name: str) -> Seek | None:
        """The seek of ``name`` out of the pool (None: it is not there any more)."""
        return self._seeks.pop(name.lower(), None)

    def seeks(self, game: str) -> list[Seek]:
        return [s for s in self._seeks.values() if s.game == game]


class RedisPool:
    """The seeks of all the processes on one Redis: one hash, a seek per player."""

    KEY = "room:seeks"

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.redis = hub.redis

    def add(self, seek: Seek) -> None:
        self.redis.hset(self.KEY, seek.name.lower(), json.dumps(asdict(seek), separators=(",", ":")))

    def take(self, name: str) -> Seek | None:
        raw = self.redis.hget(self.KEY, name.lower())
        if raw is None or not self.redis.hdel(self.KEY, name.lower()):
            return None              # another process took it first
        return Seek(**json.loads(raw))

    def seeks(self, game: str) -> list[Seek]:
        out = []
        for key, raw in self.redis.hgetall(self.KEY).items():
            seek = Seek(**json.loads(raw))
            if not self.hub.alive(seek.proc):
                self.redis.hdel(self.KEY, key)      # its process is gone, and its player with it
            elif seek.game == game:
                out.append(seek)
        return sorted(out, key=lambda s: s.since)


class Seeks:
    """The room's PLAY NOW part: ``seek``, ``cancel_seek``, and the fallbacks' clock."""

    def __init__(self, room: Room, wait: float) -> None:
        self.room = room
        self.wait = wait
        self.pool: LocalPool | RedisPool = LocalPool()
        self.mine: dict[str, tuple[float, Seek]] = {}     # this process's seekers: when they fall back

    def start(self) -> None:
        if getattr(self.room.hub, "redis", None) is not None:
            self.pool = RedisPool(self.room.hub)

    async def on_seek(self, who: Any, msg: Message) -> None:
        room = self.room
        game = msg["game"]
        try:
            full = DRIVERS[game].check_rules(msg.get("rules"))
        except RulesError as exc:
            raise Refused(str(exc)) from None
        levels = room.house.levels
        level = msg.get("level", "standard")
        if levels and level not in room.house.conns:
            raise Refused(f"there is no house bot {level} in this room (its house bots: "
                          f"{', '.join(room.house.conns) or 'none'})")
        seek = Seek(who.name, game, {k: full[k] for k in (msg.get("rules") or {})}, msg.get("clock"),
                    level if levels else None, proc=getattr(room.hub, "me", ""))
        self.pool.take(who.name)                 # one seek a player: this one replaces the last
        self.mine.pop(who.name.lower(), None)
        for other in self.pool.seeks(game):
            terms = fits(seek, other, room.clock_default)
            if terms is None or room.blocks.between(seek.name, other.name) or not room.hub.present(other.name):
                continue
            if self.pool.take(other.name) is None:
                continue                         # paired elsewhere a moment ago
            self._pair(other, seek, *terms)
            return
        self.pool.add(seek)
        wait = self.wait if seek.level is not None else SEEK_LONGEST
        self.mine[who.name.lower()] = (time.monotonic() + wait, seek)
        who.put(dump("seeking", game=game, rules=seek.rules, clock=seek.clock, level=seek.level, seconds=wait))

    def _pair(self, first: Seek, second: Seek, rules: dict[str, Any], clock: int) -> None:
        """Two seeks that fit: both closed, a table for the two."""
        room = self.room
        self.mine.pop(first.name.lower(), None)
        self.mine.pop(second.name.lower(), None)
        for me, other in ((first, second), (second, first)):
            room.send(me.name, "seek_closed", why=f"paired with {other.name}", opponent=other.name)
        players = (first.name, second.name) if room.rng.random() < 0.5 else (second.name, first.name)
        room.play.open_table(first.game, players, rules, clock)

    async def on_cancel_seek(self, who: Any, msg: Message) -> None:
        self.mine.pop(who.name.lower(), None)
        if self.pool.take(who.name) is None:
            raise Refused("you are not looking for a game (a table may have been found)")
        who.put(dump("seek_closed", why="cancelled"))

    def left(self, name: str) -> None:
        """A player left the room: its seek ends."""
        if self.mine.pop(name.lower(), None) is not None:
            self.pool.take(name)

    def tick(self, mono: float) -> None:
        """The seeks that waited their time: the house bot sits down (or, with none,
        the seek ends)."""
        for key, (due, seek) in list(self.mine.items()):
            if due > mono:
                continue
            del self.mine[key]
            if self.pool.take(seek.name) is None:
                continue                         # paired by another process meanwhile
            try:
                self._fall_back(seek)
            except Refused as exc:
                self.room.send(seek.name, "seek_closed", why=str(exc))
            except Exception:
                log.exception("the house could not take %s's seek", seek.name)
                self.room.send(seek.name, "seek_closed", why="the room could not do that: a fault of the room's, logged")

    def _fall_back(self, seek: Seek) -> None:
        room = self.room
        if seek.level is None:
            raise Refused("nobody came: try again, or invite a player")
        conn = room.house.conns.get(seek.level)
        if conn is None:
            raise Refused(f"there is no house bot {seek.level} in this room")
        room.house.check(seek.name, conn)
        clock = seek.clock if seek.clock is not None else room.clock_default
        room.send(seek.name, "seek_closed", why=f"paired with {conn.name}", opponent=conn.name)
        room.house.play_seek(seek.name, seek.level, seek.game, DRIVERS[seek.game].check_rules(seek.rules), clock)


__all__ = ["LocalPool", "RedisPool", "Seek", "Seeks", "fits"]
