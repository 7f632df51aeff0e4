"""The finished games: a player's list of them and a game's record, read from the store
(never from a live table)."""
from __future__ import annotations

from typing import Any

from port.protocol import Message, dump
from port.room.errors import Refused

# The room is passed in, not imported: the server imports this module.
Room = Any


class Archive:
    """The room's finished-games part."""

    def __init__(self, room: Room) -> None:
        self.room = room

    async def on_games(self, who: Any, msg: Message) -> None:
        name = msg.get("name", who.name)
        rows = self.room.store.games_of(name)
        who.put(dump("games", name=name, games=[{"number": g.number, "game": g.game, "players": list(g.players),
                                                 "result": g.result, "finished": g.finished} for g in rows]))

    async def on_game(self, who: Any, msg: Message) -> None:
        row = self.room.store.game(msg["number"])
        if row is None or who.name.lower() not in (p.lower() for p in row.players):
            raise Refused(f"game {msg['number']} is not one of yours")
        who.put(dump("record", number=row.number, game=row.game, players=list(row.players), result=row.result,
                     text=row.record))


__all__ = ["Archive"]
