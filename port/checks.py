"""The engines' refusals and the argument checks every public entry point makes first,
shared by both games' Rules units (``port.ginrummy.rules``, ``port.cribbage.rules``).

Every check runs before anything changes, so an illegal call leaves the state exactly
as it was. A message names the action tried and the reason, in one plain sentence:
"seat 0 cannot discard now: it must draw first", "cannot draw from the stock: there
is no seat 2 (the seats are 0 and 1)". A value of the wrong type (a float, a bool, a
string where a number is meant) is a ``BadArgument``: both the engine's own
``IllegalMove`` and a ``TypeError``.
"""
from __future__ import annotations

from collections.abc import Iterable

from port.cards import CARDS, Card


class IllegalMove(ValueError):
    """An action or an argument the rules do not allow now; the state is unchanged.

    ``str(error)`` is the whole sentence ("seat 0 cannot discard now: it must draw
    first"); ``error.reason`` is its reason alone ("it must draw first"), for a screen
    that already says who is acting.
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else message


class BadArgument(IllegalMove, TypeError):
    """An argument of the wrong type: a seat or a card that is not an int (a float, a
    bool, a string). Both an ``IllegalMove`` and a ``TypeError``; raised before any change."""


def _kind(x: object) -> str:
    """"a float", "an int": the type of a refused argument, with its article."""
    name = type(x).__name__
    return ("an " if name[0] in "aeiou" else "a ") + name


def check_seat(seat: object, doing: str) -> int:
    """``seat`` as 0 or 1; anything else is refused. ``doing`` names the action
    ("draw from the stock") for the message."""
    if seat.__class__ is int:          # the common case first: one type test
        if seat == 0 or seat == 1:
            return seat  # type: ignore[return-value]
    elif isinstance(seat, bool) or not isinstance(seat, int):
        raise BadArgument(f"cannot {doing}: a seat is the int 0 or 1, not {seat!r} ({_kind(seat)})")
    elif seat == 0 or seat == 1:
        return int(seat)
    raise IllegalMove(f"cannot {doing}: there is no seat {int(seat)} (the seats are 0 and 1)",
                      f"there is no seat {int(seat)}")


def check_card(card: object, doing: str, who: str = "") -> Card:
    """``card`` as the Card it names: a Card or an int 0..51, never a bool, float or
    string. ``who`` starts the message ("seat 0 ")."""
    if isinstance(card, int) and not isinstance(card, bool):
        if 0 <= card < 52:
            return CARDS[card]
        raise IllegalMove(f"{who}cannot {doing} {int(card)}: there is no such card (cards are 0 to 51)",
                          f"there is no card {int(card)}")
    raise BadArgument(f"{who}cannot {doing} {card!r}: a card is a Card or an int 0 to 51, not {_kind(card)}",
                      f"a card is a Card or an int 0 to 51, not {_kind(card)}")


_CARDS_ONLY = {Card}


def check_cards(cards: object, doing: str, what: str, count: int) -> list[Card]:
    """``count`` different cards as a list; ``what`` names them for the message ("the
    deck", "seat 0's hand")."""
    if isinstance(cards, (str, bytes, int)) or not isinstance(cards, Iterable):
        raise BadArgument(f"cannot {doing}: {what} is a list of cards, not {_kind(cards)}")
    if type(cards) is list and set(map(type, cards)) == _CARDS_ONLY:
        out = list(cards)       # Cards all (Card() makes only 0..51): nothing to check one by one
    else:
        out = []
        for c in cards:
            try:
                out.append(check_card(c, "take"))
            except IllegalMove as bad:
                raise type(bad)(f"cannot {doing}: {c!r} in {what} is not a card ({bad.reason})") from None
    if len(out) != count or len(set(out)) != count:
        twice = sorted({c for c in out if out.count(c) > 1})
        why = f"{twice[0]} is there twice" if twice else f"it holds {len(out)}"
        raise IllegalMove(f"cannot {doing}: {what} needs {count} different cards ({why})")
    return out


def check_whole(value: object, doing: str, what: str) -> int:
    """``value`` as a whole number (an int, never a bool, float or string)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise BadArgument(f"cannot {doing}: {what} is a whole number, not {value!r} ({_kind(value)})")


def check_flag(value: object, doing: str, what: str) -> bool:
    """``value`` as True or False, nothing else (not 1, not "yes")."""
    if isinstance(value, bool):
        return value
    raise BadArgument(f"cannot {doing}: {what} is True or False, not {value!r} ({_kind(value)})")


def check_scores(scores: object, doing: str, limit: int) -> tuple[int, int]:
    """Two whole numbers from 0 to below ``limit``: the scores of a game still on."""
    if scores.__class__ is tuple and len(scores) == 2:   # the common case first: a deal's scores
        a, b = scores
        if a.__class__ is int and b.__class__ is int and 0 <= a < limit and 0 <= b < limit:
            return a, b
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
        raise BadArgument(f"cannot {doing}: the scores are two whole numbers, not {scores!r} ({_kind(scores)})")
    pair = tuple(scores)
    if len(pair) != 2:
        raise IllegalMove(f"cannot {doing}: the scores are two whole numbers, not {len(pair)}")
    a, b = (check_whole(s, doing, "a score") for s in pair)
    if not (0 <= a < limit and 0 <= b < limit):
        raise IllegalMove(f"cannot {doing}: scores {a} and {b} are not those of a game still on "
                          f"(0 to {limit - 1})")
    return a, b


__all__ = ["BadArgument", "IllegalMove", "check_card", "check_cards", "check_flag", "check_scores",
           "check_seat", "check_whole"]
