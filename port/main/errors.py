"""Failures the player can mend, each told in one plain sentence (docs/cmdline.md, "Errors").

``port.main.main()`` prints the message of a ``PlainError`` after the program's name and
exits with its ``status``; anything else unexpected is an "internal error". The command
line raises ``UsageError``, the headless driver a ``UsageError`` for a bad script line,
and ``OutputError`` says the output could not be written (a full disk or device).
"""
from __future__ import annotations

from typing import TextIO


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
        out.write(text)
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write the output ({exc.strerror or exc}).") from None
