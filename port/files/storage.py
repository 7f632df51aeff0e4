"""Where a game's files live: a directory, or a browser's localStorage.

A ``Backend`` reads, writes and repairs whole files by name and holds the lock around a
read-modify-write; it knows nothing of what the files hold. The promises (docs/files.md):

- a read never blocks and never reads more than ``MAX_FILE`` bytes: a FIFO, socket or
  device in a file's place is "not a regular file", never opened for a blocking read;
- a write goes to a temporary file beside the real one, flushed and fsynced, then
  replaces it with ``os.replace``: a crash leaves the old file or the new one, whole;
- the file's permissions (and owner, where allowed) are kept, and a symlink is written
  through to its target, so a player who keeps the file elsewhere keeps the link;
- a repair writes the repaired file before it keeps the damaged one aside (a hard link,
  ``NAME.bad1``, then ``os.replace``): a crash or a full disk at any moment leaves the
  file in place, damaged or repaired, and never loses the damaged bytes;
- ``clean`` removes the temporary files of writes cut short by a crash.
"""
from __future__ import annotations

import base64
import errno
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Protocol

from port.files import lock
from port.files.lock import locked
from port.files.players import plain
from port.files.records import MAX_FILE

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_NEW_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
              | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0))


class Backend(Protocol):
    """Somewhere to keep a game's files."""

    def describe(self) -> str:
        """Where, for messages."""
        ...

    def read(self, name: str) -> bytes | None:
        """The file's bytes (at most MAX_FILE + 1), or None if there is none; OSError if
        it cannot be read."""
        ...

    def write(self, name: str, data: bytes) -> None:
        """Replace the file whole or not at all; OSError if it cannot be written."""
        ...

    def repair(self, name: str, data: bytes) -> str:
        """Keep the file as it is under an unused ``NAME.badN`` and put ``data`` in its
        place; return where the old one was kept. OSError: nothing changed that matters
        (the file is still there as it was)."""
        ...

    def lock(self) -> AbstractContextManager[bool | None]:
        """Hold the lock around a read-modify-write; yields True (held), False (another
        copy kept it too long) or None (nothing can be locked, nor written, there)."""
        ...

    def clean(self, names: Iterable[str]) -> None:
        """Remove what interrupted writes of these files left behind (call under the lock)."""
        ...


# ---- a directory -------------------------------------------------------------------------

class DiskBackend:
    """Files in one directory."""

    def __init__(self, directory: Path, lock_name: str = "FILES.LCK", use_flock: bool = True,
                 wait: float | None = None) -> None:
        self.directory = Path(directory)
        self.lock_name = lock_name          # the lock file, only where flock is missing
        self.use_flock = use_flock
        self.wait = wait                    # seconds to wait for the lock (None: lock.WAIT)

    def describe(self) -> str:
        return plain(str(self.directory))   # a directory name that is not UTF-8 still shows

    def read(self, name: str) -> bytes | None:
        try:
            return read_regular(self.directory / name, MAX_FILE + 1)
        except (FileNotFoundError, NotADirectoryError):
            return None  # no file, or no directory: nothing to read (a write will tell)

    def write(self, name: str, data: bytes) -> None:
        target = self._target(name)
        tmp = _write_beside(target, data)
        try:
            os.replace(tmp, target)
        except BaseException:
            _remove_quietly(tmp)
            raise
        _sync_dir(target.parent)

    def repair(self, name: str, data: bytes) -> str:
        target = self._target(name)
        tmp = _write_beside(target, data)       # first the repaired file, whole on disk
        try:
            aside = _keep_aside(target)          # then a second name for the damaged one
            _sync_dir(target.parent)
            os.replace(tmp, target)              # and only then the repaired one in place
        except BaseException:
            _remove_quietly(tmp)
            raise
        _sync_dir(target.parent)
        return aside.name if aside.parent == self.directory else str(aside)

    def lock(self) -> AbstractContextManager[bool | None]:
        return locked(self.directory, self.lock_name, lock.WAIT if self.wait is None else self.wait,
                      use_flock=self.use_flock)

    def clean(self, names: Iterable[str]) -> None:
        for name in names:
            places = {(self.directory, name)}
            try:
                target = self._target(name)
                places.add((target.parent, target.name))   # a symlink's writes are beside its target
            except OSError:
                pass
            for folder, base in places:
                _remove_temporaries(folder, base)

    def _target(self, name: str) -> Path:
        """Where the file's bytes are: through a symlink (or a chain of them) to its
        target, which need not exist yet; OSError for a loop."""
        path = self.directory / name
        if not path.is_symlink():
            return path
        try:
            return Path(os.path.realpath(path, strict=True))
        except FileNotFoundError:
            return Path(os.path.realpath(path))   # a link to a file not made yet


