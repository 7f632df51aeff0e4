"""What the Main unit's screens share for one run of the program: the display and input
(the Session), the files (the Store), the options in force, and where deals come from."""
from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from port import files
from port.cards import PascalRandom
from port.main.controller import Session
from port.rules.levels import computer_for, load_player
from port.rules.players import Player


@dataclass
class Context:
    session: Session
    store: files.Store
    config: files.Config                  # in force: the CFG, with the command line's name/limit
    seed: int | None = None               # --seed: every game's deal follows from it
    today: Callable[[], datetime.date] = datetime.date.today
    games: int = 0                        # games started this run
    notices: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, session: Session) -> Context:
        """Open the files and apply the command line ("overriding (but not overwriting)
        the configuration file settings")."""
        launch = session.launch
        store = files.Store.open(launch.path, nodisk=launch.nodisk)
        cfg = store.config
        if launch.name is not None:
            cfg = cfg.with_(name=launch.name)
        if launch.score_limit is not None:
            cfg = cfg.with_(score_limit=launch.score_limit)
        ctx = cls(session, store, cfg, seed=launch.seed)
        ctx.notices = [*launch.notices, *store.take_notices()]
        ctx.apply_display()
        return ctx

    def apply_display(self) -> None:
        """The options the display reads: the pointer shape, and the score limit that
        sets the screen saver's wait ("two seconds per score limit point")."""
        screen = self.session.screen
        screen.pointer = self.config.pointer
        screen.saver.score_limit = self.config.score_limit

    def new_deal_source(self) -> PascalRandom:
        """A generator for the next game: from --seed when given, else from the clock,
        as Turbo Pascal's Randomize did."""
        self.games += 1
        if self.seed is not None:
            return PascalRandom(self.seed + self.games - 1)
        return PascalRandom(time.time_ns() // 1000)

    def computer(self) -> Player:
        seed = 0 if self.seed is None else self.seed
        spec = self.session.launch.computer
        if spec is not None:
            # --computer: a bot file's player, or a PettingZoo-style policy through the
            # adapter (which needs the optional extra 'rl').
            bot = load_player(spec, seed=seed + self.games)
            if isinstance(bot, Player):
                return bot
            from port.env.adapters import as_player
            return as_player(bot, spec.rpartition(":")[2])
        return computer_for(self.config.easy, self.config.level.lower(), seed=seed + self.games)

    def take_notices(self) -> list[str]:
        out = [*self.notices, *self.store.take_notices()]
        self.notices = []
        return out
