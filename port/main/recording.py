"""The Main unit's recordings (``--record FILE``), without pyxel: what a run takes from
the world, written as a script's header, and how it ended, written as its ``end`` line.

A recording is a driver script (docs/script.md) in three parts:

- the header: the program, the command line's meaning (the ``Launch`` fields that change
  what happens), the seed the deals follow, the date the game takes for today, the
  game's files as the run found them (``file NAME BASE64``, ``nofile NAME``) and the
  names of the game records already there (``taken GR0001.REC``: SAVE RECORD takes the
  first free name);
- the inputs, frame by frame (``port.main.recorder`` writes them);
- the ``end`` line: the frames run, a digest of the final screen's colour indices, of
  each file of the game and of each game record the run saved, so a replay checks that
  it ended the same way ("demo sync").

``--script FILE`` reads the header before the game starts (``port.main.cmdline``), and a
replay's files are laid out in ``SHOTS/files`` (``prepare_files``), never in the
player's own directory. Everything read here is bounded and checked: a bad line is one
plain sentence naming FILE and the line.
"""
from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field, fields
from pathlib import Path

from port import __version__
from port.files.gamerecord import EXTENSION
from port.files.players import cut, quoted
from port.files.records import MAX_FILE, FileError, day
from port.files.storage import DiskBackend
from port.main.errors import PlainError, UsageError
from port.main.launch import Found, Launch

SEED_MAX = 0xFFFFFFFF        # Turbo Pascal's RandSeed is a 32-bit LongInt
MAX_WAIT = 30 * 60 * 60      # frames: an hour of game time is the longest wait a line asks
# The Launch fields that change what happens in a run, in the order a header gives them.
# Not recorded: where the files are (a replay has its own), and how the run is shown or
# driven (--headless, --script, --shots, --record), which change nothing that happens.
RECORDED = ("profile", "name", "score_limit", "nodisk", "noblank", "nokeyboard", "laptop", "go",
            "noanimation", "pause", "computer", "notices")
HEADER = ("program", "version", "set", "seed", "date", "file", "nofile", "taken")
# A game record's name, as SAVE RECORD makes it (port.files.gamerecord.record_name):
# the game's two letters, four digits.
RECORD_NAME = re.compile(r"[A-Z]{2}[0-9]{4}" + re.escape(EXTENSION))
REPLAY_FILES = "files"       # the folder of SHOTS where a replay keeps the game's files
_DIGEST = 16                 # hex digits of SHA-256 kept: plenty to tell two screens apart


class ScriptError(UsageError, ValueError):
    """A line of a driver script that cannot be read: one plain sentence, exit code 2."""


class Desync(PlainError):
    """A replay that did not end as its recording did (exit code 1)."""


@dataclass
class Header:
    """What a script's header lines say (each None or empty when it does not say it)."""

    program: str | None = None
    version: str | None = None
    fields: dict[str, object] = field(default_factory=dict)
    seed: int | None = None
    date: datetime.date | None = None
    files: dict[str, bytes | None] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)

    @property
    def is_recording(self) -> bool:
        """A recording names its program: it carries its whole command line."""
        return self.program is not None


# ---- writing a header ----------------------------------------------------------------

