"""Cribbage's EXPERT, beyond the original: expected values where STANDARD has fixed
formulas. It sees only its ``View``, as every player does.

- Lay away: for each of the 15 splits, the kept four's mean score over the 46 starters
  it has not seen, plus the crib's expected value from the crib tables (built by
  scripts/build_crib_tables.py, shipped as crib_tables.json): added when it deals,
  taken off when the opponent does. Near the end of a game, when it counts first and
  its hand can carry it out, it also weighs the chance the hand reaches the limit.
- Play: for each legal card, its points now, less the points the opponent's best
  reply is expected to peg over every hand of unseen cards it may hold (exact
  hypergeometric chances: it holds ``opponent_left`` of the unseen cards), plus what
  it pegs itself when the opponent cannot reply (the go, the cards it then plays
  alone), plus half its best counter to an average reply.
- Board position: a card that wins the game now is played; near the end a reply that
  would win the game for the opponent is priced at the game (defence), and when the
  opponent will count out first it plays for its own points (offence).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from math import comb
from pathlib import Path

from port.cards import Card
from port.cribbage.computer import (
    ALL_CARDS, Standard, mean_hand, splits, unseen, value,
)
from port.cribbage.rules import View, peg_points, score_hand

TABLES_FILE = Path(__file__).resolve().parent / "crib_tables.json"
RANKS = "A23456789TJQK"
GAME = 60.0          # what winning or losing the game now is worth, in points
DEALER_PEG = 2.0     # a rough figure for the pegging still to come, for the endgame


@lru_cache(maxsize=1)
def crib_tables() -> dict[str, dict[str, float]]:
    """The shipped tables: ``dealer`` (my crib) and ``pone`` (the opponent's)."""
    data = json.loads(TABLES_FILE.read_text())
    return {"dealer": data["dealer"], "pone": data["pone"]}


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
        if best is None or (v, -i) > best:
            best = (v, -i)
            choice = throw
    return choice


def _p_any(n: int, m: int, k: int) -> float:
    """The chance that ``k`` cards drawn from ``n`` include one of ``m`` given ones."""
    if m <= 0 or k <= 0:
        return 0.0
    if n - m < k:
        return 1.0
    return 1.0 - comb(n - m, k) / comb(n, k)


def _alone(cc: list[int], count: int, cards: list[int]) -> float:
    """The most this seat pegs playing on alone after the opponent's GO: its cards in
    the best order, then 1 for the go (the 31 pegs its own 2)."""
    best = -1.0
    for i, c in enumerate(cards):
        if count + value(c) <= 31:
            cc.append(c)
            p = peg_points(cc) + _alone(cc, count + value(c), cards[:i] + cards[i + 1:])
            cc.pop()
            if p > best:
                best = p
    if best < 0:
        return 1.0 if count < 31 else 0.0
    return best


def _best_reply(cc: list[int], count: int, pool: list[int], k: int) -> tuple[float, float, float, list[tuple[int, int]]]:
    """The opponent's reply, holding ``k`` of the ``pool`` cards: the expected points of
    its best reply, the chance it can play at all, and each playable card's points."""
    replies = []
    for u in pool:
        if count + value(u) <= 31:
            cc.append(u)
            replies.append((peg_points(cc), u))
            cc.pop()
    n = len(pool)
    can = _p_any(n, len(replies), k)
    levels = sorted({p for p, _ in replies if p > 0}, reverse=True)
    exp = 0.0
    at_least = 0
    top = 0.0
    for i, lv in enumerate(levels):
        at_least = sum(1 for p, _ in replies if p >= lv)
        nxt = levels[i + 1] if i + 1 < len(levels) else 0
        exp += (lv - nxt) * _p_any(n, at_least, k)
    if levels:
        top = float(levels[0])
    return exp, can, top, replies


def expert_play(view: View) -> Card | None:
    legal = list(view.legal_plays())
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    me, opp = view.seat, 1 - view.seat
    limit = view.options.limit
    my_need = limit - view.scores[me]
    opp_need = limit - view.scores[opp]
    hand = list(view.hand)
    cc = list(view.count_cards)
    count = view.count
    pool = unseen(view)
    k = view.opponent_left
    opp_out = opp in _said_go(view) or k == 0
    offence, defence = _stance(view, my_need, opp_need)
    best: tuple[float, int] | None = None
    choice = legal[0]
    for c in legal:
        rest = [d for d in hand if d != c]
        cc.append(c)
        cnt = count + value(c)
        pts = peg_points(cc)
        if pts >= my_need:
            cc.pop()
            return c                      # pegging out wins the game now
        if opp_out:
            v = pts + _alone(cc, cnt, rest) if rest or cnt < 31 else float(pts)
            v *= offence
        else:
            exp, can, top, replies = _best_reply(cc, cnt, pool, k)
            v = offence * pts - defence * exp
            if replies and top >= opp_need:
                win = sum(1 for p, _ in replies if p >= opp_need)
                v -= GAME * _p_any(len(pool), win, k)
            v += offence * (1.0 - can) * _alone(cc, cnt, rest)
            v += 0.5 * offence * can * _counter(cc, cnt, rest, replies)
        v += 0.05 * value(c)              # play high, keep the low cards for the go
        cc.pop()
        key = (v, -int(c))
        if best is None or key > best:
            best = key
            choice = c
    return choice


def _counter(cc: list[int], count: int, mine: list[int], replies: list[tuple[int, int]]) -> float:
    """My best answer's points, averaged over the opponent's possible replies."""
    if not replies or not mine:
        return 0.0
    total = 0.0
    for _, u in replies:
        cc.append(u)
        cnt = count + value(u)
        top = 0
        for d in mine:
            if cnt + value(d) <= 31:
                cc.append(d)
                p = peg_points(cc)
                cc.pop()
                if p > top:
                    top = p
        cc.pop()
        total += top
    return total / len(replies)


def _said_go(view: View) -> set[int]:
    """The seats that said GO in the current count."""
    return {seat for seat in (0, 1) if view.said_go[seat]}


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
        return expert_play(view)


__all__ = ["Expert", "crib_key", "crib_tables", "crib_value", "expert_discard",
           "expert_play"]
