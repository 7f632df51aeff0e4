"""The record file: the byte layout shared by every file of both games, read within limits.

Each file is UTF-8 text with ``\\n`` line ends (docs/files.md has an example)::

    GINRUMMY.STA 1                      the file's name and the format version
    56FCE4C9 3 2 0 41 512 380 PLAYER    one record: its own CRC-32, then its fields
    END 1 5C750EB8                      the record count, the CRC-32 of all bytes above

Nothing here knows a game: a game's formats (``port.files.formats``) say what a record
holds. Every reader is bounded, so no file, however large or strange, costs more than
``MAX_FILE`` bytes of reading or raises anything but ``FileError``:

- a file is read up to ``MAX_FILE`` bytes; a bigger one is damaged (its start is searched);
- a line longer than ``MAX_LINE`` bytes is no record;
- a number is at most ten ASCII digits and at most ``LONGINT_MAX`` (Turbo Pascal's
  LongInt, what the original kept its totals in), so ``int()`` never meets 4,300 digits;
- a date is exactly ``YYYY-MM-DD``.
"""
from __future__ import annotations

import datetime
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

VERSION = 1
MAX_FILE = 64 * 1024        # our biggest file is a few KB: anything past this is not ours
MAX_LINE = 512              # a record is under 100 bytes
LONGINT_MAX = 2**31 - 1     # every count and total: Turbo Pascal's LongInt
_VERSION_DIGITS = 9         # a version header longer than this is damage, not a version
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class FileError(ValueError):
    """A record or a file that does not hold what it should."""


def crc(data: bytes) -> str:
    """The CRC-32 of some bytes, as 8 upper-case hex digits."""
    return f"{zlib.crc32(data) & 0xFFFFFFFF:08X}"


def pack(kind: str, lines: Iterable[str]) -> bytes:
    """The bytes of a record file: header, one CRC-tagged line per record, END line."""
    body = [f"{kind} {VERSION}\n".encode()]
    count = 0
    for line in lines:
        if "\n" in line or "\r" in line:
            raise FileError("a record cannot hold a line break")
        payload = line.encode("utf-8")
        body.append(crc(payload).encode() + b" " + payload + b"\n")
        count += 1
    head = b"".join(body)
    return head + f"END {count} {crc(head)}\n".encode()


@dataclass
class Unpacked:
    """The records read from a file, and whether the file was whole."""

    lines: list[str]
    whole: bool                 # every check passed: nothing was dropped
    foreign: bool = False       # made by another version: nothing is salvaged


def unpack(kind: str, data: bytes) -> Unpacked:
    """Read a record file; a damaged one yields the records that pass their own CRC."""
    if len(data) > MAX_FILE:
        return Unpacked(_salvage(data[:MAX_FILE].split(b"\n")), whole=False)
    rows = data.split(b"\n")
    header = rows[0].rstrip(b"\r")
    version = header[len(kind) + 1:]
    if (header.startswith(kind.encode() + b" ") and version.isdigit()
            and len(version) <= _VERSION_DIGITS and int(version) != VERSION):
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
        and parts[2] == crc(data[:cut]).encode()
    )


def _salvage(rows: list[bytes]) -> list[str]:
    """The payloads of the lines whose own CRC is right, in file order."""
    good = []
    for row in rows:
        row = row.rstrip(b"\r")
        if not 10 <= len(row) <= MAX_LINE or row[8:9] != b" ":
            continue
        payload = row[9:]
        if row[:8] != crc(payload).encode():
            continue
        try:
            good.append(payload.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return good


# ---- fields ----------------------------------------------------------------------------

def fields(line: str, count: int, what: str) -> list[str]:
    """A record's ``count`` space-separated fields; the last one takes the rest of the
    line (a name, which may hold spaces, goes last)."""
    parts = line.split(" ", count - 1)
    if len(parts) != count:
        raise FileError(f"not a {what} line: {line[:40]!r}")
    return parts


def number(text: str, top: int = LONGINT_MAX) -> int:
    """A whole number from 0 to ``top``, written in at most ten ASCII digits."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(top))):
        raise FileError(f"expected a number, not {text[:20]!r}")
    value = int(text)
    if value > top:
        raise FileError(f"{value} is over {top}")
    return value


def check_count(value: object, what: str, top: int = LONGINT_MAX) -> None:
    """A count kept in a record: a whole number from 0 to ``top``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise FileError(f"{what} must be a whole number from 0 to {top}, not {value!r}")


def capped(total: int) -> int:
    """A total added to, held at LongInt's top rather than growing past what is read back."""
    return min(total, LONGINT_MAX)


def yn(flag: bool) -> str:
    return "Y" if flag else "N"


def flag(text: str) -> bool:
    if text not in ("Y", "N"):
        raise FileError(f"expected Y or N, not {text[:20]!r}")
    return text == "Y"


def day(text: str) -> datetime.date:
    """A date written ``YYYY-MM-DD`` (only that: ``fromisoformat`` takes more)."""
    if not _DATE.fullmatch(text):
        raise FileError(f"expected a date YYYY-MM-DD, not {text[:20]!r}")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as exc:
        raise FileError(str(exc)) from None
