"""Cribbage's ``policy`` level: a small network trained by ``scripts/train_policy.py``
(imitation of STANDARD, docs/envs.md "A learned baseline"), playing with numpy alone
through ``spaces.PolicyPlayer``. Its weights ship in the package (``policy.npz``).

The network reads the observation and a few numbers computed from it alone
(``features``): what each lay-away keeps, and where each play brings the count.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from port.cribbage.computer import alone, value
from port.cribbage.spaces import COUNT, HAND, MY_CRIB, N_ACTIONS, N_OBS, PolicyPlayer
from port.netpolicy import load_net

WEIGHTS = Path(__file__).with_name("policy.npz")
N_EXTRA = 52 * 5
N_IN = N_OBS + N_EXTRA
_COUNT, _DISCARD, _PLAY = N_OBS - 14, N_OBS - 13, N_OBS - 12     # indices 364, 365, 366


def features(obs: np.ndarray) -> np.ndarray:
    """The observation, then five card planes (points / 12, counts / 31):

    - in the discard, for each card c I hold: the most the cards I keep score by
      themselves (no starter) when c goes to the crib (with the best second card when
      c is the first), and what c and the card I laid away first score together;
    - in the play, for each card c that fits: the count after it, 1 if it makes 15
      or 31, and 1 if a card of its rank is in the count (a pair, if it was the last).
    """
    hand = [int(c) for c in np.flatnonzero(obs[HAND:HAND + 52])]
    keep = np.zeros(52, np.float32)
    throw = np.zeros(52, np.float32)
    after = np.zeros(52, np.float32)
    makes = np.zeros(52, np.float32)
    pairs = np.zeros(52, np.float32)
    if obs[_DISCARD] > 0.5:
        laid = [int(c) for c in np.flatnonzero(obs[MY_CRIB:MY_CRIB + 52])]
        for c in hand:
            rest = [d for d in hand if d != c]
            if len(hand) == 6:
                keep[c] = max(alone([e for e in rest if e != d]) for d in rest) / 12
            else:
                keep[c] = alone(rest) / 12
                throw[c] = alone([c, *laid[:1]]) / 12
    elif obs[_PLAY] > 0.5:
        count = round(float(obs[_COUNT]) * 31)
        ranks = {int(c) % 13 for c in np.flatnonzero(obs[COUNT:COUNT + 52])}
        for c in hand:
            n = count + value(c)
            if n <= 31:
                after[c] = n / 31
                makes[c] = n in (15, 31)
                pairs[c] = c % 13 in ranks
    return np.concatenate([obs.astype(np.float32), keep, throw, after, makes, pairs])


class Policy(PolicyPlayer):
    """The shipped network as a player (``--a policy``). Greedy, so ``seed`` changes nothing."""

    name = "policy"

    def __init__(self, seed: int = 0, weights: Path = WEIGHTS) -> None:
        super().__init__(load_net(Path(weights), N_OBS, N_ACTIONS, features, N_IN), "policy")


__all__ = ["N_IN", "WEIGHTS", "Policy", "features"]
