"""The plain reference bot of Cribbage's strength target (issue 10), written to the
player interface: it keeps the four cards that score most by themselves (no starter,
whoever holds the crib), and plays the card that pegs most now, or else its lowest.

    python -m port.match --game cribbage --a standard --b scripts/reference_cribbage_bot.py:ReferenceBot
"""
from __future__ import annotations

from itertools import combinations

from port.cards import Card
from port.cribbage.computer import alone
from port.cribbage.rules import Player, View, peg_points


class ReferenceBot(Player):
    name = "reference"

    def __init__(self, seed: int = 0) -> None:
        pass

    def discard(self, view: View) -> tuple[Card, Card]:
        hand = list(view.hand)
        best = max(combinations(hand, 4), key=alone)   # the first of equals
        a, b = (c for c in hand if c not in best)
        return a, b

    def play(self, view: View) -> Card | None:
        legal = list(view.legal_plays())
        if not legal:
            return None
        cc = list(view.count_cards)
        return max(legal, key=lambda c: (peg_points(cc + [c]), -(c % 13), -c))
