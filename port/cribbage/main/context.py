"""What Cribbage's screens share for one run: the session (display and input), the
files (``CribStore``), the options in force, and where deals come from."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from port.cards import PascalRandom
from port.files.cribbage import CribConfig, CribStore
from port.main.controller import Session

# "The time of waiting is 5 minutes for a score limit of 61, and 10 minutes for a
# score limit of 121."
SAVER_SECONDS = {61: 5 * 60, 121: 10 * 60}


@dataclass
class CribContext:
    session: Session
    store: CribStore
    config: CribConfig                  # in force: the CFG, with the command line's name/limit
    seed: int | None = None             # --seed: every game's deal follows from it
    games: int = 0                      # games started this run
    notices: list[str] = field(default_factory=list)
    # The title screen's maker, given by start-up: the game screen goes back to it
    # without importing the menus (which import the game screen).
    title: Callable[[CribContext], Any] | None = None

    @classmethod
    def start(cls, session: Session) -> CribContext:
        """Open the files and apply the command line: "overriding (but not overwriting)
        the configuration file settings"."""
        launch = session.launch
        store = CribStore.open(launch.path, nodisk=launch.nodisk)
        cfg = store.config
        if launch.name is not None:
            cfg = cfg.with_(name=launch.name)
        if launch.score_limit in (61, 121):
            cfg = cfg.with_(score_limit=launch.score_limit)
        ctx = cls(session, store, cfg, seed=launch.seed)
        ctx.notices = [*launch.notices, *store.take_notices()]
        ctx.apply_display()
        return ctx

    def apply_display(self) -> None:
        """The options the display reads: the pointer shape and the saver's wait."""
        screen = self.session.screen
        screen.pointer = self.config.pointer
        screen.saver.seconds = SAVER_SECONDS[self.config.score_limit]

    def new_deal_source(self) -> PascalRandom:
        """A generator for the next game: from --seed when given, else from the clock."""
        self.games += 1
        if self.seed is not None:
            return PascalRandom(self.seed + self.games - 1)
        return PascalRandom(time.time_ns() // 1000)

    def take_notices(self) -> list[str]:
        out = [*self.notices, *self.store.take_notices()]
        self.notices = []
        return out
