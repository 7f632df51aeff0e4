"""The cost of a whole GinRummy game to 100 through the OpenSpiel bridge.

    .venv/bin/python scripts/bench_bridge_game.py --seed 2            # a player's loop
    .venv/bin/python scripts/bench_bridge_game.py --seed 1 --keep     # as OpenSpiel's random test keeps states
    .venv/bin/python scripts/bench_bridge_game.py --openspiel 10      # pyspiel.random_sim_test itself, limit 10

A game between random seats, played the way OpenSpiel's ``random_sim_test`` plays it:
at every step the state is cloned, printed, its history taken, both seats'
information-state and observation strings and tensors taken, then a random legal
action (chance's by its outcomes) applied. Prints the game's actions and hands, its
CPU and wall seconds, the process's peak resident memory (``ru_maxrss``) and what
one clone of the state holds at the start and at the end (``tracemalloc``: the
Python side; OpenSpiel's C++ state adds its history, 16 bytes an action).

``--keep`` also keeps every state's clone, as ``random_sim_test`` does (its record of
the game, ``HistoryItem``): each holds the whole history so far, so the game's memory
grows as the square of its length (about 8 n^2 bytes for n actions); keep it to
games of some thousands of actions (``--max-actions``). ``--openspiel LIMIT`` runs
OpenSpiel's own test on a game to LIMIT in a child process (its memory capped by
``--cap-gb``) and prints the child's peak memory and seconds.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel  # noqa: E402

import port.openspiel  # noqa: E402,F401  (registers the games)


def clone_bytes(state: Any) -> int:
    """What one clone of ``state`` allocates on the Python side (tracemalloc)."""
    tracemalloc.start()
    try:
        copy = state.clone()
        size = tracemalloc.get_traced_memory()[0]
        del copy
    finally:
        tracemalloc.stop()
    return size


def play(seed: int, limit: int, keep: bool, max_actions: int, recall: bool) -> dict[str, Any]:
    game = pyspiel.load_game(port.openspiel.GIN_NAME, {"score_limit": limit, "recall_tensor": recall})
    rng = random.Random(seed)
    state = game.new_initial_state()
    kept: list[Any] = []
    first = None
    n = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while not state.is_terminal():
        copy = state.clone()
        str(copy), copy.history(), str(state)
        if keep:
            kept.append(copy)
        for p in (0, 1):
            state.information_state_string(p), state.observation_string(p)
            state.information_state_tensor(p), state.observation_tensor(p)
        if state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        n += 1
        if n == 1000:
            first = clone_bytes(state)
        if keep and n >= max_actions:
            break
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"seed": seed, "score_limit": limit, "keep": keep, "actions": n, "finished": state.is_terminal(),
            "hands": state.pos.game.hands_played, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "clone_bytes_at_1000": first, "clone_bytes_at_end": clone_bytes(state),
            "history_bytes_kept": 16 * n * (n - 1) // 2 if keep else 0}


def openspiel_test(limit: int, cap_gb: float) -> dict[str, Any]:
    """``pyspiel.random_sim_test`` on a game to ``limit`` in a child, its memory capped."""
    code = ("import resource, sys; sys.path.insert(0, %r); "
            "resource.setrlimit(resource.RLIMIT_AS, (%d, %d)); "
            "import pyspiel, port.openspiel; "
            "g = pyspiel.load_game('python_port_ginrummy', {'score_limit': %d}); "
            "pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=True)") % (
        str(Path(__file__).resolve().parents[1]), int(cap_gb * 2 ** 30), int(cap_gb * 2 ** 30), limit)
    wall = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    wall = time.perf_counter() - wall
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = out.stdout.splitlines()
    actions = sum(1 for line in lines if line.startswith(("chose action:", "sampled outcome:")))
    return {"openspiel_random_sim_test": True, "score_limit": limit, "ok": out.returncode == 0,
            "actions": actions, "cpu_s": round(use.ru_utime + use.ru_stime, 2), "wall_s": round(wall, 2),
            "peak_rss_mb": round(use.ru_maxrss / 1024, 1), "cap_gb": cap_gb,
            "error": "" if out.returncode == 0 else (out.stderr.strip().splitlines() or ["killed"])[-1][:200]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=2, help="the random seats' seed (2: a game of 46,026 actions)")
    p.add_argument("--score-limit", type=int, default=100)
    p.add_argument("--keep", action="store_true", help="keep every state's clone, as random_sim_test does")
    p.add_argument("--max-actions", type=int, default=10000, help="with --keep: stop after this many actions")
    p.add_argument("--recall-tensor", action="store_true", help="the perfect-recall information-state tensor")
    p.add_argument("--openspiel", type=int, metavar="LIMIT", help="run pyspiel.random_sim_test on a game to LIMIT")
    p.add_argument("--cap-gb", type=float, default=4.0, help="with --openspiel: the child's address-space cap")
    args = p.parse_args()
    if args.openspiel is not None:
        out = openspiel_test(args.openspiel, args.cap_gb)
    else:
        out = play(args.seed, args.score_limit, args.keep, args.max_actions, args.recall_tensor)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
