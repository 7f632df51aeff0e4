"""The match runner's Cribbage: whole games between two players, headless.

    python -m port.match --game cribbage --a expert --b standard --games 2000 --seed 1
        [--limit 61] [--skunking] [--json] [--workers N]

Fairness as for every game (``port.match.common``): the two games of a pair share a
deal seed with the seats swapped, so each side gets the other's cards, cribs and first
deal (the first dealer is cut from the game's own deck, as the rules do).

Per side it tallies games won (a skunk counts as two wins when skunking is on, as the
documentation says), skunks, points, and per deal the average pegged in the play, the
hand shown, and the crib shown per crib held.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from port.bots import bot_name
from port.cribbage.levels import LEVELS, load_player
from port.cribbage.record import PREFIX, write_game
from port.cribbage.rules import GameRecord, Options, play_game
from port.match.common import (Watching, chunks, extra_lines, play_job, play_match, player_name,
                               seated_game, wilson)
from port.match.guard import Fault, Guard
from port.match.outputs import RecordWriter
from port.match.runner import Runner

PRELOAD = ("port.cribbage.rules", "port.cribbage.levels", "port.cribbage.record")


@dataclass
class Side:
    """One side's tallies over a match."""

    name: str                # as the report shows it: a level's name, a bot's own name
    games_won: int = 0       # skunks count twice
    games: int = 0           # games won, each once
    skunks: int = 0
    points: int = 0
    deals: int = 0
    pegging: int = 0         # points pegged in the play (cards and goes)
    heels: int = 0
    hand: int = 0            # points of its own hand in the show
    cribs: int = 0           # deals it held the crib
    crib: int = 0            # points of its crib in the show
    spec: str = ""           # as it was asked for: a level, or path/to/bot.py:Name
    forfeits: int = 0        # games this side lost by failing (port.match.guard)

    @property
    def per_deal(self) -> tuple[float, float, float]:
        """Average pegging and hand per deal, crib per crib held."""
        d = self.deals or 1
        return self.pegging / d, self.hand / d, self.crib / (self.cribs or 1)


@dataclass
class MatchResult:
    games: int
    seed: int
    options: dict[str, object]
    a: Side
    b: Side
    deals: int = 0
    seconds: float = 0.0
    win_rate_a: float = 0.0
    interval_a: tuple[float, float] = (0.0, 0.0)
    extra: dict[str, object] = field(default_factory=dict)
    sprt: dict[str, object] | None = None     # --sprt: the test's LLR, bounds and decision
    move_time: dict[str, object] | None = None     # the time limit: its seconds and whom it binds


def name_of(spec: str) -> str:
    """A player as the report names it: a level by its name, a bot by its own ``name``."""
    return bot_name(spec, LEVELS)


def _name(spec: str, watching: Watching | None) -> str:
    return player_name(name_of, load_player, spec, watching.guard if watching is not None else None)


def play_one(a: str, b: str, options: Options, seed: int, game: int) -> tuple[int, GameRecord]:
    """Play game number ``game``: returns the seat side A sat in, and the record."""
    return seated_game(load_player, play_game, a, b, options, seed, game)


def _work(job: tuple[str, str, Options, int, int, int], records: bool = False,
          guard: Guard | None = None) -> list[tuple]:
    """The games of a job: (A's seat, the record or a failed bot's ``Fault``, and with
    ``records`` the game's record as text, else None)."""
    return play_job(job, records, load_player, play_game, write_game, name_of, guard)


def run_match(a: str, b: str, games: int, seed: int, options: Options,
              workers: int = 2, chunk: int = 10, runner: Runner | None = None,
              records: Path | RecordWriter | None = None, watching: Watching | None = None) -> MatchResult:
    """Play ``games`` games of Cribbage between the players named ``a`` and ``b``;
    with ``records``, each game's record is written there (the result is the same).
    ``watching``: how a failing bot is treated, the games' JSON lines, an SPRT that
    may end the match early (``result.games`` is then the games played)."""
    jobs = [(a, b, options, seed, start, stop) for start, stop in chunks(games, chunk)]
    result = MatchResult(games, seed, {"limit": options.limit, "skunking": options.skunking},
                         Side(_name(a, watching), spec=a), Side(_name(b, watching), spec=b))
    games = play_match(result, runner or Runner(workers), _work, jobs, PRELOAD, PREFIX,
                       lambda seat_a, record: _tally(result, seat_a, record),
                       lambda fault: _forfeit(result, fault), watching, records, seed)
    result.win_rate_a = result.a.games / games if games else 0.0
    # The interval is of games won (each game once): a skunk is a score, not a trial.
    result.interval_a = wilson(result.a.games, games)
    return result


