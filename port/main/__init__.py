"""The Main unit: the command line, start-up, the screen controllers, pacing, the driver.

``main()`` is the ``ginrummy`` console script and ``python -m port``.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, then run the game (or print and exit, for help/list/view)."""
    from port.main import cmdline

    args = sys.argv[1:] if argv is None else argv
    outcome = cmdline.parse(args)
    if isinstance(outcome, int):      # help, list, view or a usage error: already printed
        return outcome
    from port.main import app

    return app.run(outcome)
