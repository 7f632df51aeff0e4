"""Failures the player can mend, each told in one plain sentence (docs/cmdline.md, "Errors").

``port.main.main()`` prints the message of a ``PlainError`` after the program's name and
exits with its ``status``; anything else unexpected is an "internal error". The command
line raises ``UsageError``, the headless driver a ``UsageError`` for a bad script line,
and ``OutputError`` says the output could not be written (a full disk or device).
"""
from __future__ import annotations

import sys
from typing import TextIO

from port.files.players import plain

# Set to 1 to see a traceback instead of the one line (both games: the project's name).
DEBUG_ENV = "GINRUMMY_DEBUG"


class PlainError(Exception):
    """An error whose message is one plain sentence for the player."""

    status = 1


class UsageError(PlainError):
    """A command line (or a file it names) that cannot be run."""

    status = 2


class OutputError(PlainError):
    """What was asked for could not be written out (``ginrummy view > /dev/full``)."""

    status = 1


def say(out: TextIO, text: str) -> None:
    """Write text to a stream now; a stream that refuses it is an OutputError (a reader
    that went away stays a BrokenPipeError: that is not an error, ``ginrummy view | head``)."""
    try:
        out.write(plain(text))     # a path that is not UTF-8 (``list`` names it) is printable
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write the output ({exc.strerror or exc}).") from None


def internal_error(exc: BaseException, *, program: str, title: str, web: bool = False) -> str:
    """The one sentence an unexpected error becomes, in the game's own name ("cribbage:"
    at the prompt, "Cribbage stopped" in a page). In a web page there is no environment
    to set for the details, and a reload is what starts the game again."""
    cause = plain(f"{type(exc).__name__}: {exc}")[:200]
    if web:
        return f"{title or 'The game'} stopped on an internal error ({cause}). Reload the page to start again."
    return f"{program}: internal error ({cause}); run with {DEBUG_ENV}=1 for the details."


def tell(line: str, *, web: bool = False) -> None:
    """One line on stderr; in a web page on stdout too, which is the browser's console
    (pyxel's web loader keeps stderr for tracebacks only). If even the stream refuses
    it, the exit code still tells."""
    for stream in (sys.stderr, sys.stdout) if web else (sys.stderr,):
        try:
            print(line, file=stream, flush=True)
        except (OSError, ValueError):
            pass
