"""What one game's screens share for one run, both games: the session (display and
input), the game's files (its store), the options in force, where deals come from, the
start-up notices, today's date, saving a game record, and the title screen's maker.

Each game's context (``port.ginrummy.main.context``, ``port.cribbage.main.context``)
names its store and adds its own: how its options reach the display, GinRummy's
computer player.
"""
from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from port.cards import PascalRandom
from port.files.gamerecord import save_new
from port.files.session import Files, why
from port.main.controller import Controller, Session
from port.main.errors import tell


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

    # Reads the game's files: ``open_store(path, nodisk=...)`` -> its store.
    open_store: ClassVar[Callable[..., Any]]

    @classmethod
    def start(cls: type[C], session: Session) -> C:
        """Open the files and apply the command line: "overriding (but not overwriting)
        the configuration file settings"."""
        launch = session.launch
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
            name = save_new(backend, prefix, text().encode("utf-8"))
        except OSError as exc:
            return f"Not saved: {why(exc)}."
        except ValueError as exc:     # a game the record cannot hold: said, not a crash
            return f"Not saved: {exc}"
        return f"Record saved as {name}."

    def take_notices(self) -> list[str]:
        out = [*self.notices, *self.store.take_notices()]
        self.notices = []
        return out
