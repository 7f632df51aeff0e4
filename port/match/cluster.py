"""A match's jobs on a Ray cluster (the optional extra ``cluster``).

    python -m port.match --a expert --b standard --games 100000 --ray              # a local Ray
    python -m port.match --a expert --b standard --games 100000 --ray HOST:6379    # a cluster

Each job (a fixed range of game numbers) is one Ray task, and its result is kept under
the job's index, so the tallies are made in game order as on this machine: a seed gives
the same result. Ray's own retries are off: when a task's worker (or its node) dies,
the runner submits that job again, and only the attempt that finishes is kept, so a
killed worker's games are played again and none is counted twice. A bot's own error
(an illegal move) is not retried: it is reported as it is.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from port.extras import need

TRIES = 5        # attempts per job before the run gives up (a cluster losing every worker)


def _call(work: Callable[[Any], Any], job: Any) -> Any:
    return work(job)


def connect(address: str, workers: int) -> bool:
    """Join the cluster at ``address``, or start a local Ray of ``workers`` CPUs
    ("local"); nothing when this process is connected already. True when it started
    or joined here (the caller then disconnects with ``ray.shutdown()``)."""
    need("cluster", "ray")
    import ray

    if ray.is_initialized():
        return False
    if address == "local":
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    else:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    return True


def ray_map(work: Callable[[Any], Any], jobs: list[Any], sizes: Sequence[int], bar: Any = None
            ) -> tuple[list[Any], int]:
    """The jobs' results in job order, and how many jobs were played again (Ray
    connected: ``connect``)."""
    import ray
    from ray import exceptions as rx

    lost = tuple(getattr(rx, n) for n in ("WorkerCrashedError", "NodeDiedError", "ObjectLostError",
                                          "OwnerDiedError", "LocalRayletDiedError") if hasattr(rx, n))
    task = ray.remote(max_retries=0)(_call)
    work_ref = ray.put(work)
    pending = {task.remote(work_ref, job): i for i, job in enumerate(jobs)}
    tries = [1] * len(jobs)
    results: dict[int, Any] = {}
    replayed = 0
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        ref = done[0]
        i = pending.pop(ref)
        try:
            results[i] = ray.get(ref)
        except lost:
            if tries[i] >= TRIES:
                raise RuntimeError(f"games {_games(jobs[i])} failed {TRIES} times: "
                                   "the cluster keeps losing its workers") from None
            tries[i] += 1
            replayed += 1
            pending[task.remote(work_ref, jobs[i])] = i
            continue
        except rx.RayTaskError as failed:        # the games' own error, as a local run gives it
            raise failed.as_instanceof_cause() from None
        if bar is not None:
            bar.update(sizes[i])
    return [results[i] for i in range(len(jobs))], replayed


def _games(job: Any) -> str:
    try:
        return f"{job[-2]}-{job[-1] - 1}"
    except (TypeError, IndexError):
        return "of one job"
