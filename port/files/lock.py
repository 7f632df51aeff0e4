"""One lock per directory of game files, so that two copies of a game never interleave a
read-modify-write (docs/files.md, "Two copies at once").

On POSIX it is an advisory ``flock`` on the directory itself: nothing is created, a
read-only directory can be locked too, and the kernel lets go when the holder dies, even
by kill -9. Where ``fcntl`` is missing (Windows) or the filesystem refuses ``flock`` on
a directory, a lock file (``GINRUMMY.LCK``) made with ``O_EXCL`` stands in for it; one
left behind by a crash is taken over once it is ``STALE`` seconds old.

A holder keeps the lock for a few file operations (milliseconds). A copy that waits
``WAIT`` seconds without getting it (the other copy is stopped in a debugger, or the
disk hangs) is told so rather than hang: the lock is yielded as False, and the Files
unit then writes nothing (``port.files.session``: the change is held back, with a
notice, and made when the lock is had).
"""
from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

WAIT = 10.0          # seconds to wait for another copy's lock
STALE = 30.0         # a lock file older than this was left by a copy that died
_POLL = 0.002        # seconds between tries: a holder needs a few milliseconds


@contextmanager
def locked(directory: Path, lock_name: str, wait: float = WAIT,
           use_flock: bool = True) -> Iterator[bool | None]:
    """Hold the directory's lock for the block; yields True when it is held, False when
    another copy kept it for ``wait`` seconds, None when this directory cannot be locked
    at all (it is missing, or refuses even a lock file: nothing can be written there
    either, and a write will say so).

    ``use_flock=False`` takes the lock-file fallback (for tests of it on POSIX).
    """
    fd = _open_directory(directory) if use_flock and fcntl is not None else None
    if fd is not None:
        try:
            got = _flock(fd, wait)
            if got is not None:
                yield got
                return
        finally:
            os.close(fd)        # closing the descriptor lets the lock go
    with _lock_file(Path(directory) / lock_name, wait) as got:
        yield got


def _open_directory(directory: Path) -> int | None:
    try:
        return os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None


def _flock(fd: int, wait: float) -> bool | None:
    """True: locked; False: gave up waiting; None: this filesystem does not flock."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(_POLL)
        except OSError as exc:
            if exc.errno in (errno.EINTR,):
                continue
            return None     # ENOLCK, EINVAL, EBADF: NFS and the like; use a lock file


@contextmanager
def _lock_file(path: Path, wait: float) -> Iterator[bool | None]:
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            if _stale(path):
                _remove(path)
                continue
            if time.monotonic() > deadline:
                yield False
                return
            time.sleep(_POLL)
            continue
        except OSError:
            # A read-only or missing directory: nothing will be written there anyway.
            yield None
            return
        os.close(fd)
        try:
            yield True
        finally:
            _remove(path)
        return


def _stale(path: Path) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime > STALE
    except OSError:
        return False


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
