"""The Main unit's shell, shared by both games: the command line's common words,
start-up, the frame loop, the runner, the headless driver, the controller protocol, the
menus' machinery and the plain-sentence errors. No game's words or screens are here:
each game's ``main`` (``port.ginrummy.main``, ``port.cribbage.main``) passes its own
``Game`` to ``main()``.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from port.main.errors import DEBUG_ENV, OutputError, PlainError, internal_error, say, tell
from port.main.launch import in_browser

if TYPE_CHECKING:
    from port.main.cmdline import Game


def main(argv: list[str] | None, game: Game) -> int:
    """Parse the command line, then run the game (or print and exit, for help/list/view).

    ``game`` is the program's own part: its words, its first screen, its window title.

    No traceback reaches the player: a usage error, a bad script line or output that
    cannot be written (a full disk) is its own plain sentence; an interruption or an
    unexpected error is one line too (``GINRUMMY_DEBUG=1`` shows the traceback to
    developers). In a web page an error in the game shows on its screen
    (``port.main.app``); one before it could start reaches the browser's console.
    """
    program = game.program
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
        tell(internal_error(exc, program=program, title=game.title, web=in_browser()), web=in_browser())
        return 1


def _run(args: list[str], game: Game) -> int:
    from port.main import cmdline

    outcome = cmdline.parse(args, game=game)
    if isinstance(outcome, int):      # help, list, view or a usage error: already printed
        return outcome
    if outcome.script is not None:
        # Every line of the script is checked before anything is made or shown: a bad
        # line 100,000 lines down is told at once, not after the frames before it.
        from port.main.driver import read_script

        outcome.script_steps = read_script(outcome.script)
    refused = cmdline.make_outputs(outcome)
    if refused is not None:
        return refused
    from port.main import app

    return app.run(outcome, game.first_screen(), game.title)


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
