"""GinRummy's program on the shared shell (``port.main``): its command-line words, its
screens, its files. ``main()`` is the ``ginrummy`` console script and
``python -m port.ginrummy``."""
from __future__ import annotations

from port.ginrummy.main.words import GINRUMMY


def main(argv: list[str] | None = None) -> int:
    """The ``ginrummy`` command: the shared ``port.main.main`` with GinRummy's part."""
    from port.main import main as shell_main

    return shell_main(argv, game=GINRUMMY)


__all__ = ["GINRUMMY", "main"]
