"""The card room under load: many tables of bot clients at once, against one room
process (SQLite) or two sharing a Redis (issue 30). A benchmark, not a test.

    .venv/bin/python scripts/bench_room.py --tables 1000 --seconds 60 --runs 3
    .venv/bin/python scripts/bench_room.py --tables 1000 --redis --runs 3
    .venv/bin/python scripts/bench_room.py --sweep 250,500,1000,1500 --seconds 30
    .venv/bin/python scripts/bench_room.py --sweep 1000,1500,2000,2500 --seconds 30 --redis

Each run starts the room (``python -m port.room``) in its own process(es) on a free
port of 127.0.0.1, with a fresh ``--data`` directory (or, with ``--redis``, a
``redis-server`` of its own and two room processes on it), and the clients in one or
more other processes (``--workers``): asyncio, one WebSocket connection per player.
Every table is two guest players of one worker process (so one clock,
``time.perf_counter``, times both seats): one invites, the other accepts, and they play
through ``port.room.seat`` with the EASY level, each ``ask`` said ``shown`` at once (as
a screen does; the room answers with a ``clock``) and answered after a random
delay, uniform in [0, 2 x --mean] seconds (a table makes a move every --mean seconds on
average). Half the tables play GinRummy to one hand (score_limit 0), half Cribbage to
61; a finished game is followed by a rematch. With ``--redis``, the two players of a
table are on different room processes, half the tables owned by each.

Measured, over --seconds of steady state once every table has started:

* latency: from a move sent to the opponent's copy of its first message (the event);
  the moves of a table are sent one step at a time (a move waits until both seats have
  the whole of the step before: its ``clock`` message, which the room sends last), so
  the opponent's first numbered message after the send is the move's own;
* moves/s: moves sent in the window, per second;
* the room's CPU (share of one core, and ms a move) and memory (VmRSS at the end,
  VmHWM), from /proc/PID of the room process(es) (and of redis-server), and the
  clients' CPU and event-loop lag, which say whether the load generator was the
  bottleneck;
* with --redis, the rooms' round trips to Redis a move: the blocking ones (redis-py's
  synchronous client: the event loop waits) and the others (``redis.asyncio``), and
  the replies and channel messages read, counted where redis-py sends and reads (a
  pipeline is one send). Counts, not times: robust on a shared machine.

Then the clients drain (no more rematches; asks answered at once) and check every game:
"lost" counts the games that did not finish and the moves never acknowledged (or
refused); "diverged" the finished games whose record (the ``game`` message) or either
seat's stream of numbered messages differs from ``port.room.games.replay`` of the moves
both clients sent. The last line printed is

    tables T, moves M/s, p50 X ms, p99 Y ms, lost L, diverged D

(the medians of --runs runs; with --sweep, of the largest count run, after a line
naming the saturation point: the first count whose p99 passes 100 ms). Exit 0 when
nothing was lost or diverged. docs/room-bench.md has the numbers.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 100.0
GAME_RULES: tuple[tuple[str, dict[str, Any]], ...] = (("ginrummy", {"score_limit": 0}), ("cribbage", {"limit": 61}))
MARKERS = ("clock", "game_end")      # the last message a seat gets from one step of a table


# ---- the command line ----------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="The card room under load (docs/room-bench.md).")
    p.add_argument("--tables", type=int, default=1000, help="tables playing at once (default 1000)")
    p.add_argument("--sweep", default="", help="several counts, 250,500,1000: the saturation point")
    p.add_argument("--seconds", type=float, default=60.0, help="the measured window of steady state")
    p.add_argument("--mean", type=float, default=2.0, help="a table's mean seconds between moves")
    p.add_argument("--runs", type=int, default=1, help="runs per count; the medians are quoted")
    p.add_argument("--redis", action="store_true", help="two room processes sharing one redis-server")
    p.add_argument("--workers", type=int, default=1, help="client processes (the tables split between them)")
    p.add_argument("--player", default="light", help="how the clients choose: light (a legal move read off the "
                                                      "ask, the lightest client), or a level through the player "
                                                      "interface (easy, standard, expert)")
    p.add_argument("--clock", type=int, default=60, help="the tables' move clock (seconds, 1 or more)")
    p.add_argument("--drain", type=float, default=120.0, help="seconds the games have to finish after the window")
    p.add_argument("--seed", type=int, default=1, help="the clients' delays and players")
    p.add_argument("--nice", type=int, default=0, help="run the room, redis and the clients at this niceness "
                                                         "(-10: ahead of other work on a shared machine; root)")
    p.add_argument("--profile", metavar="FILE", help="py-spy the (first) room process over the window into FILE")
    p.add_argument("--room-gc", default="default", help="the room's collector, to measure a fix: default, "
                                                         "off, or thresholds G0,G1,G2 (gc.set_threshold)")
    p.add_argument("--keep", action="store_true", help="keep each run's folder (logs, store, GC pauses)")
    p.add_argument("--json", metavar="FILE", help="also write every run's figures to FILE")
    p.add_argument("--worker", help=argparse.SUPPRESS)          # internal: a client process's config
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    _more_files()
    if args.worker:
        return worker_main(json.loads(args.worker))
    global _NICE, _ROOM_GC
    _NICE, _ROOM_GC = args.nice, args.room_gc
    if _ROOM_GC not in ("default", "off") and not re.fullmatch(r"\d+,\d+,\d+", _ROOM_GC):
        print("bench_room: --room-gc is default, off, or three thresholds: 50000,20,100", file=sys.stderr)
        return 2
    if args.clock < 1:
        print("bench_room: --clock is 1 or more (its messages mark the end of each step)", file=sys.stderr)
        return 2
    counts = [int(c) for c in args.sweep.split(",") if c.strip()] if args.sweep else [args.tables]
    rows: list[dict[str, Any]] = []
    for count in counts:
        runs = [one_run(args, count, n) for n in range(args.runs)]
        row = median_row(count, runs)
        rows.append(row)
        print(summary(row), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if len(counts) > 1:
        over = [r["tables"] for r in rows if r["p99"] > GOAL_MS]
        print(f"saturation: p99 passes {GOAL_MS:.0f} ms at {over[0]} tables" if over
              else f"saturation: p99 stays within {GOAL_MS:.0f} ms up to {counts[-1]} tables", flush=True)
    last = rows[-1]
    print(f"tables {last['tables']}, moves {last['moves_s']:.0f}/s, p50 {last['p50']:.1f} ms, "
          f"p99 {last['p99']:.1f} ms, lost {last['lost']}, diverged {last['diverged']}", flush=True)
    return 0 if all(r["lost"] == 0 and r["diverged"] == 0 for r in rows) else 1


def _more_files() -> None:
    """A socket per player: raise the open-files limit to the hard one (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def summary(row: dict[str, Any]) -> str:
    return (f"{row['tables']} tables ({row['mode']}, {row['runs']} runs, medians): {row['moves_s']:.0f} moves/s, "
            f"p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, max {row['max']:.0f} ms; room CPU "
            f"{row['room_cpu']:.0f}% ({row['room_ms_move']:.3f} ms a move, {row['room_sys_ms_move']:.3f} of it in the "
            f"kernel; clients {row['client_ms_move']:.3f} ms a move), RSS {row['room_rss_mb']:.0f} MB (peak {row['room_hwm_mb']:.0f}); "
            f"redis CPU {row['redis_cpu']:.0f}%; clients CPU {row['client_cpu']:.0f}%, loop lag p99 "
            f"{row['lag_p99']:.1f} ms; waiting for a CPU: room {row['room_wait']:.0f}%, clients "
            f"{row['client_wait']:.0f}% (load average {row['load']:.1f}); GC pauses over 5 ms: room {row['room_gc_n']:.0f}, "
            f"longest {row['room_gc_max']:.0f} ms, clients' longest {row['client_gc_max']:.0f} ms; games {row['games']}, lost {row['lost']}, diverged {row['diverged']}, "
            f"clock timeouts {row['timeouts']}, errors {row['errors']}, room faults {row['faults']}; room CPU a move "
            f"{row['room_cpu_ms_move']:.2f} ms" + (f"; Redis a move: {row['rt_sync_move']:.2f} blocking round trips, "
            f"{row['rt_async_move']:.2f} other sends, {row['reads_move']:.2f} reads" if row["mode"] != "1 process, SQLite" else ""))


def median_row(count: int, runs: list[dict[str, Any]]) -> dict[str, Any]:
    row: dict[str, Any] = {"tables": count, "mode": runs[0]["mode"], "runs": len(runs)}
    for key in runs[0]:
        if key in ("mode", "tables"):
            continue
        values = [r[key] for r in runs]
        if key in ("lost", "diverged", "errors", "faults", "timeouts"):
            row[key] = max(values)           # the worst run: a loss in any run is a loss
        else:
            row[key] = statistics.median(values)
    row["each"] = runs
    return row


# ---- one run: the room's processes, the clients' processes ---------------------------------------

@dataclass
class Proc:
    """A process of the run and its /proc figures."""

    popen: subprocess.Popen[bytes]
    name: str
    cpu0: float = 0.0
    wait0: float = 0.0
    sys0: float = 0.0

    def waited(self) -> float:
        """Seconds it was ready to run but waited for a CPU (its main thread's schedstat)."""
        try:
            return int(Path(f"/proc/{self.popen.pid}/schedstat").read_text().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return 0.0

    def cpu(self) -> float:
        """Seconds of CPU (user + system) so far."""
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sys(self) -> float:
        """Seconds of CPU in the kernel so far (system calls: the sockets, the store's writes)."""
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[12]) / os.sysconf("SC_CLK_TCK")

    def memory(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) in MB."""
        status = Path(f"/proc/{self.popen.pid}/status").read_text()
        got = {k: int(v.split()[0]) / 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.*)$", status, re.M)}
        return got.get("VmRSS", 0.0), got.get("VmHWM", 0.0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_NICE = 0
_ROOM_GC = "default"


def _niced() -> None:
    """In a child before it runs, in a session of its own (so, where the kernel groups
    the scheduling of sessions, sched_autogroup, a share of the CPUs of its own rather
    than a part of this shell's): its niceness, and its group's, from --nice."""
    if _NICE:
        os.setpriority(os.PRIO_PROCESS, 0, _NICE)
        try:
            Path("/proc/self/autogroup").write_text(str(_NICE))
        except OSError:
            pass


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def start_redis(folder: Path) -> tuple[Proc, str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("bench_room: --redis needs redis-server (apt-get install redis-server)")
    port = _free_port()
    popen = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                              "no", "--dir", str(folder), "--logfile", str(folder / "redis.log")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_niced, start_new_session=True)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            pass
        if popen.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("bench_room: redis-server did not start")
        time.sleep(0.05)
    return Proc(popen, "redis"), f"redis://127.0.0.1:{port}/0"


# The room as ``python -m port.room`` runs it, with one thing more: each pause of
# Python's cyclic garbage collector over 5 ms written to a file (the bench's own hook;
# the room's code is unchanged), since a long one stalls every table at once.
ROOM_BOOT = """
import gc, runpy, sys, time
log, began = open(sys.argv[1], "a"), [0.0]
def timed(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    elif time.perf_counter() - began[0] > 0.005:
        log.write(f"{time.time():.3f} {info['generation']} {time.perf_counter() - began[0]:.4f}\\n")
        log.flush()
gc.callbacks.append(timed)
if sys.argv[3] != "-":
    # With --redis: the room's round trips to Redis, counted where redis-py sends (a
    # pipeline is one), blocking ones (the synchronous client: the event loop waits)
    # apart from the others, and the replies and channel messages read, written to a
    # file every half second (the bench's hook, as the collector's above).
    import threading
    import redis.asyncio.connection as aconn, redis.connection as sconn
    counts = [0, 0, 0]
    def counted(cls, name, i, wrap):
        inner = getattr(cls, name)
        setattr(cls, name, wrap(inner, i))
    def plain(inner, i):
        def f(*a, **k):
            counts[i] += 1
            return inner(*a, **k)
        return f
    def awaited(inner, i):
        async def f(*a, **k):
            counts[i] += 1
            return await inner(*a, **k)
        return f
    counted(sconn.AbstractConnection, "send_packed_command", 0, plain)
    counted(aconn.AbstractConnection, "send_packed_command", 1, awaited)
    counted(aconn.AbstractConnection, "read_response", 2, awaited)
    def beat(path=sys.argv[3]):
        with open(path, "a") as out:
            while True:
                out.write(f"{time.time():.3f} {counts[0]} {counts[1]} {counts[2]}\\n")
                out.flush()
                time.sleep(0.5)
    threading.Thread(target=beat, daemon=True).start()
if sys.argv[2] == "off":
    gc.disable()
elif sys.argv[2] != "default":
    gc.set_threshold(*(int(x) for x in sys.argv[2].split(",")))
sys.argv = ["port.room"] + sys.argv[4:]
runpy.run_module("port.room", run_name="__main__", alter_sys=True)
"""


def gc_pauses(folder: Path, n: int, start: float, end: float) -> list[float]:
    """The room's collector pauses (seconds) between two times (time.time())."""
    path = folder / f"room{n}.gc"
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        at, _, pause = line.split()
        if start <= float(at) <= end:
            out.append(float(pause))
    return out


def round_trips(folder: Path, n: int, start: float, end: float) -> tuple[float, float, float]:
    """The room's Redis traffic between two times (time.time()), from its counter's
    file: (blocking round trips, other sends, replies and channel messages read)."""
    path = folder / f"room{n}.rt"
    if not path.exists():
        return 0.0, 0.0, 0.0
    rows = [[float(x) for x in line.split()] for line in path.read_text().splitlines() if line.count(" ") == 3]
    inside = [r for r in rows if start <= r[0] <= end]
    if len(inside) < 2:
        return 0.0, 0.0, 0.0
    first, last = inside[0], inside[-1]
    scale = (end - start) / (last[0] - first[0])        # the file's window is a little shorter
    return tuple(scale * (last[i] - first[i]) for i in (1, 2, 3))  # type: ignore[return-value]


def start_room(folder: Path, redis_url: str | None, n: int) -> tuple[Proc, str]:
    """A room process on a free port; (its process, its ws:// address)."""
    # Every bench client is a guest on 127.0.0.1: the room's limits per address are lifted.
    trips = str(folder / f"room{n}.rt") if redis_url else "-"
    cmd = [sys.executable, "-c", ROOM_BOOT, str(folder / f"room{n}.gc"), _ROOM_GC, trips, "--port", "0", "--quiet",
           "--data", str(folder), "--connections-per-address", "0", "--guests-per-address", "0"]
    if redis_url:
        cmd += ["--redis", redis_url]
    log = open(folder / f"room{n}.log", "wb")
    popen = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=_env(), cwd=folder,
                             preexec_fn=_niced, start_new_session=True)
    line = _line(popen, time.monotonic() + 30)
    found = re.search(r"ws://[\d.]+:(\d+)", line)
    if found is None:
        popen.kill()
        raise SystemExit(f"bench_room: the room did not start ({line.strip() or 'no output'}; see {log.name})")
    return Proc(popen, f"room{n}"), f"ws://127.0.0.1:{found.group(1)}"


def _line(popen: subprocess.Popen[bytes], deadline: float) -> str:
    """The process's next line of output, or "" past the deadline or at its end."""
    assert popen.stdout is not None
    out = b""
    while not out.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([popen.stdout], [], [], left)[0]:
            return out.decode(errors="replace")
        chunk = os.read(popen.stdout.fileno(), 1)
        if not chunk:
            return out.decode(errors="replace")
        out += chunk
    return out.decode(errors="replace")


def stop(proc: Proc) -> None:
    if proc.popen.poll() is None:
        proc.popen.terminate()
        try:
            proc.popen.wait(10)
        except subprocess.TimeoutExpired:
            proc.popen.kill()
            proc.popen.wait()


def one_run(args: argparse.Namespace, count: int, number: int) -> dict[str, Any]:
    """One run at ``count`` tables: its figures (latencies in ms)."""
    folder = Path(tempfile.mkdtemp(prefix="bench_room_"))
    try:
        procs: list[Proc] = []
        rooms: list[Proc] = []
        workers: list[Proc] = []
        try:
            redis_url = None
            if args.redis:
                redis, redis_url = start_redis(folder)
                procs.append(redis)
            urls = []
            for n in range(2 if args.redis else 1):
                room, url = start_room(folder, redis_url, n)
                rooms.append(room)
                procs.append(room)
                urls.append(url)
            workers = start_workers(args, count, number, folder, urls)
            procs += workers
            figures = measure(args, count, rooms, procs, workers, folder)
        finally:
            for p in reversed(procs):
                stop(p)
        figures["faults"] = sum(_faults(folder / f"room{n}.log") for n in range(len(rooms)))
    finally:
        if args.keep:
            print(f"  run {number + 1}: its files are in {folder}", flush=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    figures["mode"] = "2 processes on Redis" if args.redis else "1 process, SQLite"
    figures["tables"] = count
    print(f"  run {number + 1}: {summary({**figures, 'runs': 1})}", flush=True)
    return figures


def _faults(log: Path) -> int:
    """Lines of the room's log that say something went wrong (it runs --quiet)."""
    if not log.exists():
        return 0
    return sum(1 for line in log.read_text(errors="replace").splitlines() if " ERROR " in line or " WARNING " in line)


def start_workers(args: argparse.Namespace, count: int, number: int, folder: Path, urls: list[str]) -> list[Proc]:
    workers = []
    k = max(1, min(args.workers, count))
    for w in range(k):
        tables = list(range(w, count, k))
        config = {"urls": urls, "tables": tables, "mean": args.mean, "player": args.player, "clock": args.clock,
                  "drain": args.drain, "seed": args.seed * 1000 + number * 100 + w, "seconds": args.seconds,
                  "out": str(folder / f"worker{w}.json")}
        popen = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(config)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env(),
                                 preexec_fn=_niced, start_new_session=True)
        workers.append(Proc(popen, f"worker{w}"))
    return workers


def measure(args: argparse.Namespace, count: int, rooms: list[Proc], procs: list[Proc], workers: list[Proc],
            folder: Path) -> dict[str, Any]:
    """Wait for every table to start, open the window, read /proc at both ends, collect."""
    deadline = time.monotonic() + 120 + 0.1 * count     # connecting and inviting, paced
    for w in workers:
        line = _line(w.popen, deadline)
        if not line.startswith("ready"):
            raise SystemExit(f"bench_room: a client process did not get its tables started ({line.strip()!r})")
    for p in procs:
        p.cpu0, p.wait0, p.sys0 = p.cpu(), p.waited(), p.sys()
    spy = _profile(args, rooms[0]) if args.profile else None
    start, began = time.monotonic(), time.time()
    for w in workers:
        assert w.popen.stdin is not None
        w.popen.stdin.write(b"go\n")
        w.popen.stdin.flush()
    time.sleep(args.seconds)
    ended = time.time()
    wall = time.monotonic() - start
    cpu = {p.name: 100.0 * (p.cpu() - p.cpu0) / wall for p in procs}
    kernel = {p.name: 100.0 * (p.sys() - p.sys0) / wall for p in procs}
    waits = {p.name: 100.0 * (p.waited() - p.wait0) / wall for p in procs}
    load = float(Path("/proc/loadavg").read_text().split()[0])
    pauses = [x for n in range(len(rooms)) for x in gc_pauses(folder, n, began, time.time())]
    memory = [r.memory() for r in rooms]
    for w in workers:
        left = args.drain + 300
        line = _line(w.popen, time.monotonic() + left)
        if not line.startswith("done"):
            raise SystemExit(f"bench_room: a client process did not finish ({line.strip()!r})")
    if spy is not None:
        spy.wait()
    results = [json.loads((folder / f"worker{n}.json").read_text()) for n in range(len(workers))]
    figures = combine(results, cpu, memory, rooms, workers, args.seconds)
    figures["room_wait"] = sum(waits[r.name] for r in rooms)
    figures["room_sys"] = sum(kernel[r.name] for r in rooms)
    # The robust figure on a shared machine: the room's CPU a move (ms), user and kernel.
    figures["room_ms_move"] = 10.0 * figures["room_cpu"] / max(figures["moves_s"], 1e-9)
    figures["room_sys_ms_move"] = 10.0 * figures["room_sys"] / max(figures["moves_s"], 1e-9)
    figures["client_ms_move"] = 10.0 * figures["client_cpu"] / max(figures["moves_s"], 1e-9)
    figures["client_wait"] = sum(waits[w.name] for w in workers)
    figures["load"] = load
    figures["room_gc_max"] = 1000 * max(pauses, default=0.0)
    figures["room_gc_s"] = sum(pauses)
    figures["room_gc_n"] = len(pauses)
    trips = [round_trips(folder, n, began, ended) for n in range(len(rooms))]
    moves = max(1.0, figures["moves_s"] * args.seconds)
    figures["rt_sync_move"] = sum(t[0] for t in trips) / moves
    figures["rt_async_move"] = sum(t[1] for t in trips) / moves
    figures["reads_move"] = sum(t[2] for t in trips) / moves
    figures["room_cpu_ms_move"] = 10.0 * figures["room_cpu"] / max(1e-9, figures["moves_s"])
    return figures


def _profile(args: argparse.Namespace, room: Proc) -> subprocess.Popen[bytes]:
    """py-spy (pip install py-spy) samples the room over the window: a flame graph's lines."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    return subprocess.Popen([spy, "record", "--pid", str(room.popen.pid), "--duration", str(int(args.seconds)),
                             "--format", "raw", "--output", args.profile, "--nonblocking", "--gil"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def combine(results: list[dict[str, Any]], cpu: dict[str, float], memory: list[tuple[float, float]],
            rooms: list[Proc], workers: list[Proc], seconds: float) -> dict[str, Any]:
    latencies = sorted(x for r in results for x in r["latencies"])
    lags = sorted(x for r in results for x in r["lags"])
    client_gc = [pause for r in results for _, pause in r["gc"]]
    return {
        "moves_s": sum(r["moves_window"] for r in results) / seconds,
        "p50": 1000 * _quantile(latencies, 0.50), "p99": 1000 * _quantile(latencies, 0.99),
        "max": 1000 * (latencies[-1] if latencies else 0.0),
        "samples": len(latencies),
        "room_cpu": sum(cpu[r.name] for r in rooms),
        "room_cpu_each": [round(cpu[r.name], 1) for r in rooms],
        "redis_cpu": cpu.get("redis", 0.0),
        "client_cpu": sum(cpu[w.name] for w in workers),
        "room_rss_mb": sum(m[0] for m in memory), "room_hwm_mb": sum(m[1] for m in memory),
        "lag_p99": 1000 * _quantile(lags, 0.99),
        "client_gc_max": 1000 * max(client_gc, default=0.0),
        "games": sum(r["games"] for r in results),
        "lost": sum(r["lost_games"] + r["lost_moves"] for r in results),
        "lost_games": sum(r["lost_games"] for r in results), "lost_moves": sum(r["lost_moves"] for r in results),
        "diverged": sum(r["diverged"] for r in results),
        "timeouts": sum(r["timeouts"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "setup_s": max(r["setup_s"] for r in results),
        "drain_s": max(r["drain_s"] for r in results),
    }


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


# ---- a client process ---------------------------------------------------------------------------

@dataclass
class Pending:
    """A move sent and not yet fully seen: when, by whom, each seat's count at the send."""

    t: float
    mover: int
    seqs: tuple[int, int]
    window: bool
    seen: list[bool] = field(default_factory=lambda: [False, False])     # a numbered message after it
    marked: set[int] = field(default_factory=lambda: {0, 1})             # seats still to get its marker


@dataclass
class Game:
    """One table (one game) of two clients of this process, as they saw it."""

    id: str
    kind: str
    rules: dict[str, Any]
    players: tuple[str, str]
    clients: list[Any] = field(default_factory=lambda: [None, None])
    seats: list[Any] = field(default_factory=lambda: [None, None])          # port.room.seat.Seat each
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    streams: list[int] = field(default_factory=lambda: [0, 0])            # a running hash of each seat's frames
    seqs: list[int] = field(default_factory=lambda: [0, 0])
    asks: list[int] = field(default_factory=lambda: [0, 0])               # a stand-in move cancels an ask
    pending: Pending | None = None
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    ended: list[dict[str, Any] | None] = field(default_factory=lambda: [None, None])
    timeouts: int = 0
    refused: int = 0


class Bench:
    """What a client process knows: its games, its figures, the window."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.rng = random.Random(config["seed"])
        self.games: dict[str, Game] = {}
        self.latencies: list[float] = []
        self.lags: list[float] = []
        self.gc_pauses: list[tuple[int, float]] = []
        self.moves_window = 0
        self.window = False
        self.window_over = False
        self.draining = False
        self.errors = 0
        self.records: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.started: dict[int, asyncio.Event] = {}
        self.open_games = 0
        self.all_ended = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Any) -> None:
        """Run a coroutine on its own, held until it ends (the loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def delay(self) -> float:
        if self.draining:
            return 0.0
        return self.rng.uniform(0.0, 2.0 * self.config["mean"])

    def player(self, kind: str, seed: int) -> Any:
        from port.cribbage.levels import load_player as crib_player
        from port.ginrummy.levels import load_player as gin_player

        return (gin_player if kind == "ginrummy" else crib_player)(self.config["player"], seed)

    def game_over(self, game: Game) -> None:
        self.open_games -= 1
        if self.open_games == 0 and self.draining:
            self.all_ended.set()


class Client:
    """One player: one connection, its seat at each of its tables."""

    def __init__(self, bench: Bench, url: str, pair: int, seat_role: int) -> None:
        self.bench, self.url, self.pair, self.role = bench, url, pair, seat_role
        self.ws: Any = None
        self.name = ""
        self.welcomed = asyncio.Event()
        self.invited: asyncio.Future[str] | None = None
        self.task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, max_size=2**22, open_timeout=60, ping_interval=None)
        self.task = asyncio.create_task(self.read())
        await self.send({"type": "guest"})
        await asyncio.wait_for(self.welcomed.wait(), 60)

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps({"v": 1, **message}, separators=(",", ":")))

    def later(self, message: dict[str, Any]) -> None:
        self.bench.spawn(self.send(message))

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                self.on(raw)
        except ConnectionClosed:
            pass

    def on(self, raw: str | bytes) -> None:
        if isinstance(raw, str) and raw.endswith("}") and _STREAM.search(raw, max(0, len(raw) - 60)):
            self.stream(raw)
            return
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind in MARKERS:
            self.marker(msg)
        elif kind == "welcome":
            self.name = msg["name"]
            self.welcomed.set()
        elif kind == "invitation":
            if msg.get("proposer") != self.name:
                self.later({"type": "accept", "id": msg["id"]})
        elif kind == "start":
            self.start(msg)
        elif kind == "record":
            future = self.bench.records.get(msg["number"])
            if future is not None and not future.done():
                future.set_result(msg)
        elif kind == "timeout":
            game = self.bench.games.get(msg["table"])
            if game is not None and self is game.clients[0]:      # told to both: counted once
                game.moves.append((msg["seat"], msg["move"]))
                game.asks[msg["seat"]] += 1
                game.timeouts += 1
        elif kind == "error":
            self.refusal(msg)

    def refusal(self, msg: dict[str, Any]) -> None:
        self.bench.errors += 1
        game = self.bench.games.get(msg.get("table", ""))
        if msg.get("refused") == "move" and game is not None:
            game.refused += 1
        if self.bench.errors <= 5:
            print(f"bench_room: the room refused {msg.get('refused')}: {msg.get('reason')}", file=sys.stderr, flush=True)

    def start(self, msg: dict[str, Any]) -> None:
        table, seat = msg["table"], int(msg["seat"])
        game = self.bench.games.get(table)
        if game is None:
            game = Game(table, msg["game"], msg["rules"], (msg["players"][0], msg["players"][1]))
            # The deal's step: both seats get its marker before the first move goes.
            game.pending = Pending(time.perf_counter(), -1, (0, 0), False, [True, True])
            self.bench.games[table] = game
            self.bench.open_games += 1
        game.clients[seat] = self
        if self.bench.config["player"] != "light":
            game.seats[seat] = _seat(msg["game"], self.bench.player(msg["game"], self.bench.rng.getrandbits(31)))
        started = self.bench.started.get(self.pair)
        if started is not None and all(c is not None for c in game.clients):
            started.set()

    def stream(self, raw: str) -> None:
        """A numbered frame: its table and number read off its end (the room writes them
        last), the frame parsed only when it is needed (an ask; every frame for a level)."""
        found = _STREAM.search(raw, max(0, len(raw) - 60))
        assert found is not None
        table, seq = found.group(1), int(found.group(2))
        game = self.bench.games[table]
        seat = game.clients.index(self)
        game.streams[seat] = hash((game.streams[seat], raw))
        game.seqs[seat] = seq
        pending = game.pending
        if pending is not None and not pending.seen[seat] and seq > pending.seqs[seat]:
            pending.seen[seat] = True
            if seat != pending.mover and pending.window:
                self.bench.latencies.append(time.perf_counter() - pending.t)
        if raw.startswith('{"v":1,"type":"ask"'):     # as a screen does: the question is shown, its clock starts
            self.later({"type": "shown", "table": table, "seq": seq})
        chooser = game.seats[seat]
        if chooser is None:
            move = light_move(json.loads(raw)) if raw.startswith('{"v":1,"type":"ask"') else None
        else:
            move = chooser.feed(json.loads(raw))
        if move is not None:
            self.bench.spawn(self.move(game, seat, move, game.asks[seat]))

    def marker(self, msg: dict[str, Any]) -> None:
        game = self.bench.games.get(msg.get("table", ""))
        if game is None:
            return
        seat = game.clients.index(self)
        pending = game.pending
        if pending is not None and (pending.seen[seat] or pending.mover < 0):
            pending.marked.discard(seat)
            if not pending.marked:
                game.pending = None
                game.idle.set()
        if msg["type"] == "game_end" and game.ended[seat] is None:
            game.ended[seat] = msg
            if all(game.ended):
                self.bench.game_over(game)
            if not self.bench.draining and not self.bench.window_over:
                self.later({"type": "rematch", "table": game.id})

    async def move(self, game: Game, seat: int, move: dict[str, Any], ask: int) -> None:
        await asyncio.sleep(self.bench.delay())
        while game.pending is not None:
            game.idle.clear()
            try:
                await asyncio.wait_for(game.idle.wait(), 30)
            except asyncio.TimeoutError:
                self.bench.errors += 1        # a step whose marker never came: go on
                game.pending = None
        if ask != game.asks[seat] or game.ended[seat] is not None:
            return                            # the clock moved for this seat meanwhile
        game.moves.append((seat, move))
        game.pending = Pending(time.perf_counter(), seat, (game.seqs[0], game.seqs[1]), self.bench.window)
        if self.bench.window:
            self.bench.moves_window += 1
        await self.send({"type": "move", "table": game.id, "move": move})


_STREAM = re.compile(r',"table":"([^"]+)","seq":(\d+)}$')
_RANK = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


def light_move(ask: dict[str, Any]) -> dict[str, Any]:
    """A legal move read off an ask's view, at the least cost: GinRummy declines the
    upcard, draws from the stock, discards its highest card and knocks when asked;
    Cribbage lays away its first two cards and plays the first card the count takes."""
    decision, view = ask["decision"], ask["view"]
    if decision in ("offer", "draw", "knock"):
        return {"act": {"offer": "decline", "draw": "stock", "knock": "knock"}[decision]}
    if decision == "discard":
        return {"act": "discard", "card": max(view["hand"], key=lambda c: _RANK[c[0]])}
    if decision == "lay_away":
        return {"act": "lay_away", "cards": view["hand"][:2]}
    for card in view["hand"]:
        if view["count"] + min(10, _RANK[card[0]]) <= 31:
            return {"act": "play", "card": card}
    return {"act": "go"}


def _seat(kind: str, player: Any) -> Any:
    from port.room.seat import seat_for

    return seat_for(kind, player)


def worker_main(config: dict[str, Any]) -> int:
    # uvloop, as the room runs (port.room.cli): libuv's loop costs the clients less of the
    # machine's two cores, which they share with the room.
    try:
        import uvloop
        factory = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(_worker(config))


async def _worker(config: dict[str, Any]) -> int:
    bench = Bench(config)
    _time_gc(bench)
    t0 = time.monotonic()
    pairs = await setup(bench, config)
    setup_s = time.monotonic() - t0
    _quiet_collector()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    lag = asyncio.create_task(_lag(bench))
    cpu0 = time.process_time()
    bench.window = True
    await asyncio.sleep(config["seconds"])
    bench.window = False
    bench.window_over = True
    lag.cancel()
    client_cpu = time.process_time() - cpu0
    t1 = time.monotonic()
    bench.draining = True
    if bench.open_games > 0:
        try:
            await asyncio.wait_for(bench.all_ended.wait(), config["drain"])
        except asyncio.TimeoutError:
            pass
    drain_s = time.monotonic() - t1
    diverged, checked = await check(bench, pairs)
    lost_games = sum(1 for g in bench.games.values() if not all(g.ended))
    lost_games += sum(1 for p in pairs if p[2] is False)
    lost_moves = sum(g.refused for g in bench.games.values())
    lost_moves += sum(1 for g in bench.games.values() if g.pending is not None and g.pending.mover >= 0
                      and not all(g.pending.seen))
    for a, b, _ in pairs:
        for c in (a, b):
            if c.ws is not None:
                await c.ws.close()
    result = {"latencies": bench.latencies, "lags": bench.lags, "moves_window": bench.moves_window,
              "games": checked, "lost_games": lost_games, "lost_moves": lost_moves, "diverged": diverged,
              "timeouts": sum(g.timeouts for g in bench.games.values()), "errors": bench.errors,
              "setup_s": setup_s, "drain_s": drain_s, "client_cpu_s": client_cpu, "gc": bench.gc_pauses}
    Path(config["out"]).write_text(json.dumps(result))
    print("done", flush=True)
    return 0


def _quiet_collector() -> None:
    """The clients' collector as the room's (port.room.cli.quiet_collector): what set-up
    made frozen out of its sight, full passes all but off. Else, at 2,000 tables, a
    client's full collection paused every connection of its process for up to 460 ms,
    counted in the latencies as if the room had been slow."""
    import gc

    gc.freeze()
    gc.set_threshold(10_000, 10, 10_000)


def _time_gc(bench: Bench) -> None:
    """The pauses of Python's cyclic garbage collector in this process (a long one
    stalls every connection)."""
    import gc

    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        elif bench.window:
            bench.gc_pauses.append((info["generation"], time.perf_counter() - began[0]))
    gc.callbacks.append(timed)


async def _lag(bench: Bench) -> None:
    """How late the client's event loop wakes a sleeper: its own share of the latency."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.05)
        bench.lags.append(time.perf_counter() - t - 0.05)


async def setup(bench: Bench, config: dict[str, Any]) -> list[tuple[Client, Client, bool]]:
    """Every table's two players connected, logged in as guests, the invitation accepted."""
    from websockets.exceptions import InvalidHandshake

    urls = config["urls"]
    gate = asyncio.Semaphore(200)

    async def pair(table: int) -> tuple[Client, Client, bool]:
        # With two room processes, the inviter on one and the invited on the other,
        # alternately, so each process owns half the tables.
        a = Client(bench, urls[table % len(urls)], table, 0)
        b = Client(bench, urls[(table + 1) % len(urls)], table, 1)
        kind, rules = GAME_RULES[table % 2]
        bench.started[table] = asyncio.Event()
        async with gate:
            try:
                await a.connect()
                await b.connect()
                await a.send({"type": "invite", "to": b.name, "game": kind, "rules": rules,
                              "clock": config["clock"]})
                await asyncio.wait_for(bench.started[table].wait(), 60)
            except (OSError, asyncio.TimeoutError, InvalidHandshake) as exc:      # a saturated room: lost
                print(f"bench_room: table {table} did not start ({type(exc).__name__})", file=sys.stderr)
                return a, b, False
        return a, b, True

    return list(await asyncio.gather(*(pair(t) for t in config["tables"])))


async def check(bench: Bench, pairs: list[tuple[Client, Client, bool]]) -> tuple[int, int]:
    """Each finished game's record fetched and every finished game replayed: (diverged, checked)."""
    gate = asyncio.Semaphore(100)
    finished = [g for g in bench.games.values() if all(g.ended)]

    async def fetch(game: Game) -> dict[str, Any] | None:
        end = game.ended[0]
        assert end is not None
        number = int(end["number"])
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        bench.records[number] = future
        async with gate:
            await game.clients[0].send({"type": "game", "number": number})
            try:
                return await asyncio.wait_for(future, 30)
            except asyncio.TimeoutError:
                return None

    records = await asyncio.gather(*(fetch(g) for g in finished))
    diverged = 0
    for game, record in zip(finished, records):
        if record is None or not same(game, record):
            diverged += 1
    return diverged, len(finished)


def same(game: Game, record: dict[str, Any]) -> bool:
    """The record and both seats' streams are what replaying the moves sent says."""
    from port.files.gamerecord import Meta
    from port.protocol import dumps
    from port.room.games import replay

    try:
        seed = int(record["result"]["seed"])
        driver = replay(game.kind, game.rules, seed, game.moves)
    except Exception as exc:     # a move the rules refuse on replay: diverged
        print(f"bench_room: table {game.id} does not replay ({exc})", file=sys.stderr)
        return False
    streams, seqs = [0, 0], [0, 0]
    for seat, msg in driver.out:
        seqs[seat] += 1
        streams[seat] = hash((streams[seat], dumps({**msg, "table": game.id, "seq": seqs[seat]})))
    date = re.search(r"^Date: (\S+)", record["text"], re.M)
    roles = ("room guest", "room guest")
    text = driver.record(Meta(game.players, roles, date=date.group(1) if date else None, seed=seed))
    end = game.ended[0]
    assert end is not None
    ok = (streams == game.streams and text == record["text"] and list(driver.scores()) == end["scores"]
          and driver.over)
    if not ok:
        print(f"bench_room: table {game.id} diverged (streams {streams == game.streams}, record "
              f"{text == record['text']}, scores {list(driver.scores())} v {end['scores']})", file=sys.stderr)
    return ok


if __name__ == "__main__":
    sys.exit(main())
