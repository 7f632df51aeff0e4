"""The fixed suite of hands the cycle budget is measured on: seeded random hands and
adversarial ones (as many overlapping sets and runs as ten or eleven cards allow)."""
from __future__ import annotations

import random

from port.cards import CARDS, hand, mask

ADVERSARIAL_10 = [
    "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H",      # two fours of a kind and a pair: 36 set choices
    "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H",
    "5S 5H 5D 5C 6S 6H 6D 7S 7H 7D",      # four + three + three: 24 set choices
    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",      # one long run
    "AS AH AD 2S 2H 2D 3S 3H 3D 4S",      # sets or runs, every way
    "9S 9H 9D 9C TS TH TD TC JS JH",
    "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C",
    "KS KH KD KC QS QH QD QC JS JH",
]
ADVERSARIAL_11 = [
    "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D",   # 4+4+3: 72 set choices before any discard
    "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D",
    "5S 5H 5D 5C 6S 6H 6D 6C 7S 7H 7D",
    "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D",
    "3D 3H 4S 7C 7D 7S 8D 8S 9D 9H 9S",   # the hand OpenSpiel gets wrong
    "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C",
    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
]


def random_hands(n: int, size: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [mask(rng.sample(CARDS, size)) for _ in range(n)]


def suite_10() -> list[int]:
    return random_hands(1000, 10, seed=1991) + [hand(t) for t in ADVERSARIAL_10]


def suite_11() -> list[int]:
    return random_hands(200, 11, seed=2004) + [hand(t) for t in ADVERSARIAL_11]
