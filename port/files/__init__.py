"""The Files unit: each game's files (GINRUMMY.CFG, .STA, .SCR; Cribbage's next) and
keeping them safe. Plain Python: nothing here imports pyxel.

One mechanism for every file of both games, a game's formats plugged into it:

- ``records``: the byte layout (a CRC per record and per file) and bounded field readers;
- ``formats``: an options file and a list file as records (``OptionsFormat``, ``ListFormat``);
- ``players``: the statistics file's players list (20 names, newest on top, 8 characters);
- ``storage``: where the bytes go (a directory, written atomically, or localStorage),
  repair without a gap, reads that never block; ``lock``: one copy at a time;
- ``session``: one run's files: read with recovery, write, notices, memory-only mode;
- ``ginrummy``: GinRummy's records and the ``Store`` the Main unit uses.

docs/files.md states the promises (crash, two copies, full disk, read-only directory,
NODISK, browser) and how each is tested. The names below are what the Main unit and the
tests use; ``from port.files import Store`` is the usual way in.
"""
from __future__ import annotations

from port.files.ginrummy import (
    BOX_BONUSES, CFG, CFG_FORMAT, DOUBLER_SUITS, GAME, MAX_SCORES, NAMES, POINTERS, SCORINGS,
    SCR, SCR_FORMAT, STA, STA_FORMAT, TABLE_RULES,
    Config, GameRecord, HighScore, PlayerStats, Recorded, Result, Store, backend_for,
    config_lines, format_stats, read_stats, result_of, score_from, score_line, stats_from,
    stats_line,
)
from port.files.players import DEFAULT_NAME, MAX_PLAYERS, NAME_MAX, clean_name
from port.files.records import MAX_FILE, FileError, Unpacked, crc, pack, unpack
from port.files.session import Files
from port.files.storage import Backend, DiskBackend, LocalStorageBackend

__all__ = [
    "BOX_BONUSES", "Backend", "CFG", "CFG_FORMAT", "Config", "DEFAULT_NAME", "DOUBLER_SUITS",
    "DiskBackend", "FileError", "SCORINGS", "TABLE_RULES",
    "Files", "GAME", "GameRecord", "HighScore", "LocalStorageBackend", "MAX_FILE",
    "MAX_PLAYERS", "MAX_SCORES", "NAMES", "NAME_MAX", "POINTERS", "PlayerStats", "Recorded",
    "Result", "SCR", "SCR_FORMAT", "STA", "STA_FORMAT", "Store", "Unpacked", "backend_for",
    "clean_name", "config_lines", "crc", "format_stats", "pack", "read_stats", "result_of",
    "score_from", "score_line", "stats_from", "stats_line", "unpack",
]
