"""Rule options: the settings of one rules engine (variants are settings, not forks)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from port.cards import Card

# The bonuses Options accepts: the documentation's "25 points but some people use 10,
# 15, or 20". Other sources' scoring (a card room's "game only" scoring, 1 point a
# bonus) is to arrive with its own scoring option, which will add its values here.
BONUS_CHOICES = (10, 15, 20, 25)
LIMIT_STEP = 50                    # the options menu moves the limit by 50 from 0 to 500
LIMIT_MENU_MAX = 500
LIMIT_MAX = 999                    # the command line takes 000-999
STANDARD_KNOCK = 10


class FirstTurn(Enum):
    """Who starts each hand. The original: "In this game, you always go first"."""

    SEAT0 = "seat0"          # the original's rule: the human (seat 0) always goes first
    ALTERNATE = "alternate"  # for computer-vs-computer matches: hands alternate


@dataclass(frozen=True)
class Options:
    """The rules of a game. Defaults are the original's defaults.

    Later variants (knock card from a separate deck, boxes, flop gin, hearts doubler,
    shutout doubler, the classic upcard offer, winner deals) are meant to arrive as
    more fields here, read by the same engine.
    """

    gin_bonus: int = 25
    undercut_bonus: int = 25
    score_limit: int = 100
    oklahoma: bool = False
    knocking: bool = True
    first_turn: FirstTurn = FirstTurn.SEAT0

    def __post_init__(self) -> None:
        # Refused with one sentence each (a ValueError; a TypeError for a wrong type).
        choices = ", ".join(map(str, BONUS_CHOICES))
        for what, bonus in (("gin bonus", self.gin_bonus), ("undercut bonus", self.undercut_bonus)):
            if type(bonus) is not int:
                raise TypeError(f"the {what} is a whole number, one of {choices}, not {bonus!r}")
            if bonus not in BONUS_CHOICES:
                raise ValueError(f"the {what} is one of {choices} (the documentation's choices), not {bonus}")
        if type(self.score_limit) is not int:
            raise TypeError(f"the score limit is a whole number 0 to {LIMIT_MAX}, not {self.score_limit!r}")
        if not 0 <= self.score_limit <= LIMIT_MAX:
            raise ValueError(f"the score limit must be 0 to {LIMIT_MAX}, not {self.score_limit}")
        for what, flag in (("oklahoma", self.oklahoma), ("knocking", self.knocking)):
            if type(flag) is not bool:
                raise TypeError(f"{what} is True or False, not {flag!r}")
        if not isinstance(self.first_turn, FirstTurn):
            raise TypeError(f"first_turn is a FirstTurn, not {self.first_turn!r}")

    def knock_value(self, upcard: Card) -> int:
        """Most deadwood a player may knock with, given the hand's first upcard.

        Knocking disabled: 0, gin only (the knock card shows 0). Oklahoma: the upcard's
        value, face cards 10, and an Ace means gin only.
        """
        if not self.knocking:
            return 0
        if self.oklahoma:
            v = upcard.value
            return 0 if v == 1 else v
        return STANDARD_KNOCK

    def doubled(self, upcard: Card) -> bool:
        """Oklahoma: a spade as first upcard doubles every point of the hand, knocking or not."""
        return self.oklahoma and upcard.suit == 0

    def with_(self, **changes: object) -> Options:
        return replace(self, **changes)
