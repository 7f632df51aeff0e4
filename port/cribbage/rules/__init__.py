"""Cribbage's Rules unit: scoring (the show and the pegging), options, and later the
deal and game state machine. Plain Python on the shared Cards unit: never imports
pyxel, nor GinRummy's rules.

    >>> from port.cards import parse, card
    >>> from port.cribbage.rules import score_hand
    >>> score_hand(parse("8S 7H 7D 6C"), card("2S"))
    16
"""
from port.cribbage.rules.options import Options
from port.cribbage.rules.scoring import (
    RANK_VALUE, Score, hand_breakdown, peg_breakdown, peg_points, score_hand, value,
)

__all__ = ["Options", "RANK_VALUE", "Score", "hand_breakdown", "peg_breakdown",
           "peg_points", "score_hand", "value"]
