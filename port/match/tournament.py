"""A round robin of more than two players: every pair plays a match (``--games``
games, seats swapped in pairs, the same seed and so the same deals for every pair),
then a crosstable of win rates with 95% intervals, and an Elo-style rating.

    python -m port.match --players easy,standard,expert,scripts/reference_bot.py:ReferenceBot --games 1000

The rating is the Bradley-Terry fit of all the games (a drawn game is half a win to
each), on Elo's scale: a 400-point gap means 10 to 1 odds, and the mean rating is
1500. Each pair gets one drawn game of prior, so that a player who won or lost every
game still has a finite rating.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from itertools import combinations
from types import ModuleType
from typing import Any

from port.match.common import wilson
from port.match.runner import Runner

ELO_MEAN = 1500.0
PRIOR_DRAWS = 1


@dataclass
class Pairing:
    a: str
    b: str
    games: int
    score_a: float              # A's wins plus half its drawn games
    win_rate_a: float
    interval_a: tuple[float, float]


@dataclass
class RoundRobin:
    players: list[str]
    games: int                  # per pair
    seed: int
    options: dict[str, object]
    pairings: list[Pairing] = field(default_factory=list)
    elo: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0
    names: dict[str, str] = field(default_factory=dict)    # as the table shows them: a bot's own name

    def rate(self, x: str, y: str) -> tuple[float, tuple[float, float]] | None:
        """x's win rate against y, and its interval (None for x == y)."""
        for p in self.pairings:
            if (p.a, p.b) == (x, y):
                return p.win_rate_a, p.interval_a
            if (p.a, p.b) == (y, x):
                lo, hi = p.interval_a
                return 1 - p.win_rate_a, (1 - hi, 1 - lo)
        return None


def round_robin(game: ModuleType, players: list[str], games: int, seed: int, options: Any,
                runner: Runner) -> RoundRobin:
    """Every pair of ``players`` plays ``games`` games of ``game`` (a module of
    ``port.match``: ``run_match``, ``score_a``, ``name_of``)."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a round robin needs two or more different players")
    pairs = list(combinations(players, 2))
    own_bar = runner.bar is None
    if own_bar:
        runner.bar = runner.open_bar(games * len(pairs))
    out = None
    try:
        for a, b in pairs:
            r = game.run_match(a, b, games, seed, options, runner=runner)
            score = game.score_a(r)
            if out is None:
                out = RoundRobin(players, games, seed, r.options, names={p: game.name_of(p) for p in players})
            out.pairings.append(Pairing(a, b, games, score, score / games if games else 0.0,
                                        wilson(score, games)))
            out.seconds += r.seconds
    finally:
        if own_bar and runner.bar is not None:
            runner.bar.close()
            runner.bar = None
    assert out is not None
    out.elo = elo(players, out.pairings)
    return out


def elo(players: list[str], pairings: list[Pairing]) -> dict[str, float]:
    """Bradley-Terry strengths by minorise-maximise iterations, on Elo's scale."""
    score = {p: 0.0 for p in players}
    meetings: dict[tuple[str, str], int] = {}
    for q in pairings:
        n = q.games + PRIOR_DRAWS
        score[q.a] += q.score_a + PRIOR_DRAWS / 2
        score[q.b] += q.games - q.score_a + PRIOR_DRAWS / 2
        meetings[(q.a, q.b)] = meetings[(q.b, q.a)] = n
    strength = {p: 1.0 for p in players}
    for _ in range(2000):
        new = {}
        for p in players:
            denom = sum(n / (strength[p] + strength[o]) for (x, o), n in meetings.items() if x == p)
            new[p] = score[p] / denom if denom else strength[p]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {p: v / g for p, v in new.items()}
        done = max(abs(new[p] - strength[p]) for p in players) < 1e-12
        strength = new
        if done:
            break
    return {p: ELO_MEAN + 400 * math.log10(strength[p]) for p in players}


def report(t: RoundRobin) -> str:
    names = [t.names.get(p, p) for p in t.players]
    width = max(17, *(len(n) + 1 for n in names))
    rows = [f"round robin: {len(t.players)} players, {t.games} games per pair, seed {t.seed}, "
            f"options {t.options}",
            "row's win rate against the column (drawn games half), 95% interval:"]
    rows.append(" " * width + "".join(f"{n[:16]:>18}" for n in names) + f"{'Elo':>8}")
    for p, n in zip(t.players, names):
        cells = []
        for q in t.players:
            r = t.rate(p, q)
            cells.append(f"{'--':>18}" if r is None else
                         f"{100 * r[0]:5.1f} ({100 * r[1][0]:4.1f}-{100 * r[1][1]:4.1f})".rjust(18))
        rows.append(f"{n:<{width}}" + "".join(cells) + f"{t.elo[p]:8.0f}")
    rows.append(f"{t.seconds:.1f} s, {t.games * len(t.pairings) / t.seconds if t.seconds else 0:.1f} games/s")
    return "\n".join(rows)


def to_json(t: RoundRobin) -> str:
    d = asdict(t)
    for p in d["pairings"]:
        p["interval_a"] = list(p["interval_a"])
    d["crosstable"] = {p: {q: (None if t.rate(p, q) is None else t.rate(p, q)[0])  # type: ignore[index]
                           for q in t.players} for p in t.players}
    return json.dumps(d, indent=2)
