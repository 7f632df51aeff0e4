"""A bot that fails loses its game, not the run (issue 32; as cutechess-cli and
fishtest treat a chess engine that crashes, hangs or plays an illegal move).

Every player of a match game is wrapped in a ``Guarded`` seat: each call into it
(its constructor, ``observe``, every decision) is timed and its errors are caught, so
a bot's exception, an illegal answer or a decision over ``--move-time`` ends the game
as a ``Fault``: the failing side forfeits it (``--on-error forfeit``, the default) or
the run stops there (``--on-error stop``). A fault is reported in one line naming the
bot, the game, the seed and the move; ``GINRUMMY_DEBUG=1`` adds the bot's traceback.

A bot file plays from a process of its own by default (``port.match.isolate``; the
levels are our code and play in the worker's), so that a bot that ends its process (an
``os._exit``, a segfault, the kernel's out-of-memory kill) forfeits as a "crash";
``--in-process`` runs bot files in the worker's process, for speed. A bot file has a
generous time limit by default (``FILE_MOVE_TIME`` a call), so that a hung bot never
hangs a run; ``--move-time`` sets one limit for every player, levels too.

The time limit is enforced in the worker: a signal alarm (``SIGALRM``) interrupts a
bot still thinking when its time is up, and re-fires while it goes on (a bot that
swallows the first one does not escape). A bot in its own process is waited for with
a timeout instead, and its process killed when the time is up: that also ends a bot
stuck in C code, which no signal reaches.
"""
from __future__ import annotations

import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any

from port.checks import IllegalMove

DEBUG_ENV = "GINRUMMY_DEBUG"        # as the programs do (port/main/errors.py): the full trace
ON_ERROR = ("forfeit", "stop")
# The calls that answer a move; an error the engine raises right after one is that
# move's (an illegal answer). Both games' decisions.
SHOWN = 60            # the most of a bot's answer a line shows
DECISIONS = frozenset({"offer", "choose_draw", "choose_discard", "choose_knock", "discard", "play"})


FILE_MOVE_TIME = 10.0    # seconds a bot file's call may take by default (--move-time changes it)


def start_limit(limit: float | None) -> float | None:
    """The seconds a bot's start may take (its file's first import, its constructor):
    no move, so ten times a move's limit, and at least a minute."""
    return None if limit is None else max(60.0, 10 * limit)


@dataclass(frozen=True)
class Guard:
    """How a match treats a failing bot: ``on_error`` "forfeit" (it loses the game and
    the match goes on) or "stop"; ``move_time`` the seconds any player's call may take,
    levels too (None: none); without it a bot file's calls may take ``file_time``
    (None: no limit); ``isolate`` runs each bot file in a process of its own (False:
    in the worker's, ``--in-process``)."""

    on_error: str = "forfeit"
    move_time: float | None = None
    isolate: bool = True
    file_time: float | None = FILE_MOVE_TIME

    def limit(self, spec: str) -> float | None:
        """The seconds a call of the player ``spec`` may take (None: no limit)."""
        if self.move_time is not None:
            return self.move_time
        return self.file_time if is_file(spec) else None

    def apart(self, spec: str) -> bool:
        """Whether the player ``spec`` plays from a process of its own."""
        return self.isolate and is_file(spec)

    def limits(self) -> dict[str, object]:
        """The time limit as a result states it: the seconds, and whom they bind
        ("every player", "bot files"); seconds None when there is none."""
        if self.move_time is not None:
            return {"seconds": self.move_time, "players": "every player"}
        return {"seconds": self.file_time, "players": "bot files"}


class BotTimeout(BaseException):
    """A bot's time is up. A BaseException, so that a bot's own ``except Exception``
    does not swallow it."""


class BotFailed(Exception):
    """A call into the seat's bot failed: ``kind`` "error", "timeout", "crash"."""

    def __init__(self, seat: int, method: str, kind: str, detail: str, trace: str = "") -> None:
        super().__init__(detail)
        self.seat, self.method, self.kind, self.detail, self.trace = seat, method, kind, detail, trace


@dataclass(frozen=True)
class Fault:
    """A game a bot lost by failing: which side (0: A, 1: B) and seat, the bot's name
    and file (its spec), the game (numbered from 0, shown from 1), the match's seed and
    the game's deal seed, what went wrong and on which call."""

    side: int
    seat: int
    name: str
    spec: str
    game: int
    seed: int
    deal_seed: int
    kind: str            # "illegal move", "error", "timeout", "crash"
    move: str            # "choose_discard answered QS", "play raised ValueError", ...
    detail: str
    trace: str = ""

    @property
    def bot(self) -> str:
        """The bot as the line names it: its name, and its file when it has one."""
        return self.name if self.spec.lower() == self.name.lower() else f"{self.name} ({self.spec})"

    def line(self) -> str:
        """One line, whatever the bot's message holds (its newlines become spaces)."""
        text = (f"forfeit: {self.bot}, side {'AB'[self.side]}, seat {self.seat}, lost game {self.game + 1} "
                f"(--seed {self.seed}, deal seed {self.deal_seed}): {self.kind}: {self.move}: {self.detail}")
        return " ".join(text.split())

    def as_dict(self) -> dict[str, object]:
        return {"side": "AB"[self.side], "seat": self.seat, "bot": self.name, "file": file_of(self.spec),
                "kind": self.kind, "move": self.move, "detail": self.detail}


