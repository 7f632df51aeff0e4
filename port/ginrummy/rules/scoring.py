"""A game's score sheet under each scoring method (``Options.scoring``).

The hands are settled the same way under every method (``port.ginrummy.rules.settle``); what
differs is where their points go and what the game's end adds:

    TOTAL      the original: the running totals are the final scores
    BOXES      the card room's point difference (003): the player with more points
               receives the difference plus a game bonus equal to the game's length;
               each player receives the box bonus for every box more than the other's;
               "the player with more points wins the difference" - so the points
               leader can lose on boxes
    GAME_ONLY  the card room's game only (003): "the player with more cumulative points
               receives 1 point"
    FLOP       the card room's flop gin (003): one decided hand is the game, its points
               (1, or 2 with a bonus) are the final score
    HOLLYWOOD  three BOXES games at once: a player's first win is entered in game 1,
               the second in games 1 and 2, the third and later in all three, each
               game taking entries only until it is over

The shutout doubler (003, ``Options.shutout``): "If one player scores no points for
the entire game ... the final score of the winner is doubled" - under TOTAL, BOXES,
GAME_ONLY and in each Hollywood game; flop gin scores each hand on its own, so a
shutout would be every game (the source lists it under the other two methods only).
"""
from __future__ import annotations

from dataclasses import dataclass

from port.ginrummy.rules.options import Options

COLUMNS = {"HOLLYWOOD": 3}    # score columns per method; every other method has one


@dataclass(frozen=True)
class Column:
    """One game's score column at the game's end (Hollywood has three).

    ``points`` are the hands' points as entered; ``boxes`` the boxes won (BOXES and
    HOLLYWOOD); ``game_bonus`` and ``box_bonus`` per seat what the game's end adds;
    ``shutout`` whether the shutout doubler doubled the winner's score; ``totals``
    the final scores, ``winner`` the seat with the higher one (None: equal), and
    ``net`` what the winner wins: the difference of the totals.
    """

    points: tuple[int, int]
    boxes: tuple[int, int]
    game_bonus: tuple[int, int]
    box_bonus: tuple[int, int]
    shutout: bool
    totals: tuple[int, int]
    winner: int | None
    net: int


@dataclass(frozen=True)
class ScoreSheet:
    """The end of a game: the method, its columns and the overall result.

    ``totals`` per seat: the sum of the columns' totals (one column but for
    Hollywood); ``winner`` the seat with more (None: equal); ``net`` the difference.
    """

    scoring: str
    columns: tuple[Column, ...]
    totals: tuple[int, int]
    winner: int | None
    net: int


def _leader(pair: tuple[int, int]) -> int | None:
    if pair[0] == pair[1]:
        return None
    return 0 if pair[0] > pair[1] else 1


def column(options: Options, points: tuple[int, int], boxes: tuple[int, int]) -> Column:
    """Close one game's column by the options' scoring method."""
    lead = _leader(points)
    game_bonus = [0, 0]
    box_bonus = [0, 0]
    if options.scoring in ("BOXES", "HOLLYWOOD"):
        totals = [0, 0]
        if lead is not None:
            totals[lead] = points[lead] - points[1 - lead] + options.game_bonus
            game_bonus[lead] = options.game_bonus
        for seat in (0, 1):
            extra = boxes[seat] - boxes[1 - seat]
            if extra > 0:
                box_bonus[seat] = extra * options.box_bonus
                totals[seat] += box_bonus[seat]
    elif options.scoring == "GAME_ONLY":
        totals = [0, 0]
        if lead is not None:
            totals[lead] = 1
    else:   # TOTAL, FLOP: the points are the scores
        totals = list(points)
    winner = _leader((totals[0], totals[1]))
    shutout = False
    if options.shutout and options.scoring != "FLOP" and winner is not None and points[1 - winner] == 0:
        shutout = True
        totals[winner] *= 2
    return Column(points=points, boxes=boxes, game_bonus=(game_bonus[0], game_bonus[1]),
                  box_bonus=(box_bonus[0], box_bonus[1]), shutout=shutout,
                  totals=(totals[0], totals[1]), winner=winner, net=abs(totals[0] - totals[1]))


def sheet(options: Options, points: list[list[int]], boxes: list[list[int]]) -> ScoreSheet:
    """The score sheet from each column's points and boxes (per seat)."""
    cols = tuple(column(options, (p[0], p[1]), (b[0], b[1])) for p, b in zip(points, boxes))
    totals = (sum(c.totals[0] for c in cols), sum(c.totals[1] for c in cols))
    return ScoreSheet(options.scoring, cols, totals, _leader(totals), abs(totals[0] - totals[1]))


__all__ = ["COLUMNS", "Column", "ScoreSheet", "column", "sheet"]
