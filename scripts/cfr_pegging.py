"""OpenSpiel's CFR on a small cut of Cribbage: the pegging endgame on our rules.

    .venv/bin/python scripts/cfr_pegging.py                          # 2 cards each, 8-card deck
    .venv/bin/python scripts/cfr_pegging.py --cards 3 --deck "AS 4H 5D 5C TS JH QD" --iterations 1,10,100
    .venv/bin/python scripts/cfr_pegging.py --json

The game is ``python_port_cribbage_pegging`` (``port.openspiel.pegging``): each seat
holds ``--cards`` cards dealt by chance from ``--deck``, the pone leads to a new
count, the engine plays and pegs to the last card, the returns are the points
pegged less the other's. The solver is OpenSpiel's own tabular CFR
(``pyspiel.CFRSolver``, alternating updates, on the Python game), and the
exploitability is OpenSpiel's (``pyspiel.exploitability``: the mean of the two best
responses' gains against the average policy, in points a deal; NashConv is twice it).

Prints the cut (its deals and information states), then one line for each count of
iterations: the average policy's exploitability, NashConv, the CFR seconds so far
and the seconds the exploitability took; last, what the average policy is worth to
each seat.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def parse_iterations(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        counts = []
    if not counts or any(n < 1 for n in counts) or counts != sorted(set(counts)):
        raise argparse.ArgumentTypeError(f"--iterations is rising whole numbers from 1, like 1,10,100, not {text!r}")
    return counts


def run(params: dict[str, Any], iterations: list[int], out: Any = None) -> dict[str, Any]:
    """CFR on the cut, the exploitability at each count of ``iterations``; prints
    the lines as they come (to ``out`` unless None) and returns them all."""
    import pyspiel

    from port.openspiel import pegging

    pegging.register()
    game = pyspiel.load_game(pegging.NAME, params)
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    solver = pyspiel.CFRSolver(game)
    infostates = len(solver.tabular_average_policy().policy_table())
    result: dict[str, Any] = {"game": str(game), "deals": game.deals(), "information_states": infostates,
                              "uniform_exploitability": uniform, "rows": []}
    say = (lambda line: print(line, file=out, flush=True)) if out is not None else (lambda line: None)
    say(f"{game}: {game.deals()} deals, {infostates} information states")
    say(f"the uniform random policy's exploitability: {uniform:.4f} points a deal")
    say(f"{'iterations':>10}  {'exploitability':>14}  {'NashConv':>9}  {'CFR s':>8}  {'expl. s':>7}")
    done, cfr_seconds = 0, 0.0
    for n in iterations:
        start = time.perf_counter()
        while done < n:
            solver.evaluate_and_update_policy()
            done += 1
        cfr_seconds += time.perf_counter() - start
        start = time.perf_counter()
        expl = pyspiel.exploitability(game, solver.average_policy())
        expl_seconds = time.perf_counter() - start
        row = {"iterations": n, "exploitability": expl, "nash_conv": 2 * expl,
               "cfr_seconds": round(cfr_seconds, 2), "exploitability_seconds": round(expl_seconds, 2)}
        result["rows"].append(row)
        say(f"{n:>10}  {expl:>14.5f}  {2 * expl:>9.5f}  {cfr_seconds:>8.2f}  {expl_seconds:>7.2f}")
    value = pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1, True)
    result["average_policy_value"] = list(value)
    dealer = game.cut.dealer
    say(f"the average policy's value: the pone (seat {1 - dealer}) {value[1 - dealer]:+.4f}, "
        f"the dealer (seat {dealer}) {value[dealer]:+.4f} points a deal")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=2, help="each seat's cards (1 to 4; default 2)")
    ap.add_argument("--deck", default=None, help="the cards chance deals from (default: the game's 8)")
    ap.add_argument("--dealer", type=int, default=1, help="the dealer's seat (the other leads; default 1)")
    ap.add_argument("--iterations", type=parse_iterations, default=[1, 10, 100, 1000],
                    help="when to measure, rising (default 1,10,100,1000)")
    ap.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = ap.parse_args(argv)
    params: dict[str, Any] = {"cards": args.cards, "dealer": args.dealer}
    if args.deck is not None:
        params["deck"] = args.deck
    try:
        result = run(params, args.iterations, out=sys.stdout)
    except ImportError as e:
        print(f"{Path(__file__).name}: {e}", file=sys.stderr)
        return 2
    except (ValueError, RuntimeError) as e:        # the game's own sentence on a bad parameter
        print(f"{Path(__file__).name}: {e}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.2f} at the end)")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
