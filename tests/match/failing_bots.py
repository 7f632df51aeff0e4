"""Bots that fail, for the match runner's tests (``tests/match/test_guard.py``,
``test_isolate.py``): each plays as STANDARD until its one bug. Both games' bots are
here; a test names one as ``tests/match/failing_bots.py:Name``."""
from __future__ import annotations

import gc
import sys
import time

from port.cribbage.computer import Standard as CribStandard
from port.ginrummy.computer import Standard


class Illegal(Standard):
    """Discards the card it just took from the pile, which the rules refuse."""

    name = "illegal"

    def choose_discard(self, view):
        if view.drawn_from_pile:
            return view.drawn
        return super().choose_discard(view)


class Raises(Standard):
    """Fails on its first knock question."""

    name = "raiser"

    def choose_knock(self, view):
        raise ZeroDivisionError("my own bug")


class Sleeps(Standard):
    """Never answers a draw."""

    name = "sleeper"

    def choose_draw(self, view):
        time.sleep(3600)


class Swallows(Standard):
    """Never answers a draw, and swallows every alarm: only a kill stops it."""

    name = "swallower"

    def choose_draw(self, view):
        while True:
            try:
                time.sleep(3600)
            except BaseException:
                pass


class FailsOnce(Standard):
    """Fails only in the games whose first hand deals it the 2 of clubs: some games
    forfeit, the others are played to their end."""

    name = "flaky"

    def begin_hand(self, view):
        if view.scores == (0, 0) and any(str(c) == "2C" for c in view.hand):
            raise RuntimeError("no clubs today")


class Spy(Standard):
    """Looks for the engine's hand state, up its call stack and among every object the
    collector knows; says what it saw by raising (which forfeits the game)."""

    name = "spy"

    def choose_discard(self, view):
        seen = _peek(view.seat)
        if seen is not None:
            raise RuntimeError(f"I saw the other hand: {seen}")
        return super().choose_discard(view)


def _peek(seat):
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value).__name__ == "HandState":
                return value.hands[1 - seat]
        frame = frame.f_back
    for obj in gc.get_objects():
        if type(obj).__name__ == "HandState":
            return obj.hands[1 - seat]
    return None


class CribIllegal(CribStandard):
    """Lays away three cards to the crib."""

    name = "crib-illegal"

    def discard(self, view):
        return tuple(view.hand[:3])


class CribRaises(CribStandard):
    name = "crib-raiser"

    def play(self, view):
        raise KeyError("no such card")


class _Payload:
    """What a bot would send back to run code in the engine's process when unpickled."""

    def __reduce__(self):
        return (print, ("the engine's process ran the bot's code",))


class Smuggler(Standard):
    """Answers a draw with an object whose unpickling would call a function."""

    name = "smuggler"

    def choose_draw(self, view):
        return _Payload()
