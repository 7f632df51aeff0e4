"""A round robin of more than two players: every pair plays a match (``--games``
games, seats swapped in pairs, the same seed and so the same deals for every pair),
then a crosstable of win rates with 95% intervals, and ratings with their intervals.
A gauntlet (``--gauntlet``) plays the first player against each of the others only.

    python -m port.match --players easy,standard,expert,scripts/reference_bot.py:ReferenceBot --games 1000
    python -m port.match --gauntlet --players mybot.py:Mine,easy,standard,expert --games 1000

The ratings are the Bradley-Terry fit of all the games on Elo's scale, each with a 95%
interval (``port.match.ratings``: choix's fit; a 400-point gap means 10 to 1 odds,
the mean is 1500, one drawn game of prior per pair).

A bot that fails a game forfeits it and the round robin goes on (``--on-error
forfeit``); with ``--on-error stop`` it stops at that game, and the pairings finished
before it are still reported and rated (the table says which pairing stopped it). So
are they when the run is interrupted (Ctrl-C) or a cluster keeps losing its workers.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from itertools import combinations
from types import ModuleType
from typing import Any

from port.match.common import MatchStopped, Watching, WorkerLost, player_name, wilson
from port.match.guard import file_of, limit_line
from port.match.outputs import safe_name
from port.match.ratings import fit
from port.match.runner import Runner


@dataclass
class Pairing:
    a: str
    b: str
    games: int
    score_a: float              # A's wins plus half its drawn games
    win_rate_a: float
    interval_a: tuple[float, float]
    forfeits_a: int = 0         # games A lost by failing
    forfeits_b: int = 0


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
    # Keyed by the name the table shows (a bot file's name, made unique by its file when two
    # share one): its file (None for a level), rating and 95% interval, forfeits.
    ratings: dict[str, dict[str, object]] = field(default_factory=dict)
    gauntlet: bool = False
    stopped: str | None = None  # what stopped the run early: --on-error stop's fault, Ctrl-C
    move_time: dict[str, object] | None = None     # the time limit (Guard.limits)

    def key(self, spec: str) -> str:
        """The player as the table and the JSON name it: its own name, made unique by
        its spec when two players share one."""
        name = self.names.get(spec, spec)
        shared = sum(self.names.get(p, p) == name for p in self.players) > 1
        return f"{name} ({spec})" if shared else name

    def rate(self, x: str, y: str) -> tuple[float, tuple[float, float]] | None:
        """x's win rate against y, and its interval (None for x == y, or a pair that did not meet)."""
        for p in self.pairings:
            if (p.a, p.b) == (x, y):
                return p.win_rate_a, p.interval_a
            if (p.a, p.b) == (y, x):
                lo, hi = p.interval_a
                return 1 - p.win_rate_a, (1 - hi, 1 - lo)
        return None


def round_robin(game: ModuleType, players: list[str], games: int, seed: int, options: Any,
                runner: Runner, watching: Watching | None = None, gauntlet: bool = False) -> RoundRobin:
    """Every pair of ``players`` plays ``games`` games of ``game`` (a module of
    ``port.match``: ``run_match``, ``score_a``, ``name_of``); with ``gauntlet``, the
    first player against each of the others. ``watching``: how a failing bot is
    treated, and where the games' records (a folder per pairing) and lines go."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a round robin needs two or more different players")
    pairs = [(players[0], p) for p in players[1:]] if gauntlet else list(combinations(players, 2))
    watching = watching or Watching()
    # A bot file's name is asked of its own process: its file is not loaded here.
    names = {p: player_name(game.name_of, game.load_player, p, watching.guard) for p in players}
    out = RoundRobin(players, games, seed, {}, names=names, gauntlet=gauntlet,
                     move_time=watching.guard.limits())
    own_bar = runner.bar is None
    if own_bar:
        runner.bar = runner.open_bar(games * len(pairs))
    try:
        for n, (a, b) in enumerate(pairs, 1):
            w = watching
            if watching.records is not None:
                w = dataclasses.replace(watching, records=watching.records.sub(
                    f"{n:02d}-{safe_name(names[a])}-{safe_name(names[b])}"))
            try:
                r = game.run_match(a, b, games, seed, options, runner=runner, watching=w)
            except MatchStopped as stop:
                out.stopped = f"{stop.fault.line()} (pairing {names[a]} against {names[b]})"
                break
            except (KeyboardInterrupt, WorkerLost) as exc:      # Ctrl-C, a worker lost, a cluster losing its workers
                what = "interrupted" if isinstance(exc, KeyboardInterrupt) else str(exc)
                out.stopped = f"{what} (pairing {names[a]} against {names[b]})"
                break
            score = game.score_a(r)
            out.options = r.options
            out.pairings.append(Pairing(a, b, games, score, score / games if games else 0.0,
                                        wilson(score, games), r.a.forfeits, r.b.forfeits))
            out.seconds += r.seconds
    finally:
        if own_bar and runner.bar is not None:
            runner.bar.close()
            runner.bar = None
    _rate(out)
    return out


def _rate(t: RoundRobin) -> None:
    """The ratings of the players who played, when choix is there (the extra 'cluster');
    without it the crosstable stands alone."""
    met = [p for p in t.players if any(p in (q.a, q.b) for q in t.pairings)]
    if len(met) < 2:
        return
    try:
        fitted = fit(met, t.pairings)
    except ImportError:
        return
    t.elo = {p: r.elo for p, r in fitted.items()}
    for p in met:
        r = fitted[p]
        forfeits = sum(q.forfeits_a for q in t.pairings if q.a == p) + \
            sum(q.forfeits_b for q in t.pairings if q.b == p)
        t.ratings[t.key(p)] = {"file": file_of(p), "spec": p, "elo": round(r.elo, 1),
                          "interval": [round(r.low, 1), round(r.high, 1)], "forfeits": forfeits}


def elo(players: list[str], pairings: list[Pairing]) -> dict[str, float]:
    """Bradley-Terry ratings on Elo's scale (``port.match.ratings.fit``), without their intervals."""
    return {p: r.elo for p, r in fit(players, pairings).items()}


