"""Cribbage's EXPERT, beyond the original: expected values where STANDARD has fixed
formulas. It sees only its ``View``, as every player does (docs/cribbage-players.md).

- Lay away: for each of the 15 splits, the kept four's mean score over the 46 starters
  it has not seen, plus the crib's expected value from the crib tables (added when it
  deals, taken off when the opponent does), plus the kept four's expected pegging
  margin from the pegging table. Both tables are built by scripts in scripts/ and
  shipped as JSON beside this module. Near the end of a game, when it counts first,
  it also weighs the chance its hand reaches the limit.
- Play: a look-ahead over the opponent's possible hands (the unseen cards, less those
  its GOs rule out; every hand when few, else a sample drawn from the view), each
  searched to the end of the play with both sides playing their best.
- Board position: a card that wins the game now is played; near the end its own and
  the opponent's points are weighed by who is about to count out (offence when the
  opponent will, defence when it will).
"""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from pathlib import Path

from port.cards import Card
from port.cribbage.computer import (
    ALL_CARDS, VALUE, Standard, choose_play, mean_hand, splits, unseen, value,
)
from port.cribbage.rules import Act, View, peg_points, score_hand

TABLES_FILE = Path(__file__).resolve().parent / "crib_tables.json"
PEG_FILE = Path(__file__).resolve().parent / "peg_table.json"
RANKS = "A23456789TJQK"
GAME = 60.0          # what winning or losing the game now is worth, in points
DEALER_PEG = 2.0     # a rough figure for the pegging still to come, for the endgame
PEG_WEIGHT = 1.0     # the pegging table's margin counts as points
SAMPLES = 160        # opponent hands drawn for the look-ahead when there are more
OPPONENT_MODEL = True  # the opponent plays by STANDARD's formula in the look-ahead


@lru_cache(maxsize=1)
def crib_tables() -> dict[str, dict[str, float]]:
    """The shipped tables: ``dealer`` (my crib) and ``pone`` (the opponent's)."""
    data = json.loads(TABLES_FILE.read_text())
    return {"dealer": data["dealer"], "pone": data["pone"]}


@lru_cache(maxsize=1)
def peg_table() -> dict[str, dict[str, float]]:
    """The shipped pegging table: a kept four's mean pegging margin, as ``pone`` and
    as ``dealer`` (scripts/build_peg_table.py)."""
    data = json.loads(PEG_FILE.read_text())
    return {"pone": data["pone"], "dealer": data["dealer"]}


def peg_value(keep: Sequence[int], dealer: bool) -> float:
    """What the kept four is expected to peg more than the opponent."""
    key = "".join(RANKS[r] for r in sorted(c % 13 for c in keep))
    return peg_table()["dealer" if dealer else "pone"][key]


def crib_key(a: int, b: int) -> str:
    """The table key of two thrown cards: "55", "5J" (off suit), "5Js" (suited)."""
    ra, rb = sorted((a % 13, b % 13))
    key = RANKS[ra] + RANKS[rb]
    return key + "s" if ra != rb and a // 13 == b // 13 else key


def crib_value(throw: Sequence[int], mine: bool) -> float:
    """The expected crib with these two cards in it: my crib or the opponent's."""
    return crib_tables()["dealer" if mine else "pone"][crib_key(throw[0], throw[1])]


def expert_discard(view: View) -> tuple[Card, Card]:
    hand = list(view.hand)
    held = set(hand)
    rest = [c for c in ALL_CARDS if c not in held]
    mine = view.dealer == view.seat
    sign = 1.0 if mine else -1.0
    limit = view.options.limit
    need = limit - view.scores[view.seat]
    # The pone counts first: near the end, a hand that reaches the limit wins.
    race = not mine and need <= 29 + DEALER_PEG
    best: tuple[float, int] | None = None
    choice = (hand[0], hand[1])
    for i, (keep, throw) in enumerate(splits(hand)):
        if race:
            pts = [score_hand(keep, Card(s)) for s in rest]
            ev = sum(pts) / len(pts)
            reach = sum(p + DEALER_PEG >= need for p in pts) / len(pts)
            v = ev + sign * crib_value(throw, mine) + GAME * reach
        else:
            v = mean_hand(keep, rest) + sign * crib_value(throw, mine)
        v += PEG_WEIGHT * peg_value(keep, mine)
        if best is None or (v, -i) > best:
            best = (v, -i)
            choice = throw
    return choice


