"""Cribbage's computer player at the original's level: STANDARD, and the hints.

The documentation: the computer "chooses its cards by a set of fixed formulas", and
version 1.2 "improved the formulas when choosing cards to discard that take into
consideration which player is holding the crib" and "enhanced the logic when choosing
a card to play". The hint is the same formula for the human's cards ("The Hint
function uses about the same formulas"). STANDARD sees only its ``View``: its cards,
its own crib cards, the starter and the public play (the documentation: it "does not
look at your crib when discarding, it does not look at your hand").

The formulas (docs/cribbage-players.md gives the reasons):

- Lay away: for each of the 15 ways to keep four of the six cards, the kept four's
  mean score over every starter it has not seen (46 cards), plus the two thrown
  cards' simple crib value when it holds the crib, minus it when the opponent does.
- Play: each legal card's points now (``peg_points``), less a fixed price for what it
  leaves the opponent (a count of 5 or 21 for a ten card, a count under 15 it can
  make fifteen, a pair it can make three of a kind, two close cards it can extend to a
  run), with a small preference for playing high cards first and keeping low ones
  for the go.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from port.cards import Card
from port.cribbage.rules import Player, View, peg_points, score_hand

# Ace 1, pips their number, 10 J Q K 10: the count a card adds.
VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
ALL_CARDS = tuple(range(52))


def value(c: int) -> int:
    return VALUE[c % 13]


def alone(cards: Sequence[int]) -> int:
    """What a few cards score by themselves, without a starter: fifteens, pairs, runs
    of three or more (each combination), and four or more of one suit. Used for the
    reference bot's "cards that score most by themselves" and for crib guesses."""
    ranks = sorted(c % 13 for c in cards)
    pts = 0
    n = len(ranks)
    vals = [VALUE[r] for r in ranks]
    for k in range(2, n + 1):
        for combo in combinations(range(n), k):
            if sum(vals[i] for i in combo) == 15:
                pts += 2
    for i in range(n):
        for j in range(i + 1, n):
            if ranks[i] == ranks[j]:
                pts += 2
    pts += _runs(ranks)
    if n >= 4:
        suits = [c // 13 for c in cards]
        best = max(suits.count(s) for s in set(suits))
        if best >= 4:
            pts += best
    return pts


def _runs(ranks: list[int]) -> int:
    """Points of runs among sorted ranks: the longest runs, each combination counted
    (a double run of three is 6)."""
    counts = [0] * 14
    for r in ranks:
        counts[r] += 1
    best = 0
    r = 0
    while r < 13:
        if counts[r] == 0:
            r += 1
            continue
        s = r
        ways = 1
        while r < 13 and counts[r]:
            ways *= counts[r]
            r += 1
        length = r - s
        if length >= 3:
            best += length * ways
    return best


def unseen(view: View) -> list[int]:
    """The cards this seat has not seen: the opponent's cards, both crib cards it did
    not throw, and the deck, all alike to it."""
    seen = set(view.hand) | set(view.my_crib) | set(view.kept or ())
    seen.update(c for _, c in view.played)
    if view.starter is not None:
        seen.add(view.starter)
    return [c for c in ALL_CARDS if c not in seen]


def splits(hand: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, Card]]]:
    """The 15 ways to keep four of six cards: (kept four, thrown two)."""
    out = []
    for throw in combinations(range(len(hand)), 2):
        keep = tuple(c for i, c in enumerate(hand) if i not in throw)
        out.append((keep, (hand[throw[0]], hand[throw[1]])))
    return out


def mean_hand(keep: Sequence[Card], starters: Iterable[int]) -> float:
    """The kept four's mean show score over the given starters."""
    total = 0
    n = 0
    for s in starters:
        total += score_hand(keep, Card(s))
        n += 1
    return total / n if n else 0.0


def crib_guess(throw: Sequence[int]) -> float:
    """STANDARD's simple value of two cards in a crib: what they score together, a
    point for each five (tens are the commonest card), half a point for two cards
    close enough to make a run."""
    a, b = throw[0] % 13, throw[1] % 13
    pts: float = alone(throw)
    pts += (a == 4) + (b == 4)
    if 0 < abs(a - b) <= 2:
        pts += 0.5
    return pts


def standard_discard(view: View) -> tuple[Card, Card]:
    """STANDARD's two cards to lay away (and the human's hint)."""
    hand = list(view.hand)
    rest = [c for c in ALL_CARDS if c not in set(hand)]
    sign = 1.0 if view.dealer == view.seat else -1.0   # whose crib (version 1.2)
    best: tuple[float, int] | None = None
    choice = (hand[0], hand[1])
    for i, (keep, throw) in enumerate(splits(hand)):
        v = mean_hand(keep, rest) + sign * crib_guess(throw)
        if best is None or (v, -i) > best:
            best = (v, -i)
            choice = throw
    return choice


def play_price(count_cards: Sequence[int], count: int, c: int) -> float:
    """STANDARD's price of what card ``c`` leaves the opponent, in points."""
    new = count + value(c)
    price = 0.0
    if new == 5 or new == 21:
        price += 1.2           # a ten card (16 of 52) makes 15 or 31
    elif new < 15:
        price += 0.5 if 15 - new < 10 else 0.0   # another card makes fifteen
    elif 21 < new < 31:
        price += 0.4           # a card of 31 - new makes 31
    if count_cards and count_cards[-1] % 13 == c % 13:
        price += 1.0           # three of a kind pegs 6
    elif count_cards and abs(count_cards[-1] % 13 - c % 13) <= 2 and new < 31:
        price += 0.5           # a run to extend
    return price


def standard_play(view: View) -> Card | None:
    """STANDARD's card to play (and the human's hint); None when it must say GO."""
    legal = list(view.legal_plays())
    return choose_play(legal, list(view.count_cards), view.count) if legal else None


def choose_play(legal: Sequence[int], cc: list[int], count: int) -> int:
    """STANDARD's formula: the card with the most points now less its price, a lead
    below five preferred, the higher of equals (keep the low cards for the go)."""
    best: tuple[float, int] | None = None
    choice = legal[0]
    for c in legal:
        cc.append(c)
        pts = peg_points(cc)
        cc.pop()
        v = pts - play_price(cc, count, c)
        if not cc and value(c) < 5:
            v += 0.5           # a lead below five cannot be made fifteen
        v += 0.05 * value(c)   # play high, keep the low cards for the go
        key = (v, -int(c))
        if best is None or key > best:
            best = key
            choice = c
    return choice


def hint_discard(view: View) -> tuple[Card, Card]:
    """The hint for the human's two crib cards: STANDARD's own choice."""
    return standard_discard(view)


def hint_play(view: View) -> Card | None:
    """The hint for the human's card to play (None: say GO): STANDARD's own choice."""
    return standard_play(view)


class Standard(Player):
    """The original's level: fixed formulas, nothing random."""

    name = "standard"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def discard(self, view: View) -> tuple[Card, Card]:
        return standard_discard(view)

    def play(self, view: View) -> Card | None:
        return standard_play(view)
