"""Cribbage's ``policy`` level: a small network trained by ``scripts/train_policy.py``
(imitation of EXPERT, then reinforcement learning: docs/envs.md "A learned baseline"),
playing with numpy alone through ``spaces.PolicyPlayer``. Its weights ship in the
package (``policy.npz``).

The network reads the observation and numbers computed from it alone (``features``):
what each lay-away keeps and gives the crib, as STANDARD's formula and EXPERT's tables
value it, and what each play pegs, leaves the opponent and what STANDARD's formula
would play. The network learns when to do otherwise.

The observation holds the current count's cards as a set, not in the order they
were played, and a pair or a run depends on that order; the features take the mean
over every order the rules allow (players take turns until one says GO).
"""
from __future__ import annotations

import functools
from itertools import permutations
from pathlib import Path

import numpy as np

from port.cribbage.computer import VALUE, crib_guess, play_price, splits, value
from port.cribbage.expert import crib_value, peg_value
from port.cribbage.rules import peg_points, score_hand
from port.cribbage.spaces import (
    COUNT, GO, HAND, KEPT, MY_CRIB, MY_PLAYED, N_ACTIONS, N_OBS, OPP_PLAYED, STARTER, PolicyPlayer,
)
from port.netpolicy import load_net

WEIGHTS = Path(__file__).with_name("policy.npz")
N_EXTRA = 6
N_IN = N_OBS + N_EXTRA
N_PER = 20                 # numbers per action (``features``)
_T = 52 * 7                # the numbers after the card planes (spaces' module docstring)
_COUNT, _DISCARD, _PLAY, _DEALER, _OPP_LEFT = _T, _T + 1, _T + 2, _T + 5, _T + 6
_I_GO, _OPP_GO, _MY, _OPP, _LIMIT = _T + 8, _T + 9, _T + 10, _T + 11, _T + 12
_ORDERS = 48               # at most this many orders of the count are averaged


@functools.lru_cache(maxsize=4096)
def split_values(six: tuple[int, ...], dealer: bool) -> dict[frozenset[int], tuple[float, float, float, float, float]]:
    """For each pair of the six cards laid away: (STANDARD's value of the split, EXPERT's
    value, the kept four's mean show over the 46 starters, EXPERT's signed crib value,
    EXPERT's pegging margin of the kept four)."""
    held = set(six)
    rest = [c for c in range(52) if c not in held]
    sign = 1.0 if dealer else -1.0
    out = {}
    for keep, throw in splits(list(six)):
        show = sum(score_hand(keep, s) for s in rest) / len(rest)
        crib = sign * crib_value(throw, dealer)
        peg = peg_value(keep, dealer)
        out[frozenset(throw)] = (show + sign * crib_guess(throw), show + crib + peg, show, crib, peg)
    return out


def orders(mine: list[int], theirs: list[int], opp_go: bool) -> list[tuple[int, ...]]:
    """The orders the current count's cards may have been played in, it being my turn:
    turns alternate, so without the opponent's GO the last card is its own; after its
    GO my cards close the count."""
    n_m, n_o = len(mine), len(theirs)
    shapes = []
    for lead_me in (True, False):
        for tail in range(n_m + 1):
            k_m = n_m - tail
            # the alternating part: my k_m and its n_o cards, taking turns
            if lead_me and k_m not in (n_o, n_o + 1) or not lead_me and n_o not in (k_m, k_m + 1):
                continue
            seq = []
            me = lead_me
            for _ in range(k_m + n_o):
                seq.append(me)
                me = not me
            seq += [True] * tail
            if not seq:
                continue
            last_alt = seq[k_m + n_o - 1] if k_m + n_o else None
            if opp_go:
                ok = tail > 0 or last_alt is True or k_m + n_o == 0
            else:
                ok = tail == 0 and last_alt is False
            if ok and seq not in shapes:
                shapes.append(seq)
    out: list[tuple[int, ...]] = []
    for shape in shapes:
        for pm in permutations(mine):
            for po in permutations(theirs):
                im, io = iter(pm), iter(po)
                out.append(tuple(next(im) if s else next(io) for s in shape))
                if len(out) >= _ORDERS:
                    return out
    return out


def _cards(obs: np.ndarray, plane: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(obs[plane:plane + 52])]


