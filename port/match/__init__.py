"""The match runner: whole games between two players, headless, for either game.

    python -m port.match --a standard --b easy --games 2000 --seed 1
    python -m port.match --game cribbage --a expert --b standard --games 2000 --seed 1
    python -m port.match --a expert --b path/to/bot.py:ClassName --games 200 --json
    python -m port.match --players easy,standard,expert,bot.py:Mine --games 1000
    python -m port.match --a expert --b standard --games 100000 --ray [ADDRESS]
    python -m port.match --game cribbage --games 20 --records games/     # each game's record

``common`` holds what both games share (seeds, seats swapped in pairs, the worker
processes, the Wilson interval); ``ginrummy`` and ``cribbage`` each play and tally
their own game and add their own options. GinRummy is the default game; its names
(``run_match``, ``MatchResult``...) stay importable from here as before.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from port.match.common import bot_seed, game_seed, wilson
from port.match import tournament
from port.match.ginrummy import MatchResult, Side, play_one, report, run_match, to_json
from port.match.runner import Runner, show_progress
from port.match.tournament import round_robin

GAMES = {"ginrummy": "port.match.ginrummy", "cribbage": "port.match.cribbage"}


def _parser(game: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m port.match", description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="ginrummy",
                   help="the game to play (default ginrummy; --game cribbage --help lists Cribbage's options)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (default 2: both cores)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--players", metavar="LIST",
                   help="a round robin: comma-separated players (levels or path/to/bot.py:Name), "
                        "every pair plays --games games; --a and --b are then not used")
    p.add_argument("--records", metavar="DIR",
                   help="write each game's record in DIR (made if missing): GR000001.REC for game 1, "
                        "CR000001.REC for Cribbage's (docs/records.md); the result is the same")
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="play the games on a Ray cluster at ADDRESS (host:port, or auto), or on a "
                        "local Ray of --workers CPUs when no address is given (extra 'cluster')")
    importlib.import_module(GAMES[game]).add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The game is read first: each game brings its own options (and its own --help).
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", choices=sorted(GAMES), default="ginrummy")
    known, _ = first.parse_known_args(argv)
    parser = _parser(known.game)
    args = parser.parse_args(argv)
    game = importlib.import_module(GAMES[args.game])
    runner = Runner(args.workers, args.ray, show_progress(args.json))
    try:
        if args.players is not None:
            if args.records is not None:
                raise ValueError("--records writes the games of one match (--a and --b), not of a round robin")
            players = [p.strip() for p in args.players.split(",") if p.strip()]
            t = round_robin(game, players, args.games, args.seed, game.options_of(args), runner)
            text = tournament.to_json(t) if args.json else tournament.report(t)
        else:
            text = game.run(args, runner)
    except (ImportError, ValueError) as exc:     # a missing extra, a bad player name: one line
        parser.exit(2, f"{parser.prog}: {exc}\n")
    finally:
        runner.close()
    print(text)
    if runner.replayed:
        print(f"{runner.replayed} job(s) played again after their worker was lost", file=sys.stderr)
    return 0


__all__ = ["GAMES", "MatchResult", "Side", "bot_seed", "game_seed", "main", "play_one",
           "report", "run_match", "to_json", "wilson"]
