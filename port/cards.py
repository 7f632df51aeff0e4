"""The Cards unit: cards, hands as bit masks, the text form, the deck and the seeded shuffle.

A card is a small int 0..51: ``suit * 13 + rank`` with rank 0 = Ace .. 12 = King and
suits in bridge order Spades, Hearts, Diamonds, Clubs (the order the documentation's
SUIT sort uses). ``Card`` is an ``int`` subclass whose ``str`` is the text form "AS".

A hand is a 64-bit mask with one bit per card at ``suit * 16 + rank``: each suit owns a
16-bit lane, so a run test (``m & m >> 1 & m >> 2``) never wraps from one suit into the
next, and the four suit lanes are 13-bit indices into the meld tables of the Rules unit.

Nothing here knows gin rummy beyond card values; Cribbage will use the same unit.
"""
from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Protocol, SupportsIndex

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_NAMES = ("Spades", "Hearts", "Diamonds", "Clubs")
LANE = 16          # bits per suit lane in a hand mask
LANE_MASK = 0x1FFF  # the 13 rank bits of one lane


class Card(int):
    """A card 0..51 that prints as "AS", "TD", "KC". ``Card(52)``, ``Card(-1)``,
    ``Card(3.0)`` and ``Card(True)`` are refused (a ValueError, a TypeError): there
    are no such cards. (The 52 cards are made once, ``CARDS``; hot paths index it.)"""

    __slots__ = ()

    def __new__(cls, value: SupportsIndex) -> Card:
        # The common case first: an int in range is the card made once, in CARDS.
        if (value.__class__ is int or value.__class__ is Card) and 0 <= value < 52:  # type: ignore[operator]
            return CARDS[value]  # type: ignore[index]
        if isinstance(value, (bool, float, str, bytes)):
            raise TypeError(f"a card is an int 0 to 51, not {value!r}")
        number = operator.index(value)
        if not 0 <= number < 52:
            raise ValueError(f"there is no card {number}: cards are 0 to 51")
        return CARDS[number]

    @property
    def rank(self) -> int:
        """0 = Ace .. 12 = King."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """0 Spades, 1 Hearts, 2 Diamonds, 3 Clubs."""
        return int(self) // 13

    @property
    def value(self) -> int:
        """Deadwood value: Ace 1, pips their number, 10 J Q K count 10."""
        return VALUES[int(self) % 13]

    @property
    def bit(self) -> int:
        """This card's bit in a hand mask."""
        return 1 << (int(self) // 13 * LANE + int(self) % 13)

    def __str__(self) -> str:
        return RANKS[int(self) % 13] + SUITS[int(self) // 13]

    def __repr__(self) -> str:
        return f"card({str(self)!r})"

    # Each card is made once (CARDS): a copy is the card itself, which keeps a deep
    # copy of a list of cards (OpenSpiel's clone of a state does one) cheap.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self


VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_BIT: tuple[int, ...] = tuple(c.bit for c in CARDS)
# Bit position (suit * 16 + rank) -> Card, for turning masks back into cards.
_CARD_AT_BIT: dict[int, Card] = {c.suit * LANE + c.rank: c for c in CARDS}


def make(rank: int, suit: int) -> Card:
    """The card of a rank (0 = Ace .. 12 = King) and a suit (0..3, S H D C)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no card with rank {rank} and suit {suit}")
    return CARDS[suit * 13 + rank]


def card(text: str) -> Card:
    """One card from its text form, case-insensitive: "AS", "td" (ten is T, not 10)."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(
            f"{text!r} is not a card: write a rank from {RANKS} then a suit from {SUITS}, like 'AS' or 'TD'"
        )
    return CARDS[SUITS.index(t[1]) * 13 + RANKS.index(t[0])]


def parse(text: str) -> list[Card]:
    """Cards from text separated by spaces or commas: parse("AS TD kh") -> [AS, TD, KH]."""
    return [card(tok) for tok in text.replace(",", " ").split()]


def text(cards: Iterable[int]) -> str:
    """The text form of cards, space separated: the inverse of ``parse``."""
    return " ".join(str(CARDS[c]) for c in cards)


def mask(cards: Iterable[int]) -> int:
    """The hand mask of some cards."""
    bit = _BIT
    m = 0
    for c in cards:
        m |= bit[c]
    return m


def cards_of(m: int) -> list[Card]:
    """The cards of a hand mask, in card order (suit by suit, Ace up)."""
    out = []
    while m:
        low = m & -m
        out.append(_CARD_AT_BIT[low.bit_length() - 1])
        m ^= low
    return out


def hand(text_form: str) -> int:
    """A hand mask from text: hand("AS 2S 3S"). Duplicate cards are an error."""
    cs = parse(text_form)
    if len(set(cs)) != len(cs):
        raise ValueError(f"a card is written twice in {text_form!r}")
    return mask(cs)


def sort_key_rank(c: int) -> tuple[int, int]:
    """Highest rank first, then suits in bridge order (the documentation's RANK sort)."""
    return (-(c % 13), c // 13)


def sort_key_suit(c: int) -> tuple[int, int]:
    """Suits in bridge order, highest rank first within a suit (the SUIT sort)."""
    return (c // 13, -(c % 13))


# ---- randomness -------------------------------------------------------------------

class Rng(Protocol):
    """What a shuffle needs from a generator: a uniform integer in range(n)."""

    def below(self, n: int) -> int: ...


class PascalRandom:
    """Turbo Pascal 7's ``Random(n)``: the generator the original's deals came from.

    ``RandSeed := RandSeed * $08088405 + 1`` (mod 2**32), and ``Random(n)`` is the high
    word of ``RandSeed * n``. It is fully specified integer arithmetic, so the same
    seed deals the same cards on every machine and every Python version.
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        self.seed = seed & 0xFFFFFFFF

    def below(self, n: int) -> int:
        if not 0 < n <= 0xFFFF:
            raise ValueError("Random(n) takes 1 <= n <= 65535, as Turbo Pascal's Word")
        self.seed = (self.seed * 0x08088405 + 1) & 0xFFFFFFFF
        return (self.seed * n) >> 32


def deck() -> list[Card]:
    """A fresh deck in card order."""
    return list(CARDS)


def shuffle(cards: list[Card], rng: Rng) -> list[Card]:
    """Shuffle in place (Fisher-Yates from the top) and return the list."""
    if type(rng) is PascalRandom and len(cards) <= 0x10000:
        # ``rng.below(i + 1)`` written out: the same numbers, a third of the time of
        # 51 calls (environments deal at every reset).
        seed = rng.seed
        for i in range(len(cards) - 1, 0, -1):
            seed = (seed * 0x08088405 + 1) & 0xFFFFFFFF
            j = (seed * (i + 1)) >> 32
            cards[i], cards[j] = cards[j], cards[i]
        rng.seed = seed
        return cards
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def shuffled_deck(rng: Rng) -> list[Card]:
    """A shuffled deck; the last card of the list is the top of the deck."""
    return shuffle(deck(), rng)


def shuffled_top(rng: Rng, k: int) -> list[Card]:
    """``shuffled_deck(rng)[-k:]``, the generator left where the whole shuffle leaves
    it. Fisher-Yates from the top settles the top card first, so only the first k
    steps are made; PascalRandom then jumps over the other draws at once (a cut for
    the deal needs two cards, not the 51 steps)."""
    if type(rng) is not PascalRandom or not 0 < k < 52:
        return shuffled_deck(rng)[-k:] if k else []
    return shuffle_started(rng, k)[0][52 - k:]


def shuffle_started(rng: Rng, k: int) -> tuple[list[Card], int | None]:
    """The first ``k`` steps of ``shuffled_deck(rng)`` (0 < k < 52): a deck whose top k
    cards are already the shuffled deck's, and the seed its other steps go on from
    (``shuffle_finish``); the generator is left where the whole shuffle leaves it. A
    generator other than PascalRandom shuffles the whole deck at once (seed None)."""
    if type(rng) is not PascalRandom or not 0 < k < 52:
        return shuffled_deck(rng), None
    cards = deck()
    seed = rng.seed
    for i in range(51, 51 - k, -1):
        seed = (seed * 0x08088405 + 1) & 0xFFFFFFFF
        j = (seed * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]
    mul, add = _JUMPS[51 - k]
    rng.seed = (seed * mul + add) & 0xFFFFFFFF
    return cards, seed


def shuffle_finish(cards: list[Card], seed: int, k: int) -> None:
    """The steps ``shuffle_started(rng, k)`` left (from its ``seed``), in place: they
    shuffle ``cards[:52 - k]`` only, so cards taken from the top since change nothing."""
    for i in range(51 - k, 0, -1):
        seed = (seed * 0x08088405 + 1) & 0xFFFFFFFF
        j = (seed * (i + 1)) >> 32
        cards[i], cards[j] = cards[j], cards[i]


def _jumps(n: int) -> list[tuple[int, int]]:
    """For t = 0..n: PascalRandom's t steps as one, ``seed -> seed * mul + add``."""
    out = [(1, 0)]
    for _ in range(n):
        mul, add = out[-1]
        out.append(((mul * 0x08088405) & 0xFFFFFFFF, (add * 0x08088405 + 1) & 0xFFFFFFFF))
    return out


_JUMPS = _jumps(51)