def read_regular(path: str | Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file, without ever blocking: OSError for a
    FIFO, socket, device or directory in its place (``strerror`` "not a regular file").
    The games' files and game records (``port.files.gamerecord``) are read this way."""
    # O_NONBLOCK: opening a FIFO must not wait for a writer (and a regular file
    # ignores the flag); the fstat below turns away all but regular files.
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return _read_some(fd, limit)
    finally:
        os.close(fd)


def _read_some(fd: int, limit: int) -> bytes:
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _temp_name(target: Path) -> Path:
    return target.with_name(f"{target.name}.{secrets.token_hex(4)}.tmp")


def _write_beside(target: Path, data: bytes) -> Path:
    """A temporary file beside ``target`` holding ``data``, flushed to the disk, with the
    target's permissions and owner; its path."""
    while True:
        tmp = _temp_name(target)
        try:
            fd = os.open(tmp, _NEW_FLAGS, 0o666)    # the umask applies, as for any new file
            break
        except FileExistsError:
            continue
    try:
        _keep_mode(fd, target)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _remove_quietly(tmp)
        raise
    os.close(fd)
    return tmp


def _keep_mode(fd: int, target: Path) -> None:
    """Give the new file the old one's permissions, and its owner where we may."""
    try:
        old = os.stat(target)
    except OSError:
        return
    if not stat.S_ISREG(old.st_mode):
        return
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(old.st_mode))
    new = os.fstat(fd)
    if hasattr(os, "fchown") and (new.st_uid, new.st_gid) != (old.st_uid, old.st_gid):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except OSError:
            pass    # only root may give a file away: it stays ours


def _keep_aside(target: Path) -> Path:
    """A second name ``NAME.badN`` (the first unused N) for the file as it is.

    A hard link never replaces an existing name and copies nothing. If the file already
    has such a name (a repair cut short after its link), that one is kept. Where hard
    links are not supported, a copy is made under a new name.
    """
    here = os.stat(target)
    n = 1
    while True:
        aside = target.with_name(f"{target.name}.bad{n}")
        try:
            there = os.lstat(aside)
        except FileNotFoundError:
            try:
                os.link(target, aside)
            except FileExistsError:
                continue
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
                    raise
                if not _copy_new(target, aside):
                    continue
            return aside
        if os.path.samestat(here, there):
            return aside
        n += 1


def _copy_new(source: Path, dest: Path) -> bool:
    """Copy a file to a name not yet taken (False if it was taken meanwhile)."""
    try:
        fd = os.open(dest, _NEW_FLAGS, 0o666)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as out, open(source, "rb") as src:
        shutil.copyfileobj(src, out)
        out.flush()
        os.fsync(out.fileno())
    return True


_TEMPORARY = r"\.[A-Za-z0-9_]{8}\.tmp"


def _remove_temporaries(folder: Path, name: str) -> None:
    pattern = re.compile(re.escape(name) + _TEMPORARY)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_dir(directory: Path) -> None:
    """Make a rename itself durable where the system allows it (POSIX)."""
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


# ---- a browser's localStorage ----------------------------------------------------------

class LocalStorageBackend:
    """The browser build: each file is one localStorage item, its bytes in base64, under
    the game's prefix (``ginrummy/GINRUMMY.STA``, ``cribbage/CRIBBAGE.STA``).

    ``storage`` is ``js.localStorage`` (Pyodide's bridge) or anything with the same
    ``getItem``/``setItem``/``removeItem``. Browsers raise on a full quota or when
    storage is disabled; those become OSError, so the store falls back to memory.
    ``setItem`` replaces a value whole or raises, so every write is atomic. Tabs have no
    lock that a synchronous program can take: the store reads the item again just
    before each write, which is as close as two tabs come.
    """

    def __init__(self, storage: Any, prefix: str) -> None:
        self.storage = storage
        self.prefix = prefix

    def describe(self) -> str:
        return "the browser's local storage"

    def read(self, name: str) -> bytes | None:
        text = self._get(name)
        if text is None:
            return None
        if len(text) > MAX_FILE * 2:
            return text[:MAX_FILE + 1].encode("utf-8", "replace")   # not ours: damaged
        try:
            return base64.b64decode(text, validate=True)
        except ValueError:
            return text.encode("utf-8", "replace")  # damaged: let unpack judge it

    def write(self, name: str, data: bytes) -> None:
        self._set(name, base64.b64encode(data).decode("ascii"))

    def repair(self, name: str, data: bytes) -> str:
        old = self._get(name)
        n = 1
        while True:
            there = self._get(f"{name}.bad{n}")
            if there is None or there == old:
                break
            n += 1
        if there is None:
            self._set(f"{name}.bad{n}", old or "")
        self.write(name, data)
        return f"{name}.bad{n}"

    def lock(self) -> AbstractContextManager[bool | None]:
        return nullcontext(True)

    def clean(self, names: Iterable[str]) -> None:
        pass    # nothing is ever left half-written here

    def _get(self, name: str) -> str | None:
        try:
            text = self.storage.getItem(self.prefix + name)
        except Exception as exc:  # a JsException from the bridge
            raise OSError(f"local storage: {exc}") from None
        return text if isinstance(text, str) else None   # JS null: None, or pyodide's jsnull

    def _set(self, name: str, text: str) -> None:
        try:
            self.storage.setItem(self.prefix + name, text)
        except Exception as exc:
            raise OSError(f"local storage: {exc}") from None


def backend_for(path: Path | None, game: str, platform: str | None = None, js: Any = None) -> Backend:
    """A game's backend for this platform: localStorage in a browser (keys prefixed with
    the game's name in lower case), else a directory (the current one for None).

    ``platform`` and ``js`` are seams for tests; by default they are ``sys.platform``
    and Pyodide's ``js`` module.
    """
    if (platform or sys.platform) == "emscripten":
        if js is None:
            import js  # type: ignore[import-not-found,no-redef]  # only in Pyodide
        return LocalStorageBackend(js.localStorage, prefix=f"{game.lower()}/")
    return DiskBackend(Path.cwd() if path is None else Path(path), lock_name=f"{game}.LCK")
