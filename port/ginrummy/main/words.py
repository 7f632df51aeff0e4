"""GinRummy's own words on the shared command line (``port.main.cmdline``).

Common to both games (help, list, view, a name, NODISK, NOBLANK, NOKEYBOARD, LAPTOP,
GO, a path) is the shell's; GinRummy brings its score limit (``nnn``), "the first seven
parameters", its help screen and its ``list``.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from port import __version__
from port.ginrummy import files
from port.main.cmdline import Game, port_options


def three_digits(word: str) -> int | None:
    """GinRummy's limit: "nnn (where "nnn" is a number from 000 to 999) ... For numbers
    less than 100, you MUST use leading zeros"."""
    return int(word) if re.fullmatch(r"[0-9]{3}", word) else None


def _players(path: Path) -> list[str]:
    players, warnings = files.read_stats(path)
    lines = list(warnings)
    if players:
        lines += [f"Players in {path / files.STA}:", files.format_stats(players)]
    return lines


def _read_record(path: Path) -> Any:
    """``replay FILE``: the record, read and checked (a ValueError names the line)."""
    from port.ginrummy.record import read

    return read(path)


def _review_record(log: Any, name: str | None) -> list[str]:
    """``review FILE [NAME]``: each seat's decisions (or NAME's) beside EXPERT's."""
    from port.ginrummy.review import record_lines

    return record_lines(log, name)


def _first_screen() -> Callable[[Any], Any]:
    from port.ginrummy.main.start import first_screen

    return first_screen


HELP = f"""\
GinRummy {__version__} - a port of David Teach's DOS card game

Usage:  ginrummy [nnn] [name] [path] [NODISK] [NOBLANK] [NOKEYBOARD] [LAPTOP] [GO]
        ginrummy /? | ? | help      this screen
        ginrummy list [path]        list the players in the statistics file
        ginrummy view               show the documentation (GINRUMMY.DOC)
        ginrummy replay FILE        step through a game record (GR0001.REC) in the window
        ginrummy review FILE [name] each decision of a record beside EXPERT's, costliest first

  nnn         score limit, three digits 000 to 999 (025, not 25); 000 plays one hand
  name        your name, one word of at most 8 letters; the LAST unrecognised
              word on the line is taken (ginrummy Mike ASDF makes you ASDF)
  path        where GINRUMMY.CFG, .STA and .SCR are kept: starts with \\ or /,
              a drive letter and colon (B:), or ..  (otherwise the current directory)
  NODISK      no disk access: no options, statistics or high scores read or saved
  NOBLANK     no screen saver, no boss key (Esc); not saved in GINRUMMY.CFG
  NOKEYBOARD  mouse only, except for typing your name (needs a mouse)
  LAPTOP      brighter colours and hot keys for monochrome screens
  GO          straight into the game, past the title screen
  EGA VGA CGA HERC ATT400 PC3270 EGAMONO MDA   the display to look like

Only the first seven words are read. Words are case-insensitive, except the name.
The name and score limit override, but do not overwrite, the saved options.

{port_options("seven")}
Example:  ginrummy Dave 250 ..\\SAVES GO
"""

GINRUMMY = Game("ginrummy", "GinRummy", 7, three_digits, (), "port.ginrummy", "GINRUMMY.DOC",
                HELP, _players, _first_screen, _read_record, _review_record,
                files=files.NAMES, record_prefix="GR", limits="three digits, 000 to 999")

__all__ = ["GINRUMMY", "HELP", "three_digits"]
