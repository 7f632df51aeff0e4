"""Cribbage's program on the shared shell (``port.main``): its command-line words, its
screens, its files. ``main()`` is the ``cribbage`` console script and
``python -m port.cribbage``."""
from __future__ import annotations

from port.cribbage.main.words import CRIBBAGE


def main(argv: list[str] | None = None) -> int:
    """The ``cribbage`` command: the shared ``port.main.main`` with Cribbage's part."""
    from port.main import main as shell_main

    return shell_main(argv, game=CRIBBAGE)


__all__ = ["CRIBBAGE", "main"]
