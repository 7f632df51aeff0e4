"""GinRummy's ``policy`` level: a small network trained by ``scripts/train_policy.py``
(imitation of STANDARD, docs/envs.md "A learned baseline"), playing with numpy alone
through ``spaces.PolicyPlayer``. Its weights ship in the package (``policy.npz``).

The network reads the observation and a few numbers computed from it alone
(``features``): a plain network on the card planes does not find melds by itself
(trained on the planes only it won 9% of games against EASY), so it is told what the
rules' meld finder says about its own cards.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from port.cards import Card
from port.ginrummy.rules.melds import deadwood_mask
from port.ginrummy.spaces import HAND, N_ACTIONS, N_OBS, TOP, PolicyPlayer
from port.netpolicy import load_net

WEIGHTS = Path(__file__).with_name("policy.npz")
N_EXTRA = 52 * 3 + 5
N_IN = N_OBS + N_EXTRA
_BITS = [Card(c).bit for c in range(52)]
_VALUES = [Card(c).value for c in range(52)]


def features(obs: np.ndarray) -> np.ndarray:
    """The observation, then (deadwood in points / 50):

    - for each card c I hold: the deadwood my hand has without it (so, holding 11,
      what discarding it leaves), and 1 if it is unused (outside every least-deadwood
      arrangement: losing it saves its whole value);
    - for each card c I hold, with 10 cards and a pile to draw from: the deadwood
      left by taking the pile's top card and discarding c;
    - my deadwood, the least a discard leaves, the least taking the top card leaves,
      my deadwood under the knock value, and the knock value less my deadwood.
    """
    hand = [int(c) for c in np.flatnonzero(obs[HAND:HAND + 52])]
    h = 0
    for c in hand:
        h |= _BITS[c]
    dw = deadwood_mask(h)
    without = np.zeros(52, np.float32)
    unused = np.zeros(52, np.float32)
    taking = np.zeros(52, np.float32)
    least = dw
    for c in hand:
        d = deadwood_mask(h ^ _BITS[c])
        without[c] = d / 50
        unused[c] = d + _VALUES[c] == dw
        least = min(least, d)
    top = np.flatnonzero(obs[TOP:TOP + 52])
    take = dw
    if len(hand) == 10 and len(top):
        t = int(top[0])
        ht = h | _BITS[t]
        for c in hand:
            d = deadwood_mask(ht ^ _BITS[c])
            taking[c] = d / 50
            take = min(take, d)
    knock = float(obs[N_OBS - 17]) * 10          # index 417: the knock value / 10
    extra = [dw / 50, least / 50, take / 50, float(dw <= knock), (knock - dw) / 50]
    return np.concatenate([obs.astype(np.float32), without, unused, taking, np.array(extra, np.float32)])


class Policy(PolicyPlayer):
    """The shipped network as a player (``--a policy``). Greedy, so ``seed`` changes nothing."""

    name = "policy"

    def __init__(self, seed: int = 0, weights: Path = WEIGHTS) -> None:
        super().__init__(load_net(Path(weights), N_OBS, N_ACTIONS, features, N_IN), "policy")


__all__ = ["N_IN", "WEIGHTS", "Policy", "features"]
