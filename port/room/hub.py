"""What the room's processes share: who is in the room, who sits at which table, which
process applies each table, and the messages between players on different processes.

``LocalHub`` is the room in one process (the default, with SQLite): all of it is this
process's own memory. ``port.room.redishub.RedisHub`` (``--redis URL``) is several
processes on one Redis; ``Remote`` is a player connected to another process, as the
owner of its table sees it.
"""
from __future__ import annotations

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
        """Keep a move before anyone hears of it: in one process, the store's call."""
        assert self.room is not None
        self.room.store.add_move(table_id, index, move)

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
