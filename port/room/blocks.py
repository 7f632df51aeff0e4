"""Blocks: a player keeps another away (issue 38, section 1).

Once either of two players has blocked the other: no invitation goes either way (nor a
rematch), no chat line reaches the other at a table they share, and PLAY NOW never
pairs them. A block is kept in the store (``set_block``, ``blocks``, ``blocked``: both
stores), so it outlives the session and the room's restarts, and it is private: only
its owner is ever told of it (``blocks``); the other learns only that its invitation is
not taken ("Ann is not taking your invitations"), as a player refused on lichess does.
A player blocks at most ``BLOCKS_MAX`` others; the house bots are not blocked (they
invite nobody and never chat: not inviting them is enough).
"""
from __future__ import annotations

from typing import Any

from port.protocol import Message, dump
from port.room.errors import Refused
from port.room.limits import BLOCKS_MAX

# The room is passed in, not imported: the server imports this module.
Room = Any


class Blocks:
    """The room's blocks part: ``block``, ``unblock``, ``blocks``, and ``between``."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def between(self, a: str, b: str) -> bool:
        """Whether either of the two has blocked the other."""
        return a.lower() != b.lower() and self.room.store.blocked(a, b)

    def refuse(self, who: str, other: str, what: str) -> None:
        """Refused in one sentence if the two are blocked either way: to the one who
        blocked, what to do; to the other, only that it is not taken."""
        if not self.between(who, other):
            return
        if other.lower() in (n.lower() for n in self.room.store.blocks(who)):
            raise Refused(f"you have blocked {other}: unblock them first")
        raise Refused(f"{other} is not taking your {what}")

    async def on_block(self, who: Any, msg: Message) -> None:
        store, name = self.room.store, msg["name"]
        if name.lower() == who.name.lower():
            raise Refused("you cannot block yourself")
        if self.room.house.of(name) is not None:
            raise Refused(f"{name} is a house bot: it invites nobody and never chats, so there is nothing to block")
        account = store.account(name)
        if account is None:
            raise Refused(f"there is no player {name}")
        mine = store.blocks(who.name)
        if account.name.lower() not in (n.lower() for n in mine) and len(mine) >= BLOCKS_MAX:
            raise Refused(f"you have blocked {BLOCKS_MAX} players: unblock one first")
        store.set_block(who.name, account.name, True)
        invitations = self.room.invitations
        for inv in [i for i in invitations.open.values() if i.party(who.name) and i.party(account.name)]:
            mine_last = inv.proposer.lower() == who.name.lower()
            invitations.close(inv, f"{'withdrawn' if mine_last else 'declined'} by {who.name}")
        self._list(who)

    async def on_unblock(self, who: Any, msg: Message) -> None:
        self.room.store.set_block(who.name, msg["name"], False)
        self._list(who)

    async def on_blocks(self, who: Any, msg: Message) -> None:
        self._list(who)

    def _list(self, who: Any) -> None:
        who.put(dump("blocks", names=self.room.store.blocks(who.name)))


__all__ = ["Blocks"]
