"""A match's jobs on a Ray cluster (the optional extra ``cluster``).

    python -m port.match --a expert --b standard --games 100000 --ray              # a local Ray
    python -m port.match --a expert --b standard --games 100000 --ray HOST:6379    # a cluster

Each job (a fixed range of game numbers) is one Ray task, and its result is kept under
the job's index, so the tallies are made in game order as on this machine: a seed gives
the same result. Ray's own retries are off: when a task's worker (or its node) dies,
the runner submits that job again, and only the attempt that finishes is kept, so a
killed worker's games are played again and none is counted twice. A bot's own failure
(an illegal move, an exception, a hang) is no error of the task: the worker turns it
into the game's forfeit (``port.match.guard``), and it travels back as data, to be
reported in one line as a local run reports it.
"""
from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from typing import Any

from port.extras import need
from port.match.common import WorkerLost

TRIES = 5        # attempts per job before the run gives up (a cluster losing every worker)
PROBE_SECONDS = 5.0
# An HTTP/2 client's first words (its preface, then an empty SETTINGS frame): a gRPC
# server, as Ray's head (its GCS) and its client server are, answers with a SETTINGS frame.
H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
SETTINGS = 4


def check_address(address: str) -> None:
    """``--ray ADDRESS``: ValueError (one sentence) unless a gRPC server, as a Ray
    cluster's head is, answers at ADDRESS ("host:port", or "ray://host:port") within
    ``PROBE_SECONDS``; "local" and "auto" are Ray's to find. Asked before Ray is:
    ``ray.init`` would wait minutes with warnings naming the address it made of the
    one given (its own node's for 127.0.0.1)."""
    if address in ("local", "auto"):
        return
    text = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--ray {address}: give the cluster's head as HOST:PORT (as head.example:6379), "
                         "auto, or nothing for a local Ray")
    try:
        conn = socket.create_connection((host, int(port)), timeout=PROBE_SECONDS)
    except socket.gaierror as exc:
        raise ValueError(f"--ray {address}: no host {host!r} is known ({exc.strerror})") from None
    except (socket.timeout, TimeoutError):
        raise ValueError(f"--ray {address}: nothing answered there within {PROBE_SECONDS:g} s "
                         "(is the cluster's head up? ray start --head starts one)") from None
    except OSError as exc:
        raise ValueError(f"--ray {address}: nothing is listening there ({exc.strerror or exc}); start the "
                         f"cluster's head with ray start --head --port {port}, or give --ray alone "
                         "for a local Ray") from None
    with conn:
        try:
            conn.settimeout(PROBE_SECONDS)
            conn.sendall(H2_PREFACE)
            head = _first(conn, 9)
        except OSError:          # a timeout too: it took the connection and said nothing
            head = b""
    if len(head) < 9 or head[3] != SETTINGS:
        raise ValueError(f"--ray {address}: something answers there, but not as a Ray cluster's head "
                         "does (it does not speak gRPC)")


def _first(conn: socket.socket, n: int) -> bytes:
    """The first ``n`` bytes the server sends (fewer if it closes first)."""
    out = b""
    while len(out) < n:
        chunk = conn.recv(n - len(out))
        if not chunk:
            break
        out += chunk
    return out


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
        check_address(address)
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    return True


def ray_map(work: Callable[[Any], Any], jobs: list[Any], sizes: Sequence[int], bar: Any = None,
            take: Callable[[Any], bool] | None = None) -> tuple[list[Any], int]:
    """The jobs' results in job order, and how many jobs were played again (Ray
    connected: ``connect``). ``take`` is given each result in job order as soon as it
    and those before it are in; True from it cancels the jobs still running and
    returns the results taken."""
    out = _RayJobs(work, jobs)
    taken = 0
    try:
        while out.pending:
            i = out.next()
            if i is not None and bar is not None:
                bar.update(sizes[i])
            while taken in out.results:
                taken += 1
                if take is not None and take(out.results[taken - 1]):
                    return [out.results[k] for k in range(taken)], out.replayed
    finally:
        out.cancel()         # after a stop or an error, the jobs still out are not wanted
    return [out.results[k] for k in range(len(jobs))], out.replayed


class _RayJobs:
    """The jobs as Ray tasks: submitted at once, each result kept under its job's index."""

    def __init__(self, work: Callable[[Any], Any], jobs: list[Any]) -> None:
        import ray
        from ray import exceptions as rx

        self.ray, self.rx = ray, rx
        self.lost = tuple(getattr(rx, n) for n in ("WorkerCrashedError", "NodeDiedError", "ObjectLostError",
                                                   "OwnerDiedError", "LocalRayletDiedError") if hasattr(rx, n))
        self.task = ray.remote(max_retries=0)(_call)
        self.work_ref = ray.put(work)
        self.jobs = jobs
        self.pending = {self.task.remote(self.work_ref, job): i for i, job in enumerate(jobs)}
        self.tries = [1] * len(jobs)
        self.results: dict[int, Any] = {}
        self.replayed = 0

    def next(self) -> int | None:
        """Wait for the next job to finish: its index, or None when its worker was lost
        and the job submitted again."""
        done, _ = self.ray.wait(list(self.pending), num_returns=1)
        ref = done[0]
        i = self.pending.pop(ref)
        try:
            self.results[i] = self.ray.get(ref)
        except self.lost:
            if self.tries[i] >= TRIES:
                raise WorkerLost(f"games {_games(self.jobs[i])} failed {TRIES} times: "
                                   "the cluster keeps losing its workers") from None
            self.tries[i] += 1
            self.replayed += 1
            self.pending[self.task.remote(self.work_ref, self.jobs[i])] = i
            return None
        except self.rx.RayTaskError as failed:        # the games' own error, as a local run gives it
            raise failed.as_instanceof_cause() from None
        return i

    def cancel(self) -> None:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()


def _games(job: Any) -> str:
    try:
        return f"{job[-2]}-{job[-1] - 1}"
    except (TypeError, IndexError):
        return "of one job"
