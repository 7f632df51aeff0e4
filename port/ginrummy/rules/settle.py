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
layoffs together leave it the least deadwood, and the knocker's melds are at their
best: of every arrangement within the knock value, the one that scores best for the
knocker after the defender's best layoffs (``knocker_melds``; docs/engine.md).

The other sources' table rules (issue 12): the knock deck's card stands where the
upcard is passed (its value and suit); flop gin scores 1 point, 2 with a bonus; boxes
(BOXES, HOLLYWOOD) are 1 for the hand, +1 undercut, +2 gin, those extras doubled.

``settle_out`` and ``settle_draw`` take card lists and check them (ten different cards
a hand, none in both, a knock within the knock value); ``settle_out_mask`` and
``settle_draw_mask`` are the unchecked fast paths on hand masks the state machine uses.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import product

from port.cards import LANE, Card, cards_of, mask
from port.checks import BadArgument, IllegalMove, check_card, check_cards, check_seat
from port.ginrummy.rules.melds import arrange_mask, arrangements_within_mask, deadwood_mask
from port.ginrummy.rules.options import Options

_SPREAD = 0x0001_0001_0001_0001


class Outcome(Enum):
    GIN = "gin"
    KNOCK = "knock"
    UNDERCUT = "undercut"
    DRAW = "draw"       # no points: see ``Settlement.drawn_by`` for why


class DrawnBy(Enum):
    """Why a hand ended as a draw."""

    STOCK = "stock"     # a stock draw with only two cards left (the documentation's rule)
    PILE = "pile"       # the pile was taken PILE_RUN_LIMIT times in a row (ours: docs/engine.md)


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
    drawn_by: DrawnBy | None = None    # a draw hand: why; None otherwise
    boxes: int = 0                     # boxes the winner earns (BOXES and HOLLYWOOD scoring)


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


def _checked_hands(hands: object, doing: str) -> tuple[int, int]:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (tuple, list)) or len(hands) != 2:
        raise BadArgument(f"cannot {doing}: the hands come as a pair of card lists, seat 0's then seat 1's")
    a = check_cards(hands[0], doing, "seat 0's hand", 10)
    b = check_cards(hands[1], doing, "seat 1's hand", 10)
    both = sorted(set(a) & set(b))
    if both:
        raise IllegalMove(f"cannot {doing}: {both[0]} is in both hands")
    return mask(a), mask(b)


def settle_out(knocker: int, hands: tuple[list[Card], list[Card]], options: Options,
               upcard: Card) -> Settlement:
    """Settle a hand ended by ``knocker`` going out (gin, or a knock) with the ten cards
    each seat holds after the discard, ``hands[0]`` being seat 0's. ``upcard`` is the
    hand's first upcard (the Oklahoma knock card). Checked first: two lists of ten
    different cards, none in both, and a knock within the knock value (``IllegalMove``).
    """
    doing = "settle the hand"
    knocker = check_seat(knocker, doing)
    if not isinstance(options, Options):
        raise BadArgument(f"cannot {doing}: the options are an Options, not a {type(options).__name__}")
    upcard = check_card(upcard, "settle the hand with the upcard")
    masks = _checked_hands(hands, doing)
    dw = deadwood_mask(masks[knocker])
    limit = options.knock_value(upcard)
    if dw and dw > limit:
        why = (f"the knock value is {limit}" if limit else "only gin goes out in this hand (knock value 0)")
        raise IllegalMove(f"seat {knocker} cannot knock with {dw} deadwood: {why}",
                          f"{dw} deadwood is over the knock value {limit}")
    return settle_out_mask(knocker, masks, options, upcard)


def settle_out_mask(knocker: int, hands: tuple[int, int], options: Options, upcard: Card) -> Settlement:
    """``settle_out`` on hand masks, unchecked: the state machine's fast path."""
    defender = 1 - knocker
    kh, dh = hands[knocker], hands[defender]
    k_dw = deadwood_mask(kh)
    doubled = options.doubled(upcard)
    d_melds, d_dead = _arranged(dh)
    if k_dw == 0:
        k_melds, _ = _arranged(kh)
        d_dw = deadwood_mask(dh)
        points = options.gin_bonus + d_dw
        return _settlement(options, Outcome.GIN, knocker, knocker, points, doubled,
                           {knocker: (k_melds, 0), defender: (d_melds, d_dead)}, 0, (k_dw, d_dw))
    best_k, k_dw, (d_dw, laid) = knocker_melds(kh, dh, options, upcard)
    rest = dh ^ laid
    d_melds, d_dead = _arranged(rest)
    k_used = 0
    for m in best_k:
        k_used |= m
    if k_dw < d_dw:
        outcome, winner, points = Outcome.KNOCK, knocker, d_dw - k_dw
    else:   # the documentation: "LESS or SAME points ... UNDERCUT"
        outcome, winner, points = Outcome.UNDERCUT, defender, options.undercut_bonus + k_dw - d_dw
    return _settlement(options, outcome, winner, knocker, points, doubled,
                       {knocker: (list(best_k), kh ^ k_used), defender: (d_melds, d_dead)},
                       laid, (k_dw, d_dw))


