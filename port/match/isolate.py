"""Bot files play from processes of their own (the default; ``--in-process`` plays
them in the worker's), and receive only what their seat is given (its ``View``s, its
events, the hand's settlement), as pickled copies.

Why by default, as cutechess-cli runs every engine as its own process: a bot that
ends its process (``os._exit``, a segfault, the kernel's out-of-memory kill) ends only
its own, and forfeits the game as a "crash", while the worker and the run go on. In
the engine's process it would end the run. And in the engine's process a bot can
reach far more than its view: ``sys._getframe``, ``inspect`` or ``gc`` lead from its
call to the engine's ``HandState`` and the other hand. In its own process there is
nothing to find: the frames above its call are this module's loop, and the only game
objects are the copies it was sent.

One process per bot file and side, started by the worker when it first asks the bot's
name (the first side to play takes that process over) and kept for the worker's life,
at most ``KEPT`` a worker (a new bot object is built in it for each game, with the
game's seed); it dies with the worker (``PR_SET_PDEATHSIG`` on Linux, else when its pipe
closes). A call is a round trip over the process's pipes (a pickled request, a
pickled answer). The worker waits the bot's time limit for an answer (``Guard.limit``:
10 s for a bot file by default), then kills the process (ending a bot stuck anywhere,
C code included) and starts another for the next game. A process that dies mid-call
is the bot's crash. What the bot prints goes to the runner's stderr, never to its
stdout (which holds the result).

The levels (easy, standard, expert, policy) are our own code and play in the worker's
process.
"""
from __future__ import annotations

import importlib
import io
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
import traceback
from collections import OrderedDict
from pathlib import Path
from typing import Any

from port.checks import IllegalMove
from port.match.guard import BotFailed, describe, start_limit

_HEADER = struct.Struct("<I")
LOOK = 1.0          # seconds between two looks at a silent bot's process
_CHILD = "import sys; from port.match.isolate import serve; serve(sys.argv[1], int(sys.argv[2]))"
ROOT = str(Path(__file__).resolve().parents[2])      # the checkout or site-packages holding ``port``


class _Answers(pickle.Unpickler):
    """Unpickles what a bot's process sends back, allowing only the games' own classes
    (a card, a draw, a knock choice...): a pickle can name any callable, and a bot's
    answer must not run code in the engine's process."""

    def find_class(self, module: str, name: str) -> Any:
        found = super().find_class(module, name) if module.startswith("port.") else None
        if not isinstance(found, type):
            raise pickle.UnpicklingError(f"an answer may not hold {module}.{name}")
        return found


def _answer(data: bytes) -> Any:
    return _Answers(io.BytesIO(data)).load()


