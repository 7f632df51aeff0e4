"""Where a match's games are played: worker processes on this machine, or a Ray
cluster (``--ray [ADDRESS]``, ``port.match.cluster``), with an optional progress bar.

Every way returns the jobs' results in job order, each job being a fixed range of game
numbers, so a seed gives the same tallies however and wherever the games ran.
"""
from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from port.match.common import pool_context


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
        # Leaving the pool's block terminates its workers: a stop drops the jobs not taken.
        with pool_context(preload).Pool(workers, initializer=_leave_interrupts) as pool:
            for size, part in zip(sizes, pool.imap(work, jobs, chunksize=1)):
                out.append(part)
                if bar is not None:
                    bar.update(size)
                if take(part):
                    break
        return out
    for size, job in zip(sizes, jobs):
        out.append(work(job))
        if bar is not None:
            bar.update(size)
        if take(out[-1]):
            break
    return out


def _leave_interrupts() -> None:
    """A worker leaves Ctrl-C to the runner (which stops it): a terminal sends it to the
    whole process group, and each worker would print its own traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def show_progress(json_output: bool) -> bool:
    """Bars only for a person at a terminal: not with --json, not when piped."""
    return not json_output and sys.stdout.isatty() and sys.stderr.isatty()
