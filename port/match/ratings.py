"""The round robin's (and the gauntlet's) ratings: a Bradley-Terry fit of all the games,
on Elo's scale, with a 95% interval for each player.

The fit is choix's (``choix.ilsr_pairwise_dense``: Lucas Maystre's library of
inference for Luce's choice models, of which Bradley-Terry is the pairwise case; the
optional extra ``cluster``, the tournaments' extra). choix was chosen over openskill
and trueskill because those are online Bayesian updates whose result depends on the
order the games are fed in, while a round robin's games have no order that means
anything: Bradley-Terry is the model of a crosstable, and the maximum-likelihood fit
is what Elo's rating lists (BayesElo, Ordo) compute. choix gives no interval, so the
interval is the usual one of a maximum-likelihood fit: the inverse of the observed
Fisher information at the fit (its pseudo-inverse, the ratings being fixed to a mean
of 1500), 1.96 standard errors either side.

The scale: 400 points are 10 to 1 odds. A drawn game is half a win to each, and each
pair that met gets one drawn game of prior, so that a player who won or lost every
game still has a finite rating (and interval).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from port.extras import need

ELO_MEAN = 1500.0
PRIOR_DRAWS = 1
Z95 = 1.96
SCALE = 400 / math.log(10)     # Elo points per unit of the log-strength


class Meeting(Protocol):
    a: str
    b: str
    games: int
    score_a: float


@dataclass(frozen=True)
class Rating:
    elo: float
    low: float
    high: float


def fit(players: Sequence[str], meetings: Sequence[Meeting]) -> dict[str, Rating]:
    """Each player's rating and its 95% interval, from the pairs' games and scores."""
    need("cluster", "choix")
    import choix
    import numpy as np

    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    wins = np.zeros((n, n))
    games = np.zeros((n, n))
    for m in meetings:
        i, j = index[m.a], index[m.b]
        wins[i, j] += m.score_a + PRIOR_DRAWS / 2
        wins[j, i] += m.games - m.score_a + PRIOR_DRAWS / 2
        games[i, j] += m.games + PRIOR_DRAWS
        games[j, i] += m.games + PRIOR_DRAWS
    theta = choix.ilsr_pairwise_dense(wins, max_iter=10_000)
    theta = theta - theta.mean()
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    w = games * p * p.T                        # each pair's information: n p (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    se = np.sqrt(np.clip(np.diag(np.linalg.pinv(info)), 0.0, None))
    return {pl: Rating(ELO_MEAN + SCALE * float(theta[i]),
                       ELO_MEAN + SCALE * float(theta[i] - Z95 * se[i]),
                       ELO_MEAN + SCALE * float(theta[i] + Z95 * se[i]))
            for pl, i in index.items()}
