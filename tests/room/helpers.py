"""The room's test kit: a real server in a subprocess on a real port, real clients.

``RoomProcess`` runs ``python -m port.room`` (``--port 0``: any free port, read from
the line it prints) on a data directory; ``Client`` is a blocking WebSocket client
(websockets' own sync client) that keeps every message it got, for the tests to look
at; ``BotProcess`` runs ``python -m port.room.bot``.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


class RoomProcess:
    """``python -m port.room`` in a subprocess; ``url`` once it listens."""

    def __init__(self, data: Path, *args: str, port: int = 0, prefix: Sequence[str] = (),
                 preexec: Callable[[], None] | None = None) -> None:
        self.data, self.args, self.port = data, list(args), port
        self.prefix, self.preexec = list(prefix), preexec      # a command to run it under; a child's set-up
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.banner = ""                 # the line it printed when it started listening
        self.lines: list[str] = []       # its start-up lines: listening, pages, descriptors, house bots

    def start(self, timeout: float = 20.0) -> RoomProcess:
        self.data.mkdir(parents=True, exist_ok=True)
        log = open(self.data / "server.log", "a")
        self.proc = subprocess.Popen(
            [*self.prefix, sys.executable, "-m", "port.room", "--port", str(self.port), "--data", str(self.data),
             *self.args], stdout=subprocess.PIPE, stderr=log, text=True, env=ENV, cwd=self.data,
            preexec_fn=self.preexec)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("the room did not start: " + (self.data / "server.log").read_text()[-2000:])
        m = re.search(r"listening on (wss?://[\d.]+:(\d+))", line)
        assert m, line
        self.url, self.port = m.group(1), int(m.group(2))
        self.banner = line.strip()
        self.lines = [self.banner] + [self.proc.stdout.readline().strip() for _ in range(3)]
        assert time.monotonic() < deadline
        return self

    def kill(self) -> None:
        """``kill -9``: no goodbye, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return (self.data / "server.log").read_text()

    def __enter__(self) -> RoomProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Client:
    """One player's connection: send, and wait for what the room says."""

    def __init__(self, url: str, forwarded: str | None = None) -> None:
        """``forwarded``: the address a proxy says the client has (X-Forwarded-For)."""
        self.url = url
        headers = {"X-Forwarded-For": forwarded} if forwarded else None
        self.ws = connect(url, max_size=2**22, open_timeout=10, proxy=None, additional_headers=headers).__enter__()
        self.got: list[dict[str, Any]] = []       # every message, in order
        self.unread: list[dict[str, Any]] = []
        self.name = ""
        self.token = ""

    def send(self, kind: str, **fields: Any) -> None:
        self.ws.send(json.dumps({"v": 1, "type": kind, **fields}))

    def raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def _read(self, timeout: float) -> dict[str, Any] | None:
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        msg = json.loads(text)
        self.got.append(msg)
        return msg

    def wait(self, match: str | Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """The first message (unread ones first) that is of the type, or that the test
        accepts; the others stay unread."""
        test = (lambda m: m.get("type") == match) if isinstance(match, str) else match
        for i, m in enumerate(self.unread):
            if test(m):
                return self.unread.pop(i)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = self._read(max(0.01, deadline - time.monotonic()))
            if m is None:
                break
            if test(m):
                return m
            self.unread.append(m)
        raise AssertionError(f"{self.name or 'a client'} waited {timeout} s for {match}; "
                             f"unread: {[m.get('type') for m in self.unread][-12:]}")

    def drain(self, quiet: float = 0.2) -> list[dict[str, Any]]:
        """Everything said until the room is quiet for ``quiet`` seconds."""
        while self._read(quiet) is not None:
            self.unread.append(self.got[-1])
        out, self.unread = self.unread, []
        return out

    def answer(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """Send, and wait for the reply of that type or an error."""
        self.send(kind, **fields)
        return self.wait(lambda m: m.get("type") in (_REPLY.get(kind, kind), "error"), timeout)

    def enter(self, name: str, password: str = "pw", bot: bool = False) -> dict[str, Any]:
        """Log in, registering the name first if the room has no such account."""
        self.send("login", name=name, password=password)
        reply = self.wait(lambda m: m.get("type") in ("welcome", "error"))
        if reply["type"] == "error":
            self.send("register", name=name, password=password, bot=bot)
            reply = self.wait(lambda m: m.get("type") in ("welcome", "error"))
        assert reply["type"] == "welcome", reply
        self.name, self.token = reply["name"], reply["token"]
        self.wait("tables")
        return reply

    def close(self) -> None:
        self.ws.close()


_REPLY = {"ping": "pong", "login": "welcome", "register": "welcome", "guest": "welcome", "resume": "welcome",
          "game": "record", "mute": "muted", "invite": "invitation", "password": "password_changed",
          "logout": "bye", "seek": "seeking", "cancel_seek": "seek_closed", "block": "blocks", "unblock": "blocks"}


class BotProcess:
    """``python -m port.room.bot`` in a subprocess."""

    def __init__(self, url: str, name: str, *args: str, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "port.room.bot", "--room", url, "--name", name, "--password", "pw", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=cwd)

    def finish(self, timeout: float = 60.0) -> tuple[int, str, str]:
        try:
            out, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise AssertionError(f"the bot did not finish in {timeout} s:\n{out[-1500:]}\n{err[-1500:]}") from None
        return self.proc.returncode, out, err

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


def stream(messages: Sequence[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    """A table's numbered messages (its seat's stream), without the envelope."""
    return [{k: v for k, v in m.items() if k not in ("v", "table", "seq")}
            for m in messages if m.get("table") == table and "seq" in m]


def in_room(client: Client, name: str, timeout: float = 15.0) -> None:
    """Wait until ``name`` is in the lobby (a bot process logging in)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lobby = client.answer("lobby")
        if any(p["name"].lower() == name.lower() for p in lobby.get("players", [])):
            return
        time.sleep(0.1)
    raise AssertionError(f"{name} never came into the room")


def polled(sessions: Sequence[Any], until: Callable[[], bool], seconds: float = 15.0) -> None:
    """Poll each ``RoomSession`` as a page does, a frame at a time, until ``until()``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for s in sessions:
            s.poll()
        if until():
            return
        time.sleep(1 / 100)
    raise AssertionError("it never came")