def features(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's input: the observation and ``N_EXTRA`` numbers, and ``N_PER``
    numbers for each action (points / 12 unless said):

    0-3   the kind: first card laid away, second card laid away, a play, GO
    lay away (each card; the first: with its best second card, by EXPERT's value):
    4     STANDARD's value of the split less the best split's (points / 4, -4..0)
    5     STANDARD's formula lays it away
    6     EXPERT's value of the split less the best split's (points / 4, -4..0)
    7     EXPERT's tables lay it away
    8     the kept four's mean show      9  EXPERT's crib value (+ mine, - theirs)
    10    EXPERT's pegging margin of the kept four (/ 2)
    a play (each card; over the orders the count may have been played in):
    11    the points it pegs / 8      12  STANDARD's price of what it leaves the opponent
    13    STANDARD's formula plays it  14  the count after it / 31
    15    it makes 15 or 31           16  the points an unseen card pegs after it (mean / 4)
    17    the most an unseen card pegs after it / 8
    both: 18 the card's value / 10    19  the card is a five
    """
    per = np.zeros((N_ACTIONS, N_PER), np.float32)
    hand = _cards(obs, HAND)
    for c in hand:
        per[c, 18] = VALUE[c % 13] / 10
        per[c, 19] = c % 13 == 4
    extra = [0.0] * N_EXTRA
    if obs[_DISCARD] > 0.5:
        _lay_away(obs, hand, per)
    elif obs[_PLAY] > 0.5:
        extra = _play(obs, hand, per)
    return np.concatenate([obs.astype(np.float32), np.array(extra, np.float32)]), per


def _lay_away(obs: np.ndarray, hand: list[int], per: np.ndarray) -> None:
    laid = _cards(obs, MY_CRIB)
    six = tuple(sorted(hand + laid))
    if len(six) != 6:
        return
    values = split_values(six, bool(obs[_DEALER] > 0.5))
    best_std = max(v[0] for v in values.values())
    best_exp = max(v[1] for v in values.values())
    std_pick = max(values, key=lambda k: values[k][0])
    exp_pick = max(values, key=lambda k: values[k][1])
    first = not laid
    for c in hand:
        mine = [(v, k) for k, v in values.items() if c in k and (first or laid[0] in k)]
        v, k = max(mine, key=lambda x: x[0][1])
        row = per[c]
        row[0 if first else 1] = 1
        row[4] = max(-4.0, (max(x[0][0] for x in mine) - best_std) / 4)
        row[5] = c in std_pick if first else k == std_pick
        row[6] = max(-4.0, (v[1] - best_exp) / 4)
        row[7] = c in exp_pick if first else k == exp_pick
        row[8] = v[2] / 12
        row[9] = v[3] / 12
        row[10] = v[4] / 2


def _play(obs: np.ndarray, hand: list[int], per: np.ndarray) -> list[float]:
    count = round(float(obs[_COUNT]) * 31)
    in_count = set(_cards(obs, COUNT))
    mine = [c for c in _cards(obs, MY_PLAYED) if c in in_count]
    theirs = [c for c in _cards(obs, OPP_PLAYED) if c in in_count]
    seqs = orders(mine, theirs, bool(obs[_OPP_GO] > 0.5)) or [()]
    legal = [c for c in hand if count + value(c) <= 31]
    if not legal:
        per[GO, 3] = 1
        per[GO, 13] = 1
        return [count / 31, len(seqs) / _ORDERS, 0.0, 0.0, 0.0, len(in_count) / 8]
    seen = set(hand) | set(_cards(obs, KEPT)) | set(_cards(obs, MY_CRIB)) | set(_cards(obs, STARTER))
    seen |= set(_cards(obs, MY_PLAYED)) | set(_cards(obs, OPP_PLAYED))
    unseen_by_rank = [0] * 13
    for c in range(52):
        if c not in seen:
            unseen_by_rank[c % 13] += 1
    n_unseen = max(1, sum(unseen_by_rank))
    scores = {}
    for c in legal:
        pts = price = 0.0
        for seq in seqs:
            cc = [*seq, c]
            p = peg_points(cc)
            pts += p
            price += play_price(list(seq), count, c)
        pts /= len(seqs)
        price /= len(seqs)
        v = pts - price + (0.5 if not seqs[0] and value(c) < 5 else 0.0) + 0.05 * value(c)
        scores[c] = v
        n = count + value(c)
        reply_mean = reply_max = 0.0
        if n < 31:
            base = [*seqs[0], c]
            for r in range(13):
                k = unseen_by_rank[r]
                if k and n + VALUE[r] <= 31:
                    got = peg_points([*base, r])
                    reply_mean += got * k / n_unseen
                    reply_max = max(reply_max, got)
        row = per[c]
        row[2] = 1
        row[11] = pts / 8
        row[12] = price
        row[14] = n / 31
        row[15] = n in (15, 31)
        row[16] = reply_mean / 4
        row[17] = reply_max / 8
    pick = max(legal, key=lambda c: (scores[c], -c))
    per[pick, 13] = 1
    opp_left = float(obs[_OPP_LEFT])
    return [count / 31, len(seqs) / _ORDERS, len(legal) / 4, opp_left, float(obs[_I_GO]), len(in_count) / 8]


class Policy(PolicyPlayer):
    """The shipped network as a player (``--a policy``). Greedy, so ``seed`` changes nothing."""

    name = "policy"

    def __init__(self, seed: int = 0, weights: Path = WEIGHTS) -> None:
        super().__init__(load_net(Path(weights), N_OBS, N_ACTIONS, features, N_IN, N_PER), "policy")


__all__ = ["N_IN", "N_PER", "WEIGHTS", "Policy", "features", "orders", "split_values"]
