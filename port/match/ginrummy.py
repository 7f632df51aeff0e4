"""The match runner's GinRummy: whole games between two players, headless.

    python -m port.match --a standard --b easy --games 2000 --seed 1
    python -m port.match --a expert --b path/to/bot.py:ClassName --games 200 --json
    python -m port.match --scoring boxes --knock-card deck --doublers spades --shutout --deal 11 --winner-deals

Fairness as for every game (``port.match.common``); within a game the first turn
alternates from hand to hand (``FirstTurn.ALTERNATE``; with ``--winner-deals`` the
winner deals instead). The table rules of the other sources are the engine's options
(docs/engine.md); a combination no source describes is refused in one sentence.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from port.ginrummy.rules.options import BONUS_CHOICES, DOUBLER_SUITS, FirstTurn, Options
from port.bots import bot_name
from port.ginrummy.levels import LEVELS, load_player
from port.ginrummy.record import PREFIX, write_game
from port.ginrummy.rules.players import GameRecord, play_game
from port.ginrummy.rules.settle import Outcome
from port.match.common import (Watching, chunks, extra_lines, play_job, play_match, player_name,
                               seated_game, wilson)
from port.match.guard import Fault, Guard
from port.match.outputs import RecordWriter
from port.match.runner import Runner

PRELOAD = ("port.ginrummy.rules", "port.ginrummy.levels", "port.ginrummy.record")


@dataclass
class Side:
    """One side's tallies over a match."""

    name: str                # as the report shows it: a level's name, a bot's own name
    games_won: int = 0
    points: int = 0
    final: int = 0           # the score sheets' final totals (bonuses, boxes, shutouts)
    boxes: int = 0
    shutouts: int = 0        # games this side won by the shutout doubler
    hands_won: int = 0
    gins: int = 0
    undercuts: int = 0
    knocks: int = 0          # hands this side ended with a knock (won or undercut)
    knocks_won: int = 0
    spec: str = ""           # as it was asked for: a level, or path/to/bot.py:Name
    forfeits: int = 0        # games this side lost by failing (port.match.guard)


@dataclass
class MatchResult:
    games: int
    seed: int
    options: dict[str, object]
    a: Side
    b: Side
    games_drawn: int = 0
    hands: int = 0
    hands_drawn: int = 0
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
    """Play ``games`` games between the players named ``a`` and ``b``; with
    ``records``, each game's record is written there (the result is the same).
    ``watching``: how a failing bot is treated, the games' JSON lines, an SPRT that
    may end the match early (``result.games`` is then the games played)."""
    options = options.with_(first_turn=FirstTurn.ALTERNATE)
    jobs = [(a, b, options, seed, start, stop) for start, stop in chunks(games, chunk)]
    result = MatchResult(games, seed, _options_dict(options), Side(_name(a, watching), spec=a),
                         Side(_name(b, watching), spec=b))
    games = play_match(result, runner or Runner(workers), _work, jobs, PRELOAD, PREFIX,
                       lambda seat_a, record: _tally(result, seat_a, record),
                       lambda fault: _forfeit(result, fault), watching, records, seed)
    result.win_rate_a = result.a.games_won / games if games else 0.0
    # Drawn games count half to each side in the interval.
    result.interval_a = wilson(result.a.games_won + result.games_drawn / 2, games)
    return result


def _forfeit(result: MatchResult, fault: Fault) -> None:
    """A game the side of ``fault`` lost by failing: a game won by the other side."""
    loser, winner = (result.a, result.b) if fault.side == 0 else (result.b, result.a)
    loser.forfeits += 1
    winner.games_won += 1


def _tally(result: MatchResult, seat_a: int, record: GameRecord) -> None:
    sides = {seat_a: result.a, 1 - seat_a: result.b}
    if record.winner is None:
        result.games_drawn += 1
    else:
        sides[record.winner].games_won += 1
    for seat in (0, 1):
        sides[seat].points += record.scores[seat]
        sides[seat].boxes += record.boxes[seat]
        if record.sheet is not None:
            sides[seat].final += record.sheet.totals[seat]
    if record.sheet is not None and record.winner is not None \
            and any(c.shutout and c.winner == record.winner for c in record.sheet.columns):
        sides[record.winner].shutouts += 1
    for h in record.hands:
        r = h.result
        result.hands += 1
        if r.outcome is Outcome.DRAW:
            result.hands_drawn += 1
            continue
        assert r.winner is not None and r.knocker is not None
        sides[r.winner].hands_won += 1
        if r.outcome is Outcome.GIN:
            sides[r.winner].gins += 1
        else:
            sides[r.knocker].knocks += 1
            if r.outcome is Outcome.UNDERCUT:
                sides[r.winner].undercuts += 1
            else:
                sides[r.knocker].knocks_won += 1


def _options_dict(o: Options) -> dict[str, object]:
    d: dict[str, object] = {"gin_bonus": o.gin_bonus, "undercut_bonus": o.undercut_bonus,
                            "score_limit": o.score_limit, "oklahoma": o.oklahoma, "knocking": o.knocking,
                            "first_turn": o.first_turn.value}
    # The table rules only when set, so the original's reports read as before.
    for name, default in (("knock_deck", False), ("scoring", "TOTAL"), ("doublers", ()),
                          ("shutout", False), ("upcard_offer", False), ("deal_eleven", False),
                          ("random_first", False), ("winner_deals", False), ("box_bonus", 25)):
        value = getattr(o, name)
        if value != default:
            d[name] = list(value) if isinstance(value, tuple) else value
    return d


