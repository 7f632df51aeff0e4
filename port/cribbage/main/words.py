"""Cribbage's own words on the shared command line (``port.main.cmdline``).

Common to both games (help, list, view, a name, NODISK, NOBLANK, NOKEYBOARD, LAPTOP,
GO, a path) is the shell's; Cribbage brings its limits (61, 121), its switches
(NOANIMATION, PAUSE), "the first eight parameters", its help screen and its list.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from port import __version__
from port.cribbage import files as crib_files
from port.main.cmdline import Game, port_options


def limit_word(word: str) -> int | None:
    """ "To set the SCORE LIMIT, type: CRIBBAGE 61 or CRIBBAGE 121"; with leading zeros
    too (061, 0121), as a GinRummy player types a limit (our choice: docs/cribbage.md)."""
    if word.isascii() and word.isdigit() and int(word) in (61, 121):
        return int(word)
    return None


def _players(path: Path) -> list[str]:
    return crib_files.list_lines(path)


def _read_record(path: Path) -> Any:
    """``replay FILE``: the record, read and checked (a ValueError names the line)."""
    from port.cribbage.record import read

    return read(path)


def _review_record(log: Any, name: str | None) -> list[str]:
    """``review FILE [NAME]``: each seat's decisions (or NAME's) beside EXPERT's."""
    from port.cribbage.review import record_lines

    return record_lines(log, name)


def _first_screen() -> Callable[[Any], Any]:
    from port.cribbage.main.start import first_screen

    return first_screen


HELP = f"""\
Cribbage {__version__} - a port of David Teach's DOS card game (version 2.0)

Usage:  cribbage [61|121] [name] [path] [NODISK] [NOBLANK] [NOANIMATION] [LAPTOP]
                 [PAUSE] [NOKEYBOARD] [GO]
        cribbage /? | ? | help      this screen
        cribbage list [path]        list the players in the statistics file
        cribbage view               show the documentation (CRIBBAGE.DOC)
        cribbage replay FILE        step through a game record (CR0001.REC) in the window
        cribbage review FILE [name] each decision of a record beside EXPERT's, costliest first

  61 or 121    the score limit (the pegging board's length; 061 and 0121 too)
  name         your name, one word of at most 8 characters; the LAST unrecognised
               word on the line is taken (cribbage Mike ASDF makes you ASDF)
  path         where CRIBBAGE.CFG and .STA are kept: starts with \\ or /, a drive
               letter and colon (B:), or ..  (otherwise the current directory)
  NODISK       no disk access: no options or statistics read or saved
  NOBLANK      no screen saver, no boss key (Esc); not saved in CRIBBAGE.CFG
  NOANIMATION  the cards do not move across the table
  LAPTOP       brighter hot letters for monochrome screens
  PAUSE        the information boxes stay until a key or button
  NOKEYBOARD   mouse only, except for typing your name (needs a mouse)
  GO           straight into the game, past the title screen
  EGA VGA CGA HERC ATT400 PC3270 EGAMONO MDA   the display to look like

Only the first eight words are read. Words are case-insensitive, except the name.
The name and score limit override, but do not overwrite, the saved options.

{port_options("eight")}
Example:  cribbage John B:\\ go
"""

CRIBBAGE = Game("cribbage", "Cribbage", 8, limit_word, ("NOANIMATION", "PAUSE"), "port.cribbage",
                "CRIBBAGE.DOC", HELP, _players, _first_screen, _read_record,
                _review_record, files=crib_files.NAMES, record_prefix="CR", limits="61 or 121")

__all__ = ["CRIBBAGE", "HELP", "limit_word"]
