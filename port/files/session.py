"""One run of a game and its files: reading with recovery, writing, the lock, notices.

``Files`` is what a game's store (``port.ginrummy.files.Store``) is made of; it knows
formats (``port.files.formats``) and backends (``port.files.storage``), never a game.

- ``read`` gives a file's value. A damaged file is repaired at once: the repaired file
  is written, the damaged one kept aside, one notice. A file that cannot be read (no
  permission, not a regular file) is left alone and only that file is kept in memory
  for the session, with one notice: the other files go on being read and written.
- ``write`` replaces a file whole. If the backend refuses (read-only directory, full
  disk, full browser quota) the whole session carries on in memory, with one notice:
  a disk that refused one write will refuse the others.
- ``locked()`` holds the backend's lock: a read-modify-write is ``read`` again under
  it, then ``write``, so two copies of a game never lose each other's games.
- NODISK: no backend, nothing read or written, no notices.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from port.files.formats import Decoded, Format
from port.files.records import pack, unpack
from port.files.storage import Backend

T = TypeVar("T")


class Files:
    """One run's access to a game's files through a backend (None: NODISK)."""

    def __init__(self, backend: Backend | None) -> None:
        self.backend = backend
        self.in_memory = backend is None        # nothing more is written this session
        self.held: set[str] = set()             # files left alone this session
        self._notices: list[str] = []
        self._unreadable: dict[str, list[Format]] = {}   # why -> the files it stopped

    @property
    def nodisk(self) -> bool:
        return self.backend is None

    def take_notices(self) -> list[str]:
        """Messages for the player, each given once."""
        out = [*self._notices, *(self._cannot_read(reason, fmts) for reason, fmts in self._unreadable.items())]
        self._notices, self._unreadable = [], {}
        return out

    def _cannot_read(self, reason: str, fmts: list[Format]) -> str:
        """One notice for the files one cause kept from being read (storage that is
        disabled stops all three: one sentence, not three)."""
        assert self.backend is not None
        where = f"in {self.backend.describe()} ({reason})"
        if len(fmts) == 1:
            return (f"Cannot read {fmts[0].name} {where}: it is left as it is, and its "
                    f"{fmts[0].what} are kept for this session only.")
        names = ", ".join(f.name for f in fmts[:-1]) + f" and {fmts[-1].name}"
        return f"Cannot read {names} {where}: they are left as they are, and kept for this session only."

    @contextmanager
    def locked(self, names: Iterable[str] = ()) -> Iterator[None]:
        """Hold the lock for a read-modify-write; with ``names``, first remove what
        interrupted writes of those files left (only with the lock held: a write in
        progress is never taken for a leftover)."""
        if self.in_memory:
            yield
            return
        assert self.backend is not None
        with self.backend.lock() as held:
            if held and names:
                self.backend.clean(names)
            yield

    def read(self, fmt: Format[T], current: T) -> T:
        """What the file holds now; ``current`` when it is not read this session."""
        if self.in_memory or fmt.name in self.held:
            return current
        assert self.backend is not None
        try:
            data = self.backend.read(fmt.name)
        except OSError as exc:
            self.held.add(fmt.name)
            self._unreadable.setdefault(why(exc), []).append(fmt)
            return current
        if data is None:
            return fmt.empty()
        got = unpack(fmt.name, data)
        decoded = fmt.decode(got.lines) if not got.foreign else Decoded(fmt.empty(), 0, False)
        if not (got.whole and decoded.whole):
            self._repair(fmt, decoded, got.foreign)
        return decoded.value

    def write(self, fmt: Format[T], value: T) -> bool:
        """Replace the file; False (with a notice, once) if it cannot be written."""
        if self.in_memory or fmt.name in self.held:
            return False
        assert self.backend is not None
        try:
            self.backend.write(fmt.name, pack(fmt.name, fmt.encode(value)))
        except OSError as exc:
            self._go_memory(f"Cannot write {fmt.name} in {self.backend.describe()} "
                            f"({why(exc)}): statistics kept for this session only.")
            return False
        return True

    def _repair(self, fmt: Format[T], decoded: Decoded[T], foreign: bool) -> None:
        """Write what could be saved, keep the damaged file aside, tell the player once."""
        assert self.backend is not None
        try:
            aside = self.backend.repair(fmt.name, pack(fmt.name, fmt.encode(decoded.value)))
        except OSError as exc:
            self._go_memory(f"{fmt.name} is damaged and cannot be repaired in "
                            f"{self.backend.describe()} ({why(exc)}): it is left as it is, "
                            "and nothing will be saved this session.")
            return
        how = "was made by another version" if foreign else "was damaged"
        kept = f"{decoded.count} {fmt.what} recovered" if decoded.count else "a new one started"
        self._notices.append(f"{fmt.name} {how}: kept as {aside}, {kept}.")

    def _go_memory(self, message: str) -> None:
        if not self.in_memory:
            self.in_memory = True
            self._notices.append(message)


def why(exc: OSError) -> str:
    """An OSError in a few words: "Permission denied", "No space left on device"."""
    return exc.strerror or str(exc) or type(exc).__name__


def peek(backend: Backend, fmt: Format[T]) -> tuple[T, str | None]:
    """A file's value without changing anything, and what is wrong with it if anything:
    None (sound), "missing", "foreign", "damaged", or why it cannot be read."""
    try:
        data = backend.read(fmt.name)
    except OSError as exc:
        return fmt.empty(), why(exc)
    if data is None:
        return fmt.empty(), "missing"
    got = unpack(fmt.name, data)
    if got.foreign:
        return fmt.empty(), "foreign"
    decoded = fmt.decode(got.lines)
    return decoded.value, None if got.whole and decoded.whole else "damaged"
