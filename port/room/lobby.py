"""The lobby: who is in the room, as each player sees it, and the news of it.

A lobby entry is what the others see of a connected player (name, bot, guest, this
game's shown rating, free or at a table, the program it is in). ``lobby`` answers the
whole list once; a connection that asked to ``watch`` then gets a ``presence`` message
each time an entry changes.
"""
from __future__ import annotations

from typing import Any

from port.protocol import Message, dump
from port.room import ratings

# The room (``port.room.server.Room``) and its connections are passed in, not imported:
# the server imports this module, and no two modules import each other.
Room = Any
Conn = Any


class Lobby:
    """The room's lobby part: ``on_lobby`` and the presence news."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def entry(self, conn: Conn) -> dict[str, Any]:
        assert conn.name is not None
        playing = self.room.hub.playing(conn.name)
        house = getattr(conn, "house", False)           # a house bot: free at any number of tables
        return {"name": conn.name, "bot": conn.bot, "guest": conn.guest,
                "ratings": {g: ratings.shown(r) for g, r in conn.ratings.items()},
                "status": "playing" if playing and not house else "free", "tables": playing, "game": conn.game,
                **({"house": True} if house else {})}

    async def on_lobby(self, conn: Conn, msg: Message) -> None:
        conn.watching = bool(msg.get("watch", conn.watching))
        game = msg.get("game")
        if game is not None and game != conn.game:
            conn.game = game                 # the lobbies grey the other game's players
            assert conn.name is not None
            self.changed(conn.name)
        players = sorted(self.room.hub.everyone(), key=lambda e: e["name"].lower())
        conn.put(dump("lobby", players=players))

    def changed(self, name: str) -> None:
        """A player's entry changed (came in, left, sat down, stood up): the watchers hear."""
        conn = self.room.conns.get(name.lower())
        entry = self.entry(conn) if conn is not None else {"name": name, "gone": True}
        if conn is not None:
            self.room.hub.here(name, entry)
        text = dump("presence", player=entry)
        for other in self.room.conns.values():
            if other.watching and other is not conn:
                other.put(text)


__all__ = ["Lobby"]
