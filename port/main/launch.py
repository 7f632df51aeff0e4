"""What one start of the program was asked to do: the command line, parsed.

The contract between the command line (``port.main.cmdline``) and the application
(``port.main.app``): cmdline fills it in, app runs it.
"""
from __future__ import annotations

import datetime
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def in_browser() -> bool:
    """Whether this Python runs in a web page (Pyodide, pyxel's web runtime)."""
    return sys.platform == "emscripten"


@dataclass
class Found:
    """What a run found in its files' directory before it started: the game's files (their
    bytes; None where there was none) and the names of the game records already there
    (only their names matter: SAVE RECORD takes the first free one)."""

    files: dict[str, bytes | None] = field(default_factory=dict)
    records: tuple[str, ...] = ()


@dataclass
class Launch:
    # Which program was started (its Game's words): "ginrummy" and "GinRummy".
    program: str = ""
    title: str = ""
    # The documented command-line options.
    name: str | None = None         # the last unrecognised word, at most 8 characters
    score_limit: int | None = None  # GinRummy nnn, Cribbage 61/121; overrides but does not overwrite the CFG
    nodisk: bool = False
    noblank: bool = False
    nokeyboard: bool = False
    laptop: bool = False
    go: bool = False                # straight into the game, past the title screen
    noanimation: bool = False       # Cribbage's: no card movement
    pause: bool = False             # Cribbage's: information boxes stay until dismissed
    path: Path | None = None        # where the game's files live; None = current dir
    # Added by the port.
    profile: str = "EGA"            # display profile word: EGA, VGA, CGA, HERC, ATT400, PC3270, EGAMONO, MDA
    seed: int | None = None         # a reproducible game
    computer: str | None = None     # --computer: a bot file's player or policy instead of the level
    headless: bool = False          # no window: step frames without waiting
    script: Path | None = None      # headless input script
    shots: Path | None = None       # where the headless driver saves screenshots
    record: Path | None = None      # --record FILE: the session written as a script (docs/script.md)
    room: str | None = None         # --room URL: straight to the card room's connection page
    today: datetime.date | None = None   # the date the game takes for today; None: the clock's
    # The game's files (its Game's), which a recording keeps as the run found them, and
    # what a recorded run found (a replay plays on copies of it; None: nothing recorded).
    game_files: tuple[str, ...] = ()
    found: Found | None = None
    notices: tuple[str, ...] = ()   # one-line messages from parsing (an invalid path, ...)
    replay: Any = None              # `replay FILE`: the game record, read and checked (docs/records.md)
    script_steps: Any = None        # --script FILE: its lines, every one checked before the first frame
    # In a web page: touch is the left button (a long press is the hint), the name is
    # typed on on-screen letters too, and an internal error stays on the screen.
    web: bool = field(default_factory=in_browser)
