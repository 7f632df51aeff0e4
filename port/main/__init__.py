"""The Main unit: the command line, start-up, the screen controllers, pacing, the driver.

``main()`` is the ``ginrummy`` console script and ``python -m port``.
"""
from __future__ import annotations

import os
import sys

DEBUG_ENV = "GINRUMMY_DEBUG"   # set to 1 to see a traceback instead of the one line


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, then run the game (or print and exit, for help/list/view).

    No traceback reaches the player: an interruption or an unexpected error becomes
    one plain line on stderr (``GINRUMMY_DEBUG=1`` shows the traceback to developers).
    """
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        print("ginrummy: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()      # the reader went away (ginrummy view | head): not an error
        return 0
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"ginrummy: internal error ({type(exc).__name__}: {exc}); "
              f"run with {DEBUG_ENV}=1 for the details.", file=sys.stderr)
        return 1


def _run(args: list[str]) -> int:
    from port.main import cmdline

    outcome = cmdline.parse(args)
    if isinstance(outcome, int):      # help, list, view or a usage error: already printed
        return outcome
    from port.main import app

    return app.run(outcome)


def _quiet_stdout() -> None:
    """Point stdout at the null device so the exit-time flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
