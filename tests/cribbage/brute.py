"""A slow, obvious cribbage scorer, written from the rules' words without the fast
path's ideas (no rank table, no base-5 keys): every subset of the five cards is looked
at, and every tail of the played cards.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from port.cards import CARDS, Card

JACK = 10


def count_value(c: Card) -> int:
    return min(c.rank + 1, 10)


def in_sequence(cards: Sequence[Card]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def ref_score_hand(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    four = [CARDS[c] for c in hand]
    turn = CARDS[starter]
    five = four + [turn]
    points = 0
    subsets = [s for k in range(1, 6) for s in combinations(five, k)]
    # FIFTEEN: 2 for each combination of cards that total 15.
    points += sum(2 for s in subsets if sum(count_value(c) for c in s) == 15)
    # PAIR: 2 for each pair of cards of the same rank.
    points += sum(2 for s in subsets if len(s) == 2 and s[0].rank == s[1].rank)
    # RUN: each combination of 3 or more in sequence, 1 a card; a shorter run inside a
    # longer one is not a combination of its own.
    runs = [s for s in subsets if len(s) >= 3 and in_sequence(s)]
    longest = max((len(s) for s in runs), default=0)
    points += sum(len(s) for s in runs if len(s) == longest)
    # FLUSH: the four of one suit 4, with the starter 5; the crib only the five.
    if len({c.suit for c in four}) == 1:
        if turn.suit == four[0].suit:
            points += 5
        elif not crib:
            points += 4
    # JACK of the starter's suit: 1.
    points += sum(1 for c in four if c.rank == JACK and c.suit == turn.suit)
    return points


def ref_peg_points(played: Sequence[int]) -> int:
    cards = [CARDS[c] for c in played]
    if not cards:
        return 0
    points = 0
    total = sum(count_value(c) for c in cards)
    if total in (15, 31):
        points += 2
    # PAIR, TRIPLET, FOUR: the last 2, 3, 4 cards all of one rank.
    for k, p in ((4, 12), (3, 6), (2, 2)):
        tail = cards[-k:]
        if len(tail) == k and len({c.rank for c in tail}) == 1:
            points += p
            break
    # RUN: the last k cards (k >= 3) form a sequence in any order; the longest counts.
    for k in range(len(cards), 2, -1):
        tail = cards[-k:]
        if len({c.rank for c in tail}) == k and in_sequence(tail):
            points += k
            break
    return points
