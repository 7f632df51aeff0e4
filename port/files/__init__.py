"""The Files unit's mechanism, shared by both games: keeping every file safe. Plain
Python: nothing here imports pyxel, and nothing here knows either game.

One mechanism for every file of both games, a game's formats plugged into it:

- ``records``: the byte layout (a CRC per record and per file) and bounded field readers;
- ``formats``: an options file and a list file as records (``OptionsFormat``, ``ListFormat``);
- ``players``: the statistics file's players list (20 names, newest on top, 8 characters);
- ``storage``: where the bytes go (a directory, written atomically, or localStorage),
  repair without a gap, reads that never block; ``lock``: one copy at a time;
- ``session``: one run's files: read with recovery, write, notices, memory-only mode.

Each game's own files are in its package: ``port.ginrummy.files`` (GINRUMMY.CFG, .STA,
.SCR and the ``Store``), ``port.cribbage.files`` (CRIBBAGE.CFG, .STA and the
``CribStore``). docs/files.md states the promises (crash, two copies, full disk,
read-only directory, NODISK, browser) and how each is tested.
"""
from __future__ import annotations

from port.files.players import DEFAULT_NAME, MAX_PLAYERS, NAME_MAX, clean_name
from port.files.records import MAX_FILE, FileError, Unpacked, crc, pack, unpack
from port.files.session import Files
from port.files.storage import Backend, DiskBackend, LocalStorageBackend

__all__ = [
    "Backend", "DEFAULT_NAME", "DiskBackend", "FileError", "Files", "LocalStorageBackend",
    "MAX_FILE", "MAX_PLAYERS", "NAME_MAX", "Unpacked", "clean_name", "crc", "pack", "unpack",
]
