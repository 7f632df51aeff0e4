"""``cardroom`` on the command line: its refusals are one sentence and exit 2,
``--cert``/``--key`` serve the room over TLS (wss://), it says where its pages are and
finds them from any directory, what it makes is its owner's only, and ``cardroom
backup`` copies ROOM.DB while the room runs (README, "Hosting a room")."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.sync.client import connect

from port.room.store import SqliteStore
from tests.room.helpers import ENV, ROOT, Client, RoomProcess


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "port.room", *args], capture_output=True, text=True,
                          env=ENV, cwd=cwd, timeout=30)


def _one_sentence(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("cardroom: ") and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr


def test_refusals_are_one_sentence(tmp_path: Path) -> None:
    _one_sentence(_run("--port", "70000"), "a port is 0 to 65535, not 70000")
    _one_sentence(_run("--data", str(tmp_path / "missing" / "room")), "does not exist")
    _one_sentence(_run("--trusted-proxy", "nginx"), "--trusted-proxy: 'nginx' is not an address or a network")
    _one_sentence(_run("backup", str(tmp_path / "copy.db"), "--data", str(tmp_path)), "there is no ROOM.DB in")
    _one_sentence(_run("--cert", "x.pem"), "TLS needs both --cert and --key")
    _one_sentence(_run("--clock", "-5"), "the move clock is 0 (none) to 3600 seconds")
    _one_sentence(_run("--colour", "red"), "unrecognized arguments: --colour red")
    (tmp_path / "ROOM.DB").write_bytes(b"this is not a database at all" * 100)
    _one_sentence(_run("--data", str(tmp_path), "--port", "0"), "ROOM.DB")
    _one_sentence(_run("--redis", "redis://127.0.0.1:1/0", "--port", "0"), "cannot reach Redis at redis://127.0.0.1:1/0")
    _one_sentence(_run("--cert", str(tmp_path / "none.pem"), "--key", str(tmp_path / "none.key"), "--port", "0",
                       "--data", str(tmp_path)), "cannot use the certificate")


def test_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        (tmp_path / "d").mkdir()
        _one_sentence(_run("--port", str(port), "--data", str(tmp_path / "d")), f"cannot listen on 127.0.0.1 port {port}")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed; the TLS test is skipped")
def test_tls_with_cert_and_key(tmp_path: Path) -> None:
    cert, key = tmp_path / "room.pem", tmp_path / "room.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True, timeout=60)
    with RoomProcess(tmp_path / "room", "--cert", str(cert), "--key", str(key)) as room:
        assert room.url.startswith("wss://")
        trust = ssl.create_default_context(cafile=str(cert))
        with connect(room.url, ssl=trust, proxy=None) as ws:
            ws.send('{"v":1,"type":"ping","t":3}')
            assert ws.recv(timeout=5) == '{"v":1,"type":"pong","t":3}'
        with pytest.raises(Exception):                  # plain ws:// gets nothing from a TLS room
            Client(room.url.replace("wss://", "ws://")).answer("ping", timeout=2)


def test_the_built_pages_are_served_on_the_rooms_port(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    pages = tmp_path / "dist"
    pages.mkdir()
    (pages / "ginrummy.html").write_text("<html>GinRummy's page</html>")
    (tmp_path / "secret.txt").write_text("not for the web")
    with RoomProcess(tmp_path / "room", "--pages", str(pages)) as room:
        http = room.url.replace("ws://", "http://")
        assert room.lines[1] == f"cardroom: pages: {http}/ (ginrummy.html)"
        with urllib.request.urlopen(http + "/ginrummy.html", timeout=5) as page:
            assert page.status == 200 and page.read() == b"<html>GinRummy's page</html>"
        with urllib.request.urlopen(http + "/", timeout=5) as index:
            text = index.read().decode()
            assert "href='ginrummy.html'" in text and "href='cribbage.html'" not in text
        for path in ("/cribbage.html", "/../secret.txt", "/%2e%2e/secret.txt", "/ROOM.DB"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(http + path, timeout=5)
            assert refused.value.code == 404
            refused.value.close()
        client = Client(room.url)
        assert client.answer("ping", t=1)["type"] == "pong"      # the room on the same port
        client.close()


def test_it_finds_the_checkouts_pages_from_anywhere_and_keeps_its_files_private(tmp_path: Path) -> None:
    """Started in another directory, without --pages, it looks in the checkout's dist;
    the data directory it makes is 0700, and ROOM.DB with its -wal and -shm 0600."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = tmp_path / "fresh"
    proc = subprocess.Popen([sys.executable, "-m", "port.room", "--port", "0", "--data", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=elsewhere)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().strip() for _ in range(3)]
        port = lines[0].split(":")[-1].split(" ")[0]
        built = [p for p in ("ginrummy.html", "cribbage.html") if (ROOT / "dist" / p).is_file()]
        assert lines[1] == (f"cardroom: pages: http://127.0.0.1:{port}/ ({', '.join(built)})" if built else
                            f"cardroom: no pages: run scripts/build_web.sh (looked in {ROOT / 'dist'})")
        assert lines[2].startswith("cardroom: descriptors: ") and "16 connections an address" in lines[2]
        modes = {p.name: p.stat().st_mode & 0o777 for p in data.iterdir()}
        assert data.stat().st_mode & 0o777 == 0o700
        assert modes == {"ROOM.DB": 0o600, "ROOM.DB-wal": 0o600, "ROOM.DB-shm": 0o600}
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_a_backup_of_a_running_room(tmp_path: Path) -> None:
    with RoomProcess(tmp_path / "room") as room:
        ann, bob = Client(room.url), Client(room.url)
        ann.enter("Ann")
        bob.enter("Bob")
        ann.answer("invite", to="Bob", game="ginrummy", clock=0)
        bob.send("accept", id=bob.wait("invitation")["id"])
        table = ann.wait("start")["table"]
        ann.send("move", table=table, move={"act": "stock"})
        ann.wait(lambda m: m.get("type") == "ask" and m["decision"] == "discard")
        done = _run("backup", str(tmp_path / "monday.db"), "--data", str(room.data), cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert done.stdout == (f"cardroom: backed up {room.data / 'ROOM.DB'} to {tmp_path / 'monday.db'} "
                               "(5 accounts, 0 finished games, 1 running tables)\n")    # and the 3 house bots
        assert ann.answer("ping", t=1)["type"] == "pong"                 # the room went on meanwhile
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("monday")) == ["monday.db"]
    assert (tmp_path / "monday.db").stat().st_mode & 0o777 == 0o600
    copy = SqliteStore(tmp_path / "monday.db")
    try:
        assert copy.account("Ann") is not None and copy.account("Bob") is not None
        row = copy.table(table)
        assert row is not None and row.players == ("Ann", "Bob")
        assert row.moves == ({"seat": 0, "move": {"act": "stock"}},)
    finally:
        copy.close()
