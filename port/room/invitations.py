"""Invitations: the negotiation of a table's rules, round after round.

Whoever did not make the last proposal answers it: accept (the table opens), decline,
or change rules and send it back; only the proposer withdraws it (``cancel``), and only
the other declines it. Each round lives ``invite_ttl`` seconds; an invitation ends when
either side leaves the room (docs/room.md, "The negotiation"). A player has at most
``INVITES_WAITING_MAX`` invitations waiting for its answer, and receives new ones no
faster than ``INVITES_RECEIVED_RATE`` (``port.room.limits``): nobody fills another's
screen with invitations by inviting from many accounts.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from port.protocol import Message, dump
from port.room.errors import Refused
from port.room.games import DRIVERS, RulesError
from port.room.limits import (INVITES_OPEN_MAX, INVITES_RECEIVED, INVITES_RECEIVED_RATE, INVITES_WAITING_MAX,
                              Bucket)

# The room is passed in, not imported: the server imports this module.
Room = Any


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
    seconds: float = 0.0         # how long each round lives

    def other(self, name: str) -> str:
        return self.to if name.lower() == self.sender.lower() else self.sender

    def party(self, name: str) -> bool:
        return name.lower() in (self.sender.lower(), self.to.lower())

    def message(self) -> str:
        return dump("invitation", id=self.id, sender=self.sender, to=self.to, game=self.game, rules=self.rules,
                    clock=self.clock, proposer=self.proposer, round=self.round, changed=list(self.changed),
                    seconds=self.seconds)


class Invitations:
    """The room's invitations part: the open ones, by id, and their messages."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.open: dict[str, Invitation] = {}
        self.received = Bucket(INVITES_RECEIVED, INVITES_RECEIVED_RATE)     # per player invited

    def __contains__(self, inv_id: str) -> bool:
        return inv_id in self.open

    async def on_invite(self, who: Any, msg: Message) -> None:
        to = msg["to"]
        if to.lower() == who.name.lower():
            raise Refused("you cannot invite yourself")
        entry = self.room.hub.find(to)
        if entry is None:
            raise Refused(f"{to} is not in the room")
        self.room.blocks.refuse(who.name, entry["name"], "invitations")
        self.room.house.check_invite(who.name, entry["name"])
        mine = [i for i in self.open.values() if i.sender.lower() == who.name.lower()]
        if len(mine) >= INVITES_OPEN_MAX:
            raise Refused(f"you have {INVITES_OPEN_MAX} invitations open already: wait for their answers")
        game = msg["game"]
        rules = self._rules(game, msg.get("rules"))
        if self.room.house.of(entry["name"]) is None:     # a house bot's attention costs nobody: its own limits hold
            self._receivable(entry["name"])
        clock = msg.get("clock", self.room.clock_default)
        ttl = self.room.invite_ttl
        inv = Invitation(self.room.hub.new_id("i"), who.name, entry["name"], game, rules, clock, who.name,
                         expires=time.monotonic() + ttl, seconds=ttl)
        self.open[inv.id] = inv
        self._tell_both(inv)

    def _receivable(self, to: str) -> None:
        """Refused if ``to`` has as many invitations waiting as it may, or has been sent
        too many just now (the rate is counted only for invitations that reach it)."""
        waiting = sum(1 for i in self.open.values() if i.to.lower() == to.lower())
        if waiting >= INVITES_WAITING_MAX:
            raise Refused(f"{to} has {waiting} invitations waiting already: try again later")
        now = time.monotonic()
        if not self.received.take(to.lower(), now):
            wait = math.ceil(self.received.wait(to.lower(), now))
            raise Refused(f"{to} has been sent too many invitations just now: try again in {wait} s")

    @staticmethod
    def _rules(game: str, given: Any) -> dict[str, Any]:
        try:
            return DRIVERS[game].check_rules(given)
        except RulesError as exc:
            raise Refused(str(exc)) from None

    def _find(self, who: Any, msg: Message) -> Invitation:
        inv = self.open.get(msg["id"])
        if inv is None or not inv.party(who.name):
            raise Refused(f"there is no invitation {msg['id'][:40]} for you (it may have expired)")
        return inv

    @staticmethod
    def _answering(who: Any, inv: Invitation, doing: str) -> None:
        if inv.proposer.lower() == who.name.lower():
            raise Refused(f"you cannot {doing} your own proposal: {inv.other(who.name)} answers it")

    async def on_counter(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        inv = self._find(who, msg)
        self._answering(who, inv, "change")
        rules = self._rules(inv.game, {**inv.rules, **(msg.get("rules") or {})})
        clock = msg.get("clock", inv.clock)
        changed = tuple(k for k in rules if rules[k] != inv.rules.get(k)) + (("clock",) if clock != inv.clock else ())
        if not changed:
            raise Refused("a proposal back changes at least one rule (or accept this one)")
        inv.rules, inv.clock, inv.changed = rules, clock, changed
        inv.proposer, inv.round = who.name, inv.round + 1
        inv.expires = time.monotonic() + inv.seconds
        self._tell_both(inv)

    async def on_accept(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        inv = self._find(who, msg)
        self._answering(who, inv, "accept")
        del self.open[inv.id]
        self._tell_both(inv, closed="accepted")
        self.room.play.open_table(inv.game, (inv.sender, inv.to), inv.rules, inv.clock)

    async def on_decline(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        inv = self._find(who, msg)
        if inv.proposer.lower() == who.name.lower():
            raise Refused("you cannot decline your own proposal: withdraw it (cancel)")
        self.close(inv, f"declined by {who.name}")

    async def on_cancel(self, who: Any, msg: Message) -> None:
        if await self.room.hub.route(who, msg):
            return
        inv = self._find(who, msg)
        if inv.proposer.lower() != who.name.lower():
            raise Refused(f"you cannot withdraw {inv.proposer}'s proposal: decline it")
        self.close(inv, f"withdrawn by {who.name}")

    def close(self, inv: Invitation, why: str) -> None:
        self.open.pop(inv.id, None)
        self._tell_both(inv, closed=why)

    def left(self, name: str) -> None:
        """A player left the room: its invitations here end."""
        for inv in [i for i in self.open.values() if i.party(name)]:
            self.close(inv, f"{name} left the room")

    def tick(self, mono: float) -> None:
        """Run out the rounds that have run out."""
        for inv in [i for i in self.open.values() if i.expires <= mono]:
            self.close(inv, "expired")

    def _tell_both(self, inv: Invitation, closed: str | None = None) -> None:
        text = inv.message() if closed is None else dump("invitation_closed", id=inv.id, why=closed)
        self.room.deliver(inv.sender, text)
        self.room.deliver(inv.to, text)


__all__ = ["Invitation", "Invitations"]
