"""Where a match's games are played: worker processes on this machine, or a Ray
cluster (``--ray [ADDRESS]``, ``port.match.cluster``), with an optional progress bar.

Every way returns the jobs' results in job order, each job being a fixed range of game
numbers, so a seed gives the same tallies however and wherever the games ran.
"""
from __future__ import annotations

import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from port.match.common import WorkerLost, pool_context


@dataclass
class Runner:
    """``workers``: processes here, or the CPUs of a local Ray. ``ray``: None for
    processes here, "local" for a Ray started on this machine, else a cluster's
    address. ``progress``: show a bar (tqdm) while games are played."""

    workers: int = 2
    ray: str | None = None
    progress: bool = False
    bar: Any = None                   # a shared bar (a round-robin's), else one per map
    replayed: int = 0                 # jobs played again after their worker was lost
    connected: bool = False           # this runner started or joined Ray (close() leaves it)

    def map(self, work: Callable[[Any], Any], jobs: list[Any], preload: Sequence[str],
            sizes: Sequence[int], each: Callable[[Any], bool] | None = None) -> list[Any]:
        """``work`` over ``jobs`` (``sizes``: games per job, for the bar), in job order.
        ``each`` is given each result in job order as soon as it and those before it
        are in; when it returns True the jobs not yet taken are dropped (the workers
        stopped) and the results so far returned. An exception from ``each`` stops
        the workers too and goes up."""
        bar = self.bar if self.bar is not None else self.open_bar(sum(sizes))
        take = each or (lambda result: False)
        try:
            if self.ray is not None:
                from port.match.cluster import connect, ray_map
                self.connected = connect(self.ray, self.workers) or self.connected
                results, replayed = ray_map(work, jobs, sizes, bar, take)
                self.replayed += replayed
                return results
            return _local_map(work, jobs, preload, sizes, self.workers, bar, take)
        finally:
            if bar is not None and bar is not self.bar:
                bar.close()

    def close(self) -> None:
        """Leave the Ray this runner started or joined (one start-up for a whole
        round robin, not one per pair)."""
        if self.connected:
            import ray
            ray.shutdown()
            self.connected = False

    def open_bar(self, total: int) -> Any:
        """A tqdm bar over ``total`` games, or None without progress (or without tqdm)."""
        if not self.progress:
            return None
        try:
            from tqdm import tqdm
        except ImportError:      # a bar is a nicety: the run goes on without one
            return None
        return tqdm(total=total, unit="game", file=sys.stderr, leave=False, dynamic_ncols=True)


def _local_map(work: Callable[[Any], Any], jobs: list[Any], preload: Sequence[str],
               sizes: Sequence[int], workers: int, bar: Any, take: Callable[[Any], bool]) -> list[Any]:
    out: list[Any] = []
    if workers > 1 and len(jobs) > 1:
        # concurrent.futures, not multiprocessing.Pool: a Pool replaces a worker that
        # died (an --in-process bot's os._exit, the kernel's out-of-memory kill) and
        # waits forever for the job it was playing; an executor says its pool broke.
        pool = ProcessPoolExecutor(workers, mp_context=pool_context(preload), initializer=_worker_start)
        try:
            futures = [pool.submit(work, job) for job in jobs]
            for size, job, future in zip(sizes, jobs, futures):
                try:
                    part = future.result()
                except BrokenProcessPool:
                    raise WorkerLost(_lost(job)) from None
                out.append(part)
                if bar is not None:
                    bar.update(size)
                if take(part):
                    break
        finally:
            _stop(pool)          # a stop, an error or Ctrl-C drops the jobs not taken
        return out
    for size, job in zip(sizes, jobs):
        out.append(work(job))
        if bar is not None:
            bar.update(size)
        if take(out[-1]):
            break
    return out


def _lost(job: Any) -> str:
    first = f"from game {job[-2] + 1} on " if isinstance(job, tuple) and len(job) >= 2 else ""
    return (f"a worker process ended in the middle of its games, so the games {first}were not counted "
            "(a bot run with --in-process that ended its process, or the kernel's out-of-memory kill; "
            "bot files play from processes of their own unless --in-process)")


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, a job under way too."""
    terminate = getattr(pool, "terminate_workers", None)      # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(5)


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the runner (which stops it): a terminal sends it to the
    whole process group, and each worker would print its own traceback. What a bot
    prints in it goes to stderr: the runner's stdout holds the result alone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.dup2(2, 1)


def show_progress(json_output: bool) -> bool:
    """Bars only for a person at a terminal: not with --json, not when piped."""
    return not json_output and sys.stdout.isatty() and sys.stderr.isatty()
