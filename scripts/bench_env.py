"""Environment steps per second with a random legal policy, per game.

    .venv/bin/python scripts/bench_env.py [--steps 20000] [--runs 3] [--game ginrummy|cribbage|all]

A step is one ``env.step`` of the AEC loop with its ``env.last()`` (the observation
and mask built for the agent to move), as a training loop calls them. Prints each
run and the median.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time

import numpy as np

GAMES = {"ginrummy": "port.env.ginrummy_v0", "cribbage": "port.env.cribbage_v0"}


def steps_per_second(module: str, steps: int, seed: int) -> float:
    env = importlib.import_module(module).env()
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if done >= steps:
                break
        env.reset()
    return done / (time.perf_counter() - t0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=20000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", choices=[*GAMES, "all"], default="all")
    args = p.parse_args()
    for game, module in GAMES.items():
        if args.game not in (game, "all"):
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            print(f"{game:9} not built yet")
            continue
        runs = [steps_per_second(module, args.steps, seed) for seed in range(1, args.runs + 1)]
        shown = ", ".join(f"{r:,.0f}" for r in runs)
        print(f"{game:9} {statistics.median(runs):10,.0f} steps/s (median; runs {shown})")


if __name__ == "__main__":
    main()
