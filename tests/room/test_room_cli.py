"""``cardroom`` on the command line: its refusals are one sentence and exit 2, and
``--cert``/``--key`` serve the room over TLS (wss://)."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.room.helpers import ENV, Client, RoomProcess


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "port.room", *args], capture_output=True, text=True,
                          env=ENV, cwd=cwd, timeout=30)


def _one_sentence(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("cardroom: ") and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr


def test_refusals_are_one_sentence(tmp_path: Path) -> None:
    _one_sentence(_run("--port", "70000"), "a port is 0 to 65535, not 70000")
    _one_sentence(_run("--data", str(tmp_path / "missing")), "does not exist")
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
