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
- ``update(change)`` is a read-modify-write under the backend's lock: ``change`` reads
  the files again (``read``), then writes them (``write``), so two copies of a game never
  lose each other's games. Nothing is ever written without the lock: when it cannot be
  had within the lock's wait (another copy stopped in a debugger, a hung network
  disk), the change is made on the session's values only, held back with one notice,
  and made again on the files, in order, under the lock, at the next ``update`` or
  ``flush`` (the shell flushes at exit).
- ``locked()`` holds the lock around reads (start-up); a damaged file is repaired only
  under the lock.
- NODISK: no backend, nothing read or written, no notices.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from port.files.formats import Decoded, Format
from port.files.records import pack, unpack
from port.files.storage import Backend

T = TypeVar("T")
R = TypeVar("R")

# What a read or write is part of: no block; a block with the lock; a block without it
# (reads only, no repair); a change held back (the session's values only); the changes
# held back, made again under the lock.
NONE, HELD, UNLOCKED, HELD_BACK, AGAIN = "none", "held", "unlocked", "held back", "again"


class Files:
    """One run's access to a game's files through a backend (None: NODISK)."""

    def __init__(self, backend: Backend | None) -> None:
        self.backend = backend
        self.in_memory = backend is None        # nothing more is written this session
        self.held: set[str] = set()             # files left alone this session
        self._notices: list[str] = []
        self._unreadable: dict[str, list[Format]] = {}   # why -> the files it stopped
        self._state = NONE
        self._pending: list[Callable[[], object]] = []   # changes held back, oldest first
        # What the held-back changes first read of each file, and while they are made
        # again, the values of files that are not read from the disk (left alone).
        self._before: dict[str, object] = {}
        self._again: dict[str, object] = {}

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

    @property
    def pending(self) -> int:
        """How many changes are held back, waiting for the lock."""
        return len(self._pending)

    @contextmanager
    def locked(self, names: Iterable[str] = ()) -> Iterator[bool]:
        """Hold the lock around reads (yields whether it is held); with ``names``, first
        remove what interrupted writes of those files left (only with the lock held: a
        write in progress is never taken for a leftover). Without the lock the files
        are read but not repaired, and nothing is written: changes go through ``update``."""
        if self.in_memory:
            yield True
            return
        assert self.backend is not None
        with self.backend.lock() as got:
            held = got is not False       # None: nothing can be written there anyway
            if got:
                if names:
                    self.backend.clean(names)
            if held:
                self._made_again()
            with self._as(HELD if held else UNLOCKED):
                yield held

    def update(self, change: Callable[[], R]) -> R:
        """Make a change to the files: ``change`` reads what it changes and writes it.

        Under the lock, after the changes held back before it. Without the lock (waited
        for in vain), ``change`` runs on the session's values (its reads give the values
        it is given, its writes are kept back) and is held back, with one notice: it is
        made again on the files when the lock is had. Its result is the session's."""
        if self.in_memory:
            return change()
        assert self.backend is not None
        with self.backend.lock() as held:
            if held is not False:         # None: nothing can be written there; a write says so
                self._made_again()
                with self._as(HELD):
                    return change()
        if not self._pending:
            self._notices.append(
                f"Another copy of the game holds the files in {self.backend.describe()}: nothing is "
                "saved without its lock, so this is kept for now and saved as soon as it lets go.")
        self._pending.append(change)
        with self._as(HELD_BACK):
            return change()

    def flush(self) -> bool:
        """Save what is held back, waiting for the lock (at exit); False if it is still
        held back (the other copy kept the lock all along)."""
        if not self._pending or self.in_memory:
            return True
        assert self.backend is not None
        with self.backend.lock() as held:
            if held is not False:
                self._made_again()
        return not self._pending

    def _made_again(self) -> None:
        """Make the held-back changes on the files, in order (the lock is held)."""
        if not self._pending:
            return
        changes, self._pending = self._pending, []
        self._again, self._before = self._before, {}
        try:
            for change in changes:
                with self._as(AGAIN):
                    change()
        finally:
            self._again = {}

    @contextmanager
    def _as(self, state: str) -> Iterator[None]:
        before, self._state = self._state, state
        try:
            yield
        finally:
            self._state = before

    def read(self, fmt: Format[T], current: T) -> T:
        """What the file holds now; ``current`` when it is not read this session."""
        if self.in_memory:
            return current
        if self._state == HELD_BACK:
            self._before.setdefault(fmt.name, current)
            return current
        if fmt.name in self.held:
            # Made again: a file left alone is what the held-back changes left it.
            return self._again.get(fmt.name, current) if self._state == AGAIN else current  # type: ignore[return-value]
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
        if not (got.whole and decoded.whole) and self._state != UNLOCKED:
            self._repair(fmt, decoded, got.foreign)   # never without the lock: it writes
        return decoded.value

    def write(self, fmt: Format[T], value: T) -> bool:
        """Replace the file; False (with a notice, once) if it cannot be written. In a
        change held back, nothing is written yet: True, it will be."""
        if self.in_memory:
            return False
        if fmt.name in self.held:
            if self._state == AGAIN:
                self._again[fmt.name] = value
            return False
        if self._state == HELD_BACK:
            return True
        assert self.backend is not None
        if self._state == UNLOCKED:
            self._notices.append(f"{fmt.name} was not saved: another copy of the game holds the lock "
                                 f"of {self.backend.describe()}.")
            return False
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