def report(r: MatchResult) -> str:
    lo, hi = r.interval_a
    rows = [f"{r.games} games, seed {r.seed}, options {r.options}",
            f"{'':12}{'won':>7}{'points':>9}{'hands':>7}{'gins':>6}{'undercuts':>10}{'knocks':>8}"]
    for s in (r.a, r.b):
        rows.append(f"{s.name[:12]:12}{s.games_won:7}{s.points:9}{s.hands_won:7}{s.gins:6}"
                    f"{s.undercuts:10}{s.knocks:8}")
    if r.options.get("scoring", "TOTAL") != "TOTAL" or r.options.get("shutout"):
        for s in (r.a, r.b):
            rows.append(f"{s.name[:12]:12} final scores {s.final}, boxes {s.boxes}, shutouts {s.shutouts}")
    rows.append(f"drawn games {r.games_drawn}, hands {r.hands} ({r.hands_drawn} drawn)")
    rows.append(f"A ({r.a.name}) wins {100 * r.win_rate_a:.1f}% of games, "
                f"95% interval {100 * lo:.1f}%-{100 * hi:.1f}%")
    rows += extra_lines(r)
    rows.append(f"{r.seconds:.1f} s, {r.games / r.seconds if r.seconds else 0:.1f} games/s")
    return "\n".join(rows)


def to_json(r: MatchResult) -> str:
    d = asdict(r)
    d["interval_a"] = list(r.interval_a)
    return json.dumps(d, indent=2)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """GinRummy's own options of the command line."""
    p.add_argument("--a", default="standard", help="side A: easy, standard, expert or path/to/bot.py:Class")
    p.add_argument("--b", default="easy", help="side B, as --a")
    p.add_argument("--limit", type=int, default=100, help="score limit (0: one hand)")
    p.add_argument("--gin-bonus", type=int, default=25, choices=BONUS_CHOICES)
    p.add_argument("--undercut-bonus", type=int, default=25, choices=BONUS_CHOICES)
    p.add_argument("--oklahoma", action="store_true")
    p.add_argument("--no-knocking", action="store_true", help="gin only")
    p.add_argument("--scoring", default="total", choices=sorted(_SCORING),
                   help="total (the original), boxes, game-only, flop, hollywood")
    p.add_argument("--knock-card", default="fixed", choices=("fixed", "deck"),
                   help="deck: a knock card from a second deck each deal")
    p.add_argument("--doublers", default="", type=_doublers, metavar="spades,hearts",
                   help="the knock card's suits that double a hand (needs --knock-card deck)")
    p.add_argument("--shutout", action="store_true", help="a shut-out loser doubles the winner's score")
    p.add_argument("--box-bonus", type=int, default=25, choices=BONUS_CHOICES)
    p.add_argument("--upcard-offer", action="store_true", help="the first upcard offered, with decline")
    p.add_argument("--deal", type=int, default=10, choices=(10, 11),
                   help="11: eleven cards to the non-dealer, who starts the pile")
    p.add_argument("--random-first", action="store_true", help="the first dealer at random")
    p.add_argument("--winner-deals", action="store_true", help="the hand's winner deals the next")


_SCORING = {"total": "TOTAL", "boxes": "BOXES", "game-only": "GAME_ONLY", "flop": "FLOP",
            "hollywood": "HOLLYWOOD"}


def _doublers(text: str) -> tuple[str, ...]:
    names = tuple(n.strip().upper() for n in text.split(",") if n.strip())
    for n in names:
        if n not in DOUBLER_SUITS:
            raise argparse.ArgumentTypeError(f"the doublers are spades and hearts, not {n.lower()!r}")
    return tuple(dict.fromkeys(names))


def options_of(args: argparse.Namespace) -> Options:
    """The rules the parsed command line asks for. Options no source describes
    together end the run with one sentence (exit 2, as argparse does)."""
    try:
        return Options(gin_bonus=args.gin_bonus, undercut_bonus=args.undercut_bonus,
                       score_limit=args.limit, oklahoma=args.oklahoma,
                       knocking=not args.no_knocking, scoring=_SCORING[args.scoring],
                       knock_deck=args.knock_card == "deck", doublers=args.doublers,
                       shutout=args.shutout, box_bonus=args.box_bonus,
                       upcard_offer=args.upcard_offer, deal_eleven=args.deal == 11,
                       random_first=args.random_first, winner_deals=args.winner_deals)
    except (TypeError, ValueError) as e:
        print(f"python -m port.match: error: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def score_a(r: MatchResult) -> float:
    """Side A's score over the match: games won, and half of each drawn game."""
    return r.a.games_won + r.games_drawn / 2


def run(args: argparse.Namespace, runner: Runner | None = None, watching: Watching | None = None) -> MatchResult:
    """The match the parsed command line asks for."""
    return run_match(args.a, args.b, args.games, args.seed, options_of(args), workers=args.workers,
                     runner=runner, watching=watching)
