"""The chance of winning a GinRummy game from any two scores: EXPERT prices a hand's
outcome by it instead of by the hand's points.

Why: 20 points are worth little at 0-0 and everything at 85-90; a knock that risks an
undercut is worth taking when behind near the limit and not when ahead. Pricing
outcomes by the chance to win the game makes EXPERT's knocks and play score-aware.

How: ``hand_outcomes.json`` (beside this module) holds how hands between two STANDARD
players ended (measured by scripts/build_gin_win_table.py, per family of rules: knocking at 10,
Oklahoma, gin only), from the side of the player who started the hand. For the
options of a game the bonuses and the Oklahoma doubling are added to those points,
and the chance ``V[s][i][j]`` that a player with ``i`` points wins against ``j``, ``s``
saying whether it starts the next hand, is solved by dynamic programming over the
scores: a hand moves one score up, so the states are filled from the limit down; a
drawn hand (or a hand worth 0 points) changes only who starts, a two-state equation
solved exactly. Each state's sum is a C-level dot product over a slice of the table,
so the default game's table takes a few tens of milliseconds; it is built once per
set of options and process, when first asked.
"""
from __future__ import annotations

import json
from functools import lru_cache
from operator import mul
from pathlib import Path

from port.ginrummy.rules.options import FirstTurn, Options

HANDS_FILE = Path(__file__).resolve().parent / "hand_outcomes.json"


@lru_cache(maxsize=1)
def hands() -> dict[str, dict[tuple[int, str, int, int], int]]:
    """The shipped measurement (scripts/build_gin_win_table.py): family -> (the hand's
    starter won 1 / lost -1 / drawn 0, outcome, points before bonus and doubling,
    doubled 1/0) -> hands."""
    data = json.loads(HANDS_FILE.read_text())
    return {name: {_key(k): n for k, n in data[name].items()} for name in ("knock", "oklahoma", "gin_only")}


def _key(text: str) -> tuple[int, str, int, int]:
    """A row's key as the file writes it: "-1 gin 12 0"."""
    won, outcome, points, doubled = text.split()
    return int(won), outcome, int(points), int(doubled)


def family(options: Options) -> str:
    """Which measured family of hands the options belong to."""
    if not options.knocking:
        return "gin_only"
    return "oklahoma" if options.oklahoma else "knock"


def starter_points(options: Options) -> dict[int, float]:
    """Points for the hand's starter (negative: the other side scores) -> probability,
    with this game's bonuses and doubling; 0 for drawn hands."""
    counts = hands()[family(options)]
    total = sum(counts.values())
    bonus = {"gin": options.gin_bonus, "undercut": options.undercut_bonus}
    dist: dict[int, float] = {}
    for (sign, outcome, base, doubled), n in counts.items():
        pts = sign * (bonus.get(outcome, 0) + base) * (2 if doubled else 1)
        dist[pts] = dist.get(pts, 0.0) + n / total
    return dist


class WinTable:
    """``chance(mine, theirs, start)``: the chance of winning the game, drawn games
    counting half, when the next hand is about to be dealt."""

    def __init__(self, options: Options) -> None:
        self.limit = limit = options.score_limit
        self.alternate = options.first_turn is FirstTurn.ALTERNATE
        if limit <= 0:
            self.v: list[list[list[float]]] = []
            return
        dist = starter_points(options)
        top = max(abs(p) for p in dist) + 1
        # Gains and losses of "me" by points, when I start (s = 0) and when not (s = 1).
        gain = [[0.0] * top, [0.0] * top]
        loss = [[0.0] * top, [0.0] * top]
        for p, q in dist.items():
            if p > 0:
                gain[0][p] += q
                loss[1][p] += q
            elif p < 0:
                loss[0][-p] += q
                gain[1][-p] += q
        same = dist.get(0, 0.0)
        # tail[s][k]: chance of gaining k or more (the game is won outright).
        tail = []
        for s in (0, 1):
            t = [0.0] * (top + 1)
            for k in range(top - 1, -1, -1):
                t[k] = t[k + 1] + gain[s][k]
            tail.append(t)
        v = [[[0.0] * limit for _ in range(limit)] for _ in (0, 1)]    # v[s][i][j]
        vt = [[[0.0] * limit for _ in range(limit)] for _ in (0, 1)]   # vt[s][j][i]
        nxt = (1, 0) if self.alternate else (0, 1)
        for i in range(limit - 1, -1, -1):
            for j in range(limit - 1, -1, -1):
                a = [0.0, 0.0]
                for s in (0, 1):
                    n = nxt[s]
                    gi = min(limit - i, top)      # gains 1 .. gi-1 stay in the table
                    lj = min(limit - j, top)
                    won = tail[s][limit - i] if limit - i < top else 0.0
                    a[s] = (won
                            + sum(map(mul, gain[s][1:gi], vt[n][j][i + 1:i + gi]))
                            + sum(map(mul, loss[s][1:lj], v[n][i][j + 1:j + lj])))
                if self.alternate:   # x0 = a0 + z x1, x1 = a1 + z x0
                    x0 = (a[0] + same * a[1]) / (1 - same * same)
                    x1 = a[1] + same * x0
                else:
                    x0, x1 = a[0] / (1 - same), a[1] / (1 - same)
                v[0][i][j] = vt[0][j][i] = x0
                v[1][i][j] = vt[1][j][i] = x1
        self.v = v

    def chance(self, mine: int, theirs: int, start: bool) -> float:
        """Chance to win from these scores, ``start`` if I start the next hand."""
        limit = self.limit
        if limit <= 0:
            return 0.5
        if mine >= limit:
            return 1.0
        if theirs >= limit:
            return 0.0
        return self.v[0 if start else 1][mine][theirs]

    def price(self, mine: int, theirs: int, start_next: bool, points: int) -> float:
        """Chance to win after a hand worth ``points`` to me (negative: to them)."""
        if self.limit <= 0:
            return 1.0 if points > 0 else 0.0 if points < 0 else 0.5
        if points > 0:
            mine += points
        else:
            theirs -= points
        return self.chance(mine, theirs, start_next)


@lru_cache(maxsize=16)
def _table(limit: int, gin: int, undercut: int, fam: str, alternate: bool) -> WinTable:
    return WinTable(Options(gin_bonus=gin, undercut_bonus=undercut, score_limit=limit,
                            oklahoma=fam == "oklahoma", knocking=fam != "gin_only",
                            first_turn=FirstTurn.ALTERNATE if alternate else FirstTurn.SEAT0))


def win_table(options: Options) -> WinTable:
    """The table for a game's options, built once per process."""
    return _table(options.score_limit, options.gin_bonus, options.undercut_bonus,
                  family(options), options.first_turn is FirstTurn.ALTERNATE)


__all__ = ["WinTable", "family", "starter_points", "win_table"]
