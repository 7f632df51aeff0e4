"""The Main unit: the command line, start-up, the screen controllers, pacing, the driver.

``main()`` is the ``ginrummy`` console script and ``python -m port``.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from port.main.errors import DEBUG_ENV, PROGRAM, OutputError, PlainError, internal_error, say, tell
from port.main.launch import in_browser

if TYPE_CHECKING:
    from port.main.cmdline import Game


def main(argv: list[str] | None = None, game: Game | None = None) -> int:
    """Parse the command line, then run the game (or print and exit, for help/list/view).

    ``game`` is the program's own part (its words, its first screen, its window
    title); GinRummy's when None. Cribbage's ``main`` passes its own.

    No traceback reaches the player: a usage error, a bad script line or output that
    cannot be written (a full disk) is its own plain sentence; an interruption or an
    unexpected error is one line too (``GINRUMMY_DEBUG=1`` shows the traceback to
    developers). In a web page an error in the game shows on its screen
    (``port.main.app``); one before it could start reaches the browser's console.
    """
    program = game.program if game is not None else PROGRAM
    try:
        status = _run(sys.argv[1:] if argv is None else argv, game)
        _flush_stdout()
        return status
    except PlainError as exc:
        tell(f"{program}: {exc}")
        if isinstance(exc, OutputError):
            _quiet_stdout()  # what is still buffered cannot be written either
        return exc.status
    except KeyboardInterrupt:
        tell(f"{program}: interrupted.")
        return 130
    except BrokenPipeError:
        _quiet_stdout()      # the reader went away (ginrummy view | head): not an error
        return 0
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        tell(internal_error(exc, web=in_browser(), program=program), web=in_browser())
        return 1


def _run(args: list[str], game: Game | None) -> int:
    from port.main import cmdline

    outcome = cmdline.parse(args) if game is None else cmdline.parse(args, game=game)
    if isinstance(outcome, int):      # help, list, view or a usage error: already printed
        return outcome
    from port.main import app

    if game is None or game.first_screen is None:
        return app.run(outcome)
    return app.run(outcome, first=game.first_screen(), title=game.title)


def _flush_stdout() -> None:
    """Write out what is still buffered now, while a failure can still be told."""
    say(sys.stdout, "")


def _quiet_stdout() -> None:
    """Point stdout at the null device so the exit-time flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
