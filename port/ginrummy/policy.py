"""GinRummy's ``policy`` level: a small network trained by ``scripts/train_policy.py``
(imitation of EXPERT, then reinforcement learning: docs/envs.md "A learned baseline"),
playing with numpy alone through ``spaces.PolicyPlayer``. Its weights ship in the
package (``policy.npz``).

The network reads the observation and numbers computed from it alone (``features``):
a plain network on the card planes does not find melds by itself (trained on the
planes only it won 9% of games against EASY), so it is told what the rules' meld
finder and STANDARD's formulas say of each move: the deadwood a discard leaves, the
meld chances of what is kept, the chance the opponent melds the card thrown, and which
move the formulas pick. The network learns when to do otherwise.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from port.cards import Card
from port.ginrummy.computer import DEFAULT, FULL, Knowledge, _bits, _score_discard, danger, related, worth
from port.ginrummy.rules.melds import arrange_mask, deadwood_mask
from port.ginrummy.spaces import (
    DISCARD0, DRAW_PILE, DRAW_STOCK, DRAWN, HAND, KNOCK, N_ACTIONS, N_OBS, OPP_DISCARDED, OPP_KNOWN,
    OPP_PASSED, PILE, PLAY_ON, PLAY_TO_GIN, TOP, PolicyPlayer,
)
from port.netpolicy import load_net

WEIGHTS = Path(__file__).with_name("policy.npz")
N_EXTRA = 10
N_IN = N_OBS + N_EXTRA
N_PER = 16                 # numbers per action (``features``)
_BITS = [Card(c).bit for c in range(52)]
_VALUES = [Card(c).value for c in range(52)]
_T = 52 * 8                # the numbers after the card planes (spaces' module docstring)
_STOCK, _KV, _DRAW, _DISCARD, _KNOCK = _T, _T + 1, _T + 2, _T + 3, _T + 4
_FROM_PILE, _TO_GIN, _MY, _OPP, _LIMIT = _T + 6, _T + 7, _T + 9, _T + 10, _T + 11
_W = DEFAULT               # STANDARD's constants
_ON = dataclasses.replace(_W, potential=_W.on_potential, potential_end=-1.0)


def _mask(obs: np.ndarray, plane: int) -> tuple[int, list[int]]:
    cards = [int(c) for c in np.flatnonzero(obs[plane:plane + 52])]
    m = 0
    for c in cards:
        m |= _BITS[c]
    return m, cards


def knowledge_of(obs: np.ndarray) -> Knowledge:
    """STANDARD's ``Knowledge`` rebuilt from the observation: the same facts, as the
    observation keeps them (the opponent's turns are its discards this hand)."""
    mine, _ = _mask(obs, HAND)
    pile, _ = _mask(obs, PILE)
    opp_has, known = _mask(obs, OPP_KNOWN)
    thrown, discards = _mask(obs, OPP_DISCARDED)
    passed, _ = _mask(obs, OPP_PASSED)
    unseen = FULL & ~mine & ~pile & ~opp_has
    return Knowledge(mine, pile, opp_has, thrown | passed, unseen, max(0, 10 - len(known)),
                     len(discards), round(float(obs[_STOCK]) * 31))


def _wants_knock(dw: int, kv: int, kn: Knowledge) -> bool:
    """STANDARD's knock formula (``computer.wants_knock``) on the knowledge alone."""
    if dw <= _W.knock_floor or kn.stock <= 4:
        return True
    late = max(0, kn.opp_draws - _W.knock_free_turns)
    return dw <= kv - _W.knock_slope * late


def features(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The network's input: the observation and ``N_EXTRA`` numbers, and ``N_PER``
    numbers for each action (deadwood in points / 25):

    0-5   the kind of action: draw stock, draw pile, discard, knock, play on, play to gin
    6     the deadwood after it (a draw: the least its best discard leaves)
    7     STANDARD's worth of the hand after it: deadwood less its meld chances
    8     the chance the opponent can meld the card thrown (a pile draw: STANDARD's throw after it)
    9     STANDARD's score of it less the best one's (0 for its choice; / 5, within -4..4)
    10    the card is outside every least-deadwood arrangement (a discard)
    11    the card's value / 10 (a discard, a pile draw)
    12    the card was just drawn from the stock (a discard)
    13    gin after it           14  a knock possible after it
    15    STANDARD's formulas choose it
    """
    kn = knowledge_of(obs)
    h = kn.mine
    per = np.zeros((N_ACTIONS, N_PER), np.float32)
    kv = round(float(obs[_KV]) * 10)
    may_knock = kv > 0 and obs[_TO_GIN] < 0.5
    dw = deadwood_mask(h)
    least = dw
    if obs[_DRAW] > 0.5:
        least = _draw(obs, kn, h, dw, kv, may_knock, per)
    elif obs[_DISCARD] > 0.5:
        least = _discard(obs, kn, h, kv, may_knock, per)
    elif obs[_KNOCK] > 0.5:
        wants = _wants_knock(dw, kv, kn)
        for a, kind in ((KNOCK, 3), (PLAY_ON, 4), (PLAY_TO_GIN, 5)):
            per[a, kind] = 1
            per[a, 6] = dw / 25
        per[KNOCK, 14] = dw <= kv
        per[KNOCK, 15] = wants
        per[PLAY_ON, 15] = not wants
    extra = [dw / 25, least / 25, kn.opp_draws / 10, kn.opp_has.bit_count() / 5,
             kn.unseen.bit_count() / 31, (kv - dw) / 10, float(dw <= kv),
             float(obs[_MY] - obs[_OPP]), float(obs[_LIMIT] - obs[_MY]), float(obs[_LIMIT] - obs[_OPP])]
    return np.concatenate([obs.astype(np.float32), np.array(extra, np.float32)]), per


def _draw(obs: np.ndarray, kn: Knowledge, h: int, dw: int, kv: int, may_knock: bool,
          per: np.ndarray) -> int:
    """The two draws' rows (``computer.choose_draw``); the least deadwood reachable."""
    keep = worth(h, kn, _W)
    per[DRAW_STOCK, 0] = 1
    per[DRAW_STOCK, 6] = dw / 25
    per[DRAW_STOCK, 7] = max(-1.0, keep / 25)
    top = np.flatnonzero(obs[TOP:TOP + 52])
    per[DRAW_STOCK, 15] = 1
    if not len(top):
        return dw
    t = int(top[0])
    tb = _BITS[t]
    h11 = h | tb
    dws = [(deadwood_mask(h11 ^ d), d) for d in _bits(h)]
    best_dw = min(dws)[0]
    cands = [d for x, d in dws if x <= best_dw + 10]
    take, take_d = min((_score_discard(h11, d, kn, _W), d) for d in cands)
    if best_dw == 0 or (may_knock and best_dw <= kv and _wants_knock(best_dw, kv, kn)):
        takes = True
    elif not (related(h) & tb) and best_dw >= dw:
        takes = False
    else:
        takes = take < keep - _W.pile_margin
    row = per[DRAW_PILE]
    row[1] = 1
    row[6] = best_dw / 25
    row[7] = max(-1.0, worth(h11 ^ take_d, kn, _W) / 25)
    row[8] = danger(take_d, kn)
    row[9] = np.clip((take - keep + _W.pile_margin) / 5, -4, 4)
    row[11] = _VALUES[t] / 10
    row[13] = best_dw == 0
    row[14] = may_knock and best_dw <= kv
    row[15] = takes
    per[DRAW_STOCK, 15] = not takes
    return min(dw, best_dw)


def _discard(obs: np.ndarray, kn: Knowledge, h: int, kv: int, may_knock: bool, per: np.ndarray) -> int:
    """The discards' rows (``computer.choose_discard``); the least deadwood a discard leaves."""
    drawn = np.flatnonzero(obs[DRAWN:DRAWN + 52])
    fresh = int(drawn[0]) if len(drawn) and obs[_FROM_PILE] < 0.5 else -1
    cards = [int(c) for c in np.flatnonzero(obs[HAND:HAND + 52])]
    legal = [c for c in cards if not (obs[_FROM_PILE] > 0.5 and len(drawn) and c == int(drawn[0]))]
    dws = {c: deadwood_mask(h ^ _BITS[c]) for c in legal}
    if not dws:
        return deadwood_mask(h)
    best_dw = min(dws.values())
    _, _, dead = arrange_mask(h)
    w = _W
    choice = -1
    if best_dw == 0:
        choice = max((c for c in legal if dws[c] == 0), key=lambda c: (_VALUES[c], _BITS[c]))
    elif may_knock and best_dw <= kv:
        knocker = max((c for c in legal if dws[c] == best_dw), key=lambda c: (_VALUES[c], _BITS[c]))
        if _wants_knock(best_dw, kv, kn):
            choice = knocker
        else:
            w = _ON
    scores = {c: _score_discard(h, _BITS[c], kn, w) for c in legal if dws[c] <= best_dw + 10}
    best = min(scores.values())
    if choice < 0:
        choice = min(scores, key=lambda c: (scores[c], -_VALUES[c], -_BITS[c]))
    for c in legal:
        row = per[DISCARD0 + c]
        b = _BITS[c]
        row[2] = 1
        row[6] = dws[c] / 25
        row[7] = max(-1.0, worth(h ^ b, kn, w) / 25) if c in scores else dws[c] / 25
        row[8] = danger(b, kn)
        row[9] = min(4.0, (scores[c] - best) / 5) if c in scores else 4.0
        row[10] = bool(dead & b)
        row[11] = _VALUES[c] / 10
        row[12] = c == fresh
        row[13] = dws[c] == 0
        row[14] = may_knock and dws[c] <= kv
        row[15] = c == choice
    return best_dw


class Policy(PolicyPlayer):
    """The shipped network as a player (``--a policy``). Greedy, so ``seed`` changes nothing."""

    name = "policy"

    def __init__(self, seed: int = 0, weights: Path = WEIGHTS) -> None:
        super().__init__(load_net(Path(weights), N_OBS, N_ACTIONS, features, N_IN, N_PER), "policy")


__all__ = ["N_IN", "N_PER", "WEIGHTS", "Policy", "features", "knowledge_of"]
