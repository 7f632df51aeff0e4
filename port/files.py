"""The Files unit: GINRUMMY.CFG, GINRUMMY.STA and GINRUMMY.SCR, and keeping them safe.

What is stored follows the original's documentation (quoted where a rule comes from it);
the byte layout is ours and is described, with an example, in docs/files.md. In short,
each file is UTF-8 text::

    GINRUMMY.STA 1                      the kind and the format version
    56FCE4C9 3 2 0 41 512 380 PLAYER    one record: its own CRC-32, then its fields
    END 1 5C750EB8                      the record count, the CRC-32 of all bytes above

The guarantees ("never lose data"):

- A write goes to a temporary file in the same directory, is flushed and fsynced, and
  then replaces the old file with ``os.replace``: a crash mid-write leaves the old
  file whole.
- A file that fails its checks is never overwritten: it is renamed aside
  (``GINRUMMY.STA.bad1``, ``.bad2``, ... never reusing a name), every record that still
  passes its own CRC is kept, the rest starts fresh, and the player is told once.
- A directory that cannot be written (read-only, missing, a floppy with its tab set)
  turns the store into a memory-only one for the session, with one notice.
- NODISK: no disk access at all.
- In a browser build (``sys.platform == "emscripten"``) the three files live in the
  page's localStorage, through Pyodide's ``js`` bridge.

Plain Python: nothing here imports pyxel. The mechanisms (``Backend``, the record file
format) know nothing of gin rummy, so Cribbage can reuse them with its own records.
"""
from __future__ import annotations

import base64
import datetime
import os
import sys
import tempfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

from port.rules.options import BONUS_CHOICES, LIMIT_MAX, Options

CFG = "GINRUMMY.CFG"
STA = "GINRUMMY.STA"
SCR = "GINRUMMY.SCR"
VERSION = 1
DEFAULT_NAME = "PLAYER"     # the documentation: "The default name is 'PLAYER'"
NAME_MAX = 8                # "The name can be a maximum of 8 characters long"
MAX_PLAYERS = 20            # "up to 20 different names currently running in this stats file"
MAX_SCORES = 20             # "your 20 best average scores"
POINTERS = 7                # "There are seven different shapes to choose from"
SORTS = ("RANK", "SUIT")
LEVELS = ("STANDARD", "EXPERT")  # ours: the computer's level when EASY is NO
_READ_LIMIT = 1 << 20       # a file bigger than this is not ours: read only its start


class FileError(ValueError):
    """A record or a file that does not hold what it should."""


# ---- the records ---------------------------------------------------------------------

def clean_name(text: str) -> str:
    """A player name as stored: control characters dropped, at most 8 characters.

    The documentation: "Paul Schoenberger will give you Schoenbe". An empty result is
    the default name, so a stats line never has a blank name.
    """
    kept = "".join(ch for ch in text if ch.isprintable())[:NAME_MAX]
    return kept if kept.strip() else DEFAULT_NAME


def _check_name(name: str) -> None:
    if not isinstance(name, str) or len(name) > NAME_MAX or not name.isprintable() or not name.strip():
        raise FileError(f"bad player name {name!r}")


