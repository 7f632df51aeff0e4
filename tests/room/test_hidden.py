"""The server never sends a card the rules keep hidden.

Over 200 whole games (100 of each game), every message a driver owes a seat is
checked, at the moment it is said, against the cards that seat may not know then:

* GinRummy: the stock, and the opponent's cards except those it took from the pile
  (face up); at a hand's end the rules show both hands, so then only the stock.
* Cribbage: the rest of the deck (the starter until it is cut), the opponent's cards
  not yet played, and the opponent's two cards in the crib until the crib is shown.

tests/room/test_room_games.py shows that what a seat receives over the network is,
message for message, what the driver said; so this holds on the wire too.
"""
from __future__ import annotations

import json
from typing import Any

from port.cribbage.levels import load_player as crib_player
from port.ginrummy.levels import load_player as gin_player
from port.ginrummy.rules import state as gin
from port.room.games import CribDriver, GinDriver
from port.room.seat import seat_for


def cards_in(value: Any) -> set[str]:
    """Every card's text in a message."""
    if isinstance(value, str):
        return {value} if len(value) == 2 and value[0] in "A23456789TJQK" and value[1] in "SHDC" else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


class WatchedGin(GinDriver):
    """GinRummy's driver, noting with each message what its seat may not know then."""

    def _say(self, seat: int, kind: str, **fields: Any) -> None:
        hand = self.state.hand
        hidden = {str(c) for c in hand.stock}
        if kind != "hand_end":
            taken = {e.card for e in hand.events if e.seat != seat and e.act is gin.Act.DRAW_PILE}
            hidden |= {str(c) for c in hand.hand(1 - seat) if c not in taken}
        super()._say(seat, kind, **fields)
        self.out[-1] = (seat, {**self.out[-1][1], "_hidden": hidden})


class WatchedCrib(CribDriver):
    def _say(self, seat: int, kind: str, **fields: Any) -> None:
        hand = self.state.hand
        other = 1 - seat
        hidden = {str(c) for c in hand.stock}
        hidden |= {str(c) for c in hand.hands[other]}
        if not any(s.what == "crib" for s in hand.shows):
            hidden |= {str(c) for c in hand.cribs[other]}
            if hand.phase.value == "discard":
                hidden |= {str(c) for c in hand.hands[other]}
        super()._say(seat, kind, **fields)
        self.out[-1] = (seat, {**self.out[-1][1], "_hidden": hidden})


def _without_knock_card(msg: dict[str, Any]) -> dict[str, Any]:
    """The knock card is turned from a second deck (003: "The same card is still in the
    deck being used for play"): its text names no card of the play deck."""
    view = msg.get("view")
    if isinstance(view, dict) and view.get("options", {}).get("knock_deck"):
        return {**msg, "view": {k: v for k, v in view.items() if k != "knock_card"}}
    return msg


def play_watched(driver_cls: type, rules: dict[str, Any], seed: int, load: Any) -> tuple[int, list[str]]:
    """A whole game between two EASY seats; (messages checked, the leaks found)."""
    driver = driver_cls(driver_cls.check_rules(rules), seed)
    seats = [seat_for(driver.game, load("easy", seed)), seat_for(driver.game, load("easy", seed + 1))]
    checked, leaks = 0, []
    while True:
        out, driver.out = driver.out, []
        moves = []
        for seat, msg in out:
            hidden = msg.pop("_hidden")
            wire = json.loads(json.dumps(msg))       # the message as it goes out
            leak = cards_in(_without_knock_card(wire)) & hidden
            if leak:
                leaks.append(f"seed {seed} seat {seat} {msg['type']}: {sorted(leak)}")
            checked += 1
            move = seats[seat].feed(wire)
            if move is not None:
                moves.append((seat, move))
        if not moves:
            return checked, leaks
        driver.apply(*moves[0])


def test_no_message_of_200_games_holds_a_hidden_card() -> None:
    checked, leaks = 0, []
    for seed in range(100):
        # GinRummy games of one hand (limit 0), half of them with the card room's table rules.
        rules = {"score_limit": 0} if seed % 2 else {"score_limit": 0, "knock_deck": True, "upcard_offer": True}
        n, found = play_watched(WatchedGin, rules, seed, gin_player)
        checked, leaks = checked + n, leaks + found
        n, found = play_watched(WatchedCrib, {"limit": 61}, seed, crib_player)
        checked, leaks = checked + n, leaks + found
    assert leaks == []
    assert checked > 20_000


def test_the_check_finds_a_leak() -> None:
    """The check can fail: a driver that shows each seat the other's hand is caught."""
    class Leaky(WatchedGin):
        def _say(self, seat: int, kind: str, **fields: Any) -> None:
            super()._say(seat, kind, **fields)
            seat_, msg = self.out[-1]
            self.out[-1] = (seat_, {**msg, "peek": [str(c) for c in self.state.hand.hand(1 - seat)]})

    _, leaks = play_watched(Leaky, {"score_limit": 0}, 3, gin_player)
    assert leaks and "seat 0 deal" in leaks[0]
