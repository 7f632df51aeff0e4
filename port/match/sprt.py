"""``--sprt ELO0,ELO1``: a match that stops as soon as a sequential probability ratio
test decides between H0 "A is ELO0 stronger than B" and H1 "A is ELO1 stronger", as
fishtest tests chess engines.

Why a pentanomial test on game pairs: the match plays its games in pairs on one deal
with the seats swapped, so the two games of a pair are not independent (a deal that
favours a seat favours each side once). Counting single games (a trinomial test:
win, draw, loss) would take them as independent and misjudge the variance. Each pair
is one trial instead, its score A's points over its two games halved: 0, 1/4, 1/2,
3/4 or 1 (GinRummy's drawn games count half; Cribbage has no draws, and uses three
of the five). This is fishtest's pentanomial model.

The test is the generalized SPRT of Michel Van den Bergh (fishtest's
``LLR_logistic``): under each hypothesis the distribution of the pair scores is the
one of highest likelihood for the counts seen whose mean is the hypothesis's
expected score (found by a one-dimensional root search), and the log-likelihood
ratio (LLR) of the two is compared with Wald's bounds, log(beta / (1 - alpha)) and
log((1 - beta) / alpha). Empty cells get 1/1000 of a pair, as fishtest regularizes,
so the first few pairs cannot decide alone. Elo here is the logistic scale of the
round robin's ratings: an expected score of 1 / (1 + 10 ** (-elo / 400)).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
EMPTY = 1e-3


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _most_likely(freq: Sequence[float], s: float) -> list[float]:
    """The distribution over ``PAIR_SCORES`` of mean ``s`` that makes the frequencies
    ``freq`` most likely: p_i = f_i / (1 + x (a_i - s)), x the root of sum p_i (a_i - s) = 0."""
    d = [a - s for a in PAIR_SCORES]
    lo = -1.0 / max(d) + 1e-12 if max(d) > 0 else -1e9
    hi = -1.0 / min(d) - 1e-12 if min(d) < 0 else 1e9

    def g(x: float) -> float:        # decreasing in x
        return sum(f * di / (1 + x * di) for f, di in zip(freq, d))

    for _ in range(200):
        mid = (lo + hi) / 2
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    p = [f / (1 + x * di) for f, di in zip(freq, d)]
    total = sum(p)
    return [q / total for q in p]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 to H0 for the pentanomial ``counts`` (pairs
    scoring 0, 1/4, 1/2, 3/4, 1 for A)."""
    n = sum(counts)
    if n == 0:
        return 0.0
    regular = [c if c > 0 else EMPTY for c in counts]
    total = sum(regular)
    freq = [c / total for c in regular]
    p0 = _most_likely(freq, expected_score(elo0))
    p1 = _most_likely(freq, expected_score(elo1))
    return sum(c * math.log(q1 / q0) for c, q0, q1 in zip(regular, p0, p1))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: below the first H0 is accepted, above the second H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass
class Sprt:
    """The test as the games come in, in game order (each pair once both its games are in)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    counts: list[float] = field(default_factory=lambda: [0.0] * 5)
    pending: float | None = None     # A's score in the first game of the pair under way
    llr: float = 0.0
    decision: str | None = None      # "H0", "H1", or None while undecided
    games: int = 0

    def add(self, score_a: float) -> None:
        """A's score in the next game (1 won, 1/2 drawn, 0 lost)."""
        self.games += 1
        if self.pending is None:
            self.pending = score_a
            return
        self.counts[round((self.pending + score_a) * 2)] += 1
        self.pending = None
        self.llr = llr(self.counts, self.elo0, self.elo1)
        lower, upper = bounds(self.alpha, self.beta)
        if self.llr <= lower:
            self.decision = "H0"
        elif self.llr >= upper:
            self.decision = "H1"

    def as_dict(self) -> dict[str, object]:
        lower, upper = bounds(self.alpha, self.beta)
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(self.llr, 4), "lower": round(lower, 4), "upper": round(upper, 4),
                "decision": self.decision, "pairs": self.counts, "games": self.games}

    def line(self) -> str:
        return sprt_line(self.as_dict())


def sprt_line(d: dict[str, Any]) -> str:
    """The test's state as the report prints it (from ``Sprt.as_dict``)."""
    elo0, elo1 = d["elo0"], d["elo1"]
    verdict = {"H1": f"H1 accepted (A's edge is nearer {elo1:g} Elo than {elo0:g})",
               "H0": f"H0 accepted (A's edge is nearer {elo0:g} Elo than {elo1:g})",
               None: "no decision (the games ran out first)"}[d["decision"]]
    return (f"SPRT({elo0:g}, {elo1:g}): LLR {d['llr']:.2f} (bounds {d['lower']:.2f}, {d['upper']:.2f}) "
            f"after {d['games']} games; {verdict}; pairs scoring 0, 1/4, 1/2, 3/4, 1: "
            + " ".join(f"{c:g}" for c in d["pairs"]))


def parse(text: str) -> tuple[float, float]:
    """``--sprt ELO0,ELO1``: ValueError (one sentence) unless two numbers, ELO0 < ELO1."""
    parts = text.split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"--sprt takes two Elo differences, ELO0,ELO1 (as 0,50), not {text!r}") from None
    if not elo0 < elo1:
        raise ValueError(f"--sprt {text}: ELO0 must be below ELO1")
    return elo0, elo1