def describe(exc: BaseException) -> str:
    """An exception as a forfeit line says it: "ValueError: its message", or its
    type alone when it has no message ("MemoryError")."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def is_file(spec: str) -> bool:
    """A bot file's spec ("path/to/bot.py:Name"), not one of our levels."""
    return ":" in spec


def limit_line(limits: dict[str, object] | None, specs: Sequence[str]) -> str | None:
    """The report's line on the time limit (``Guard.limits``) when it binds one of
    the players ``specs``; else None."""
    seconds = (limits or {}).get("seconds")
    players = (limits or {}).get("players")
    if not isinstance(seconds, (int, float)) or (players == "bot files" and not any(map(is_file, specs))):
        return None
    how = "--move-time" if players == "every player" else "the default; --move-time SECONDS or none changes it"
    return f"move limit: {seconds:g} s a call for {players} ({how})"


def file_of(spec: str) -> str | None:
    """A bot file's path from its spec ("bots/mine.py:Mine" -> "bots/mine.py"); None for a level."""
    path, sep, _ = spec.rpartition(":")
    return path if sep and path.endswith(".py") else None


def debugging() -> bool:
    return bool(os.environ.get(DEBUG_ENV))


def show(answer: Any) -> str:
    """A bot's answer as a person reads it: a card "QS", a draw "pile", cards "5H 5S"
    (cut at SHOWN characters)."""
    text = _shown(answer)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _shown(answer: Any) -> str:
    if isinstance(answer, Enum):
        return str(answer.value)
    if isinstance(answer, (tuple, list)):
        return " ".join(_shown(x) for x in answer[:SHOWN]) or "nothing"
    return str(answer) if type(answer).__module__ == "port.cards" else repr(answer)


class Watch:
    """The watch over one game's two seats: times each call, turns a bot's failure into
    ``BotFailed``, and remembers the last answer the engine has not yet accepted."""

    def __init__(self, limits: tuple[float | None, float | None] | float | None) -> None:
        self.limits = limits if isinstance(limits, tuple) else (limits, limits)
        self.last: tuple[int, str, Any] | None = None
        self.alarm = False          # a SIGALRM handler is ours for this game

    def call(self, seat: int, method: str, fn: Callable[..., Any], args: tuple[Any, ...],
             remote: bool = False) -> Any:
        self.last = None            # a call into a player: the previous answer was accepted
        limit = self.limits[seat] if method != "start" else start_limit(self.limits[seat])
        armed = self.alarm and limit is not None and not remote
        t0 = time.perf_counter()
        try:
            if armed:
                # Fires at the limit, then again every limit while the bot goes on.
                signal.setitimer(signal.ITIMER_REAL, limit, limit)
            try:
                answer = fn(*args)
            finally:
                if armed:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except BotTimeout:
            raise BotFailed(seat, method, "timeout", f"took longer than {limit:g} s") from None
        except BotFailed as failed:          # a bot in its own process (port.match.isolate)
            failed.seat, failed.method = seat, failed.method or method      # a hook's error names the hook
            raise
        except IllegalMove as exc:           # a policy's action its mask refuses (port.bots.PolicySeat)
            raise BotFailed(seat, method, "illegal move", str(exc), traceback.format_exc()) from None
        except (Exception, SystemExit) as exc:
            raise BotFailed(seat, method, "error", describe(exc),
                            traceback.format_exc()) from None
        spent = time.perf_counter() - t0
        # A bot apart is waited for at most its limit (and its start is no move); one here
        # that swallowed the alarm, or ran with none, is caught now.
        if limit is not None and spent > limit and not remote:
            raise BotFailed(seat, method, "timeout", f"took {spent:.2f} s, over the limit of {limit:g} s")
        if method in DECISIONS:
            self.last = (seat, method, answer)
        return answer

    @contextmanager
    def alarms(self) -> Iterator[None]:
        """The alarm's handler for the game, when there is a limit and this is the main
        thread (only it receives signals; elsewhere the limit is checked after the call)."""
        if self.limits == (None, None) or threading.current_thread() is not threading.main_thread():
            yield
            return

        def time_up(signum: int, frame: Any) -> None:
            raise BotTimeout()

        old = signal.signal(signal.SIGALRM, time_up)
        self.alarm = True
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            self.alarm = False


class Guarded:
    """A seat's player behind the watch: every method call goes through ``Watch.call``;
    other attributes (``name``) are the player's own."""

    def __init__(self, player: Any, seat: int, watch: Watch) -> None:
        self._player = player
        self._seat = seat
        self._watch = watch
        self._remote = bool(getattr(player, "remote", False))

    def __getattr__(self, method: str) -> Any:
        fn = getattr(self._player, method)
        if not callable(fn):
            return fn
        seat, watch, remote = self._seat, self._watch, self._remote

        def call(*args: Any) -> Any:
            return watch.call(seat, method, fn, args, remote)

        setattr(self, method, call)         # built once per method and game
        return call


def engine_error(watch: Watch, exc: BaseException) -> BotFailed | None:
    """An error the engine raised on applying a bot's answer (an ``IllegalMove``, a
    refused type), as that bot's illegal move; None when no answer was pending (the
    error is then not a bot's, and goes up as it is)."""
    if watch.last is None or not isinstance(exc, (ValueError, TypeError)):
        return None
    seat, method, answer = watch.last
    failed = BotFailed(seat, method, "illegal move", str(exc), traceback.format_exc())
    failed.method = f"{method} answered {show(answer)}"
    return failed
