"""What EXPERT believes of the opponent's hand in the play: Bayesian inference over the
cards it has not seen, with a model of a sensible player as the likelihood.

The opponent's six cards were its kept four and its two crib cards. EXPERT sees the
cards it has played this deal, when it said GO, and nothing else. A hypothesis is the
opponent's unseen cards: the cards still in its hand and its two crib cards, drawn
from the unseen cards. Its weight is how likely the opponent was to act as it did with
that hand, by the model of a sensible player, STANDARD's own formulas:

- it laid away what STANDARD's formula lays away from those six (else ``MISS_DISCARD``);
- each card it played is the one STANDARD's formula plays from what it held then
  (else ``MISS_PLAY`` for each card that is not);
- it said GO only when none of its cards fitted (a rule, not a model: weight 0).

The model is soft (a miss costs a factor, it does not rule a hand out), so a player that
plays otherwise than STANDARD only blurs the belief. EXPERT never looks at a hidden
card: every fact used here is in its ``View``.

The discard model is STANDARD's formula made fast: the kept four's mean show over the
46 starters is sum over the starter's rank of (cards of that rank left) times the
points of the five ranks, plus the flush and nobs by suits; for a kept four's ranks the
sum over all ranks is computed once, and the thrown two's ranks are taken off.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from port.cribbage.computer import VALUE, choose_play, crib_guess, unseen
from port.cribbage.rules import Act, View
from port.cribbage.rules.scoring import _TABLE

MISS_DISCARD = 0.05   # the weight of a hand from which a sensible player throws otherwise
MISS_PLAY = 0.1       # the weight, per card, of a play a sensible player would not make
PROPOSALS = 400       # hypotheses drawn per decision
HANDS = 160           # the most different hands the look-ahead searches (by weight past it)
JACK = 10

_SPLITS = [(tuple(i for i in range(6) if i not in t), t) for t in combinations(range(6), 2)]


def _ranks_key(ranks: Sequence[int]) -> int:
    return sum(5 ** r for r in ranks)


def _four_tables() -> tuple[dict[int, tuple[int, ...]], dict[int, int]]:
    """For each multiset of four ranks (keyed by its base-5 weight): the rank points
    of the four with a starter of each rank, and their sum over a full deck's other
    cards of each rank."""
    points: dict[int, tuple[int, ...]] = {}
    whole: dict[int, int] = {}
    for four in combinations_with_replacement(range(13), 4):
        w = _ranks_key(four)
        row = []
        for r in range(13):
            left = 4 - four.count(r)
            row.append(_TABLE[w + 5 ** r] if left > 0 else 0)
        points[w] = tuple(row)
        whole[w] = sum((4 - four.count(r)) * row[r] for r in range(13))
    return points, whole


_POINTS, _WHOLE = _four_tables()
_GUESS = tuple(tuple(crib_guess((a, b + 13)) for b in range(13)) for a in range(13))
_W = tuple(5 ** (c % 13) for c in range(52))


def sensible_throw(six: Sequence[int], own_crib: bool) -> tuple[int, int]:
    """The two cards STANDARD's formula lays away from ``six`` (its crib or not): the
    kept four's mean show over the 46 starters, plus or minus the thrown two's crib
    guess. Equal to ``computer.standard_discard`` but for the order of exact ties."""
    sign = 1.0 if own_crib else -1.0
    suits = [c // 13 for c in six]
    in_suit = [suits.count(s) for s in range(4)]
    best = -1e9
    choice = (six[0], six[1])
    for keep, (i, j) in _SPLITS:
        a, b = six[i], six[j]
        k = [six[x] for x in keep]
        w = _W[k[0]] + _W[k[1]] + _W[k[2]] + _W[k[3]]
        row = _POINTS[w]
        total = _WHOLE[w] - row[a % 13] - row[b % 13]
        s0 = suits[keep[0]]
        if s0 == suits[keep[1]] == suits[keep[2]] == suits[keep[3]]:
            total += 4 * 46 + 13 - in_suit[s0]       # a flush of four, of five on its suit
        for c in k:
            if c % 13 == JACK:
                total += 13 - in_suit[c // 13]       # nobs: a starter of the jack's suit
        v = total / 46 + sign * _GUESS[a % 13][b % 13]
        if v > best:
            best = v
            choice = (a, b)
    return choice


@dataclass(frozen=True)
class Seen:
    """The opponent's part of this deal's play, from the public events: each card it
    played with the count's cards before it, and the counts at which it said GO."""

    plays: tuple[tuple[int, tuple[int, ...], int], ...]   # (card, cards of the count before, count before)
    gos: tuple[int, ...]