def clock_seed() -> int:
    """A seed from the clock, as Turbo Pascal's Randomize took one, within RandSeed's range.

    A recorded run without ``--seed`` deals from this one seed (the first game from it,
    the next from it plus one, as with ``--seed``), so its recording can say it."""
    return (time.time_ns() // 1000) & SEED_MAX


def pin(launch: Launch) -> None:
    """Fix what a recorded run would otherwise take from the clock: the seed, and today's
    date (for the whole run: a game that ends after midnight keeps the day it began)."""
    if launch.seed is None:
        launch.seed = clock_seed()
    if launch.today is None:
        launch.today = datetime.date.today()


def capture(launch: Launch) -> Found:
    """What the run finds before it starts: the game's files (None: there is none, or it
    cannot be read) and the game records already saved there. NODISK reads nothing:
    nothing to record."""
    if launch.nodisk or launch.path is None:
        return Found()
    return Found({name: _read_file(launch.path, name) for name in launch.game_files}, _records(launch.path))


def _records(directory: Path) -> tuple[str, ...]:
    """The game records' names in a directory, sorted."""
    try:
        return tuple(sorted(e.name for e in os.scandir(directory) if RECORD_NAME.fullmatch(e.name)))
    except OSError:
        return ()


def _read_file(directory: Path, name: str) -> bytes | None:
    """A file as the Files unit reads it (at most MAX_FILE + 1 bytes, never blocking,
    regular files only); None when there is none or it cannot be read."""
    try:
        return DiskBackend(directory).read(name)
    except OSError:
        return None


def header_lines(launch: Launch, found: Found) -> list[str]:
    """The header of a recording of this run (``pin`` it first)."""
    default = Launch()
    lines = [f"# A recording of {launch.program} {__version__}: replay it with",
             f"#     {launch.program} --script THIS_FILE [--headless] [--shots DIR]",
             "# The header (program ... nofile) is the run's command line and what it found;",
             "# then the inputs as pyxel reported them, frame by frame; then how it ended.",
             f"program {launch.program}",
             f"version {__version__}"]
    for name in RECORDED:
        value = getattr(launch, name)
        if value != getattr(default, name):
            lines.append(f"set {name} {json.dumps(list(value) if isinstance(value, tuple) else value)}")
    lines.append(f"seed {launch.seed}")
    if launch.today is not None:
        lines.append(f"date {launch.today.isoformat()}")
    for name, data in found.files.items():
        lines.append(f"nofile {name}" if data is None else f"file {name} {base64.b64encode(data).decode('ascii')}")
    lines += [f"taken {name}" for name in found.records]
    return lines


# ---- reading a header ------------------------------------------------------------------

def read_header(path: Path, program: str, game_files: tuple[str, ...]) -> Header:
    """The header of the script at ``path``: its lines before the first input. A
    recording of another program is refused at once, in those words."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"{path}: cannot read the script ({getattr(exc, 'strerror', None) or exc})") from None
    header = Header()
    for number, line in enumerate(text.splitlines(), 1):
        word, _, rest = line.strip().partition(" ")
        if not word or word.startswith("#"):
            continue
        if word.lower() not in HEADER:
            break
        try:
            _header_line(header, word.lower(), rest.strip(), game_files)
        except (ValueError, FileError) as exc:
            raise ScriptError(f"{path}:{number}: {quoted(line.strip())}: {exc}") from None
        if header.program not in (None, program):
            raise ScriptError(f"{path} is a recording of {header.program}: replay it with {header.program}")
    return header


def _header_line(header: Header, word: str, rest: str, game_files: tuple[str, ...]) -> None:
    if word == "program":
        header.program = _one_word(rest)
    elif word == "version":
        header.version = _one_word(rest)
    elif word == "set":
        name, _, value = rest.partition(" ")
        header.fields[name] = _field_value(name, value.strip())
    elif word == "seed":
        if not (rest.isascii() and rest.isdigit() and len(rest) <= 10 and int(rest) <= SEED_MAX):
            raise ValueError(f"expected a seed from 0 to {SEED_MAX}")
        header.seed = int(rest)
    elif word == "date":
        header.date = day(rest)
    elif word == "taken":
        if not RECORD_NAME.fullmatch(rest) or len(header.records) >= 10_000:
            raise ValueError("expected a game record's name, such as GR0001.REC")
        header.records.append(rest)
    else:
        name, _, data = rest.partition(" ")
        if name not in game_files:
            raise ValueError(f"{quoted(name)} is not one of this game's files ({', '.join(game_files) or 'none'})")
        header.files[name] = None if word == "nofile" else _file_bytes(data.strip())


def _one_word(text: str) -> str:
    if not text or " " in text or len(text) > 40 or not text.isprintable():
        raise ValueError("expected one word")
    return text


_FIELD_TYPES = {f.name: f.type for f in fields(Launch)}


def _field_value(name: str, text: str) -> object:
    """A ``set`` line's value: JSON of the type the Launch field holds."""
    if name not in RECORDED:
        raise ValueError(f"a script cannot set {quoted(name)}; it can set {', '.join(RECORDED)}")
    try:
        value = json.loads(text)
    except ValueError:
        raise ValueError(f"the value of {name} is not JSON") from None
    kind = str(_FIELD_TYPES[name])          # the annotation's text: "bool", "int | None", ...
    if value is None:
        ok = "None" in kind
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind.startswith("int"):
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6
    elif kind.startswith("tuple"):
        ok = isinstance(value, list) and len(value) <= 20 and all(isinstance(v, str) and len(v) <= 500 for v in value)
        value = tuple(value) if ok else value
    else:
        ok = isinstance(value, str) and 0 < len(value) <= 500
    if not ok:
        raise ValueError(f"{name} cannot be {cut(text)}")
    return value


def _file_bytes(text: str) -> bytes:
    if len(text) > 4 * (MAX_FILE + 3) // 3 + 4:
        raise ValueError(f"a file of a game is at most {MAX_FILE} bytes")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the file's bytes are not base64") from None


def apply_header(launch: Launch, header: Header) -> None:
    """Put a header's values into the Launch (the command line has been read)."""
    for name, value in header.fields.items():
        setattr(launch, name, value)
    if header.seed is not None:
        launch.seed = header.seed
    if header.date is not None:
        launch.today = header.date
    if header.files or header.records:
        launch.found = Found(dict(header.files), tuple(header.records))


# ---- a replay's files ------------------------------------------------------------------

def replay_directory(launch: Launch) -> Path:
    return (launch.shots if launch.shots is not None else Path("shots").absolute()) / REPLAY_FILES


def prepare_files(launch: Launch) -> None:
    """Lay out what a recording found in ``SHOTS/files`` and play there.

    Only the game's own names are touched in that folder: each of its files is written
    as recorded, or removed where the recording had none; what an earlier replay left
    beside them (files kept aside, ``NAME.bad1``..., game records) is removed; and each
    game record the run found is there again, empty (SAVE RECORD only asks whether a
    name is taken), so this replay saves under the same names as the recorded run."""
    if launch.found is None:
        return
    folder = replay_directory(launch)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for entry in os.scandir(folder):
            base = entry.name.split(".bad")[0]
            ours = (base in launch.game_files and entry.name != base) or RECORD_NAME.fullmatch(entry.name)
            if ours and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        for name in launch.game_files:
            data = launch.found.files.get(name)
            target = folder / name
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.write_bytes(data)
        for name in launch.found.records:
            (folder / name).write_bytes(b"")
    except OSError as exc:
        raise UsageError(f"cannot lay out the recording's files in {folder} "
                         f"({exc.strerror or exc})") from None
    launch.path = folder


# ---- the end -----------------------------------------------------------------------------

def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:_DIGEST]


