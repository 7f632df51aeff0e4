"""Cribbage's EASY: one plain rule instead of STANDARD's formulas, as GinRummy's EASY
option is ("will make the computer always pick the largest value unused card in its
hand for discarding instead of following its better choosing formulas"; the Cribbage
documentation has no EASY, docs/choices.md gives the reasons for this one).

- Lay away: the two highest-value *unused* cards, a card being used when the six
  score less by themselves without it (``computer.alone``: fifteens, pairs, runs, a
  flush). Too few unused cards: the highest-value used ones make up the two. Equal
  values: the higher rank, then the later suit. Whose crib it is does not matter.
- Play: the highest-value card that fits the count, whatever it pegs or leaves.

It sees only its ``View`` and nothing in it is random.
"""
from __future__ import annotations

from collections.abc import Sequence

from port.cards import Card
from port.cribbage.computer import Standard, alone, value
from port.cribbage.rules import View


def _order(c: int) -> tuple[int, int, int]:
    """Highest value first; among equal values the higher rank, then the later suit."""
    return (value(c), c % 13, c // 13)


def unused(cards: Sequence[int]) -> list[int]:
    """The cards that take no part in what the cards score by themselves."""
    whole = alone(cards)
    return [c for i, c in enumerate(cards) if alone(cards[:i] + cards[i + 1:]) == whole]


def easy_discard(view: View) -> tuple[Card, Card]:
    hand = list(view.hand)
    free = sorted(unused(hand), key=_order, reverse=True)
    used = sorted((c for c in hand if c not in free), key=_order, reverse=True)
    a, b = (free + used)[:2]
    return a, b


def easy_play(view: View) -> Card | None:
    legal = view.legal_plays()
    return max(legal, key=_order) if legal else None


class Easy(Standard):
    """EASY: the highest unused cards to the crib, the highest card that fits."""

    name = "easy"

    def discard(self, view: View) -> tuple[Card, Card]:
        return easy_discard(view)

    def play(self, view: View) -> Card | None:
        return easy_play(view)


__all__ = ["Easy", "easy_discard", "easy_play", "unused"]
