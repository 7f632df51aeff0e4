"""What a game's file holds, as records of the record file (``port.files.records``).

A ``Format`` turns a file's value into lines and back, and says whether lines read back
were all sound. Two shapes serve both games:

- ``OptionsFormat``: an options file (GINRUMMY.CFG, CRIBBAGE.CFG), one ``key=value`` a
  line, read into a frozen dataclass whose ``__post_init__`` refuses bad values with
  ``FileError``; a missing or bad option takes its default, an unknown key (from a later
  version) is skipped.
- ``ListFormat``: a list of records (GINRUMMY.STA, .SCR, CRIBBAGE.STA), one a line, with
  a ``tidy`` that puts a list in the order and size the file keeps (the players' list
  of ``port.files.players``, the best 20 scores); a list that tidying changes was not
  written by us and counts as damaged.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from port.files.records import FileError

# Both manuals: "There are seven different shapes to choose from" (the CFG's POINTER).
POINTERS = 7
# The card room's lines of both CFGs (the port's: docs/room.md, "The player's side"): the
# room's address, the session's token, the opponent of a game left on (for a rejoin),
# and the name last logged in with.
ROOM_FIELDS = ("room_url", "room_token", "room_with", "room_name")
ROOM_TEXT_MAX = 200


def check_room_text(value: object, what: str) -> None:
    """A room line of a CFG: printable ASCII on one line, at most ``ROOM_TEXT_MAX`` long."""
    if not isinstance(value, str) or len(value) > ROOM_TEXT_MAX or not (value.isascii() and value.isprintable()):
        raise FileError(f"{what} is printable ASCII of at most {ROOM_TEXT_MAX} characters")

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Decoded(Generic[T]):
    value: T
    count: int      # the records (options) read
    whole: bool     # every line was sound: nothing to put right


class Format(Protocol[T]):
    name: str       # the file's name, which is also its header's kind: "GINRUMMY.STA"
    what: str       # what its records are, for notices: "players"

    def empty(self) -> T:
        """The value of a file not there yet."""
        ...

    def encode(self, value: T) -> list[str]:
        ...

    def decode(self, lines: list[str]) -> Decoded[T]:
        ...


@dataclass(frozen=True)
class ListFormat(Generic[R]):
    name: str
    what: str
    to_line: Callable[[R], str]
    from_line: Callable[[str], R]      # raises FileError for a line that is not a record
    tidy: Callable[[list[R]], list[R]]

    def empty(self) -> list[R]:
        return []

    def encode(self, value: list[R]) -> list[str]:
        return [self.to_line(r) for r in value]

    def decode(self, lines: list[str]) -> Decoded[list[R]]:
        records = []
        for line in lines:
            try:
                records.append(self.from_line(line))
            except FileError:
                continue
        kept = self.tidy(records)
        return Decoded(kept, len(kept), len(records) == len(lines) and kept == records)


Codec = tuple[Callable[[Any], str], Callable[[str], Any]]   # (to text, from text)


@dataclass(frozen=True)
class OptionsFormat(Generic[T]):
    name: str
    kind: Callable[..., T]              # a frozen dataclass with a default for every field
    codecs: dict[str, Codec]            # one per field, in the file's order
    what: str = "options"
    # Fields added after files were written without them: a file that lacks them is
    # still whole (it takes their defaults) and is not reported as damaged.
    added: frozenset[str] = frozenset()

    def empty(self) -> T:
        return self.kind()

    def encode(self, value: T) -> list[str]:
        return [f"{key}={to(getattr(value, key))}" for key, (to, _) in self.codecs.items()]

    def decode(self, lines: list[str]) -> Decoded[T]:
        values: dict[str, Any] = {}
        whole = True
        for line in lines:
            key, eq, text = line.partition("=")
            if not eq or key not in self.codecs:
                continue
            try:
                value = self.codecs[key][1](text)
                self.kind(**{key: value})     # check this one value on its own
            except (FileError, TypeError):
                whole = False
                continue
            values[key] = value
        needed = self.codecs.keys() - self.added
        return Decoded(self.kind(**values), len(values), whole and needed <= values.keys())

