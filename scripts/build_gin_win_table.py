#!/usr/bin/env python3
"""Measure how GinRummy hands end, for EXPERT's table of the chance to win the game.

    .venv/bin/python scripts/build_gin_win_table.py [--hands 4000] [--seed 1] [--check]

(``--check`` writes nothing: it says whether the shipped file is what it builds.)

Plays STANDARD against STANDARD, hand after hand, under each family of rules that
changes how hands end (knocking at 10, Oklahoma, gin only) and writes
``port/ginrummy/hand_outcomes.json``: for each family, how often a hand ended which way,
seen from the player who started it (won or lost; gin, knock or undercut; the points
before any bonus or doubling; doubled or not; drawn hands), one entry a line:
``"won 1 / lost -1 / drawn 0, outcome, points, doubled 1/0": hands``.

``port.ginrummy.wintable`` turns those counts into the chance of winning the game from
any two scores, for the options of a game (limit, bonuses), by dynamic programming
over the scores (and who starts the next hand) when EXPERT first needs it. The
bonuses are added there, so one measurement serves every choice of bonus.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.table_files import write_or_check  # noqa: E402

from port.cards import PascalRandom  # noqa: E402
from port.ginrummy.computer import Standard  # noqa: E402
from port.ginrummy.rules.options import FirstTurn, Options  # noqa: E402
from port.ginrummy.rules.players import play_hand  # noqa: E402
from port.ginrummy.rules.settle import Outcome  # noqa: E402
from port.ginrummy.rules.state import HandState  # noqa: E402

FAMILIES = {
    "knock": Options(first_turn=FirstTurn.ALTERNATE),
    "oklahoma": Options(first_turn=FirstTurn.ALTERNATE, oklahoma=True),
    "gin_only": Options(first_turn=FirstTurn.ALTERNATE, knocking=False),
}
OUT = Path(__file__).resolve().parent.parent / "port" / "ginrummy" / "hand_outcomes.json"


def measure(options: Options, hands: int, seed: int) -> Counter[tuple[int, str, int, int]]:
    """(starter won: 1 / lost: -1 / drawn: 0, outcome, base points, doubled) -> count."""
    rng = PascalRandom(seed)
    players = (Standard(), Standard())
    counts: Counter[tuple[int, str, int, int]] = Counter()
    for n in range(hands):
        first = n % 2
        hand = HandState.deal(options, rng, first)
        r = play_hand(hand, players).result
        if r.winner is None:
            counts[(0, "draw", 0, 0)] += 1
            continue
        mult = 2 if r.doubled else 1
        bonus = {Outcome.GIN: options.gin_bonus,
                 Outcome.UNDERCUT: options.undercut_bonus}.get(r.outcome, 0)
        base = r.points // mult - bonus
        sign = 1 if r.winner == first else -1
        counts[(sign, r.outcome.value, base, int(r.doubled))] += 1
    return counts


def build(hands: int, seed: int) -> dict[str, object]:
    table: dict[str, object] = {
        "about": "How hands between two STANDARD players end; see scripts/build_gin_win_table.py",
        "hands": hands,
        "seed": seed,
    }
    for name, options in FAMILIES.items():
        counts = measure(options, hands, seed)
        table[name] = {" ".join(map(str, key)): n for key, n in counts.items()}
        won = sum(c for k, c in counts.items() if k[0] == 1)
        lost = sum(c for k, c in counts.items() if k[0] == -1)
        print(f"{name}: {hands} hands, starter won {won}, lost {lost}, drawn {hands - won - lost}")
    return table


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", action="store_true", help="compare with the shipped file, write nothing")
    args = p.parse_args()
    return write_or_check(OUT, lambda: build(args.hands, args.seed), args.check)


if __name__ == "__main__":
    sys.exit(main())
