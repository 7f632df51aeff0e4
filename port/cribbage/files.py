"""Cribbage's files: CRIBBAGE.CFG and CRIBBAGE.STA, and the store its screens use.

The byte layout, crash safety, recovery, lock, read-only and NODISK behaviour and the
browser storage are the shared mechanism's (``port.files.session``, ``storage``,
``records``); the players' list is ``port.files.players``. Here are only Cribbage's
records and its rules for them, quoted from its documentation where it gives one.
Cribbage has no high score file.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from port.files import players as roster
from port.files.formats import POINTERS, ROOM_FIELDS, ListFormat, OptionsFormat, check_room_text
from port.files.players import DEFAULT_NAME, check_name, clean_name
from port.files.records import FileError, capped, check_count, fields, flag, number, yn
from port.files.session import Files, peek
from port.files.storage import Backend, DiskBackend
from port.files.storage import backend_for as _backend_for

GAME = "CRIBBAGE"
CFG = "CRIBBAGE.CFG"
STA = "CRIBBAGE.STA"
NAMES = (CFG, STA)
LIMITS = (121, 61)          # "cycles the pegging board total between 121 and 61 pegs"
LEVELS = ("STANDARD", "EXPERT")   # ours: the computer player's level


@dataclass(frozen=True)
class CribConfig:
    """The options of CRIBBAGE.CFG: "Selecting SAVE will save all options ... At
    present, the NOBLANK option is not saved in this configuration file"."""

    name: str = DEFAULT_NAME
    score_limit: int = 121
    skunking: bool = False
    big_cards: bool = False
    pointer: int = 0            # 0..6
    level: str = "STANDARD"
    # The card room (docs/room.md, "The player's side"): the last address, the session's
    # token, and the opponent of a room game left on (a rejoin is offered); "" when none.
    room_url: str = ""
    room_token: str = ""
    room_with: str = ""
    room_name: str = ""

    def __post_init__(self) -> None:
        check_name(self.name)
        for what in ROOM_FIELDS:
            check_room_text(getattr(self, what), what)
        if self.score_limit not in LIMITS:
            raise FileError(f"the score limit is 121 or 61, not {self.score_limit!r}")
        if self.pointer not in range(POINTERS):
            raise FileError(f"the pointer is 0 to {POINTERS - 1}")
        if self.level not in LEVELS:
            raise FileError(f"the level is one of {LEVELS}")
        for yes_no in (self.skunking, self.big_cards):
            if not isinstance(yes_no, bool):
                raise FileError("a YES/NO option must be True or False")

    def with_(self, **changes: Any) -> CribConfig:
        return replace(self, **changes)


@dataclass(frozen=True)
class CribStats:
    """One line of CRIBBAGE.STA: "cumulative totals for average score in your hand and
    in your crib, the total number of games won and lost, the total number of hands
    played and the player's name". The sums the averages come from are kept (never a
    rounded average): points counted in the player's hands over the hands played, and
    in the player's cribs over the cribs held."""

    name: str
    won: int = 0
    lost: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0

    def __post_init__(self) -> None:
        check_name(self.name)
        for what in ("won", "lost", "hands", "hand_points", "cribs", "crib_points"):
            check_count(getattr(self, what), what)

    @property
    def games(self) -> int:
        """Games counted: a skunk counts two ("this counts a 2 wins")."""
        return self.won + self.lost

    @property
    def hand_average(self) -> float:
        return self.hand_points / self.hands if self.hands else 0.0

    @property
    def crib_average(self) -> float:
        return self.crib_points / self.cribs if self.cribs else 0.0


@dataclass(frozen=True)
class CribGame:
    """A finished game as the screens report it (a game quit before its end is never
    reported: "the statistics file WILL NOT be updated")."""

    name: str
    won: bool
    skunk: bool              # the loser did not pass the skunk line, skunking on
    hands: int
    hand_points: int         # the player's hands' counts, added up
    cribs: int               # hands the player dealt
    crib_points: int


def stats_line(s: CribStats) -> str:
    # The name goes last: it may hold spaces.
    return f"{s.won} {s.lost} {s.hands} {s.hand_points} {s.cribs} {s.crib_points} {s.name}"


def stats_from(line: str) -> CribStats:
    *counts, name = fields(line, 7, "statistics")
    return CribStats(name, *(number(c) for c in counts))


def _limit(text: str) -> int:
    value = number(text, 121)
    if value not in LIMITS:
        raise FileError(f"the score limit is 121 or 61, not {value}")
    return value


