"""A slow, obvious deadwood minimiser, written without the fast path's ideas.

It knows nothing of lanes or tables: it tries every subset of three or more cards,
keeps those that are melds by the rules' own words, and searches every choice of
disjoint melds. Exponential, and fine for 11 cards.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from port.cards import Card


def is_meld(cards: tuple[Card, ...]) -> bool:
    """Three or four of a kind, or three or more consecutive cards of one suit (Ace low)."""
    if len(cards) < 3:
        return False
    if len({c.rank for c in cards}) == 1:
        return len(cards) <= 4
    if len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def all_melds(cards: list[Card]) -> list[frozenset[Card]]:
    out = []
    for k in range(3, len(cards) + 1):
        for combo in combinations(cards, k):
            if is_meld(combo):
                out.append(frozenset(combo))
    return out


def ref_deadwood(cards: list[Card]) -> int:
    melds = all_melds(cards)

    @lru_cache(maxsize=None)
    def best(rest: frozenset[Card]) -> int:
        result = sum(c.value for c in rest)
        for m in melds:
            if m <= rest:
                result = min(result, best(rest - m))
        return result

    return best(frozenset(cards))


def ref_best_discards(cards: list[Card]) -> tuple[int, set[Card]]:
    scores = {c: ref_deadwood([x for x in cards if x != c]) for c in cards}
    low = min(scores.values())
    return low, {c for c, v in scores.items() if v == low}