class BotProcess:
    """A bot file's process: ``request`` asks it and waits for the answer, ``send``
    tells it a hook and does not wait."""

    def __init__(self, levels: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        # -c, not -m: the package's own import would otherwise warn on stderr (runpy).
        self.proc = subprocess.Popen([sys.executable, "-c", _CHILD, levels, str(os.getpid())],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, message: tuple[Any, ...]) -> None:
        """Send ``message`` and do not wait: a hook (``observe``, ``begin_hand``), whose
        error the process keeps and returns with its next answer."""
        assert self.proc.stdin is not None
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.proc.stdin.write(_HEADER.pack(len(data)) + data)
            self.proc.stdin.flush()
        except OSError:
            pass            # a dead process: the next request says so

    def request(self, message: tuple[Any, ...], timeout: float | None) -> Any:
        """Send ``message`` and wait for the answer; a bot's error comes back as
        ``BotFailed``; over ``timeout`` seconds the process is killed."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.proc.stdin.write(_HEADER.pack(len(data)) + data)
            self.proc.stdin.flush()
            data = self._read(timeout)
        except (OSError, EOFError):
            raise BotFailed(-1, "", "crash", self._ended()) from None
        try:
            status, value = _answer(data)
        except Exception as exc:       # the process is out of step with us: a new one next game
            self.kill()
            raise BotFailed(-1, "", "error", f"its answer cannot be read: {exc}") from None
        if status == "ok":
            return value
        kind, detail, trace, hook = value
        raise BotFailed(-1, hook, kind, detail, trace)

    def _ended(self) -> str:
        """Why the process stopped answering, once it is reaped: its exit status, or
        the signal that killed it (a closed pipe with the process alive: killed now)."""
        try:
            code = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.kill()
            return "its process closed its pipe (it was killed)"
        self.kill()
        return ended(code)

    def _read(self, timeout: float | None) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = None if timeout is None else time.monotonic() + timeout
        head = self._exactly(fd, _HEADER.size, timeout, deadline)
        return self._exactly(fd, _HEADER.unpack(head)[0], timeout, deadline)

    def _exactly(self, fd: int, n: int, timeout: float | None, deadline: float | None) -> bytes:
        out = b""
        while len(out) < n:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            # Woken each second to see the process alive: one that died while a child of
            # its own holds the pipe open sends no end of file.
            ready, _, _ = select.select([fd], [], [], LOOK if left is None else min(left, LOOK))
            if not ready:
                if self.proc.poll() is not None:
                    raise EOFError
                if left is not None and time.monotonic() >= deadline:      # type: ignore[operator]
                    self.kill()
                    raise BotFailed(-1, "", "timeout", f"took longer than {timeout:g} s (its process was killed)")
                continue
            chunk = os.read(fd, n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def kill(self) -> None:
        if self.alive:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass


SIGNALS = {"SIGKILL": "as the kernel's out-of-memory killer does", "SIGSEGV": "a segmentation fault",
           "SIGABRT": "an abort", "SIGBUS": "a bus error", "SIGFPE": "an arithmetic fault"}


def ended(code: int) -> str:
    """A bot's process's end as the forfeit line says it (``code``: its exit status,
    or minus the signal that killed it)."""
    if code >= 0:
        return f"its process exited (status {code})"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"its process was killed by signal {-code}"
    why = SIGNALS.get(name)
    return f"its process was killed by {name}" + (f" ({why})" if why else "")


class IsolatedPlayer:
    """The engine's side of a bot in its own process: any method call is forwarded."""

    remote = True           # the watch leaves the time limit to ``request``

    def __init__(self, process: BotProcess, limit: float | None) -> None:
        self._process = process
        self._limit = limit

    def __getattr__(self, method: str) -> Any:
        if method.startswith("_"):
            raise AttributeError(method)

        if method in UNANSWERED:
            def hook(*args: Any) -> None:
                self._process.send(("hook", method, args))
            return hook

        def call(*args: Any) -> Any:
            return self._process.request(("call", method, args), self._limit)

        return call


# Hooks sent without waiting for an answer (half of GinRummy's calls are ``observe``): an
# error in one comes back with the next answer, and a hook's time counts toward the next
# call waited for. ``end_hand`` is waited for, so that a game's last error is its own.
UNANSWERED = frozenset({"observe", "begin_hand"})

# The bots' processes of this worker, the most recently used last. At most KEPT are kept:
# a tuner that tries a hundred bots one match after another leaves no hundred processes
# idle; a game uses two at most, the two most recent.
_processes: OrderedDict[tuple[str, str, int | None], BotProcess] = OrderedDict()
KEPT = 8
SPARE = None        # the side of a process that only told the bot's name: the first side to play takes it
_names: dict[tuple[str, str], str] = {}


def _process(levels: str, spec: str, side: int | None) -> BotProcess:
    """This worker's process for the bot file ``spec`` and ``side`` (started when there
    is none, or the last was killed; a spare one is taken over, started already)."""
    key = (levels, spec, side)
    process = _processes.get(key)
    if process is None or not process.alive:
        spare = _processes.pop((levels, spec, SPARE), None) if side is not SPARE else None
        process = _processes[key] = spare if spare is not None and spare.alive else BotProcess(levels)
    _processes.move_to_end(key)
    while len(_processes) > KEPT:
        _processes.popitem(last=False)[1].kill()
    return process


def close_all() -> None:
    """End this process's bots' processes (each is reaped, and its CPU time counted
    as this process's children's)."""
    while _processes:
        _processes.popitem()[1].kill()


def isolated(levels: str, spec: str, seed: int, side: int, limit: float | None) -> IsolatedPlayer:
    """A new bot ``spec`` (seeded) in this worker's process for that bot file and side."""
    process = _process(levels, spec, side)
    # Starting a bot (its module's first import) is not a move: no limit but a generous one.
    process.request(("new", spec, seed), start_limit(limit))
    return IsolatedPlayer(process, limit)


def bot_name(levels: str, spec: str) -> str:
    """What the report calls the bot, asked of a process of its own (the bot's file is
    never loaded in the engine's process); ValueError (one sentence) when its file does
    not load or its class does not start. Asked once a worker: its process is then
    spare, and the first side to play the bot takes it (one start, not two)."""
    if (levels, spec) in _names:
        return _names[(levels, spec)]
    process = _process(levels, spec, SPARE)
    try:
        process.request(("new", spec, 0), 120.0)
        name = _names[(levels, spec)] = str(process.request(("name", spec), 120.0))
        return name
    except BotFailed as failed:
        # The loader's own sentences (a BotError names the bot; a ValueError is a spec that
        # names nothing) as they are; anything else is the bot's failure to start.
        ours = failed.detail.startswith(("BotError: ", "ValueError: "))
        raise ValueError(failed.detail.partition(": ")[2] if ours else
                         f"the bot {spec} failed to start: {failed.detail}") from None


# ---- the bot's process ------------------------------------------------------------------

def _die_with(parent: int) -> None:
    """Be killed when the worker that started us dies (Linux's ``PR_SET_PDEATHSIG``):
    a worker terminated while this bot thinks leaves no process behind. Elsewhere the
    closed pipe ends us at the next read."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)      # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:           # the worker died before the call: no signal will come
        os._exit(0)


def _first_to_go() -> None:
    """Ask the kernel's out-of-memory killer to pick this process first (Linux's
    ``oom_score_adj``, which any process may raise): a bot that eats the machine's
    memory is the one killed (a crash, its game forfeited), not the runner."""
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass


def serve(levels: str, parent: int = 0) -> None:
    """The loop of a bot's process: requests on stdin, answers on a private copy of
    stdout (the bot's own prints go to stderr, so they cannot break the protocol)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the runner's: it ends us by closing the pipe
    if parent:
        _die_with(parent)
    _first_to_go()
    stdin = os.fdopen(os.dup(0), "rb")
    stdout = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    load_player = importlib.import_module(levels).load_player
    bot: Any = None
    failed: tuple[str, str, str, str] | None = None       # a hook's error, for the next answer
    while True:
        head = stdin.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return                            # the worker is gone
        message = pickle.loads(stdin.read(_HEADER.unpack(head)[0]))
        if message[0] == "hook":
            if failed is None and bot is not None:
                try:
                    getattr(bot, message[1])(*message[2])
                except (Exception, SystemExit) as exc:
                    failed = ("error", describe(exc), traceback.format_exc(), message[1])
            continue
        try:
            if failed is not None and message[0] == "call":
                reply: tuple[str, Any] = ("error", failed)
            elif message[0] == "new":
                bot, failed = None, None
                bot = load_player(message[1], message[2])
                reply = ("ok", None)
            elif message[0] == "name":
                from port.bots import bot_name as name_of
                reply = ("ok", name_of(message[1], importlib.import_module(levels).LEVELS))
            else:
                reply = ("ok", getattr(bot, message[1])(*message[2]))
        except IllegalMove as exc:            # a policy's action its mask refuses, as in the engine's process
            reply = ("error", ("illegal move", str(exc), traceback.format_exc(), ""))
        except (Exception, SystemExit) as exc:
            reply = ("error", ("error", describe(exc), traceback.format_exc(), ""))
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:              # an answer that cannot travel is the bot's error
            data = pickle.dumps(("error", ("error", f"its answer cannot be sent: {exc}", "", "")))
        stdout.write(_HEADER.pack(len(data)) + data)
        stdout.flush()
