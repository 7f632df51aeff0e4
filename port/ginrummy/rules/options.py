"""Rule options: the settings of one rules engine (variants are settings, not forks)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from port.cards import Card

# The bonuses Options accepts: the documentation's "25 points but some people use 10,
# 15, or 20" (the classic program's 20 and 10 are among them). The card room's flop gin
# scores its bonuses as 1 point by its scoring method, not by these fields.
BONUS_CHOICES = (10, 15, 20, 25)
# How a game is scored (docs/engine.md, "Scoring methods"):
#   TOTAL      the original: each hand's points run up to the score limit
#   BOXES      the card room's point difference: boxes, game bonus, box bonus
#   GAME_ONLY  the card room's game only: the same hands, the game's winner gets 1 point
#   FLOP       the card room's flop gin: one hand decides, 1 point (+1 bonus)
#   HOLLYWOOD  three BOXES games scored at once (not in the sources: today's players)
SCORING_METHODS = ("TOTAL", "BOXES", "GAME_ONLY", "FLOP", "HOLLYWOOD")
DOUBLER_SUITS = ("SPADES", "HEARTS")
_SUIT_OF = {"SPADES": 0, "HEARTS": 1}     # Card.suit: 0 spades, 1 hearts (port/cards.py)
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

    The table rules of the other sources (issue 12) are more fields read by the same
    engine; every one of them off or at its default gives the original's game.
    """

    gin_bonus: int = 25
    undercut_bonus: int = 25
    score_limit: int = 100
    oklahoma: bool = False
    knocking: bool = True
    first_turn: FirstTurn = FirstTurn.SEAT0
    knock_deck: bool = False           # knock card turned from a second deck each deal (003)
    scoring: str = "TOTAL"             # one of SCORING_METHODS
    doublers: tuple[str, ...] = ()     # subset of DOUBLER_SUITS: the knock card's suit doubles (003)
    shutout: bool = False              # winner's final score doubled if the loser scored nothing (003)
    upcard_offer: bool = False         # the classic first upcard offer, with decline (001)
    deal_eleven: bool = False          # 11 cards to the non-dealer, who starts the pile (003)
    random_first: bool = False         # the first dealer at random (seeded) (003)
    winner_deals: bool = False         # the hand's winner deals the next (003)
    box_bonus: int = 25                # per box more than the opponent's, at the game's end (003)

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
        for what, flag in (("knock_deck", self.knock_deck), ("shutout", self.shutout),
                           ("upcard_offer", self.upcard_offer), ("deal_eleven", self.deal_eleven),
                           ("random_first", self.random_first), ("winner_deals", self.winner_deals)):
            if type(flag) is not bool:
                raise TypeError(f"{what} is True or False, not {flag!r}")
        if isinstance(self.doublers, list):    # a list (from a file, a menu) is taken as its tuple
            object.__setattr__(self, "doublers", tuple(self.doublers))
        if self.scoring not in SCORING_METHODS:
            raise ValueError(f"the scoring is one of {', '.join(SCORING_METHODS)}, not {self.scoring!r}")
        if not isinstance(self.doublers, tuple) or any(d not in DOUBLER_SUITS for d in self.doublers) \
                or len(set(self.doublers)) != len(self.doublers):
            raise ValueError(f"the doublers are a tuple of different suits from {', '.join(DOUBLER_SUITS)}, "
                             f"not {self.doublers!r}")
        if type(self.box_bonus) is not int:
            raise TypeError(f"the box bonus is a whole number, one of {choices}, not {self.box_bonus!r}")
        if self.box_bonus not in BONUS_CHOICES:
            raise ValueError(f"the box bonus is one of {choices}, not {self.box_bonus}")
        # Combinations no source describes, refused rather than guessed.
        if self.knock_deck and self.oklahoma:
            raise ValueError("the knock card comes from a second deck or is Oklahoma's first upcard, not both")
        if self.doublers and not self.knock_deck:
            raise ValueError("the spades and hearts doublers need the knock card from a second deck")
        if self.deal_eleven and (self.oklahoma or self.upcard_offer):
            raise ValueError("the deal of eleven turns no upcard: it goes with neither Oklahoma "
                             "nor the upcard offer")

    def knock_value(self, upcard: Card | None) -> int:
        """Most deadwood a player may knock with, given the hand's knock card: the
        first upcard under Oklahoma, the second deck's card under ``knock_deck``.

        Knocking disabled: 0, gin only (the knock card shows 0). Oklahoma or the knock
        deck: the card's value, face cards 10, and an Ace means gin only.
        """
        if not self.knocking:
            return 0
        if self.oklahoma or self.knock_deck:
            if upcard is None:
                raise ValueError("the knock value needs the knock card under Oklahoma or the knock deck")
            v = upcard.value
            return 0 if v == 1 else v
        return STANDARD_KNOCK

    def doubled(self, upcard: Card | None) -> bool:
        """Oklahoma: a spade as first upcard doubles every point of the hand, knocking or
        not. The knock deck: the knock card's suit among ``doublers`` doubles the hand's
        score and its undercut and gin boxes."""
        if upcard is None:      # the deal of eleven's fixed knock value: no knock card
            return False
        if self.oklahoma:
            return upcard.suit == 0
        return self.knock_deck and any(_SUIT_OF[d] == upcard.suit for d in self.doublers)

    @property
    def knock_source(self) -> str:
        """Where the knock value comes from, for the screen: "DECK" (the knock card of
        a second deck), "UPCARD" (Oklahoma's first upcard) or "FIXED" (the original's
        10; 0 with knocking disabled)."""
        return "DECK" if self.knock_deck else "UPCARD" if self.oklahoma else "FIXED"

    @property
    def boxes(self) -> bool:
        """Whether hands earn boxes (point difference with boxes, and Hollywood)."""
        return self.scoring in ("BOXES", "HOLLYWOOD")

    @property
    def game_bonus(self) -> int:
        """The card room's game bonus: "equal to the length of the game" (the score limit)."""
        return self.score_limit if self.boxes else 0

    def with_(self, **changes: object) -> Options:
        return replace(self, **changes)


