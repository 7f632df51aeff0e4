"""Settling a hand: gin, knock, layoffs, undercut, the Oklahoma spade doubling.

The documentation's rules, in the order it gives them:
* Gin (no deadwood after discarding) scores the gin bonus plus the other player's
  deadwood; nothing is laid off on a gin.
* After a knock the other player lays off deadwood on the knocker's melds. The
  knocker never lays off; melds are not rearranged; deadwood of both hands is never
  combined. Laying off may chain: 5H onto 6H 7H 8H makes room for 4H.
* Knocker lower: the knocker scores the difference. Other player LESS OR THE SAME:
  undercut, the undercut bonus plus the difference.
* Oklahoma with a spade as first upcard: every point of the hand doubled.

Where the documentation leaves a choice to "the computer" that does all the laying
off and counting, we choose the best for each side: the defender's own melds and
layoffs together leave it the least deadwood, and the knocker's melds are, among its
least-deadwood arrangements, the ones that let the defender gain least.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import product

from port.cards import LANE, Card, cards_of
from port.rules.melds import arrange_mask, deadwood_mask, least_arrangements_mask
from port.rules.options import Options

_SPREAD = 0x0001_0001_0001_0001


class Outcome(Enum):
    GIN = "gin"
    KNOCK = "knock"
    UNDERCUT = "undercut"
    DRAW = "draw"       # the stock ran down to two cards: no points


@dataclass(frozen=True)
class Settlement:
    """How a hand ended and who scored what. Seats are 0 and 1."""

    outcome: Outcome
    winner: int | None                 # None for a draw hand
    points: int                        # what the winner scores (doubling included)
    doubled: bool                      # Oklahoma, spade upcard
    knocker: int | None                # who went out (gin or knock); None for a draw
    melds: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]  # per seat
    deadwood_cards: tuple[tuple[Card, ...], tuple[Card, ...]]                  # per seat, after layoffs
    layoffs: tuple[Card, ...]          # the defender's cards laid off on the knocker's melds
    deadwood: tuple[int, int]          # per seat, after layoffs


def _layoff_chains(meld: int, defender: int) -> list[list[int]]:
    """The ways the defender can add to one of the knocker's melds: lists of card-mask
    options, each option a whole chain (4H needs 5H laid first on 6H 7H 8H)."""
    low = meld & -meld
    if _is_set(meld):
        if meld.bit_count() >= 4:
            return []
        r = (low.bit_length() - 1) % LANE
        fourth = (_SPREAD << r) ^ meld
        return [[fourth]] if defender & fourth else []
    # A run: extend downward from its lowest card, upward from its highest.
    options = []
    for step in (-1, 1):
        chain = []
        edge = low if step < 0 else 1 << (meld.bit_length() - 1)
        suit_base = ((edge.bit_length() - 1) // LANE) * LANE
        pos = edge.bit_length() - 1 + step
        acc = 0
        while suit_base <= pos < suit_base + 13 and defender >> pos & 1:
            acc |= 1 << pos
            chain.append(acc)
            pos += step
        if chain:
            options.append(chain)
    return options


def _is_set(meld: int) -> bool:
    low = meld & -meld
    r = (low.bit_length() - 1) % LANE
    return meld & ~(_SPREAD << r) == 0


def best_layoffs(knocker_melds: tuple[int, ...], defender: int) -> tuple[int, int]:
    """The defender's least deadwood after laying off, and the cards laid off (a mask).

    Every combination of chains is tried and the defender's own hand re-arranged after
    each: a card laid off may break a meld of its own, so more is not always better.
    Ties go to fewer cards laid off (the defender keeps its melds).
    """
    choices: list[list[int]] = [[0]]
    for meld in knocker_melds:
        for chain in _layoff_chains(meld, defender):
            choices.append([0] + chain)
    best = (deadwood_mask(defender), 0, 0)
    for combo in product(*choices):
        laid = 0
        overlap = False
        for part in combo:
            if laid & part:
                overlap = True
                break
            laid |= part
        if overlap or not laid:
            continue
        cand = (deadwood_mask(defender ^ laid), laid.bit_count(), laid)
        if cand[:2] < best[:2]:
            best = cand
    return best[0], best[2]


def _cards(melds: list[int] | tuple[int, ...]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(cards_of(m)) for m in melds)


def _arranged(h: int) -> tuple[list[int], int]:
    sets, runs, dead = arrange_mask(h)
    return sets + runs, dead


def settle_out(knocker: int, hands: tuple[int, int], options: Options, upcard: Card) -> Settlement:
    """Settle a hand ended by ``knocker`` going out (gin or knock) with 10 cards each."""
    defender = 1 - knocker
    kh, dh = hands[knocker], hands[defender]
    k_dw = deadwood_mask(kh)
    doubled = options.doubled(upcard)
    d_melds, d_dead = _arranged(dh)
    if k_dw == 0:
        k_melds, _ = _arranged(kh)
        d_dw = deadwood_mask(dh)
        points = options.gin_bonus + d_dw
        return _settlement(Outcome.GIN, knocker, knocker, points, doubled,
                           {knocker: (k_melds, 0), defender: (d_melds, d_dead)}, 0, (k_dw, d_dw))
    # The knocker's melds: of its least-deadwood arrangements, the one the defender
    # can lay off least on (the defender's best reply to each is computed).
    best_k: tuple[int, ...] = ()
    best_reply = (-1, 0)
    for arrangement in least_arrangements_mask(kh):
        reply = best_layoffs(arrangement, dh)
        if reply[0] > best_reply[0]:
            best_k, best_reply = arrangement, reply
    d_dw, laid = best_reply
    rest = dh ^ laid
    d_melds, d_dead = _arranged(rest)
    k_used = 0
    for m in best_k:
        k_used |= m
    if k_dw < d_dw:
        outcome, winner, points = Outcome.KNOCK, knocker, d_dw - k_dw
    else:   # the documentation: "LESS or SAME points ... UNDERCUT"
        outcome, winner, points = Outcome.UNDERCUT, defender, options.undercut_bonus + k_dw - d_dw
    return _settlement(outcome, winner, knocker, points, doubled,
                       {knocker: (list(best_k), kh ^ k_used), defender: (d_melds, d_dead)},
                       laid, (k_dw, d_dw))


def _settlement(outcome: Outcome, winner: int, knocker: int, points: int, doubled: bool,
                arranged: dict[int, tuple[list[int], int]], laid: int,
                dws: tuple[int, int]) -> Settlement:
    defender = 1 - knocker
    per_seat_dw = {knocker: dws[0], defender: dws[1]}
    return Settlement(
        outcome=outcome,
        winner=winner,
        points=points * 2 if doubled else points,
        doubled=doubled,
        knocker=knocker,
        melds=(_cards(arranged[0][0]), _cards(arranged[1][0])),
        deadwood_cards=(tuple(cards_of(arranged[0][1])), tuple(cards_of(arranged[1][1]))),
        layoffs=tuple(cards_of(laid)),
        deadwood=(per_seat_dw[0], per_seat_dw[1]),
    )


def settle_draw(hands: tuple[int, int], options: Options, upcard: Card) -> Settlement:
    """A hand that ran out of stock: no points, both hands shown arranged."""
    a0, a1 = _arranged(hands[0]), _arranged(hands[1])
    return Settlement(
        outcome=Outcome.DRAW, winner=None, points=0, doubled=options.doubled(upcard),
        knocker=None,
        melds=(_cards(a0[0]), _cards(a1[0])),
        deadwood_cards=(tuple(cards_of(a0[1])), tuple(cards_of(a1[1]))),
        layoffs=(),
        deadwood=(deadwood_mask(hands[0]), deadwood_mask(hands[1])),
    )
