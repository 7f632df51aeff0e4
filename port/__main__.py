"""``python -m port [--game ginrummy|cribbage] [ARGUMENTS...]``: the house's front door.

It starts one of the two programs with the rest of the line: GinRummy when no
``--game`` is given (the README's ``scripts/run`` is this), Cribbage with ``--game
cribbage``. Each program is also its own command: ``ginrummy`` (``python -m
port.ginrummy``) and ``cribbage`` (``python -m port.cribbage``).
"""
from __future__ import annotations

import sys
from collections.abc import Callable

GAMES = ("ginrummy", "cribbage")


def _main_of(game: str) -> Callable[[list[str]], int]:
    if game == "cribbage":
        from port.cribbage.main import main
    else:
        from port.ginrummy.main import main
    return main


def launch(argv: list[str]) -> int:
    """Take ``--game NAME`` (or ``--game=NAME``) from the front of the line; run that game."""
    game, rest = "ginrummy", list(argv)
    if rest and (rest[0] == "--game" or rest[0].startswith("--game=")):
        flag = rest.pop(0)
        name = flag.partition("=")[2] if "=" in flag else (rest.pop(0) if rest else "")
        game = name.lower()
        if game not in GAMES:
            print(f"python -m port: --game is ginrummy or cribbage, not {name!r}", file=sys.stderr)
            return 2
    return _main_of(game)(rest)


if __name__ == "__main__":
    sys.exit(launch(sys.argv[1:]))
