"""The house bots under load (issue 38, section 1). A benchmark, not a test.

    .venv/bin/python scripts/bench_house.py [--tables 20] [--level expert] [--seconds 20] [--runs 3]

Each run starts a room (``python -m port.room``, its own data directory, a free port)
and, in this process, asyncio clients: ``--tables`` house tables at once (guests, two
tables each: ``HOUSE_TABLES_PER_PLAYER``), half GinRummy to one hand and half Cribbage
to 61, against the house bot of ``--level``; the person's side is EASY through
``port.room.seat``, answering at once (the house thinks as fast as it can: the worst
case), and a finished game is followed by a rematch. An honest client pings every
50 ms meanwhile. Measured over ``--seconds``, with the same room at 0 house tables
first (the peer of the same run):

* ping: the round trip of the honest client's pings, p50, p99 and the worst;
* the house's decisions a second (its seats' moves, as the people's sides saw them);
* CPU, as a share of one core, of the room's process and of the house's worker process
  (``/proc/PID/stat``; the worker's pid from the room's log).

Then the time to pair: two seeks that fit, from the second seek sent to its ``start``
(10 pairs), and the fallback: a lone seek's ``start`` past ``--seek-wait`` (1 s here).
The medians of ``--runs`` runs are printed last; docs/room.md ("The house bots") has
the numbers.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from port.cribbage.levels import load_player as crib_player  # noqa: E402
from port.ginrummy.levels import load_player as gin_player  # noqa: E402
from port.room.seat import seat_for  # noqa: E402

GAMES = (("ginrummy", {"score_limit": 0}), ("cribbage", {"limit": 61}))
LOADS = {"ginrummy": gin_player, "cribbage": crib_player}
TICKS = os.sysconf("SC_CLK_TCK")
HOUSE = {"easy": "House Easy", "standard": "House Standard", "expert": "House Expert"}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="The house bots under load (docs/room.md, The house bots).")
    p.add_argument("--tables", type=int, default=20, help="house tables at once (default 20)")
    p.add_argument("--level", default="expert", choices=sorted(HOUSE), help="the house bot (default expert)")
    p.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    p.add_argument("--runs", type=int, default=1, help="runs; the medians are printed last")
    return p


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_room(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "port.room", "--port", str(_free_port()), "--data", str(folder),
                             "--guests-per-address", "0", "--connections-per-address", "0", "--seek-wait", "1"],
                            stdout=subprocess.PIPE, stderr=open(folder / "room.log", "wb"), env=env, cwd=folder)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    m = re.search(r"listening on (ws://[\d.]+:\d+)", line)
    if not m:
        raise SystemExit(f"the room did not start: {line}{(folder / 'room.log').read_text()[-2000:]}")
    return proc, m.group(1)


def cpu_ticks(pid: int | None) -> int:
    if pid is None:
        return 0
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])          # utime + stime


def worker_pid(folder: Path) -> int | None:
    m = re.search(r"a worker process \(pid (\d+)", (folder / "room.log").read_text())
    return int(m.group(1)) if m else None


class Guest:
    """One guest's connection: its tables against the house, played by EASY."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.name = ""
        self.seats: dict[str, Any] = {}
        self.house_moves = 0
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def send(self, kind: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"v": 1, "type": kind, **fields}))

    async def run(self, stop: asyncio.Event) -> None:
        async for raw in self.ws:
            m = json.loads(raw)
            kind, table = m.get("type"), m.get("table")
            waiter = self.waiters.pop(kind, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(m)
            if kind == "start":
                self.seats[table] = (seat_for(m["game"], LOADS[m["game"]]("easy", 1)), m["seat"])
            elif kind == "event" and table in self.seats and m["event"].get("seat") != self.seats[table][1]:
                self.house_moves += 1
            if "seq" in m and table in self.seats:
                move = self.seats[table][0].feed(m)
                if m["type"] == "ask" and move is not None:
                    await self.send("move", table=table, move=move)
            elif kind == "game_end" and table in self.seats:
                del self.seats[table]
                if not stop.is_set():
                    await self.send("rematch", table=table)

    def expect(self, kind: str) -> asyncio.Future[dict[str, Any]]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiters[kind] = fut
        return fut


async def guest(url: str, tasks: list[asyncio.Task[None]], stop: asyncio.Event) -> Guest:
    from websockets.asyncio.client import connect

    ws = await connect(url, max_size=2**22)
    g = Guest(ws)
    welcome = g.expect("welcome")
    tasks.append(asyncio.create_task(g.run(stop)))
    await g.send("guest")
    g.name = (await welcome)["name"]
    return g


async def one_run(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    proc, url = start_room(folder)
    stop, tasks = asyncio.Event(), []
    try:
        pinger = await guest(url, tasks, stop)
        out: dict[str, float] = {}
        for label, tables in (("idle", 0), ("busy", args.tables)):
            guests = [await guest(url, tasks, stop) for _ in range((tables + 1) // 2)]
            for i, g in enumerate(guests):
                for k in range(2 if 2 * i + 1 < tables else 1):
                    game, rules = GAMES[(i + k) % 2]
                    await g.send("invite", to=HOUSE[args.level], game=game, rules=rules, clock=0)
            await asyncio.sleep(2.0 if tables else 0.5)     # every table dealt, the worker started
            room0, work0 = cpu_ticks(proc.pid), cpu_ticks(worker_pid(folder))
            moves0 = sum(g.house_moves for g in guests)
            t0, rtts = time.monotonic(), []
            while time.monotonic() - t0 < args.seconds:
                pong = pinger.expect("pong")
                sent = time.perf_counter()
                await pinger.send("ping", t=1)
                await pong
                rtts.append((time.perf_counter() - sent) * 1000)
                await asyncio.sleep(0.05)
            span = time.monotonic() - t0
            out[f"{label}_p50"] = statistics.median(rtts)
            out[f"{label}_p99"] = sorted(rtts)[int(0.99 * (len(rtts) - 1))]
            out[f"{label}_max"] = max(rtts)
            out[f"{label}_room"] = (cpu_ticks(proc.pid) - room0) / TICKS / span * 100
            out[f"{label}_worker"] = (cpu_ticks(worker_pid(folder)) - work0) / TICKS / span * 100
            out[f"{label}_moves"] = (sum(g.house_moves for g in guests) - moves0) / span
        stop.set()
        pairs = []
        for _ in range(10):
            a, b = await guest(url, tasks, stop), await guest(url, tasks, stop)
            await a.send("seek", game="cribbage", rules={"limit": 61})
            started = b.expect("start")
            sent = time.perf_counter()
            await b.send("seek", game="cribbage", clock=0)
            await started
            pairs.append((time.perf_counter() - sent) * 1000)
        out["pair_ms"] = statistics.median(pairs)
        falls = []
        for _ in range(3):
            a = await guest(url, tasks, stop)
            started = a.expect("start")
            sent = time.perf_counter()
            await a.send("seek", game="ginrummy", level=args.level)
            await started
            falls.append((time.perf_counter() - sent) * 1000 - 1000.0)
        out["fallback_ms"] = statistics.median(falls)
        return out
    finally:
        for t in tasks:
            t.cancel()
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def line(args: argparse.Namespace, r: dict[str, float]) -> str:
    return (f"idle: ping p50 {r['idle_p50']:.2f} ms, p99 {r['idle_p99']:.2f} ms, max {r['idle_max']:.1f} ms, "
            f"room CPU {r['idle_room']:.0f} %\n"
            f"{args.tables} house tables ({args.level}): ping p50 {r['busy_p50']:.2f} ms, p99 {r['busy_p99']:.2f} ms, "
            f"max {r['busy_max']:.1f} ms; house decisions {r['busy_moves']:.0f}/s; room CPU {r['busy_room']:.0f} %, "
            f"worker CPU {r['busy_worker']:.0f} %\n"
            f"pairing: two seeks that fit {r['pair_ms']:.1f} ms; the house bot {r['fallback_ms']:.1f} ms past --seek-wait")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    runs = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            r = asyncio.run(one_run(args, Path(tmp)))
        print(f"run {n + 1}:\n{line(args, r)}", flush=True)
        runs.append(r)
    if args.runs > 1:
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"medians of {args.runs} runs:\n{line(args, med)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
