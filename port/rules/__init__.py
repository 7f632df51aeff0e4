"""The Rules unit: melds, the deadwood minimiser, settlement, options, and the hand and
game state machines. Plain Python: it never imports pyxel.

    >>> from port.cards import parse
    >>> from port.rules import deadwood, best_discards
    >>> deadwood(parse("AS 2S 3S 7H 7D 7C KD"))
    10
"""
from port.rules.melds import Arrangement, arrange, best_discards, deadwood
from port.rules.options import BONUS_CHOICES, DOUBLER_SUITS, PRESETS, SCORING_METHODS, FirstTurn, Options, preset
from port.rules.errors import BadArgument
from port.rules.settle import DrawnBy, Outcome, Settlement, best_layoffs, settle_draw, settle_out
from port.rules.state import PILE_RUN_LIMIT, Act, Event, Game, HandState, IllegalMove, Move, Phase, View

__all__ = [
    "Act", "Arrangement", "BONUS_CHOICES", "BadArgument", "DOUBLER_SUITS", "PRESETS", "SCORING_METHODS", "preset", "DrawnBy", "Event", "FirstTurn", "Game",
    "HandState", "IllegalMove", "Move", "Options", "Outcome", "PILE_RUN_LIMIT", "Phase", "Settlement",
    "View", "arrange",
    "best_discards", "best_layoffs", "deadwood", "settle_draw", "settle_out",
]
