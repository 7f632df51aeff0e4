"""What a run writes besides its result: each game's record (``--records DIR``) and
one JSON line per game (``--games-out FILE.jsonl``).

Records (issue 33): the directory is made and tried before the first game (a
directory that cannot be written is one sentence, and no game is played); one that
already holds records is refused unless ``--overwrite``, so two runs never silently
replace each other's games. Each record is written whole or not at all: to a temporary
file in the same directory, then renamed over its name (a full disk leaves no 0-byte or
cut record). A record that cannot be written does not stop the run: the result is
printed, then the missing records are named.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from port.files.gamerecord import record_name

RECORD_DIGITS = 6            # GR000001.REC: up to 999,999 games a match


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def records_directory(text: str, overwrite: bool = True) -> Path:
    """``--records DIR``: the directory, made if missing and tried for writing;
    ValueError (one sentence) if it cannot be used, or (without ``overwrite``) holds
    records already."""
    if not text.strip():
        raise ValueError("--records needs a directory's name")
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot make the records directory {text!r} ({_reason(exc)})") from None
    if not overwrite:
        old = sorted(p for p in path.rglob("*.REC") if p.is_file())
        if old:
            raise ValueError(f"the records directory {text!r} already holds records ({old[0].name} and "
                             f"{len(old) - 1} more): give another directory, or --overwrite to replace them")
    try:
        with tempfile.TemporaryFile(dir=path) as probe:
            probe.write(b"x")
    except OSError as exc:
        raise ValueError(f"cannot write in the records directory {text!r} ({_reason(exc)})") from None
    return path


def write_atomically(path: Path, text: str) -> None:
    """``text`` as the file ``path``, whole or not at all (OSError when not)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@dataclass
class RecordWriter:
    """Writes a match's records in ``directory`` (``GR000001.REC`` for game 1);
    ``missing`` lists those that could not be written, with the reason."""

    directory: Path
    missing: list[tuple[Path, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        try:        # a directory that cannot be made: each record is then missing, and said so
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass

    def write(self, prefix: str, game: int, text: str) -> str:
        """Game number ``game`` (from 0) as its record; the file's name."""
        name = record_name(prefix, game + 1, RECORD_DIGITS)
        path = self.directory / name
        try:
            write_atomically(path, text)
        except OSError as exc:
            self.missing.append((path, _reason(exc)))
        return name

    def sub(self, name: str) -> RecordWriter:
        """A writer for one pairing of a round robin, in its own folder (made here; a
        folder that cannot be made makes every record of it missing, as a full disk)."""
        return RecordWriter(self.directory / name, self.missing)     # one list of missing records for the run

    def missing_report(self) -> str | None:
        """One sentence naming the records not written, or None."""
        if not self.missing:
            return None
        names = [str(p) for p, _ in self.missing]
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        reasons = sorted({r for _, r in self.missing})
        return (f"{len(names)} record(s) could not be written ({'; '.join(reasons)}): {shown}; "
                "the result above counts their games")


def safe_name(text: str) -> str:
    """A player's name as part of a folder's name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "player"


def open_games_out(text: str, overwrite: bool) -> IO[str]:
    """``--games-out FILE.jsonl``, opened for writing; ValueError (one sentence) if it
    cannot be, or (without ``overwrite``) already holds games."""
    if not text.strip():
        raise ValueError("--games-out needs a file's name")
    path = Path(text)
    if not overwrite and path.is_file() and path.stat().st_size:
        raise ValueError(f"{text!r} already holds games: give another file, or --overwrite to replace it")
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot write the games to {text!r} ({_reason(exc)})") from None


def game_line(row: dict[str, Any]) -> str:
    return json.dumps(row, separators=(", ", ": ")) + "\n"
