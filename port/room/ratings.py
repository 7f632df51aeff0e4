"""The room's ratings: Glicko-2, one rating per player per game (GinRummy and Cribbage
are rated apart), each finished game one rating period for both players.

The arithmetic is the ``glicko2`` package's (deepy/glicko2 on PyPI, the most used of
them): a small, dependency-free implementation that follows Glickman's paper step by
step (with the 2012 revision of the volatility iteration), and it reproduces the
paper's worked example (tests/room/test_ratings.py). Of the other Glicko-2
packages on PyPI, ``glicko2-py`` and ``pyglicko2`` are new or alpha releases with few
users, ``skelo`` wraps the rating in a scikit-learn estimator (and brings scikit-learn),
and ``skills`` has not been released since 2015; none is better kept.

A rating is provisional while its deviation is above 110, lichess's rule: it is shown
with a question mark ("1500?") and says little yet.
"""
from __future__ import annotations

import glicko2

from port.room.store import PROVISIONAL_RD, Rating


def _after(me: Rating, other: Rating, score: float) -> Rating:
    player = glicko2.Player(rating=me.rating, rd=me.rd, vol=me.vol)
    player.update_player([other.rating], [other.rd], [score])
    return Rating(player.rating, player.rd, player.vol, me.games + 1)


def update(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both ratings after one game that ``a`` scored ``score_a`` in (1 a win, 0.5 a draw,
    0 a loss); each side is rated against the other's rating from before the game."""
    if score_a not in (0, 0.5, 1):
        raise ValueError(f"A game's score is 1, 0.5 or 0, not {score_a!r}.")
    return _after(a, b, score_a), _after(b, a, 1 - score_a)


def provisional(r: Rating) -> bool:
    return r.rd > PROVISIONAL_RD          # the store's rule: its leaderboards split on it too


def shown(r: Rating) -> str:
    """The rating as the room shows it: "1623", or "1500?" while provisional."""
    return f"{round(r.rating)}?" if provisional(r) else f"{round(r.rating)}"