def _forfeit(result: MatchResult, fault: Fault) -> None:
    """A game the side of ``fault`` lost by failing: a game won (once) by the other side."""
    loser, winner = (result.a, result.b) if fault.side == 0 else (result.b, result.a)
    loser.forfeits += 1
    winner.games += 1
    winner.games_won += 1


def _tally(result: MatchResult, seat_a: int, record: GameRecord) -> None:
    sides = {seat_a: result.a, 1 - seat_a: result.b}
    w = sides[record.winner]
    w.games += 1
    w.games_won += record.wins       # two for a skunk
    w.skunks += record.skunk
    for seat in (0, 1):
        sides[seat].points += record.scores[seat]
    for deal in record.hands:
        result.deals += 1
        sides[deal.dealer].cribs += 1
        for seat in (0, 1):
            s = sides[seat]
            s.deals += 1
            s.pegging += deal.pegging[seat]
            s.heels += deal.heels[seat]
            s.hand += deal.hand[seat]
            s.crib += deal.crib[seat]


def report(r: MatchResult) -> str:
    lo, hi = r.interval_a
    rows = [f"{r.games} games of Cribbage, seed {r.seed}, options {r.options}",
            f"{'':12}{'won':>6}{'skunks':>8}{'points':>9}   per deal:{'pegging':>8}{'hand':>7}"
            f"{'crib':>7}"]
    for s in (r.a, r.b):
        peg, hand, crib = s.per_deal
        rows.append(f"{s.name[:12]:12}{s.games_won:6}{s.skunks:8}{s.points:9}{'':12}"
                    f"{peg:8.2f}{hand:7.2f}{crib:7.2f}")
    rows.append(f"{r.deals} deals; won counts a skunk as two; crib is per crib held")
    rows.append(f"A ({r.a.name}) wins {100 * r.win_rate_a:.1f}% of games, "
                f"95% interval {100 * lo:.1f}%-{100 * hi:.1f}%")
    rows += extra_lines(r)
    rows.append(f"{r.seconds:.1f} s, {r.games / r.seconds if r.seconds else 0:.1f} games/s")
    return "\n".join(rows)


def to_json(r: MatchResult) -> str:
    d = asdict(r)
    d["interval_a"] = list(r.interval_a)
    for side in ("a", "b"):
        peg, hand, crib = getattr(r, side).per_deal
        d[side].update(pegging_per_deal=peg, hand_per_deal=hand, crib_per_crib=crib)
    return json.dumps(d, indent=2)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Cribbage's own options of the command line."""
    p.add_argument("--a", default="expert", help="side A: easy, standard, expert or path/to/bot.py:Class")
    p.add_argument("--b", default="standard", help="side B, as --a")
    p.add_argument("--limit", type=int, default=121, choices=(121, 61), help="score limit")
    p.add_argument("--skunking", action="store_true", help="a skunk counts as two wins")


def options_of(args: argparse.Namespace) -> Options:
    """The rules the parsed command line asks for."""
    return Options(limit=args.limit, skunking=args.skunking)


def score_a(r: MatchResult) -> float:
    """Side A's score over the match: games won, each once (a skunk is not a second game)."""
    return float(r.a.games)


def run(args: argparse.Namespace, runner: Runner | None = None, watching: Watching | None = None) -> MatchResult:
    """The match the parsed command line asks for."""
    return run_match(args.a, args.b, args.games, args.seed, options_of(args), workers=args.workers,
                     runner=runner, watching=watching)
