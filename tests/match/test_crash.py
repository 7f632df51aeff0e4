"""Bots that cannot break a run (issue 39): a bot file plays from its own process by
default, so one that ends that process (``os._exit``, a segfault, the kernel's
out-of-memory kill, a memory limit) forfeits in one line and the run goes on, in a
match, on a worker pool, in a round robin and a gauntlet; with ``--in-process`` a
worker that dies is one sentence, not a hang. A bot's prints never reach stdout, a
bot file has a time limit by default, and ``--ray`` at an address where no cluster
answers is one sentence. The bots are written to ``tmp_path`` and run through the
real command line."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from port.ginrummy.rules.options import Options
from port.match import ginrummy
from port.match.common import Watching
from port.match.guard import FILE_MOVE_TIME, Guard

TOP = Path(__file__).resolve().parents[2]

BOTS = '''
import ctypes, os, resource, signal, sys, time
from port.ginrummy.computer import Standard


class Crashing(Standard):
    """Plays as STANDARD, and ends its own process at its first discard of the games
    whose seed is a multiple of 3 (``always``: of every game)."""

    always = True

    def __init__(self, seed=0):
        super().__init__(seed=seed)
        self.crash = self.always or seed % 3 == 0

    def choose_discard(self, view):
        if self.crash:
            self.end()
        return super().choose_discard(view)


class Exits(Crashing):
    name = "exits"

    def end(self):
        os._exit(3)


class Segfaults(Crashing):
    name = "segfaults"

    def end(self):
        ctypes.string_at(0)             # reads address 0: SIGSEGV


class Killed(Crashing):
    name = "killed"

    def end(self):                      # what the kernel's out-of-memory killer sends
        os.kill(os.getpid(), signal.SIGKILL)


class Hog(Crashing):
    name = "hog"

    def end(self):                      # allocates until the memory limit stops it
        size = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (size + (256 << 20), resource.RLIM_INFINITY))
        hoard = []
        while True:
            hoard.append(bytearray(16 << 20))


class Forks(Crashing):
    name = "forks"

    def end(self):                      # its child keeps the pipes: no end of file comes
        if os.fork() == 0:
            os.close(1)
            os.close(2)
            time.sleep(5)
            os._exit(0)
        os._exit(4)


class SometimesExits(Exits):
    always = False


class Prints(Standard):
    name = "prints"

    def choose_discard(self, view):
        print("a print from the bot")
        sys.stdout.flush()
        os.write(1, b"a write to fd 1 from the bot\\n")
        return super().choose_discard(view)


class Sleeps(Standard):
    name = "sleeper"

    def choose_draw(self, view):
        with open(os.environ["BOT_PID_FILE"], "w") as f:
            f.write(str(os.getpid()))
        time.sleep(3600)
'''


@pytest.fixture
def bots(tmp_path: Path) -> str:
    path = tmp_path / "crashing_bots.py"
    path.write_text(BOTS)
    return str(path)


def run_match(*args: str, env: dict[str, str] | None = None, timeout: float = 120
              ) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    return subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=TOP, env={**environ, **(env or {})})


def forfeit_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("forfeit: ")]


WHY = {"exits": "crash: choose_discard: its process exited (status 3)",
       "segfaults": "crash: choose_discard: its process was killed by SIGSEGV (a segmentation fault)",
       "killed": "crash: choose_discard: its process was killed by SIGKILL (as the kernel's out-of-memory "
                 "killer does)",
       "hog": "error: choose_discard: MemoryError",
       "forks": "crash: choose_discard: its process exited (status 4)"}


def test_a_bot_that_ends_its_process_forfeits_each_game_in_one_line_and_the_gauntlet_goes_on(bots: str) -> None:
    # EASY against each: os._exit(3), a real segfault, a SIGKILL, a memory limit reached,
    # an exit that leaves a child holding the pipes (seen dead within a second: with no
    # time limit, no end of file would ever come).
    players = ",".join(["easy", *(f"{bots}:{bot}" for bot in ("Exits", "Segfaults", "Killed", "Hog", "Forks"))])
    done = run_match("--gauntlet", "--players", players, "--games", "2", "--limit", "0", "--workers", "1", "--json",
                     "--move-time", "none")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    assert d["stopped"] is None and [p["b"] for p in d["pairings"]] == list(WHY)      # every pairing finished
    assert all(p["forfeits_b"] == 2 and p["score_a"] == 2 for p in d["pairings"])
    lines = forfeit_lines(done.stderr)
    assert done.stderr.splitlines() == lines and len(lines) == 10      # one line a game, and nothing else
    for line in lines:
        bot = line.removeprefix("forfeit: ").split(" ")[0]
        assert line.endswith(f": {WHY[bot]}"), line


def test_a_round_robin_on_a_worker_pool_goes_on_past_a_bot_that_exits(bots: str) -> None:
    # 12 games: two jobs on two worker processes; the bot exits in a third of its games.
    done = run_match("--players", f"{bots}:SometimesExits,easy", "--games", "12", "--limit", "0", "--workers", "2",
                     "--json")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    assert d["stopped"] is None and [(p["a"], p["b"]) for p in d["pairings"]] == [("exits", "easy")]
    forfeits = d["pairings"][0]["forfeits_a"]
    assert 0 < forfeits < 12 and forfeits == len(forfeit_lines(done.stderr)) == d["ratings"]["exits"]["forfeits"]
    assert "exited (status 3)" in done.stderr and "Traceback" not in done.stderr


def test_in_process_a_worker_that_dies_is_one_sentence_and_the_finished_pairings_stay(bots: str) -> None:
    # --in-process: the bot's os._exit ends a worker of the pool. A Pool would wait forever
    # for that worker's games; the runner says so and reports the pairing finished before.
    done = run_match("--players", f"easy,standard,{bots}:Exits", "--games", "12", "--limit", "0",
                     "--workers", "2", "--in-process", "--json", timeout=90)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    d = json.loads(done.stdout)
    assert [(p["a"], p["b"]) for p in d["pairings"]] == [("easy", "standard")]
    assert d["stopped"].startswith("a worker process ended in the middle of its games, so the games from game 1")
    assert d["stopped"].endswith("(pairing easy against exits)")


def test_a_bot_that_prints_leaves_stdout_to_the_result(bots: str) -> None:
    # In its own process (the default), in the runner's (--in-process, one job) and in a
    # worker's (--in-process, two jobs on two workers): prints and writes to fd 1 go to stderr.
    for extra in ([], ["--in-process"], ["--in-process", "--games", "12"]):
        done = run_match("--a", f"{bots}:Prints", "--b", "easy", "--games", "2", "--limit", "0", "--json", *extra)
        assert done.returncode == 0, done.stderr
        d = json.loads(done.stdout)                 # the whole of stdout is the result
        assert d["a"]["name"] == "prints" and d["a"]["forfeits"] == 0
        assert "a print from the bot" in done.stderr and "a write to fd 1 from the bot" in done.stderr
        assert d["move_time"] == {"seconds": FILE_MOVE_TIME, "players": "bot files"}


def test_a_bot_file_has_a_time_limit_by_default_and_the_result_says_it(bots: str) -> None:
    assert Guard().limit(f"{bots}:Sleeps") == FILE_MOVE_TIME and Guard().limit("standard") is None
    assert Guard(move_time=3.0).limit("standard") == 3.0
    # The default is what stops a hung bot file, in its own process (here 0.3 s for a fast test).
    r = ginrummy.run_match(f"{bots}:Sleeps", "easy", 1, 1, Options(score_limit=0), workers=1,
                           watching=Watching(Guard(file_time=0.3)))
    assert r.a.forfeits == 1
    report = ginrummy.report(r)
    assert "move limit: 0.3 s a call for bot files (the default; --move-time SECONDS or none changes it)" in report
    levels = run_match("--a", "standard", "--b", "easy", "--games", "2", "--limit", "0")
    assert levels.returncode == 0 and "move limit" not in levels.stdout      # it binds no level
    lifted = run_match("--a", "standard", "--b", "easy", "--games", "2", "--limit", "0", "--move-time", "none",
                       "--json")
    assert json.loads(lifted.stdout)["move_time"] == {"seconds": None, "players": "bot files"}


def test_a_bots_process_dies_with_its_worker_and_goes_first_when_memory_runs_out(bots: str, tmp_path: Path) -> None:
    # The runner (its own worker here) is killed while the bot thinks without a limit:
    # the bot's process goes too, instead of sleeping on as an orphan.
    pid_file = tmp_path / "bot.pid"
    env = {**os.environ, "BOT_PID_FILE": str(pid_file)}
    env.pop("GINRUMMY_DEBUG", None)
    runner = subprocess.Popen([sys.executable, "-m", "port.match", "--a", f"{bots}:Sleeps", "--b", "easy",
                               "--games", "1", "--workers", "1", "--move-time", "none"], cwd=TOP, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    bot = int(pid_file.read_text())
    # The kernel's out-of-memory killer would pick the bot first, not the runner.
    assert Path(f"/proc/{bot}/oom_score_adj").read_text().strip() == "1000"
    runner.kill()
    runner.wait()
    while time.monotonic() < deadline and _alive(bot):
        time.sleep(0.05)
    assert not _alive(bot)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"      # a zombie is dead, waiting for its reaper
    except FileNotFoundError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ray_at_an_address_where_nothing_listens_is_one_sentence() -> None:
    port = _free_port()
    t0 = time.monotonic()
    done = run_match("--games", "2", "--limit", "0", "--ray", f"127.0.0.1:{port}", timeout=60)
    assert time.monotonic() - t0 < 15
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"python -m port.match: --ray 127.0.0.1:{port}: nothing is listening there "
                           f"(Connection refused); start the cluster's head with ray start --head --port {port}, "
                           "or give --ray alone for a local Ray\n")


def test_ray_at_an_address_where_something_else_answers_is_one_sentence() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer() -> None:               # a web server, not a Ray cluster's head
        conn, _ = server.accept()
        with conn:
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    port = server.getsockname()[1]
    done = run_match("--games", "2", "--limit", "0", "--ray", f"127.0.0.1:{port}", timeout=60)
    server.close()
    assert done.returncode == 2 and done.stderr == (
        f"python -m port.match: --ray 127.0.0.1:{port}: something answers there, but not as a Ray cluster's "
        "head does (it does not speak gRPC)\n")

