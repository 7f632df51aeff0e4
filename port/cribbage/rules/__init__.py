"""Cribbage's Rules unit: scoring (the show and the pegging), options, the deal and
game state machine, the player's view and interface, and search on the exact
rules (``search``: a position stepped by action number, ``sample_world``). Plain Python on the shared Cards
unit: it never imports pyxel, nor GinRummy's rules (docs/cribbage-engine.md).

    >>> from port.cards import parse, card
    >>> from port.cribbage.rules import score_hand
    >>> score_hand(parse("8S 7H 7D 6C"), card("2S"))
    16
"""
from port.cribbage.rules.options import Options
from port.cribbage.rules.players import (
    GameRecord, HandRecord, Player, play_game, play_hand, record_of, step,
)
from port.cribbage.rules.scoring import (
    RANK_VALUE, Score, hand_breakdown, peg_breakdown, peg_points, score_hand, value,
)
from port.cribbage.rules.search import Position, sample_world
from port.cribbage.rules.state import (
    Act, Event, Game, GameState, HandState, IllegalMove, Phase, ShowEntry, View, cut_for_deal,
)

__all__ = [
    "Act", "Event", "Game", "GameRecord", "GameState", "HandRecord", "HandState",
    "IllegalMove", "Options", "Phase", "Player", "Position", "RANK_VALUE", "Score", "ShowEntry", "View",
    "cut_for_deal", "hand_breakdown", "peg_breakdown", "peg_points", "play_game",
    "play_hand", "record_of", "sample_world", "score_hand", "step", "value",
]
