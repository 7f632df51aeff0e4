"""Cribbage's EXPERT, beyond the original: expected values where STANDARD has fixed
formulas, a belief about the opponent's cards, and the board. It sees only its
``View``, as every player does (docs/cribbage-players.md).

- Lay away: for each of the 15 splits, the kept four's mean score over the 46 starters
  it has not seen, plus the crib's expected value from the crib tables (the other two
  crib cards being the opponent's likely throw; added when it deals, taken off when
  the opponent does), plus the kept four's expected pegging margin from the pegging
  table. Near the end of the game the hand's score over the 46 starters is weighed by
  what each score is worth on the board (``port.cribbage.board``), not by its points.
- Play: a look-ahead over the opponent's possible hands, each weighed by how likely a
  sensible player was to lay away and play as the opponent did with it
  (``port.cribbage.infer``), each searched to the end of the play: EXPERT tries each
  of its cards, the opponent plays by STANDARD's formula (it cannot see EXPERT's cards).
  Far from the end each line is worth its points; near it, what the end of the play
  leaves on the board, the show counted in its order (a card that pegs out wins).
"""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from port.cards import Card
from port.cribbage import board
from port.cribbage.computer import (
    ALL_CARDS, VALUE, Standard, choose_play, splits, value,
)
from port.cribbage.infer import opponent_hands, seen_play
from port.cribbage.rules import Options, View, peg_points, score_hand
from port.cribbage.rules.scoring import _TABLE

TABLES_FILE = Path(__file__).resolve().parent / "crib_tables.json"
PEG_FILE = Path(__file__).resolve().parent / "peg_table.json"
RANKS = "A23456789TJQK"
JACK = 10
PEG_WEIGHT = 1.0     # the pegging table's margin counts as points
BOARD = True         # near the end, choose by the board's equity, not by points
BOARD_DISCARD = True  # (experiments: the board in laying away)
TIE = 1e-4           # the weight of points where the board's equities are all but equal

Hands = list[tuple[tuple[int, ...], float]]


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


# ---- laying away ----------------------------------------------------------------------

@dataclass(frozen=True)
class Split:
    """One of the 15 ways to lay away, valued in points as EXPERT values them: the kept
    four's exact mean show over the 46 starters not seen, the crib's expected value
    with the two thrown cards (+ when the crib is mine, - when it is the opponent's),
    and the kept four's expected pegging margin."""

    keep: tuple[Card, ...]
    throw: tuple[Card, Card]
    shows: tuple[int, ...]          # the kept four's show with each unseen starter
    crib: float                     # the crib's expected value, signed for its owner
    peg: float

    @property
    def hand(self) -> float:
        return sum(self.shows) / len(self.shows)

    @property
    def total(self) -> float:
        return self.hand + self.crib + self.peg


def discard_table(view: View) -> list[Split]:
    """All 15 splits of the six cards in ``splits`` order, each valued in points."""
    hand = list(view.hand)
    held = set(hand)
    rest = [c for c in ALL_CARDS if c not in held]
    mine = view.dealer == view.seat
    sign = 1.0 if mine else -1.0
    return [Split(tuple(keep), (throw[0], throw[1]), tuple(score_hand(keep, s) for s in rest),
                  sign * crib_value(throw, mine), PEG_WEIGHT * peg_value(keep, mine))
            for keep, throw in splits(hand)]


def expert_discard(view: View) -> tuple[Card, Card]:
    rows = discard_table(view)
    best = max(range(len(rows)), key=lambda i: (rows[i].total, -i))
    if BOARD and BOARD_DISCARD and board.near_end(view.scores, view.options):
        best = _board_discard(view, rows, best)
    return rows[best].throw


