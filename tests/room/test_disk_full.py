"""A full disk under a running room (issue 37, item 7): the move is kept, both seats are
told the disk is full, and the game goes on when there is space again.

The disk is real: the room's data directory is a small tmpfs mounted in a user and
mount namespace of the room's own (``unshare --user --map-root-user --mount``, which
needs no root where the kernel lets users make namespaces), and the test fills it up
and empties it through the room's own view of it (``/proc/PID/cwd``). So the room meets
the kernel's ENOSPC, which SQLite turns into SQLITE_FULL, exactly as on a full disk.
(``PRAGMA max_page_count`` also makes SQLITE_FULL, without a mount, but only for a
connection that sets it: tests/room/test_store.py uses it for the store alone.) Where
namespaces cannot be made the test is skipped, in one line.
"""
from __future__ import annotations

import errno
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.room.helpers import Client, RoomProcess

FULL = "the room's disk is full: the game waits until there is space (nothing is lost)"


def _mounts(folder: Path) -> list[str] | None:
    """The command that runs the rest of a command line on a 4 MB tmpfs at ``folder``
    (its current directory), or None where that cannot be done here."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    where = shlex.quote(str(folder))
    script = f'mount -t tmpfs -o size=4m tmpfs {where} && cd {where} && exec "$@"'
    wrap = [unshare, "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh"]
    folder.mkdir(parents=True, exist_ok=True)
    tried = subprocess.run([*wrap, "true"], capture_output=True, timeout=10)
    return wrap if tried.returncode == 0 else None


def fill(path: Path) -> None:
    """Write zeros until the disk has no byte left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    chunk = 1 << 20
    try:
        while chunk >= 512:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                chunk //= 2
    finally:
        os.close(fd)


def test_a_full_disk_stalls_the_table_tells_both_and_the_game_goes_on(tmp_path: Path) -> None:
    data = tmp_path / "room"
    wrap = _mounts(data)
    if wrap is None:
        pytest.skip("no user and mount namespaces here (unshare): the full-disk test is skipped")
    with RoomProcess(data, prefix=wrap) as room:
        disk = Path(f"/proc/{room.proc.pid}/cwd")          # the room's tmpfs, as the room sees it
        ann, bob = Client(room.url), Client(room.url)
        ann.enter("Ann")
        bob.enter("Bob")
        ann.answer("invite", to="Bob", game="ginrummy", clock=30)
        bob.send("accept", id=bob.wait("invitation")["id"])
        table = ann.wait("start")["table"]
        ann.wait(lambda m: m.get("type") == "ask" and m["decision"] == "draw")

        fill(disk / "filler")
        ann.send("move", table=table, move={"act": "stock"})
        for c in (ann, bob):                                   # both told, once
            assert c.wait("stalled") == {"v": 1, "type": "stalled", "table": table, "reason": FULL}
        assert not [m for m in ann.drain(0.5) if m["type"] in ("error", "event", "ask", "stalled")]
        (disk / "filler").unlink()
        for c in (ann, bob):
            assert c.wait("stall_over", timeout=5)["table"] == table
        ask = ann.wait(lambda m: m.get("type") == "ask" and m["decision"] == "discard")    # the move was kept
        assert bob.wait(lambda m: m.get("type") == "event")["event"]["act"] == "draw stock"
        ann.send("move", table=table, move={"act": "discard", "card": ask["view"]["hand"][0]})
        bob.wait(lambda m: m.get("type") == "ask" and m["decision"] == "draw")

        fill(disk / "filler")                                  # the game's end waits the same way
        bob.send("resign", table=table)
        assert ann.wait("stalled")["reason"] == FULL
        assert not [m for m in ann.drain(0.5) if m["type"] == "game_end"]
        (disk / "filler").unlink()
        end = ann.wait("game_end", timeout=5)
        assert (end["how"], end["winner"]) == ("resigned", "Ann")
        assert end["unrated"] == "Bob made no move: an aborted game is not rated"
        assert ann.answer("games")["games"][0]["result"]["how"] == "resigned"
        log = room.log()
        assert log.count("the game waits until there is space") == 2 and "Traceback" not in log, log[-2000:]