def seen_play(view: View) -> Seen:
    opp = 1 - view.seat
    plays = []
    gos = []
    cc: list[int] = []
    count = 0
    for e in view.events:
        if e.act is Act.PLAY and e.card is not None:
            if e.seat == opp:
                plays.append((int(e.card), tuple(cc), count))
            cc.append(int(e.card))
            count = e.count
            if count == 31:
                cc, count = [], 0
        elif e.act is Act.GO_POINT:
            cc, count = [], 0
        elif e.act is Act.GO and e.seat == opp:
            gos.append(e.count)
    return Seen(tuple(plays), tuple(gos))


def play_weight(kept: Sequence[int], seen: Seen) -> float:
    """How likely a sensible player holding ``kept`` was to play as the opponent did:
    a factor ``MISS_PLAY`` for each card STANDARD's formula would not have played."""
    held = list(kept)
    w = 1.0
    for card, cc, count in seen.plays:
        legal = [c for c in held if VALUE[c % 13] <= 31 - count]
        if len(legal) > 1 and choose_play(legal, list(cc), count) != card:
            w *= MISS_PLAY
        held.remove(card)
    return w


def opponent_hands(view: View, rng: random.Random,
                   proposals: int = PROPOSALS) -> list[tuple[tuple[int, ...], float]]:
    """The opponent's possible hands now (sorted ranks) with their weights, from
    ``proposals`` hypotheses drawn from the unseen cards."""
    k = view.opponent_left
    if k == 0:
        return [((), 1.0)]
    seen = seen_play(view)
    played = [c for c, _, _ in seen.plays]
    pool = unseen(view)
    least = 1
    for count in seen.gos:
        least = max(least, 32 - count)
    own_crib = view.dealer != view.seat
    n = min(k + 2, len(pool))
    hands: dict[tuple[int, ...], float] = {}
    for _ in range(proposals):
        rest = rng.sample(pool, n)
        six = played + rest
        if len(six) == 6:
            a, b = sensible_throw(six, own_crib)
            if a in played or b in played:
                w = MISS_DISCARD
                a, b = rest[0], rest[1]
            else:
                w = 1.0
        else:                                  # too few cards left to hold a crib pair
            w = 1.0
            a = b = -1
        held = [c for c in rest if c != a and c != b][:k]
        if any(VALUE[c % 13] < least for c in held):
            continue                           # it said GO holding a card that fitted
        w *= play_weight(played + held, seen)
        key = tuple(sorted(c % 13 for c in held))
        hands[key] = hands.get(key, 0.0) + w
    if not hands:                              # nothing fits: every hand alike
        for _ in range(proposals):
            key = tuple(sorted(c % 13 for c in rng.sample(pool, min(k, len(pool)))))
            hands[key] = hands.get(key, 0.0) + 1.0
    if len(hands) > HANDS:
        return _resample(hands, HANDS, rng)
    return list(hands.items())


def _resample(hands: dict[tuple[int, ...], float], n: int,
              rng: random.Random) -> list[tuple[tuple[int, ...], float]]:
    """``n`` draws from the hands by weight, evenly spaced over the cumulative weights
    from one random start (systematic resampling): the look-ahead's work is bounded,
    and the belief kept as nearly as so few draws can."""
    keys = sorted(hands)
    total = sum(hands[k] for k in keys)
    step = total / n
    x = rng.random() * step
    out: dict[tuple[int, ...], float] = {}
    acc = 0.0
    drawn = 0
    for k in keys:
        acc += hands[k]
        while x < acc and drawn < n:
            out[k] = out.get(k, 0.0) + 1.0
            x += step
            drawn += 1
    return list(out.items())


__all__ = ["HANDS", "MISS_DISCARD", "MISS_PLAY", "PROPOSALS", "Seen", "opponent_hands", "play_weight",
           "seen_play", "sensible_throw"]