CFG_FORMAT: OptionsFormat[CribConfig] = OptionsFormat(CFG, CribConfig, {
    "name": (str, str),
    "score_limit": (str, _limit),
    "skunking": (yn, flag),
    "big_cards": (yn, flag),
    "pointer": (str, number),
    "level": (str, str),
    "room_url": (str, str),
    "room_token": (str, str),
    "room_with": (str, str),
    "room_name": (str, str),
}, added=frozenset(ROOM_FIELDS))
STA_FORMAT: ListFormat[CribStats] = ListFormat(STA, "players", stats_line, stats_from, roster.unique)


def backend_for(path: Path | None, platform: str | None = None, js: Any = None) -> Backend:
    """Cribbage's backend: the directory (or localStorage under ``cribbage/``)."""
    return _backend_for(path, GAME, platform, js)


@dataclass
class CribStore:
    """The options and statistics of one session of Cribbage (``CribStore.open``)."""

    files: Files
    config: CribConfig = field(default_factory=CribConfig)
    _stats: list[CribStats] = field(default_factory=list)

    @classmethod
    def open(cls, path: Path | None = None, nodisk: bool = False,
             backend: Backend | None = None) -> CribStore:
        """NODISK: "All the options will be set to default ... the statistics will
        still work for the current session (starting at zero), but will not be saved"."""
        store = cls(Files(None if nodisk else backend or backend_for(path)))
        with store.files.locked(NAMES):
            store.config = store.files.read(CFG_FORMAT, CribConfig())
            store._stats = store.files.read(STA_FORMAT, [])
        return store

    @property
    def nodisk(self) -> bool:
        return self.files.nodisk

    def take_notices(self) -> list[str]:
        return self.files.take_notices()

    def save_config(self, cfg: CribConfig) -> bool:
        self.config = cfg
        return self.files.update(lambda: self.files.write(CFG_FORMAT, cfg))

    def players(self) -> list[str]:
        return [p.name for p in self._stats]

    def stats(self) -> list[CribStats]:
        return list(self._stats)

    def player(self, name: str) -> CribStats:
        """A player's totals; zero totals for a name not in the file."""
        name = clean_name(name)
        return roster.find(self._stats, name) or CribStats(name)

    def record_game(self, game: CribGame) -> CribStats:
        """Add a finished game: "at the end of each game". A skunk counts two, won or
        lost. A name of the list keeps its place (version 2.0's fix); a new one goes
        on top and the oldest past 20 is dropped. Read again under the lock first, so
        another copy running on the same directory loses nothing."""
        name = clean_name(game.name)
        worth = 2 if game.skunk else 1

        def change() -> CribStats:     # made again on the files if the lock was busy
            self._stats = self.files.read(STA_FORMAT, self._stats)
            old = self.player(name)
            new = replace(
                old,
                won=capped(old.won + worth * game.won),
                lost=capped(old.lost + worth * (not game.won)),
                hands=capped(old.hands + game.hands),
                hand_points=capped(old.hand_points + game.hand_points),
                cribs=capped(old.cribs + game.cribs),
                crib_points=capped(old.crib_points + game.crib_points),
            )
            self._stats = roster.put(self._stats, new)
            self.files.write(STA_FORMAT, self._stats)
            return new

        return self.files.update(change)


# ---- for the command line ----------------------------------------------------------

def list_lines(path: Path) -> list[str]:
    """What ``cribbage list`` prints for a directory; nothing on disk is changed."""
    backend = DiskBackend(Path(path))
    players, trouble = peek(backend, STA_FORMAT)
    where = backend.describe()
    if trouble == "missing":
        return [f"There is no {STA} in {where} yet."]
    if trouble == "foreign":
        return [f"{STA} was made by another version of Cribbage."]
    lines = []
    if trouble == "damaged":
        lines.append(f"{STA} is damaged: showing the {len(players)} players that could be read.")
    elif trouble is not None:
        return [f"Cannot read {STA} in {where}: {trouble}."]
    if players:
        lines += [f"Players in {path / STA}:", format_stats(players)]
    return lines


def format_stats(players: list[CribStats]) -> str:
    head = (f"{'Name':<8}  {'Won':>5}  {'Lost':>5}  {'Hands':>6}  {'Avg hand':>8}  {'Avg crib':>8}")
    rows = [head, "-" * len(head)]
    for p in players:
        rows.append(f"{p.name:<8}  {p.won:>5}  {p.lost:>5}  {p.hands:>6}  "
                    f"{p.hand_average:>8.2f}  {p.crib_average:>8.2f}")
    return "\n".join(rows)


__all__ = ["CFG", "CFG_FORMAT", "CribConfig", "CribGame", "CribStats", "CribStore", "GAME",
           "LEVELS", "LIMITS", "NAMES", "POINTERS", "STA", "STA_FORMAT", "backend_for",
           "format_stats", "list_lines", "stats_from", "stats_line"]