def _board_discard(view: View, rows: list[Split], usual: int) -> int:
    """Near the end, the split whose show is worth most on the board. The board's
    distributions are those of a usual deal, so each split's crib and pegging are
    taken as its difference from the split that counts most in points (``usual``):
    my hand's points move by the pegging difference, and by the crib's when it is
    mine; the opponent's crib moves the dealer's show (curves a point apart, read
    between them)."""
    me, opp = view.scores[view.seat], view.scores[1 - view.seat]
    mine = view.dealer == view.seat
    # The crib's value without its sign: whose crib it is decides what it moves.
    crib0, peg0 = abs(rows[usual].crib), rows[usual].peg
    best: tuple[float, int] | None = None
    choice = usual
    for i, row in enumerate(rows):
        shows, crib, peg, points = row.shows, abs(row.crib), row.peg, row.total
        move = peg - peg0 + (crib - crib0 if mine else 0.0)
        shift = 0.0 if mine else crib - crib0
        low = int(shift // 1)
        f = shift - low
        v = 0.0
        for k, part in ((low, 1.0 - f), (low + 1, f)):
            if part <= 0.0:
                continue
            curve = board.hand_curve(me, opp, mine, view.options, k)
            v += part * sum(board.at(curve, h + move) for h in shows) / len(shows)
        # Where the board cannot tell two splits apart (both all but sure to win, or
        # to lose), the points do.
        v += TIE * points
        if best is None or (v, -i) > best:
            best = (v, -i)
            choice = i
    return choice


# ---- the play -------------------------------------------------------------------------

# The look-ahead meets the same counts again and again (ranks only): what a card pegs
# and what STANDARD's formula plays are looked up once made. Both depend on ranks
# alone, so the caches hold for every deal.
_PEGGED: dict[tuple[int, ...], int] = {}
_MODEL: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
CACHE = 200_000       # entries kept in each cache; past it, it starts again


def _pegs(cc: tuple[int, ...]) -> int:
    """``peg_points`` of ranks, remembered."""
    got = _PEGGED.get(cc)
    if got is None:
        if len(_PEGGED) >= CACHE:
            _PEGGED.clear()
        got = _PEGGED[cc] = peg_points(cc)
    return got


def _model(hand: tuple[int, ...], cc: tuple[int, ...], count: int) -> int:
    """The rank STANDARD's formula plays from ``hand`` (ranks), or -1: no card fits."""
    key = (hand, cc, count)
    got = _MODEL.get(key)
    if got is None:
        legal = [r for r in hand if VALUE[r] <= 31 - count]
        got = choose_play(legal, list(cc), count) if legal else -1
        if len(_MODEL) >= CACHE:
            _MODEL.clear()
        _MODEL[key] = got
    return got


def _solve(turn_hand: tuple[int, ...], other_hand: tuple[int, ...], cc: tuple[int, ...],
           count: int, me_to_act: bool, last_me: bool | None,
           memo: dict[tuple[object, ...], float]) -> float:
    """The rest of the play with both hands known (ranks only: suits never peg): my
    points less the opponent's. I play my best; the opponent plays by STANDARD's
    formula (it cannot see my cards, so its best play against them is no model of it).
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
    only = -1 if me_to_act else _model(turn_hand, cc, count)
    for i, r in enumerate(turn_hand):
        v = VALUE[r]
        if v > room or r == prev or (only >= 0 and r != only):
            continue
        prev = r
        rest = turn_hand[:i] + turn_hand[i + 1:]
        ncc = cc + (r,)
        p = _pegs(ncc)
        gain = p if me_to_act else -p
        if v == room:                                 # 31: a new count, the other leads
            u = gain + _solve(other_hand, rest, (), 0, not me_to_act, None, memo)
        else:
            u = gain + _solve(other_hand, rest, ncc, count + v, not me_to_act, me_to_act, memo)
        if best is None or u > best:
            best = u
    if best is None:
        if any(VALUE[r] <= room for r in other_hand):     # GO: the other plays on
            best = _solve(other_hand, turn_hand, cc, count, not me_to_act, last_me, memo)
        elif last_me is None:                              # every card played, 31 last
            best = 0.0
        else:
            best = 1.0 if last_me else -1.0                # the go, or the last card
            if turn_hand or other_hand:
                # The seat that did not play the last card leads the new count.
                if last_me == me_to_act:
                    best += _solve(other_hand, turn_hand, (), 0, not me_to_act, None, memo)
                else:
                    best += _solve(turn_hand, other_hand, (), 0, me_to_act, None, memo)
    memo[key] = best
    return best


class _Board:
    """The end of a game: each line of the play is worth what it leaves on the board.
    ``me`` and ``opp`` are the scores now; a line's points are added as it goes, and a
    seat that reaches the limit wins at once; at the end of the play the show is
    counted in its order (``board.after_play``)."""

    def __init__(self, me: int, opp: int, i_deal: bool, my_show: int, options: Options) -> None:
        self.me, self.opp, self.i_deal, self.my_show = me, opp, i_deal, my_show
        self.options = options
        self.limit = options.limit
        self.memo: dict[tuple[object, ...], float] = {}

    def solve(self, turn_hand: tuple[int, ...], other_hand: tuple[int, ...], cc: tuple[int, ...],
              count: int, me_to_act: bool, last_me: bool | None, mine: int, theirs: int,
              opp_show: int) -> float:
        """As ``_solve``, in equity: ``mine`` and ``theirs`` are the points pegged so
        far in the line; ``opp_show`` is the opponent's hand in the show."""
        if self.me + mine >= self.limit:
            return board.pay(self.opp + theirs, self.options)
        if self.opp + theirs >= self.limit:
            return -board.pay(self.me + mine, self.options)
        key = (turn_hand, other_hand, cc, me_to_act, last_me, mine, theirs, opp_show)
        got = self.memo.get(key)
        if got is not None:
            return got
        room = 31 - count
        best: float | None = None
        prev = -1
        only = -1 if me_to_act else _model(turn_hand, cc, count)
        for i, r in enumerate(turn_hand):
            v = VALUE[r]
            if v > room or r == prev or (only >= 0 and r != only):
                continue
            prev = r
            rest = turn_hand[:i] + turn_hand[i + 1:]
            ncc = cc + (r,)
            p = _pegs(ncc)
            m, t = (mine + p, theirs) if me_to_act else (mine, theirs + p)
            if v == room:
                u = self.solve(other_hand, rest, (), 0, not me_to_act, None, m, t, opp_show)
            else:
                u = self.solve(other_hand, rest, ncc, count + v, not me_to_act, me_to_act, m, t, opp_show)
            if best is None or u > best:                # the opponent has one move
                best = u
        if best is None:
            if any(VALUE[r] <= room for r in other_hand):     # GO: the other plays on
                best = self.solve(other_hand, turn_hand, cc, count, not me_to_act, last_me,
                                  mine, theirs, opp_show)
            elif last_me is None:                              # every card played, 31 last
                best = self.end(mine, theirs, opp_show)
            else:
                m, t = (mine + 1, theirs) if last_me else (mine, theirs + 1)   # the go
                if not turn_hand and not other_hand:                       # the last card
                    best = self.solve((), (), (), 0, True, None, m, t, opp_show)
                elif last_me == me_to_act:
                    best = self.solve(other_hand, turn_hand, (), 0, not me_to_act, None, m, t, opp_show)
                else:
                    best = self.solve(turn_hand, other_hand, (), 0, me_to_act, None, m, t, opp_show)
        self.memo[key] = best
        return best

    def end(self, mine: int, theirs: int, opp_show: int) -> float:
        return board.after_play(self.me + mine, self.opp + theirs, self.i_deal, self.my_show,
                                opp_show, self.options)


def _show_of(ranks: Sequence[int], starter: int) -> int:
    """Fifteens, pairs and runs of four ranks with the starter (the suits of unseen
    cards are not known: no flush, no nobs)."""
    return _TABLE[sum(5 ** r for r in ranks) + 5 ** (starter % 13)]


def _hypotheses(view: View, seed: int) -> Hands:
    # The hypotheses come from the view alone: the same view, the same choice.
    rng = random.Random(hash((seed, tuple(view.hand), tuple(c for _, c in view.played))))
    return opponent_hands(view, rng)


def play_values(view: View, seed: int = 0) -> dict[Card, float]:
    """Each legal card's worth in points, as EXPERT weighs them away from the board: what
    it pegs now plus the weighted mean, over the opponent's hands of the belief, of the
    rest of the play searched to its end (my points less the opponent's)."""
    legal = list(view.legal_plays())
    if not legal:
        return {}
    return _points(view, legal, _hypotheses(view, seed))


def _points(view: View, legal: list[Card], hands: Hands) -> dict[Card, float]:
    cc = tuple(c % 13 for c in view.count_cards)
    mine = tuple(sorted(c % 13 for c in view.hand))
    memo: dict[tuple[object, ...], float] = {}
    weight = sum(w for _, w in hands)
    out: dict[Card, float] = {}
    for c in sorted(legal):
        r = c % 13
        i = mine.index(r)
        rest = mine[:i] + mine[i + 1:]
        ncc = cc + (r,)
        count = view.count + value(c)
        total = 0.0
        for h, w in hands:
            if count == 31:
                u = _solve(h, rest, (), 0, False, None, memo)
            else:
                u = _solve(h, rest, ncc, count, False, True, memo)
            total += w * u
        out[c] = peg_points(ncc) + total / weight
    return out


def expert_play(view: View, seed: int = 0) -> Card | None:
    legal = list(view.legal_plays())
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    my_need = view.options.limit - view.scores[view.seat]
    for c in legal:
        if peg_points(list(view.count_cards) + [c]) >= my_need:
            return c                      # pegging out wins the game now
    hands = _hypotheses(view, seed)
    if BOARD and view.starter is not None and board.near_end(view.scores, view.options):
        return _board_play(view, legal, hands)
    values = _points(view, legal, hands)
    # The most points; among equals the lowest card (the sorted order's first).
    return max(sorted(values), key=lambda c: (values[c], -int(c)))


def _board_play(view: View, legal: list[Card], hands: Hands) -> Card:
    """The play near the end: each card's mean equity over the opponent's hands."""
    me, opp = view.seat, 1 - view.seat
    starter = view.starter
    assert starter is not None
    kept = list(view.kept)
    my_show = score_hand(kept, starter)
    played = [c % 13 for c, _, _ in seen_play(view).plays]
    solver = _Board(view.scores[me], view.scores[opp], view.dealer == me, my_show, view.options)
    cc = tuple(c % 13 for c in view.count_cards)
    mine = tuple(sorted(c % 13 for c in view.hand))
    weight = sum(w for _, w in hands)
    best: tuple[float, int] | None = None
    choice = legal[0]
    for c in sorted(legal):
        r = c % 13
        i = mine.index(r)
        rest = mine[:i] + mine[i + 1:]
        ncc = cc + (r,)
        count = view.count + value(c)
        p = peg_points(ncc)
        total = 0.0
        for h, w in hands:
            show = _show_of(played + list(h), starter)
            if count == 31:
                u = solver.solve(h, rest, (), 0, False, None, p, 0, show)
            else:
                u = solver.solve(h, rest, ncc, count, False, True, p, 0, show)
            total += w * u
        key = (total / weight + TIE * p, -int(c))
        if best is None or key > best:
            best = key
            choice = c
    return choice


class Expert(Standard):
    """EXPERT: expected values, the tables, a belief about the opponent's cards, the
    look-ahead, the board."""

    name = "expert"

    def discard(self, view: View) -> tuple[Card, Card]:
        return expert_discard(view)

    def play(self, view: View) -> Card | None:
        return expert_play(view, self.seed)


__all__ = ["Expert", "Split", "crib_key", "crib_tables", "crib_value", "discard_table",
           "expert_discard", "expert_play", "peg_table", "peg_value", "play_values"]