def end_state(frames: int, screen: bytes | None, launch: Launch) -> dict[str, str]:
    """How a run ended: frames run, the final screen's digest, each game file's digest
    ("-" for none), and each game record saved during the run. NODISK has no files."""
    state = {"frames": str(frames)}
    if screen is not None:
        state["screen"] = digest(screen)
    if not launch.nodisk and launch.path is not None:
        for name in launch.game_files:
            data = _read_file(launch.path, name)
            state[name] = "-" if data is None else digest(data)
        before = set(launch.found.records) if launch.found is not None else set()
        for name in _records(launch.path):
            if name not in before:
                data = _read_file(launch.path, name)
                state[name] = "-" if data is None else digest(data)
    return state


def end_line(state: dict[str, str]) -> str:
    return "end " + " ".join(f"{key}={value}" for key, value in state.items())


def parse_end(args: list[str]) -> dict[str, str]:
    out = {}
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq or not key or not value or len(value) > 40:
            raise ScriptError(f"expected KEY=VALUE, not {quoted(arg)}")
        out[key] = value
    return out


def differences(expected: dict[str, str], got: dict[str, str]) -> list[str]:
    """What did not end as recorded, in words (empty: the replay is in sync)."""
    out = []
    for key, want in expected.items():
        have = got.get(key)
        if have == want:
            continue
        if key == "frames":
            out.append(f"it ran {have} frames, not {want}")
        elif key == "screen":
            out.append("the final screen differs")
        elif have is None:
            out.append(f"{key} was not saved" if RECORD_NAME.fullmatch(key) else f"{key} was not compared")
        else:
            out.append(f"{key} differs" if want != "-" and have != "-" else
                       f"{key} {'is missing' if have == '-' else 'was made'}")
    out += [f"{key} was saved" for key in got if key not in expected and RECORD_NAME.fullmatch(key)]
    return out
