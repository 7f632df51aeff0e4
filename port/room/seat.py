"""A player of the player interface, seated at a room table: fed the messages its seat
is owed, in order, it answers each ``ask`` with a move.

The bot client plays through this (``python -m port.room.bot``), and so does the
server's stand-in, STANDARD, when a move clock runs out: the same calls as in the
match runner's ``play_hand``, in the same order (``begin_hand`` on ``deal``,
``observe`` on ``event``, ``choose_*`` on ``ask``, ``end_hand`` on ``hand_end``), so a
level or a bot file plays in the room exactly as it plays in a match.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from port.cribbage.rules import state as crib
from port.ginrummy.rules import players as gin_players
from port.ginrummy.rules import settle as gin_settle
from port.ginrummy.rules import state as gin
from port.protocol import ProtocolError, decode, encode


class Seat:
    """A player at one seat of one table."""

    def __init__(self, player: Any) -> None:
        self.player = player

    def feed(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        """Take one message of the seat's stream; an ``ask`` gives the move to send.
        ``ProtocolError`` if the message is not of the shape the server sends."""
        kind = message.get("type")
        handler = getattr(self, "_" + str(kind), None)
        if handler is None:
            return None
        return handler(message)


class GinSeat(Seat):
    def _deal(self, m: Mapping[str, Any]) -> None:
        self.player.begin_hand(decode(gin.View, m.get("view")))

    def _event(self, m: Mapping[str, Any]) -> None:
        self.player.observe(decode(gin.Event, m.get("event")))

    def _hand_end(self, m: Mapping[str, Any]) -> None:
        self.player.end_hand(decode(gin.View, m.get("view")), decode(gin_settle.Settlement, m.get("result")))

    def _ask(self, m: Mapping[str, Any]) -> dict[str, Any]:
        view = decode(gin.View, m.get("view"))
        p = self.player
        decision = m.get("decision")
        if decision == "offer":
            return {"act": "take" if p.offer(view) else "decline"}
        if decision == "draw":
            return {"act": "pile" if gin_players.Draw(p.choose_draw(view)) is gin_players.Draw.PILE else "stock"}
        if decision == "discard":
            return {"act": "discard", "card": encode(p.choose_discard(view), gin.Card)}
        if decision == "knock":
            return {"act": gin_players.KnockChoice(p.choose_knock(view)).value}
        raise ProtocolError(f"there is no GinRummy decision {decision!r}")


class CribSeat(Seat):
    def _deal(self, m: Mapping[str, Any]) -> None:
        self.player.begin_hand(decode(crib.View, m.get("view")))

    def _hand_end(self, m: Mapping[str, Any]) -> None:
        self.player.end_hand(decode(crib.View, m.get("view")))

    def _ask(self, m: Mapping[str, Any]) -> dict[str, Any]:
        view = decode(crib.View, m.get("view"))
        decision = m.get("decision")
        if decision == "lay_away":
            cards = tuple(self.player.discard(view))
            return {"act": "lay_away", "cards": [encode(c, crib.Card) for c in cards]}
        if decision == "play":
            choice = self.player.play(view)
            return {"act": "go"} if choice is None else {"act": "play", "card": encode(choice, crib.Card)}
        raise ProtocolError(f"there is no Cribbage decision {decision!r}")


SEATS: dict[str, type[Seat]] = {"ginrummy": GinSeat, "cribbage": CribSeat}


def seat_for(game: str, player: Any) -> Seat:
    return SEATS[game](player)


__all__ = ["CribSeat", "GinSeat", "SEATS", "Seat", "seat_for"]