def _solve(turn_hand: tuple[int, ...], other_hand: tuple[int, ...], cc: tuple[int, ...],
           count: int, me_to_act: bool, last_me: bool | None, a: float, b: float,
           memo: dict[tuple[object, ...], float]) -> float:
    """The rest of the play with both hands known (ranks only: suits never peg): my
    points times ``a`` less the opponent's times ``b``. I play my best; the opponent
    plays by STANDARD's formula when ``OPPONENT_MODEL`` is on (it cannot see my cards,
    so its best play against them is no model of it), else its best too.
    ``turn_hand`` is the hand of the seat to act; ``last_me`` says who played the last
    card of the count (None: nobody yet). GO, the go point, the last card and 31 as the
    engine plays them: a new count is led by the seat that did not play the last card."""
    key = (turn_hand, other_hand, cc, me_to_act, last_me)
    got = memo.get(key)
    if got is not None:
        return got
    room = 31 - count
    best: float | None = None
    prev = -1
    only = -1
    if OPPONENT_MODEL and not me_to_act:
        legal = [r for r in turn_hand if VALUE[r] <= room]
        if legal:
            only = choose_play(legal, list(cc), count)
    for i, r in enumerate(turn_hand):
        v = VALUE[r]
        if v > room or r == prev or (only >= 0 and r != only):
            continue
        prev = r
        rest = turn_hand[:i] + turn_hand[i + 1:]
        ncc = cc + (r,)
        p = peg_points(ncc)
        gain = a * p if me_to_act else -b * p
        if v == room:                                 # 31: a new count, the other leads
            u = gain + _solve(other_hand, rest, (), 0, not me_to_act, None, a, b, memo)
        else:
            u = gain + _solve(other_hand, rest, ncc, count + v, not me_to_act, me_to_act, a, b, memo)
        if best is None or (u > best if me_to_act else u < best):
            best = u
    if best is None:
        if any(VALUE[r] <= room for r in other_hand):     # GO: the other plays on
            best = _solve(other_hand, turn_hand, cc, count, not me_to_act, last_me, a, b, memo)
        elif last_me is None:                              # every card played, 31 last
            best = 0.0
        else:
            best = a if last_me else -b                    # the go, or the last card
            if turn_hand or other_hand:
                # The seat that did not play the last card leads the new count.
                if last_me == me_to_act:
                    best += _solve(other_hand, turn_hand, (), 0, not me_to_act, None, a, b, memo)
                else:
                    best += _solve(turn_hand, other_hand, (), 0, me_to_act, None, a, b, memo)
    memo[key] = best
    return best


def _opponent_pool(view: View) -> list[int]:
    """The cards the opponent may still hold: unseen, and each too big for every count
    at which it said GO this deal (it would have had to play it)."""
    opp = 1 - view.seat
    least = 1
    for e in view.events:
        if e.act is Act.GO and e.seat == opp:
            least = max(least, 32 - e.count)
    return [c for c in unseen(view) if value(c) >= least]


def _opponent_hands(pool: list[int], k: int, rng: random.Random) -> list[tuple[tuple[int, ...], float]]:
    """Opponent hands (sorted ranks) with their weights: every hand when there are
    few, else ``SAMPLES`` drawn at random."""
    if k == 0:
        return [((), 1.0)]
    if k > len(pool):
        k = len(pool)
    hands: dict[tuple[int, ...], float] = {}
    if comb(len(pool), k) <= SAMPLES:
        for combo in combinations(pool, k):
            h = tuple(sorted(c % 13 for c in combo))
            hands[h] = hands.get(h, 0.0) + 1.0
    else:
        for _ in range(SAMPLES):
            h = tuple(sorted(c % 13 for c in rng.sample(pool, k)))
            hands[h] = hands.get(h, 0.0) + 1.0
    return list(hands.items())


def expert_play(view: View, seed: int = 0) -> Card | None:
    legal = list(view.legal_plays())
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    me, opp = view.seat, 1 - view.seat
    limit = view.options.limit
    my_need = limit - view.scores[me]
    opp_need = limit - view.scores[opp]
    for c in legal:
        if peg_points(list(view.count_cards) + [c]) >= my_need:
            return c                      # pegging out wins the game now
    a, b = _stance(view, my_need, opp_need)
    # The samples come from the view alone: the same view, the same choice.
    rng = random.Random(hash((seed, tuple(view.hand), tuple(c for _, c in view.played))))
    hands = _opponent_hands(_opponent_pool(view), view.opponent_left, rng)
    cc = tuple(c % 13 for c in view.count_cards)
    mine = tuple(sorted(c % 13 for c in view.hand))
    memo: dict[tuple[object, ...], float] = {}
    best: tuple[float, int] | None = None
    choice = legal[0]
    for c in sorted(legal):
        r = c % 13
        i = mine.index(r)
        rest = mine[:i] + mine[i + 1:]
        ncc = cc + (r,)
        count = view.count + value(c)
        gain = a * peg_points(ncc)
        total = 0.0
        weight = 0.0
        for h, w in hands:
            if count == 31:
                u = _solve(h, rest, (), 0, False, None, a, b, memo)
            else:
                u = _solve(h, rest, ncc, count, False, True, a, b, memo)
            total += w * u
            weight += w
        v = gain + total / weight
        key = (v, -int(c))
        if best is None or key > best:
            best = key
            choice = c
    return choice


def _stance(view: View, my_need: int, opp_need: int) -> tuple[float, float]:
    """Weights of my points and the opponent's near the end of a game. When I count
    first and my hand carries me out, only the opponent pegging out can stop me:
    defence. When the opponent counts first and probably counts out, only pegging out
    can save me: offence."""
    if view.starter is None:
        return 1.0, 1.0
    kept = list(view.kept) if view.kept else list(view.hand) + [c for s, c in view.played if s == view.seat]
    mine = score_hand(kept, view.starter) if len(kept) == 4 else 0
    pone = view.dealer != view.seat
    if pone and mine >= my_need:
        return 0.5, 2.0
    if not pone and opp_need <= 8:
        return 2.0, 0.5
    return 1.0, 1.0


class Expert(Standard):
    """EXPERT: expected values, the crib tables, look-ahead pegging, the board."""

    name = "expert"

    def discard(self, view: View) -> tuple[Card, Card]:
        return expert_discard(view)

    def play(self, view: View) -> Card | None:
        return expert_play(view, self.seed)


__all__ = ["Expert", "crib_key", "crib_tables", "crib_value", "expert_discard",
           "expert_play"]
