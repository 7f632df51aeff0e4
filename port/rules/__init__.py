"""The Rules unit: melds, the deadwood minimiser, settlement, options, and the hand and
game state machines. Plain Python: it never imports pyxel.

    >>> from port.cards import parse
    >>> from port.rules import deadwood, best_discards
    >>> deadwood(parse("AS 2S 3S 7H 7D 7C KD"))
    10
"""
from port.rules.melds import Arrangement, arrange, best_discards, deadwood
from port.rules.options import BONUS_CHOICES, FirstTurn, Options
from port.rules.settle import Outcome, Settlement, best_layoffs, settle_draw, settle_out
from port.rules.state import Act, Event, Game, HandState, IllegalMove, Phase, View

__all__ = [
    "Act", "Arrangement", "BONUS_CHOICES", "Event", "FirstTurn", "Game", "HandState",
    "IllegalMove", "Options", "Outcome", "Phase", "Settlement", "View", "arrange",
    "best_discards", "best_layoffs", "deadwood", "settle_draw", "settle_out",
]