CELL = 20      # a cell's width: "100.0 (100.0-100.0)" and a space before it


def report(t: RoundRobin) -> str:
    names = [t.key(p) for p in t.players]
    width = max(17, *(len(n) + 1 for n in names))
    forfeits = {p: sum(q.forfeits_a for q in t.pairings if q.a == p) + sum(q.forfeits_b for q in t.pairings if q.b == p)
                for p in t.players}
    kind = "gauntlet" if t.gauntlet else "round robin"
    rows = [f"{kind}: {len(t.players)} players, {t.games} games per pair, seed {t.seed}, options {t.options}",
            "row's win rate against the column (drawn games half), 95% interval; "
            "Elo with its 95% interval:"]
    rows.append(" " * width + "".join(f"{n[:CELL - 2]:>{CELL}}" for n in names) + f"{'Elo':>20}"
                + (f"{'forfeits':>10}" if any(forfeits.values()) else ""))
    by_spec = {r["spec"]: r for r in t.ratings.values()}
    for p, n in zip(t.players, names):
        cells = []
        for q in t.players:
            r = t.rate(p, q)
            cells.append(f"{'--':>{CELL}}" if r is None else
                         f"{100 * r[0]:5.1f} ({100 * r[1][0]:4.1f}-{100 * r[1][1]:4.1f})".rjust(CELL))
        rating = by_spec.get(p)
        elo = "--" if rating is None else \
            f"{rating['elo']:.0f} ({rating['interval'][0]:.0f}-{rating['interval'][1]:.0f})"  # type: ignore[index]
        rows.append(f"{n:<{width}}" + "".join(cells) + f"{elo:>20}"
                    + (f"{forfeits[p]:>10}" if any(forfeits.values()) else ""))
    if not t.ratings and len(t.pairings) > 0:
        rows.append("no ratings: they need choix (pip install 'ginrummy[cluster]')")
    limit = limit_line(t.move_time, t.players)
    if limit is not None:
        rows.append(limit)
    if t.stopped is not None:
        rows.append(f"stopped after {len(t.pairings)} finished pairing(s): {t.stopped}")
    played = sum(q.games for q in t.pairings)
    rows.append(f"{t.seconds:.1f} s, {played / t.seconds if t.seconds else 0:.1f} games/s")
    return "\n".join(rows)


def to_json(t: RoundRobin) -> str:
    """The round robin as JSON: every player keyed by the name the table shows (``key``),
    its file (None for a level) and spec beside it, in the pairings, the crosstable,
    the ratings and the Elo alike."""
    key = {p: t.key(p) for p in t.players}
    d: dict[str, object] = {
        "players": [key[p] for p in t.players],
        "files": {key[p]: file_of(p) for p in t.players},
        "specs": {key[p]: p for p in t.players},
        "games": t.games, "seed": t.seed, "options": t.options, "gauntlet": t.gauntlet,
        "pairings": [{"a": key[q.a], "a_file": file_of(q.a), "b": key[q.b], "b_file": file_of(q.b),
                      "games": q.games, "score_a": q.score_a, "win_rate_a": q.win_rate_a,
                      "interval_a": list(q.interval_a), "forfeits_a": q.forfeits_a, "forfeits_b": q.forfeits_b}
                     for q in t.pairings],
        "crosstable": {key[p]: {key[q]: (None if t.rate(p, q) is None else t.rate(p, q)[0])  # type: ignore[index]
                                for q in t.players} for p in t.players},
        "ratings": t.ratings,
        "elo": {key[p]: e for p, e in t.elo.items()},
        "move_time": t.move_time,
        "seconds": t.seconds, "stopped": t.stopped}
    return json.dumps(d, indent=2)
