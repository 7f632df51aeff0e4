"""``python -m port.match``'s command line (the package's docstring says what it does):
its options, the checks made before the first game, the run, and a stdout that holds
the result alone."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stdout
from types import ModuleType
from typing import IO

from port.match import sprt, tournament
from port.match.common import MatchStopped, Watching, WorkerLost, player_name
from port.match.guard import FILE_MOVE_TIME, ON_ERROR, Guard
from port.match.outputs import RecordWriter, open_games_out, records_directory
from port.match.sprt import Sprt
from port.match.runner import Runner, show_progress
from port.match.tournament import round_robin

GAMES = {"ginrummy": "port.match.ginrummy", "cribbage": "port.match.cribbage"}
_DESCRIPTION = "The match runner: whole games between two players, headless, for either game."


NO_LIMIT = -1.0        # --move-time none: no limit, not even a bot file's default


def _positive_seconds(text: str) -> float:
    if text.strip().lower() == "none":
        return NO_LIMIT
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number of seconds above 0 (or none), not {text!r}")
    return value


def _parser(game: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m port.match", description=_DESCRIPTION)
    p.add_argument("--game", choices=sorted(GAMES), default="ginrummy",
                   help="the game to play (default ginrummy; --game cribbage --help lists Cribbage's options)")
    p.add_argument("--games", type=int, default=200, help="games per match (with --sprt: at most)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (default 2: both cores)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--players", metavar="LIST",
                   help="a round robin: comma-separated players (levels or path/to/bot.py:Name), "
                        "every pair plays --games games; --a and --b are then not used")
    p.add_argument("--gauntlet", action="store_true",
                   help="with --players: the first player against each of the others only")
    p.add_argument("--records", metavar="DIR",
                   help="write each game's record in DIR (made if missing): GR000001.REC for game 1, "
                        "CR000001.REC for Cribbage's (docs/records.md), a folder per pairing in a round "
                        "robin; a DIR holding records already is refused without --overwrite")
    p.add_argument("--overwrite", action="store_true",
                   help="let --records and --games-out replace what an earlier run wrote there")
    p.add_argument("--games-out", metavar="FILE.jsonl",
                   help="one JSON line per game: the sides, seats, seeds, result, scores and forfeit")
    p.add_argument("--on-error", choices=ON_ERROR, default="forfeit",
                   help="a bot's illegal move, exception or timeout: it loses the game and the run goes "
                        "on (forfeit, the default), or the run stops there (stop)")
    p.add_argument("--move-time", type=_positive_seconds, metavar="SECONDS",
                   help=f"a player's call that takes longer loses it the game, levels too (default: "
                        f"{FILE_MOVE_TIME:g} s for a bot file's calls, none for the levels; none: no limit)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--in-process", dest="isolate", action="store_false",
                       help="run bot files in the engine's process: faster, but a bot that ends its "
                            "process ends the run, and it can read the whole game")
    where.add_argument("--isolate", dest="isolate", action="store_true",
                       help="run each bot file in a process of its own, given only its seat's view "
                            "(the default; kept for older command lines)")
    p.set_defaults(isolate=True)
    p.add_argument("--sprt", metavar="ELO0,ELO1",
                   help="stop the match when a sequential probability ratio test decides between "
                        "A being ELO0 and ELO1 Elo stronger than B (alpha = beta = 0.05)")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="play the games on a Ray cluster at ADDRESS (host:port, or auto), or on a "
                        "local Ray of --workers CPUs when no address is given (extra 'cluster')")
    importlib.import_module(GAMES[game]).add_arguments(p)
    return p


def _watching(args: argparse.Namespace, game: ModuleType) -> Watching:
    """What the command line asks besides the games, checked before the first game:
    the players load and start, the records directory can be written (refused here,
    not after an hour), the games' file can be opened."""
    if args.sprt is not None and args.players is not None:
        raise ValueError("--sprt decides one match (--a and --b), not a round robin")
    if args.gauntlet and args.players is None:
        raise ValueError("--gauntlet needs --players: the first player meets each of the others")
    if args.ray is not None:        # a cluster that is not there: one sentence, before any bot starts
        from port.match.cluster import check_address
        check_address(args.ray)
    w = Watching(_guard(args))
    players = [p.strip() for p in args.players.split(",") if p.strip()] if args.players is not None \
        else [args.a, args.b]
    _check_players(game, players, w.guard)
    if args.sprt is not None:
        w.sprt = Sprt(*sprt.parse(args.sprt))
    if args.records is not None:
        w.records = RecordWriter(records_directory(args.records, args.overwrite))
    if args.games_out is not None:
        w.games_out = open_games_out(args.games_out, args.overwrite)
    return w


