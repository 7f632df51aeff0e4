"""GinRummy's Rules unit: melds, the deadwood minimiser, settlement, options, the hand
and game state machines, the player interface, and search on the exact rules
(``search``: a position stepped by action number, ``sample_world``). Plain Python: it never imports pyxel.

    >>> from port.cards import parse
    >>> from port.ginrummy.rules import deadwood, best_discards
    >>> deadwood(parse("AS 2S 3S 7H 7D 7C KD"))
    10
"""
from port.checks import BadArgument
from port.ginrummy.rules.melds import Arrangement, arrange, best_discards, deadwood
from port.ginrummy.rules.options import (
    BONUS_CHOICES, DOUBLER_SUITS, PRESETS, SCORING_METHODS, FirstTurn, Options, preset,
)
from port.ginrummy.rules.players import (
    Draw, GameRecord, KnockChoice, Player, legal_discards, play_game, play_hand,
)
from port.ginrummy.rules.settle import DrawnBy, Outcome, Settlement, best_layoffs, settle_draw, settle_out
from port.ginrummy.rules.search import Position, sample_world
from port.ginrummy.rules.state import PILE_RUN_LIMIT, Act, Event, Game, HandState, IllegalMove, Move, Phase, View

__all__ = [
    "Act", "Arrangement", "BONUS_CHOICES", "BadArgument", "DOUBLER_SUITS", "Draw", "DrawnBy", "Event",
    "FirstTurn", "Game", "GameRecord", "HandState", "IllegalMove", "KnockChoice", "Move", "Options",
    "Outcome", "PILE_RUN_LIMIT", "PRESETS", "Phase", "Player", "Position", "SCORING_METHODS", "Settlement", "View",
    "arrange", "best_discards", "best_layoffs", "deadwood", "legal_discards", "play_game", "play_hand",
    "preset", "sample_world", "settle_draw", "settle_out",
]
