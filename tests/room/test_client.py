"""The client the game pages will use (``port.client``): polled once a frame, it logs
in, says in one line why it could not, and after a drop reconnects on its own,
resumes the session and takes up each table from the last message it saw."""
from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

from port.client import RoomClient
from tests.room.helpers import Client, RoomProcess


def _frames(client: RoomClient, until: Any, seconds: float = 10.0) -> list[dict[str, Any]]:
    """Poll as a page does, a frame at a time, until a message ``until`` accepts."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        new = client.poll()
        got += new
        if any(until(m) for m in new):
            return got
        time.sleep(1 / 60)
    raise AssertionError(f"never came: {[m.get('type') for m in got]}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_no_room_and_a_wrong_password_are_one_line_each(tmp_path: Path) -> None:
    c = RoomClient(f"ws://127.0.0.1:{_free_port()}")
    c.login("Ann", "pw")
    got = _frames(c, lambda m: m["type"] == "unreachable")
    assert got[-1]["reason"].startswith("no room at ws://127.0.0.1:") and c.status == "closed"
    with RoomProcess(tmp_path / "room") as room:
        Client(room.url).enter("Ann", "right")
        c = RoomClient(room.url)
        c.login("Ann", "wrong")
        got = _frames(c, lambda m: m["type"] == "error")
        assert got[-1]["reason"] == "wrong password for Ann" and c.status == "closed"
        time.sleep(0.6)
        assert c.poll() == [] and c.status == "closed"          # not tried again


def test_a_dropped_room_is_reconnected_and_the_tables_taken_up(tmp_path: Path) -> None:
    port = _free_port()
    room = RoomProcess(tmp_path / "room", port=port).start()
    try:
        bob = Client(room.url)
        bob.enter("Bob")
        ann = RoomClient(room.url)
        ann.register("Ann", "pw")
        _frames(ann, lambda m: m["type"] == "tables")
        bob.send("invite", to="Ann", game="cribbage", rules={"limit": 61}, clock=0)
        inv = _frames(ann, lambda m: m["type"] == "invitation")[-1]
        ann.send("accept", id=inv["id"])
        got = _frames(ann, lambda m: m.get("type") == "deal")      # the start, then the deal
        table = next(m for m in got if m["type"] == "start")["table"]
        seq = ann.seqs[table]
        room.kill()
        dropped = _frames(ann, lambda m: m["type"] == "reconnecting")
        assert ann.status == "reconnecting" and dropped[-1]["reason"]
        room = RoomProcess(tmp_path / "room", port=port).start()
        back = _frames(ann, lambda m: m["type"] == "tables", seconds=20)
        welcome = next(m for m in back if m["type"] == "welcome")
        assert welcome["name"] == "Ann" and ann.status == "open"
        assert [t["table"] for t in back[-1]["tables"]] == [table]
        # The client asked for what it missed (sync from its last seq): nothing twice.
        ann.send("sync", table=table, since=0)
        time.sleep(0.5)
        again = [m for m in ann.poll() if m.get("table") == table and "seq" in m]
        assert again == [] and ann.seqs[table] == seq
        numbered = [m["seq"] for m in got if m.get("table") == table and "seq" in m]
        assert numbered == list(range(1, seq + 1))
    finally:
        room.stop()
