"""The web page's transport (``port.client.BrowserTransport``) run for real: Pyodide
from npm under Node, the room's client inside it with its default transport, against a
real room and a real room bot. The page logs in as a guest, reads the lobby, negotiates
an invitation, plays GinRummy, loses its connection twice (its socket closed; the room
killed and started again) and plays on, then resigns (tests/web/driver.py).

Skipped, in one line, without node or the npm packages (``scripts/node_deps.sh``
installs them outside the checkout; ``.ci/run`` runs it)."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.room.helpers import ROOT, BotProcess, RoomProcess

# Where scripts/node_deps.sh installs (the same rule as there).
NODE_DIR = Path(os.environ.get("GINRUMMY_NODE_DIR")
                or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ginrummy-port" / "node")
MODULES = NODE_DIR / "node_modules"
SCRIPT = ROOT / "tests" / "web" / "web_transport_check.mjs"
SKIP = "node or Pyodide from npm is not installed (scripts/node_deps.sh installs it); the web transport test is skipped"


def _node() -> list[str]:
    """node, with its own WebSocket where that needs a flag (Node 20); else the script takes ws's."""
    node = shutil.which("node")
    if node is None or not (MODULES / "pyodide" / "pyodide.mjs").exists():
        pytest.skip(SKIP)
    flag = subprocess.run([node, "--experimental-websocket", "-e", "0"], capture_output=True, timeout=30)
    return [node, "--experimental-websocket"] if flag.returncode == 0 else [node]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_page(rooms: list[RoomProcess], bot: str, log: Path) -> dict[str, Any]:
    """Run the page against the last of ``rooms``; when it asks, kill that room and start
    it again on its port (appended to ``rooms``). Gives the page's summary."""
    with open(log, "w") as err:
        proc = subprocess.Popen([*_node(), str(SCRIPT), str(MODULES), rooms[-1].url, bot, str(_free_port())],
                                stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
        assert proc.stdout is not None
        last: dict[str, Any] = {}
        try:
            for line in proc.stdout:                 # the script gives up by itself after 60 s
                if not line.startswith("{"):
                    continue
                last = json.loads(line)
                if last.get("ask") == "restart":
                    rooms[-1].kill()
                    rooms.append(RoomProcess(rooms[-1].data, "--quiet", port=rooms[-1].port).start())
            proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert "summary" in last, f"the page stopped: {last}\n{log.read_text()[-3000:]}\n{rooms[-1].log()[-2000:]}"
    return last["summary"]


def test_the_web_transport_plays_in_pyodide_and_comes_back_after_drops(tmp_path: Path) -> None:
    _node()
    rooms = [RoomProcess(tmp_path / "room", "--quiet").start()]
    bot = BotProcess(rooms[0].url, "Stan", "--player", "standard", "--game", "ginrummy", "--accept", "score_limit=150",
                     "--quiet", cwd=tmp_path)
    try:
        s = _run_page(rooms, "Stan", tmp_path / "node.log")
    finally:
        bot.stop()
        for room in rooms:
            room.stop()

    # Under Pyodide, the client took the browser's WebSocket by itself.
    assert s["platform"] == "emscripten" and s["transport"] == "BrowserTransport"
    # No room, and a refused login: one line each, and not tried again.
    assert s["unreachable"].startswith("no room at ws://127.0.0.1:") and s["unreachable_status"] == "closed"
    assert s["refused"] == "there is no account Nobody: register it first"
    assert s["refused_after"] == {"status": "closed", "messages": []}
    # A guest, the lobby with the bot in it, the rules negotiated over two rounds.
    me = s["welcome"]["name"]
    assert me.startswith("Guest") and s["welcome"]["guest"] and s["welcome"]["token"]
    assert {"name": "Stan", "bot": True, "status": "free"} in s["lobby"]
    assert s["invitation"] == {"ours": {"round": 1, "proposer": me, "score_limit": 100},
                               "theirs": {"round": 2, "proposer": "Stan", "changed": ["score_limit"], "score_limit": 150},
                               "closed": "accepted"}
    assert s["start"] == {"players": [me, "Stan"], "seat": 0, "score_limit": 150}
    # Its own socket closed under it: "reconnecting", then the same session, the table
    # taken up at the next message; what the bot did meanwhile came once, by the sync.
    first, second = s["drops"]
    for drop in (first, second):
        assert drop["status"] == "reconnecting" and drop["reason"] == "the connection dropped"
        assert drop["same_name"] and drop["tables"] == [s["table"]]
    after = first["after"]
    assert after[0]["seq"] == first["last_seq_before"] + 1
    assert any(m["type"] == "event" and m["seat"] == 1 for m in after)       # the bot's moves, missed
    # The room killed and started again while the page held an ask: nothing said again,
    # and the ask it held was answered and taken.
    assert second["said_again"] == [] and second["held_seq"] == second["last_seq_before"]
    assert second["held_taken_seq"] == second["last_seq_before"] + 1
    # Every message of the table once, none missing, across both drops.
    assert s["seqs"] == list(range(1, len(s["seqs"]) + 1))
    assert len(s["moves"]) >= 12
    assert s["game_end"] == {"how": "resigned", "winner": "Stan", "rated": False}
    assert s["statuses"] == ["closed", "connecting", "open", "reconnecting", "open", "reconnecting", "open", "closed"]
    assert s["after_close"] == [] and s["uncaught"] == []
