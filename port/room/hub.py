"""What the room's processes share: who is in the room, who sits at which table, which
process applies each table, and the messages between players on different processes.

``LocalHub`` is the room in one process (the default, with SQLite): all of it is this
process's own memory. ``port.room.redishub.RedisHub`` (``--redis URL``) is several
processes on one Redis; ``Remote`` is a player connected to another process, as the
owner of its table sees it.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from port.protocol import Message

# The room (``port.room.server.Room``) and its tables are passed in, not imported: the
# server imports this module, and no two modules import each other.
Room = Any
Table = Any

log = logging.getLogger("cardroom")

TABLE_MESSAGES = ("move", "sync", "shown", "resign", "rematch", "chat", "mute", "watch", "unwatch")
INVITATION_MESSAGES = ("counter", "accept", "decline", "cancel")


class Hub:
    """The single-process answers; ``RedisHub`` overrides what is shared."""

    def __init__(self) -> None:
        self.room: Room | None = None
        self._seated: dict[str, set[str]] = {}
        self._moves: list[tuple[str, int, dict[str, Any], asyncio.Future[None]]] = []   # the turn's, unwritten

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

    async def add_move(self, table_id: str, index: int, move: dict[str, Any]) -> None:
        """Keep a move before anyone hears of it. In one process, the moves made in one
        turn of the event loop are written together, one transaction and one commit at
        the turn's end (a commit each was a tenth of a move's CPU); each move's table
        hears of it only once its commit is done, so an acknowledged move survives a
        ``kill -9`` as before. (The hub in one process runs on SQLite's store, whose
        ``add_moves`` this is; RedisHub keeps its moves its own way.)"""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._moves.append((table_id, index, move, done))
        if len(self._moves) == 1:
            asyncio.get_running_loop().call_soon(self._write_moves)
        await done

    def _write_moves(self) -> None:
        assert self.room is not None
        batch, self._moves = self._moves, []
        try:
            refused = self.room.store.add_moves([(t, i, m) for t, i, m, _ in batch])
        except Exception as exc:          # the commit failed (a full disk): none was kept
            refused = [exc] * len(batch)
        for (_, _, _, done), exc in zip(batch, refused):
            if done.done():
                continue
            if exc is None:
                done.set_result(None)
            else:
                done.set_exception(exc)

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


__all__ = ["Hub", "LocalHub", "Remote"]