def _guard(args: argparse.Namespace) -> Guard:
    """How the command line treats the bots: --on-error, --move-time (none: no limit,
    not even a bot file's default), --in-process."""
    if args.move_time == NO_LIMIT:
        return Guard(args.on_error, None, args.isolate, file_time=None)
    return Guard(args.on_error, args.move_time, args.isolate)


def _check_players(game: ModuleType, specs: Sequence[str], guard: Guard) -> None:
    """Each player's file loads and its class starts, before any game: a bot that cannot
    even start is a usage error (one line, exit 2), not a forfeit of every game."""
    for spec in specs:
        if guard.apart(spec):
            player_name(game.name_of, game.load_player, spec, guard)    # loads and starts it apart
        else:
            game.load_player(spec, 0)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The game is read first: each game brings its own options (and its own --help).
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", choices=sorted(GAMES), default="ginrummy")
    known, _ = first.parse_known_args(argv)
    parser = _parser(known.game)
    args = parser.parse_args(argv)
    progress = show_progress(args.json)          # asked of the real stdout, before it is kept for the result
    with result_stream() as out:
        return _run(parser, args, out, progress)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, out: IO[str], progress: bool) -> int:
    """The run the command line asks for; its result printed on ``out``, its other
    lines on stderr; the exit status."""
    game = importlib.import_module(GAMES[args.game])
    runner = Runner(args.workers, args.ray, progress)
    status = 0
    w: Watching | None = None
    try:
        options = game.options_of(args)
        w = _watching(args, game)
        if args.players is not None:
            players = [p.strip() for p in args.players.split(",") if p.strip()]
            t = round_robin(game, players, args.games, args.seed, options, runner, w, args.gauntlet)
            text = tournament.to_json(t) if args.json else tournament.report(t)
            status = 1 if t.stopped is not None else 0
        else:
            r = game.run_match(args.a, args.b, args.games, args.seed, options, workers=args.workers,
                               runner=runner, watching=w)
            text = game.to_json(r) if args.json else game.report(r)
    except (ImportError, ValueError) as exc:     # a missing extra, a bad player name: one line
        parser.exit(2, f"{parser.prog}: {exc}\n")
    except MatchStopped:                         # --on-error stop, in a match of two (its line is out)
        print(f"{parser.prog}: the match stopped at that game (--on-error stop)", file=sys.stderr)
        return 1
    except WorkerLost as exc:                    # a worker lost, a cluster losing its workers
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:                    # Ctrl-C in a match of two (a round robin reports what it has)
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    finally:
        runner.close()
        if w is not None and w.games_out is not None:
            w.games_out.close()
    print(text, file=out, flush=True)
    if runner.replayed:
        print(f"{runner.replayed} job(s) played again after their worker was lost", file=sys.stderr)
    missing = w.records.missing_report() if w.records is not None else None
    if missing is not None:                     # the result is printed first: nothing is lost but those
        print(f"{parser.prog}: {missing}", file=sys.stderr)
        status = 1
    return status


@contextmanager
def result_stream() -> Iterator[IO[str]]:
    """The stream for the result (stdout); while inside, anything else written to
    stdout (a bot's print in this process, even from C) goes to stderr, so that
    ``--json`` stays one JSON document whatever a bot prints. Bots in their own
    processes and the workers send their stdout to stderr too (``port.match.isolate``,
    ``port.match.runner``)."""
    result = sys.stdout
    try:
        real = result is sys.__stdout__ and result.fileno() == 1
    except (AttributeError, OSError, ValueError):     # a captured stdout (a test's): no descriptor
        real = False
    if not real:
        with redirect_stdout(sys.stderr):
            yield result
        return
    result.flush()
    saved = os.dup(1)
    os.dup2(2, 1)                    # fd 1 is stderr now; sys.stdout writes there
    out = open(saved, "w", encoding=result.encoding, errors=result.errors, closefd=False)
    try:
        yield out
    finally:
        out.flush()
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