# The card room's extra boxes: "An undercut earns ... an extra box. Gin earns ... two
# extra boxes" (003), on top of the box for winning the hand.
_EXTRA_BOXES = {Outcome.KNOCK: 0, Outcome.UNDERCUT: 1, Outcome.GIN: 2}


def knocker_melds(kh: int, dh: int, options: Options,
                  upcard: Card | None) -> tuple[tuple[int, ...], int, tuple[int, int]]:
    """The knocker's melds at their best: of every arrangement of ``kh`` within the
    knock value (its least-deadwood ones always among them), the one that scores best
    for the knocker after the defender's best layoffs: a win by the most, else an
    undercut by the least; of equal ones the least deadwood, then the first found.
    Returns the melds, the knocker's deadwood with them, and the defender's reply
    (deadwood after layoffs, the cards laid off).

    A knocker may so keep a meldable card loose to deny a layoff: QH QC QD QS 4S 5S
    6S 7S AD 2H against 8S knocks with 7S loose (deadwood 10), and 8S stays dead.
    """
    least = deadwood_mask(kh)
    limit = max(least, options.knock_value(upcard))
    d0 = deadwood_mask(dh)              # the defender's deadwood before any layoff
    cands = sorted(arrangements_within_mask(kh, limit), key=lambda a: a[0])   # stable
    best: tuple[tuple[int, ...], int, tuple[int, int]] | None = None
    best_value = -10_000
    for k_dw, arrangement in cands:
        if best is not None and d0 - k_dw <= best_value:
            break   # no layoff can raise the defender's deadwood above d0: none better follows
        reply = best_layoffs(arrangement, dh)
        d_dw = reply[0]
        value = d_dw - k_dw if k_dw < d_dw else -(options.undercut_bonus + k_dw - d_dw)
        if value > best_value:
            best, best_value = (arrangement, k_dw, reply), value
    assert best is not None
    return best


def _settlement(options: Options, outcome: Outcome, winner: int, knocker: int, points: int,
                doubled: bool, arranged: dict[int, tuple[list[int], int]], laid: int,
                dws: tuple[int, int]) -> Settlement:
    defender = 1 - knocker
    per_seat_dw = {knocker: dws[0], defender: dws[1]}
    if options.scoring == "FLOP":
        # Flop gin (003): "the knocker earns 1 point ... An undercut earns an undercut
        # bonus of 1 point. Gin earns a gin bonus of 1 point."
        points = 1 if outcome is Outcome.KNOCK else 2
    boxes = 0
    if options.boxes:
        # Doublers double "undercut and gin boxes ... The box for winning the hand is not doubled."
        boxes = 1 + _EXTRA_BOXES[outcome] * (2 if doubled else 1)
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
        boxes=boxes,
    )


def settle_draw(hands: tuple[list[Card], list[Card]], options: Options, upcard: Card,
                drawn_by: DrawnBy = DrawnBy.STOCK) -> Settlement:
    """A draw hand: no points, both hands (ten cards each, checked) shown arranged."""
    doing = "settle a draw hand"
    if not isinstance(options, Options):
        raise BadArgument(f"cannot {doing}: the options are an Options, not a {type(options).__name__}")
    if not isinstance(drawn_by, DrawnBy):
        raise BadArgument(f"cannot {doing}: the reason is a DrawnBy, not a {type(drawn_by).__name__}")
    return settle_draw_mask(_checked_hands(hands, doing), options, check_card(upcard, doing), drawn_by)


def settle_draw_mask(hands: tuple[int, int], options: Options, upcard: Card,
                     drawn_by: DrawnBy = DrawnBy.STOCK) -> Settlement:
    """``settle_draw`` on hand masks, unchecked."""
    a0, a1 = _arranged(hands[0]), _arranged(hands[1])
    return Settlement(
        outcome=Outcome.DRAW, winner=None, points=0, doubled=options.doubled(upcard),
        knocker=None,
        melds=(_cards(a0[0]), _cards(a1[0])),
        deadwood_cards=(tuple(cards_of(a0[1])), tuple(cards_of(a1[1]))),
        layoffs=(),
        deadwood=(deadwood_mask(hands[0]), deadwood_mask(hands[1])),
        drawn_by=drawn_by,
    )