# Option sets a player can pick at once (issue 12); every rule stays settable alone.
# Each maps field names to values; fields not named keep the original's defaults.
PRESETS: dict[str, dict[str, object]] = {
    # GinRummy's own game: fixed knock 10, 25/25, running total to 100, you go first.
    "ORIGINAL": {},
    # The online card room (003): knock card from a second deck, point difference with
    # boxes, the spades doubler ("commonly used"), shutout, deal of 11, random first
    # dealer and the winner deals, 25-point bonuses.
    "CARD ROOM": {"knock_deck": True, "oklahoma": False, "scoring": "BOXES", "doublers": ("SPADES",), "shutout": True,
                  "deal_eleven": True, "random_first": True, "winner_deals": True,
                  "gin_bonus": 25, "undercut_bonus": 25, "box_bonus": 25},
    # The classic program (001): gin 20, undercut 10, the first upcard offered with
    # decline, the first dealer at random (its "splitting cards"), to 100.
    "CLASSIC": {"gin_bonus": 20, "undercut_bonus": 10, "upcard_offer": True, "random_first": True},
}


def preset(name: str, base: Options | None = None) -> Options:
    """``base`` (default: the original's options) with every field the preset names
    set, and the table-rule fields it leaves out back at their defaults."""
    if name not in PRESETS:
        raise ValueError(f"the presets are {', '.join(PRESETS)}, not {name!r}")
    base = base if base is not None else Options()
    reset = {f: getattr(Options(), f) for f in TABLE_FIELDS}
    return replace(base, **{**reset, "gin_bonus": 25, "undercut_bonus": 25, **PRESETS[name]})


# The fields a preset sets (the others, limit, Oklahoma, knocking, who moves first in
# matches, stay as the player had them unless the preset names them).
TABLE_FIELDS = ("knock_deck", "scoring", "doublers", "shutout", "upcard_offer", "deal_eleven",
                "random_first", "winner_deals", "box_bonus")
