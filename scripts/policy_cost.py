"""What a game of each phase of scripts/train_policy.py costs, in CPU seconds of one
process (``time.process_time``: about what a quiet core takes, whatever else the
machine runs), for the budget in docs/envs.md, "A learned baseline":

    python scripts/policy_cost.py --game ginrummy --games 4

EXPERT's own games (imitation), the shipped network's games with EXPERT labelling each
of its positions (DAgger), and three times as many of the network's games alone (PPO's
and the evaluation's), each on its own deals.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import policy_games as G  # noqa: E402


def cpu(label: str, games: int, work: Callable[[], object]) -> str:
    start = time.process_time()
    out = work()
    spent = time.process_time() - start
    decisions = f", {len(out['action'])} decisions" if isinstance(out, dict) else ""
    return f"{label}: {games} games, {spent:.1f} CPU s ({spent / games:.2f} a game){decisions}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=("ginrummy", "cribbage"), default="ginrummy")
    p.add_argument("--games", type=int, default=4, help="EXPERT's games a phase (default 4)")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    name, n = args.game, args.games
    params = G.load_params(TOP / "port" / name / "policy.npz")
    opponents = ["easy" if (g // 2) % 2 == 0 else "standard" for g in range(n)]
    rewards = G.Rewards()
    print(cpu(f"{name} EXPERT's games", n, lambda: G.run_jobs(G.play_job, G.jobs_of(
        name, None, 1, opponents, nets={}, explore=False, teacher="expert", rewards=rewards, label_by=1,
        follow=True), 1)), flush=True)
    print(cpu(f"{name} the network's games labelled by EXPERT", n, lambda: G.run_jobs(G.play_job, G.jobs_of(
        name, params, 1001, opponents, nets={}, explore=False, teacher="expert", rewards=rewards, label_by=1), 1)),
        flush=True)
    m = 3 * n
    print(cpu(f"{name} the network's games drawing its moves", m, lambda: G.run_jobs(G.play_job, G.jobs_of(
        name, params, 7920, ["standard"] * m, nets={"self": params}, explore=True, teacher=None,
        rewards=rewards), 1)), flush=True)
    print(cpu(f"{name} the network's greedy games (evaluation)", m,
              lambda: G.evaluate(name, params, "standard", m, 99, 1)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
