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


# Knocks where the knocker's arrangement matters: meld-heavy knockers and the issue's
# example (QH QC QD QS 4S 5S 6S 7S AD 2H keeps 7S loose against 8S).
ADVERSARIAL_KNOCKS = [
    ("QH QC QD QS 4S 5S 6S 7S AD 2H", "8S 9H 9D 3C 4C 5D 6D KH KD JC"),
    ("3S 3H 3D 4S 4H 4D 5S 5H 5D 2C", "3C 6S 6H 2S 2H 4C 5C 7D 8D KC"),
    ("5S 5H 5D 6S 6H 6D 7S 7H 7D AC", "8S 8H 4S 4H 5C 6C 7C 9D KD 2D"),
    ("4S 5S 6S 4H 5H 6H 4D 5D 6D 3C", "7S 7H 7D 3S 3H 3D 4C 5C 8C KC"),
]


def knock_positions(n: int, seed: int) -> list[tuple[int, int]]:
    """``n`` seeded (knocker, defender) hand masks: the knocker within the knock value
    10 and not gin, the defender dealt from the rest; every other knocker meld-heavy
    (cards of a few adjacent ranks, where arrangements overlap most)."""
    from port.ginrummy.rules.melds import deadwood_mask

    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        if len(out) % 2:
            lo, width = rng.randrange(0, 10), rng.randrange(3, 6)
            pool = [c for c in CARDS if lo <= c.rank < lo + width]
            rest = [c for c in CARDS if c not in pool]
            k = rng.sample(pool, min(10, len(pool)))
            k += rng.sample(rest, 10 - len(k))
        else:
            k = rng.sample(CARDS, 10)
        kh = mask(k)
        if not 0 < deadwood_mask(kh) <= 10:
            continue
        rest = [c for c in CARDS if not kh & c.bit]
        out.append((kh, mask(rng.sample(rest, 10))))
    return out


def suite_knocks() -> list[tuple[int, int]]:
    return knock_positions(300, seed=1991) + [(hand(k), hand(d)) for k, d in ADVERSARIAL_KNOCKS]
