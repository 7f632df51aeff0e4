"""What one game's screens share for one run, both games: the session (display and
input), the game's files (its store), the options in force, where deals come from, the
start-up notices, today's date, saving a game record, and the title screen's maker.

Each game's context (``port.ginrummy.main.context``, ``port.cribbage.main.context``)
names its store and adds its own: how its options reach the display, GinRummy's
computer player.
"""
from __future__ import annotations

import datetime
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from port.cards import PascalRandom
from port.files import lock
from port.files.gamerecord import save_new
from port.files.session import Files, why
from port.files.storage import DiskBackend
from port.main.controller import Controller, Session
from port.main.errors import tell
from port.screen.profiles import BLACK, WHITE


class Store(Protocol):
    """A game's files, as the shell's screens use them (``port.files.session.Files`` underneath)."""

    config: Any
    nodisk: bool
    files: Files

    def save_config(self, cfg: Any) -> bool: ...

    def take_notices(self) -> list[str]: ...


C = TypeVar("C", bound="GameContext")


@dataclass
class GameContext:
    session: Session
    store: Any                     # the game's store (a ``Store``)
    config: Any                    # in force: the CFG, with the command line's name/limit
    seed: int | None = None        # --seed: every game's deal follows from it
    games: int = 0                 # games started this run
    notices: list[str] = field(default_factory=list)
    # The title screen's maker, given by the game's start-up: the screens go back to it
    # without importing the menus (which import the game screen).
    title: Callable[[Any], Controller] | None = None
    # Today's date, as the game asks it (GinRummy's high scores, the records): the clock's, or the
    # one a recording gives (``Launch.today``), so a replay writes the same files.
    today: Callable[[], datetime.date] = datetime.date.today
    # The records SAVE RECORD wrote this run, text -> name: the same game saved twice
    # is said to be saved already, not written again (docs/records.md).
    saved: dict[str, str] = field(default_factory=dict)

    # Reads the game's files: ``open_store(path, nodisk=...)`` -> its store.
    open_store: ClassVar[Callable[..., Any]]
    # The game's files for a path (``backend_for(path)``): asked first, without waiting,
    # whether another copy holds their lock, so the wait for it is said, not a black window.
    backend_for: ClassVar[Callable[[Path | None], Any]]

    @classmethod
    def start(cls: type[C], session: Session) -> C:
        """Open the files and apply the command line: "overriding (but not overwriting)
        the configuration file settings"."""
        launch = session.launch
        if not launch.nodisk:
            say_if_held(session, cls.backend_for(launch.path))
        store = cls.open_store(launch.path, nodisk=launch.nodisk)
        cfg = store.config
        if launch.name is not None:
            cfg = cfg.with_(name=launch.name)
        if launch.score_limit is not None:
            cfg = cfg.with_(score_limit=launch.score_limit)
        ctx = cls(session, store, cfg, seed=launch.seed)
        if launch.today is not None:
            day = launch.today
            ctx.today = lambda: day
        ctx.notices = [*launch.notices, *store.take_notices()]
        ctx.apply_display()
        session.on_exit.append(ctx.flush)
        return ctx

    def flush(self) -> None:
        """At exit: what another copy's lock held back is saved now, or said in one line
        (the other copy kept the lock to the end)."""
        files = self.store.files
        if files.pending and not files.flush():
            tell(f"{self.session.launch.program}: another copy of the game held the lock of "
                 f"{files.backend.describe() if files.backend else 'the files'} to the end: "
                 f"{files.pending} change(s) of this session could not be saved.")

    def apply_display(self) -> None:
        """The options the display reads: the pointer shape (each game adds the saver's wait)."""
        self.session.screen.pointer = self.config.pointer

    def title_screen(self) -> Controller:
        assert self.title is not None, "the game's start-up gives the title screen's maker"
        return self.title(self)

    def new_deal_source(self) -> PascalRandom:
        """A generator for the next game: from --seed when given, else from the clock,
        as Turbo Pascal's Randomize did."""
        self.games += 1
        if self.seed is not None:
            return PascalRandom(self.seed + self.games - 1)
        return PascalRandom(time.time_ns() // 1000)

    def save_record(self, prefix: str, text: Callable[[], str]) -> str:
        """SAVE RECORD (docs/records.md): the game's record, ``text()``, saved in the
        game's files directory (or the browser's storage) under the first free name
        PREFIX0001.REC and up, never over an earlier one. Returns the note the screen
        shows; when it cannot be saved, the note says why and the game goes on."""
        files = getattr(self.store, "files", None)
        backend = files.backend if files is not None else None
        if backend is None:
            return "NODISK: the record is not saved."
        try:
            body = text()
            if body in self.saved:
                return f"Already saved as {self.saved[body]}."
            name = save_new(backend, prefix, body.encode("utf-8"))
        except OSError as exc:
            return f"Not saved: {why(exc)}."
        except ValueError as exc:     # a game the record cannot hold: said, not a crash
            return f"Not saved: {exc}"
        self.saved[body] = name
        return f"Record saved as {name}."

    def take_notices(self) -> list[str]:
        out = [*self.notices, *self.store.take_notices()]
        self.notices = []
        return out


def held_by_another(backend: Any) -> bool:
    """Whether another copy holds the lock of these files now (asked without waiting)."""
    if not isinstance(backend, DiskBackend):
        return False                       # the browser's storage: one tab's lock, never waited on
    probe = DiskBackend(backend.directory, backend.lock_name, backend.use_flock, wait=0)
    with probe.lock() as got:
        return got is False


def say_if_held(session: Session, backend: Any) -> str | None:
    """Before start-up reads the files: when another copy holds their lock, say so at
    once, on stderr and on the screen, since reading waits up to ``lock.WAIT`` seconds
    for it (docs/files.md, "Two copies at once"). Returns the sentence, or None."""
    if not held_by_another(backend):
        return None
    sentence = (f"Another copy of the game holds the files in {backend.describe()}: waiting up to "
                f"{lock.WAIT:.0f} seconds for it to let go.")
    launch = session.launch
    tell(f"{launch.program}: {sentence}", web=launch.web)
    screen = session.screen
    screen.set_page(0)
    screen.clear(BLACK)
    for i, line in enumerate(textwrap.wrap(sentence, 76)):
        screen.text(16, 16 + 14 * i, line, WHITE)
    screen.present(None)
    if not launch.headless and not launch.web:
        import pyxel                       # a window shows the frame at once, before the wait
        pyxel.flip()
    return sentence