def _check_count(value: int, what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FileError(f"{what} must be a whole number, not {value!r}")


@dataclass(frozen=True)
class Config:
    """The options of GINRUMMY.CFG, written by SAVE and loaded at start.

    NOBLANK is not here: "At present, the NOBLANK option is not saved".
    """

    name: str = DEFAULT_NAME
    gin_bonus: int = 25
    undercut_bonus: int = 25
    score_limit: int = 100
    oklahoma: bool = False
    big_cards: bool = False
    easy: bool = False
    knocking: bool = True
    pointer: int = 0            # 0..6, the seven pointer shapes
    sort: str = "RANK"          # RANK or SUIT
    level: str = "STANDARD"     # ours: STANDARD or EXPERT, used when easy is False

    def __post_init__(self) -> None:
        _check_name(self.name)
        for bonus in (self.gin_bonus, self.undercut_bonus):
            if bonus not in BONUS_CHOICES:
                raise FileError(f"a bonus is one of {BONUS_CHOICES}, not {bonus!r}")
        _check_count(self.score_limit, "the score limit")
        if self.score_limit > LIMIT_MAX:
            raise FileError(f"the score limit is 0 to {LIMIT_MAX}")
        if self.pointer not in range(POINTERS):
            raise FileError(f"the pointer is 0 to {POINTERS - 1}")
        if self.sort not in SORTS:
            raise FileError(f"the sort is one of {SORTS}")
        if self.level not in LEVELS:
            raise FileError(f"the level is one of {LEVELS}")
        for flag in (self.oklahoma, self.big_cards, self.easy, self.knocking):
            if not isinstance(flag, bool):
                raise FileError("a YES/NO option must be True or False")

    def options(self) -> Options:
        """The rules part of the configuration."""
        return Options(
            gin_bonus=self.gin_bonus,
            undercut_bonus=self.undercut_bonus,
            score_limit=self.score_limit,
            oklahoma=self.oklahoma,
            knocking=self.knocking,
        )

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


@dataclass(frozen=True)
class PlayerStats:
    """One line of GINRUMMY.STA: a player's totals against the computer.

    The documentation keeps "average score per hand against the computer, the total
    number of games won and lost, the total number of hands played and the player's
    name". We keep the sums the average comes from (the player's points and hands, and
    the computer's points in the same games), so it never drifts by rounding.
    """

    name: str
    won: int = 0
    lost: int = 0
    drawn: int = 0
    hands: int = 0
    points: int = 0     # the player's final scores, added up
    against: int = 0    # the computer's final scores in the same games

    def __post_init__(self) -> None:
        _check_name(self.name)
        for what in ("won", "lost", "drawn", "hands", "points", "against"):
            _check_count(getattr(self, what), what)

    @property
    def games(self) -> int:
        """Games played: "Games played to a draw ... are also counted"."""
        return self.won + self.lost + self.drawn

    @property
    def average(self) -> float:
        """The player's average score per hand (0.0 before the first hand)."""
        return self.points / self.hands if self.hands else 0.0

    @property
    def average_against(self) -> float:
        """The computer's average score per hand in this player's games."""
        return self.against / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class HighScore:
    """One line of GINRUMMY.SCR.

    "the final score divided by the number of hands played. Also saved is your name
    ..., the final score, the score limit, the number of hands played, whether the
    Oklahoma option is on or off (Y or N), and the date the game was played."
    """

    name: str
    score: int
    limit: int
    hands: int
    oklahoma: bool
    date: datetime.date

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_count(self.score, "the score")
        _check_count(self.limit, "the limit")
        _check_count(self.hands, "the hands")
        if self.score == 0 or self.hands == 0:
            raise FileError("zero average scores are not saved")
        if self.limit > LIMIT_MAX:
            raise FileError(f"the score limit is 0 to {LIMIT_MAX}")

    @property
    def average(self) -> float:
        return self.score / self.hands

    @property
    def _rank_key(self) -> Fraction:
        return Fraction(self.score, self.hands)


class Result(Enum):
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


def result_of(human_score: int, computer_score: int) -> Result:
    """Who is ahead; used for a game quit before its end (equal scores are a draw)."""
    if human_score > computer_score:
        return Result.WON
    if human_score < computer_score:
        return Result.LOST
    return Result.DRAW


@dataclass(frozen=True)
class GameRecord:
    """What the Main unit reports when a game ends or the player quits it.

    ``date`` is passed in: the logic never reads the clock.
    """

    name: str
    human_score: int
    computer_score: int
    hands: int
    score_limit: int
    oklahoma: bool
    result: Result
    date: datetime.date
    finished: bool = True     # False: the player quit before the end of the game


@dataclass(frozen=True)
class Recorded:
    """What ``Store.record_game`` did."""

    stats: PlayerStats | None     # the player's new totals (None: not counted)
    rank: int | None              # 1..20 in the high scores, or None


# ---- the record file format --------------------------------------------------------

def _crc(data: bytes) -> str:
    return f"{zlib.crc32(data) & 0xFFFFFFFF:08X}"


def pack(kind: str, lines: Iterable[str]) -> bytes:
    """The bytes of a record file: header, one CRC-tagged line per record, END line."""
    body = [f"{kind} {VERSION}\n".encode()]
    count = 0
    for line in lines:
        if "\n" in line or "\r" in line:
            raise FileError("a record cannot hold a line break")
        payload = line.encode("utf-8")
        body.append(_crc(payload).encode() + b" " + payload + b"\n")
        count += 1
    head = b"".join(body)
    return head + f"END {count} {_crc(head)}\n".encode()


@dataclass
class Unpacked:
    """The records read from a file, and whether the file was whole."""

    lines: list[str]
    whole: bool                 # every check passed: nothing was dropped
    foreign: bool = False       # made by another version: nothing is salvaged


def unpack(kind: str, data: bytes) -> Unpacked:
    """Read a record file; a damaged one yields the records that pass their own CRC."""
    if len(data) > _READ_LIMIT:
        return Unpacked(_salvage(data[:_READ_LIMIT].split(b"\n")), whole=False)
    rows = data.split(b"\n")
    header = rows[0].rstrip(b"\r")
    version = header[len(kind) + 1:]
    if header.startswith(kind.encode() + b" ") and version.isdigit() and int(version) != VERSION:
        # a later version's records may mean other things: keep it whole, read nothing
        return Unpacked([], whole=False, foreign=True)
    whole = header == f"{kind} {VERSION}".encode() and _trailer_ok(data, rows)
    lines = _salvage(rows[1:])
    if whole and len(lines) != len(rows) - 3:
        whole = False  # a line between the header and END failed its own CRC
    return Unpacked(lines, whole)


def _trailer_ok(data: bytes, rows: list[bytes]) -> bool:
    """The last line is END with the right count and the CRC of everything before it."""
    if len(rows) < 3 or rows[-1] != b"":
        return False  # no final newline: the file was cut short
    end = rows[-2]
    cut = len(data) - len(end) - 1
    parts = end.split(b" ")
    return (
        len(parts) == 3
        and parts[0] == b"END"
        and parts[1] == str(len(rows) - 3).encode()
        and parts[2] == _crc(data[:cut]).encode()
    )


def _salvage(rows: list[bytes]) -> list[str]:
    """The payloads of the lines whose own CRC is right, in file order."""
    good = []
    for row in rows:
        row = row.rstrip(b"\r")
        if len(row) < 10 or row[8:9] != b" ":
            continue
        payload = row[9:]
        if row[:8] != _crc(payload).encode():
            continue
        try:
            good.append(payload.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return good


# ---- records as lines --------------------------------------------------------------

def _yn(flag: bool) -> str:
    return "Y" if flag else "N"


def _flag(text: str) -> bool:
    if text not in ("Y", "N"):
        raise FileError(f"expected Y or N, not {text!r}")
    return text == "Y"


def _int(text: str) -> int:
    if not text.isdigit() or not text.isascii():
        raise FileError(f"expected a number, not {text!r}")
    return int(text)


_CFG_FIELDS: dict[str, tuple[Any, Any]] = {  # key: (to text, from text)
    "name": (str, str),
    "gin_bonus": (str, _int),
    "undercut_bonus": (str, _int),
    "score_limit": (str, _int),
    "oklahoma": (_yn, _flag),
    "big_cards": (_yn, _flag),
    "easy": (_yn, _flag),
    "knocking": (_yn, _flag),
    "pointer": (str, _int),
    "sort": (str, str),
    "level": (str, str),
}


def config_lines(cfg: Config) -> list[str]:
    return [f"{key}={to(getattr(cfg, key))}" for key, (to, _) in _CFG_FIELDS.items()]


def config_from(lines: list[str]) -> tuple[Config, int, bool]:
    """A Config from its lines, how many options were read, and whether all were.

    A missing or unreadable option takes its default; an unknown key (from a newer
    version) is skipped.
    """
    values: dict[str, Any] = {}
    ok = True
    for line in lines:
        key, eq, text = line.partition("=")
        if not eq or key not in _CFG_FIELDS:
            continue
        try:
            value = _CFG_FIELDS[key][1](text)
            Config(**{key: value})   # check this one value on its own
        except (FileError, TypeError):
            ok = False
            continue
        values[key] = value
    ok = ok and values.keys() == _CFG_FIELDS.keys()
    return Config(**values), len(values), ok


def stats_line(s: PlayerStats) -> str:
    # The name goes last: it may hold spaces and anything printable.
    return f"{s.won} {s.lost} {s.drawn} {s.hands} {s.points} {s.against} {s.name}"


def stats_from(line: str) -> PlayerStats:
    parts = line.split(" ", 6)
    if len(parts) != 7:
        raise FileError(f"not a statistics line: {line!r}")
    won, lost, drawn, hands, points, against = (_int(p) for p in parts[:6])
    return PlayerStats(parts[6], won, lost, drawn, hands, points, against)


def score_line(h: HighScore) -> str:
    return f"{h.date.isoformat()} {h.score} {h.limit} {h.hands} {_yn(h.oklahoma)} {h.name}"


def score_from(line: str) -> HighScore:
    parts = line.split(" ", 5)
    if len(parts) != 6:
        raise FileError(f"not a high score line: {line!r}")
    try:
        date = datetime.date.fromisoformat(parts[0])
    except ValueError as exc:
        raise FileError(str(exc)) from None
    return HighScore(parts[5], _int(parts[1]), _int(parts[2]), _int(parts[3]), _flag(parts[4]), date)


def _parse_all(lines: list[str], parse: Any) -> tuple[list[Any], bool]:
    """The records that parse, and whether all did."""
    out = []
    for line in lines:
        try:
            out.append(parse(line))
        except FileError:
            pass
    return out, len(out) == len(lines)


def _unique_players(players: list[PlayerStats]) -> list[PlayerStats]:
    seen: set[str] = set()
    out = []
    for p in players:
        if p.name not in seen:
            seen.add(p.name)
            out.append(p)
    return out[:MAX_PLAYERS]


def _ranked(scores: list[HighScore]) -> list[HighScore]:
    # A stable sort: of equal averages the older entry stays above.
    return sorted(scores, key=lambda h: -h._rank_key)[:MAX_SCORES]


# ---- where the bytes go ------------------------------------------------------------

class Backend(Protocol):
    """Somewhere to keep the three files: a directory, or a browser's localStorage."""

    def describe(self) -> str:
        """Where, for messages."""
        ...

    def read(self, name: str) -> bytes | None:
        """The file's bytes, or None if there is none; OSError if it cannot be read."""
        ...

    def write(self, name: str, data: bytes) -> None:
        """Replace the file whole or not at all; OSError if it cannot be written."""
        ...

    def keep_aside(self, name: str) -> str:
        """Rename the file to an unused ``NAME.badN``; return the new name."""
        ...


class DiskBackend:
    """Files in one directory, written atomically."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def describe(self) -> str:
        return str(self.directory)

    def read(self, name: str) -> bytes | None:
        try:
            with open(self.directory / name, "rb") as f:
                return f.read(_READ_LIMIT + 1)
        except (FileNotFoundError, NotADirectoryError):
            return None  # no file, or no directory: nothing to read (a write will tell)

    def write(self, name: str, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(prefix=name + ".", suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.directory / name)
        except BaseException:
            _remove_quietly(tmp)
            raise
        _sync_dir(self.directory)

    def keep_aside(self, name: str) -> str:
        n = 1
        while True:
            aside = f"{name}.bad{n}"
            target = self.directory / aside
            if not os.path.lexists(target):
                # link + unlink never replaces an existing file, even in a race;
                # where hard links are not supported, fall back to rename.
                try:
                    os.link(self.directory / name, target)
                except FileExistsError:
                    n += 1
                    continue
                except OSError:
                    os.rename(self.directory / name, target)
                    return aside
                os.unlink(self.directory / name)
                return aside
            n += 1


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_dir(directory: Path) -> None:
    """Make the rename itself durable where the system allows it (POSIX)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class LocalStorageBackend:
    """The browser build: each file is one localStorage item, its bytes in base64.

    ``storage`` is ``js.localStorage`` (Pyodide's bridge) or anything with the same
    ``getItem``/``setItem``/``removeItem``. Browsers raise on a full quota or when
    storage is disabled; those become OSError, so the store falls back to memory.
    """

    def __init__(self, storage: Any, prefix: str = "ginrummy/") -> None:
        self.storage = storage
        self.prefix = prefix

    def describe(self) -> str:
        return "the browser's local storage"

    def read(self, name: str) -> bytes | None:
        try:
            text = self.storage.getItem(self.prefix + name)
        except Exception as exc:  # a JsException from the bridge
            raise OSError(f"local storage: {exc}") from None
        if not isinstance(text, str):
            return None   # JS null: None, or pyodide.ffi.jsnull in newer Pyodide
        try:
            return base64.b64decode(text, validate=True)
        except ValueError:
            return text.encode("utf-8", "replace")  # damaged: let unpack judge it

    def write(self, name: str, data: bytes) -> None:
        # setItem replaces the value whole or raises: localStorage writes are atomic.
        try:
            self.storage.setItem(self.prefix + name, base64.b64encode(data).decode("ascii"))
        except Exception as exc:
            raise OSError(f"local storage: {exc}") from None

    def keep_aside(self, name: str) -> str:
        try:
            value = self.storage.getItem(self.prefix + name)
            n = 1
            while isinstance(self.storage.getItem(f"{self.prefix}{name}.bad{n}"), str):
                n += 1
            self.storage.setItem(f"{self.prefix}{name}.bad{n}", value)
            self.storage.removeItem(self.prefix + name)
        except Exception as exc:
            raise OSError(f"local storage: {exc}") from None
        return f"{name}.bad{n}"


def backend_for(path: Path | None, platform: str | None = None, js: Any = None) -> Backend:
    """The backend for this platform: localStorage in a browser, else a directory.

    ``platform`` and ``js`` are seams for tests; by default they are ``sys.platform``
    and Pyodide's ``js`` module.
    """
    if (platform or sys.platform) == "emscripten":
        if js is None:
            import js  # type: ignore[import-not-found,no-redef]  # only in Pyodide
        return LocalStorageBackend(js.localStorage)
    return DiskBackend(Path.cwd() if path is None else Path(path))


# ---- the store the Main unit uses --------------------------------------------------

@dataclass
class Store:
    """The options, statistics and high scores of one session.

    Open it with ``Store.open``. Every write goes through to the backend at once;
    if the backend refuses, the store carries on in memory for the rest of the session.
    """

    backend: Backend | None                 # None: NODISK
    config: Config = field(default_factory=Config)
    _stats: list[PlayerStats] = field(default_factory=list)
    _scores: list[HighScore] = field(default_factory=list)
    in_memory: bool = False                 # nothing more is written this session
    _notices: list[str] = field(default_factory=list)

    # -- opening

    @classmethod
    def open(cls, path: Path | None = None, nodisk: bool = False,
             backend: Backend | None = None) -> Store:
        """Load the three files (path None: the current directory).

        NODISK: "disable all disk access ... both loading and saving of statistics,
        options, and high scores"; everything starts at its default.
        """
        if nodisk:
            return cls(backend=None, in_memory=True)
        store = cls(backend=backend or backend_for(path))
        store.config = store._load_config()
        store._stats = store._load_stats()
        store._scores = store._load_scores()
        return store

    @property
    def nodisk(self) -> bool:
        return self.backend is None

    @property
    def high_scores_enabled(self) -> bool:
        """NODISK: "The high scores box will do nothing"."""
        return not self.nodisk

    def take_notices(self) -> list[str]:
        """Messages for the player, each given once: a damaged file, a read-only disk."""
        out, self._notices = self._notices, []
        return out

    # -- the options

    def save_config(self, cfg: Config) -> bool:
        """SAVE in the options menu; False (with a notice) if it could not be written."""
        self.config = cfg
        return self._write(CFG, pack(CFG, config_lines(cfg)))

    # -- statistics and high scores

    def players(self) -> list[str]:
        """The names in the statistics file, newest first (the options menu's "?")."""
        return [p.name for p in self._stats]

    def stats(self) -> list[PlayerStats]:
        return list(self._stats)

    def player(self, name: str) -> PlayerStats:
        """A player's totals; zero totals for a name not in the file."""
        name = clean_name(name)
        for p in self._stats:
            if p.name == name:
                return p
        return PlayerStats(name)

    def high_scores(self) -> list[HighScore]:
        """The 20 best averages, best first."""
        return list(self._scores) if self.high_scores_enabled else []

    def record_game(self, rec: GameRecord) -> Recorded:
        """Count a finished game, or a game quit before its end.

        Statistics: "at the end of each game"; a quit game only "if there was at least
        one hand played to a finish". High scores: never a zero average, and a quit
        game "only if the score of the human player is greater than zero". The files
        are read again first, so another copy of the game running meanwhile loses
        nothing either.
        """
        if rec.hands < 1:
            return Recorded(None, None)
        self._reload()
        name = clean_name(rec.name)
        stats = self._add_game(name, rec)
        rank = self._add_score(name, rec) if self.high_scores_enabled else None
        self._save_stats()
        if rank is not None:
            self._save_scores()
        return Recorded(stats, rank)

    def record_quit(self, name: str, human_score: int, computer_score: int, hands: int,
                    score_limit: int, oklahoma: bool, date: datetime.date) -> Recorded:
        """A game quit mid-way: its result is whoever is ahead, a tie is a draw."""
        return self.record_game(GameRecord(
            name, human_score, computer_score, hands, score_limit, oklahoma,
            result_of(human_score, computer_score), date, finished=False))

    def _add_game(self, name: str, rec: GameRecord) -> PlayerStats:
        old = self.player(name)
        new = replace(
            old,
            won=old.won + (rec.result is Result.WON),
            lost=old.lost + (rec.result is Result.LOST),
            drawn=old.drawn + (rec.result is Result.DRAW),
            hands=old.hands + rec.hands,
            points=old.points + max(rec.human_score, 0),
            against=old.against + max(rec.computer_score, 0),
        )
        if any(p.name == name for p in self._stats):
            self._stats = [new if p.name == name else p for p in self._stats]
        else:
            # "added to the top of the file ... the name on the bottom of the list
            # (the oldest) is truncated"
            self._stats = [new, *self._stats][:MAX_PLAYERS]
        return new

    def _add_score(self, name: str, rec: GameRecord) -> int | None:
        if rec.human_score <= 0:
            return None   # "Zero average scores (lose or draw) are not saved."
        entry = HighScore(name, rec.human_score, rec.score_limit, rec.hands, rec.oklahoma, rec.date)
        ranked = _ranked([*self._scores, entry])
        if not any(h is entry for h in ranked):
            return None
        self._scores = ranked
        return next(i for i, h in enumerate(ranked) if h is entry) + 1

    # -- reading and writing

    def _reload(self) -> None:
        """Take in what is on disk now (a reset by erasing the file, another copy)."""
        if not self.in_memory:
            self._stats = self._load_stats()
            self._scores = self._load_scores()

    def _save_stats(self) -> None:
        self._write(STA, pack(STA, [stats_line(p) for p in self._stats]))

    def _save_scores(self) -> None:
        self._write(SCR, pack(SCR, [score_line(h) for h in self._scores]))

    def _write(self, name: str, data: bytes) -> bool:
        if self.in_memory:
            return False
        assert self.backend is not None
        try:
            self.backend.write(name, data)
        except OSError as exc:
            self._go_memory(f"Cannot write {name} in {self.backend.describe()} "
                            f"({_why(exc)}): statistics kept for this session only.")
            return False
        return True

    def _go_memory(self, message: str) -> None:
        if not self.in_memory:
            self.in_memory = True
            self._notices.append(message)

    def _read(self, name: str) -> Unpacked | None:
        """The file's records, None if there is none (or it cannot be read)."""
        if self.in_memory:
            return None
        assert self.backend is not None
        try:
            data = self.backend.read(name)
        except OSError as exc:
            self._go_memory(f"Cannot read {name} in {self.backend.describe()} "
                            f"({_why(exc)}): nothing will be saved this session.")
            return None
        return None if data is None else unpack(name, data)

    def _load_config(self) -> Config:
        got = self._read(CFG)
        if got is None:
            return Config()
        cfg, read, ok = config_from(got.lines)
        if not (got.whole and ok):
            # "If this file is not present, or is corrupted, it will be created with
            # the default options" -- after keeping the damaged one aside; the options
            # that could still be read are kept, the rest are the defaults.
            self._recover(CFG, "options", read, config_lines(cfg), got.foreign)
        return cfg

    def _load_stats(self) -> list[PlayerStats]:
        got = self._read(STA)
        if got is None:
            return []
        players, ok = _parse_all(got.lines, stats_from)
        unique = _unique_players(players)
        if not (got.whole and ok and len(unique) == len(players)):
            self._recover(STA, "players", len(unique), [stats_line(p) for p in unique], got.foreign)
        return unique

    def _load_scores(self) -> list[HighScore]:
        got = self._read(SCR)
        if got is None:
            return []
        scores, ok = _parse_all(got.lines, score_from)
        ranked = _ranked(scores)
        if not (got.whole and ok and ranked == scores):
            self._recover(SCR, "high scores", len(ranked), [score_line(h) for h in ranked], got.foreign)
        return ranked

    def _recover(self, name: str, what: str, saved: int, lines: list[str], foreign: bool) -> None:
        """Keep a damaged file aside, write what could be saved, tell the player once."""
        assert self.backend is not None
        try:
            aside = self.backend.keep_aside(name)
        except OSError as exc:
            self._go_memory(f"{name} is damaged and cannot be renamed ({_why(exc)}): "
                            "it is left as it is and nothing will be saved this session.")
            return
        why = "was made by another version" if foreign else "was damaged"
        kept = f"{saved} {what} recovered" if saved else "a new one started"
        self._notices.append(f"{name} {why}: kept as {aside}, {kept}.")
        self._write(name, pack(name, lines))


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


# ---- for the command line ----------------------------------------------------------

def read_stats(path: Path | None = None) -> tuple[list[PlayerStats], list[str]]:
    """The statistics file, read only (``ginrummy list``): its players and any warnings.

    Unlike ``Store.open`` this changes nothing on disk.
    """
    backend = DiskBackend(Path.cwd() if path is None else Path(path))
    try:
        data = backend.read(STA)
    except OSError as exc:
        return [], [f"Cannot read {STA} in {backend.describe()}: {_why(exc)}."]
    if data is None:
        return [], [f"There is no {STA} in {backend.describe()} yet."]
    got = unpack(STA, data)
    players, ok = _parse_all(got.lines, stats_from)
    unique = _unique_players(players)
    warnings = []
    if got.foreign:
        warnings.append(f"{STA} was made by another version of GinRummy.")
    elif not (got.whole and ok and len(unique) == len(players)):
        warnings.append(f"{STA} is damaged: showing the {len(unique)} players that could be read.")
    return unique, warnings


def format_stats(players: list[PlayerStats]) -> str:
    """The statistics as a text table, for ``ginrummy list``."""
    head = f"{'Name':<8}  {'Games':>5}  {'Won':>5}  {'Lost':>5}  {'Drawn':>5}  {'Hands':>6}  {'Avg/hand':>8}"
    rows = [head, "-" * len(head)]
    for p in players:
        rows.append(f"{p.name:<8}  {p.games:>5}  {p.won:>5}  {p.lost:>5}  {p.drawn:>5}  "
                    f"{p.hands:>6}  {p.average:>8.2f}")
    return "\n".join(rows)
