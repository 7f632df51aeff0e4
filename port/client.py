"""The card room's client, as a game's pages use it: one interface, polled once a frame.

A shared unit beside ``port.protocol`` (it knows no game). The pages of both programs
call ``send`` when the player does something and ``poll`` once a frame for what the
room said; nothing blocks a frame. Two transports carry the frames:

* ``ThreadTransport`` (the desktop): websockets' own client in a thread, queues between;
* ``BrowserTransport`` (the web page): the browser's WebSocket through Pyodide's ``js``
  module, whose callbacks only append to a list (pyxel's web runtime has no threads).

``RoomClient`` is the session on top: it logs in, keeps the session's token, and when
the connection drops it tries again in the background (0.5 s, doubling to 30 s),
resumes the session with the token and asks each table for what it missed (``sync``
from the last ``seq`` seen), so the position comes back exactly. A page reads
``status`` for its status line ("connecting...", "reconnecting...").
"""
from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from port.protocol import VERSION

BACKOFF_FIRST = 0.5
BACKOFF_MOST = 30.0


class Transport(Protocol):
    """Frames to and from one connection; ``poll`` never blocks."""

    def open(self, url: str) -> None: ...
    def send(self, text: str) -> None: ...
    def poll(self) -> list[tuple[str, str]]: ...     # ("open", ""), ("message", text), ("closed", why)
    def close(self) -> None: ...


class ThreadTransport:
    """The desktop's transport: a thread runs websockets' blocking client."""

    def __init__(self) -> None:
        self._in: queue.Queue[tuple[str, str]] = queue.Queue()
        self._out: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._ws: Any = None

    def open(self, url: str) -> None:
        self._out = queue.Queue()
        self._thread = threading.Thread(target=self._run, args=(url, self._out), daemon=True)
        self._thread.start()

    def _run(self, url: str, out: queue.Queue[str | None]) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidURI
        from websockets.sync.client import connect

        try:
            ws = connect(url, open_timeout=10, max_size=2**22).__enter__()
        except InvalidURI:
            self._in.put(("closed", f"{url} is not a room's address (ws://HOST:PORT)"))
            return
        except (OSError, TimeoutError) as exc:
            self._in.put(("closed", _why(exc, url)))
            return
        except Exception as exc:       # a handshake the room refused, a TLS failure
            self._in.put(("closed", f"no room at {url} ({type(exc).__name__})"))
            return
        self._ws = ws
        self._in.put(("open", ""))
        writer = threading.Thread(target=self._write, args=(ws, out), daemon=True)
        writer.start()
        try:
            for text in ws:
                self._in.put(("message", text if isinstance(text, str) else text.decode("utf-8", "replace")))
            self._in.put(("closed", "the room closed the connection"))
        except ConnectionClosed:
            self._in.put(("closed", "the connection dropped"))
        except OSError as exc:
            self._in.put(("closed", _why(exc, url)))
        finally:
            out.put(None)

    def _write(self, ws: Any, out: queue.Queue[str | None]) -> None:
        while True:
            text = out.get()
            if text is None:
                try:
                    ws.close()
                except Exception:
                    pass
                return
            try:
                ws.send(text)
            except Exception:
                return       # the reader says how it closed

    def send(self, text: str) -> None:
        self._out.put(text)

    def poll(self) -> list[tuple[str, str]]:
        got = []
        while True:
            try:
                got.append(self._in.get_nowait())
            except queue.Empty:
                return got

    def close(self) -> None:
        self._out.put(None)


class BrowserTransport:
    """The web page's transport: the browser's own WebSocket (Pyodide's ``js``)."""

    def __init__(self) -> None:
        self._got: list[tuple[str, str]] = []
        self._ws: Any = None
        self._keep: list[tuple[str, Any]] = []    # the socket's listeners, kept alive while it is ours

    def open(self, url: str) -> None:
        import js                                   # only in the browser
        from pyodide.ffi import create_proxy        # type: ignore[import-not-found]

        self.close()                                # a socket before this one: let go
        try:
            ws = js.WebSocket.new(url)
        except Exception:
            self._got.append(("closed", f"{url} is not a room's address (ws://HOST:PORT)"))
            return
        state = {"open": False, "ended": False}

        def opened(event: Any) -> None:
            state["open"] = True
            self._got.append(("open", ""))

        def message(event: Any) -> None:
            self._got.append(("message", str(event.data)))

        def ended(event: Any) -> None:
            # A socket that fails says "error" and then "close" (Node 20's own WebSocket
            # only "error" when nothing answers): the page hears of it once.
            if not state["ended"]:
                state["ended"] = True
                self._got.append(("closed", "the connection dropped" if state["open"] else f"no room at {url}"))

        self._ws = ws
        for name, call in (("open", opened), ("message", message), ("error", ended), ("close", ended)):
            proxy = create_proxy(call)
            ws.addEventListener(name, proxy)
            self._keep.append((name, proxy))

    def send(self, text: str) -> None:
        if self._ws is not None and self._ws.readyState == 1:
            self._ws.send(text)

    def poll(self) -> list[tuple[str, str]]:
        got, self._got = self._got, []
        return got

    def close(self) -> None:
        """Close the socket and let it go: its listeners are taken off before their
        proxies are freed (its close event would call a freed proxy, an uncaught
        "Object has already been destroyed" in the page), so nothing of it is heard again."""
        if self._ws is not None:
            self._ws.close()                        # closing a closed socket does nothing
        for name, proxy in self._keep:
            self._ws.removeEventListener(name, proxy)
            proxy.destroy()
        self._ws, self._keep = None, []


def default_transport() -> Transport:
    return BrowserTransport() if sys.platform == "emscripten" else ThreadTransport()


def _why(exc: BaseException, url: str) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return f"no room at {url}"
    if isinstance(exc, TimeoutError):
        return f"no answer from {url}"
    return f"no room at {url} ({getattr(exc, 'strerror', None) or exc})"


class RoomClient:
    """A player's session with the room, polled once a frame.

    ``login(name, password)`` (``password`` None: a guest) opens the connection and logs
    in; ``poll()`` gives the room's messages (dicts) since the last call, and on a drop
    the client says ``{"type": "reconnecting", ...}`` and tries again on its own, in the
    background, until ``close()``. A login the room refuses is given as its ``error``
    and not retried (a wrong password is not a dropped line).
    """

    def __init__(self, url: str, transport: Transport | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.transport = transport or default_transport()
        self.clock = clock
        self.status = "closed"            # connecting, open, reconnecting, closed
        self.name = ""
        self.token: str | None = None
        self.seqs: dict[str, int] = {}    # table -> the last seq seen
        self._login: dict[str, Any] | None = None
        self._retry_at: float | None = None
        self._delay = BACKOFF_FIRST
        self._welcomed = False
        self._shut = False                # close() was called: nothing more is heard

    # what a page calls
    def login(self, name: str, password: str | None) -> None:
        self._login = ({"type": "guest"} if password is None
                       else {"type": "login", "name": name, "password": password})
        self._connect()

    def register(self, name: str, password: str) -> None:
        self._login = {"type": "register", "name": name, "password": password}
        self._connect()

    def resume(self, token: str) -> None:
        """Come back to a session kept from before (the program or the page restarted)."""
        self._login = {"type": "resume", "token": token}
        self._connect()

    def send(self, kind: str, **fields: Any) -> None:
        self.transport.send(json.dumps({"v": VERSION, "type": kind, **fields}))

    def close(self) -> None:
        """The page is done with the session: no retry, and nothing more is heard (what
        the transport's thread still reads before the socket closes is dropped)."""
        self.status = "closed"
        self._retry_at = None
        self._shut = True
        self.transport.close()

    def poll(self) -> list[dict[str, Any]]:
        if self._shut:
            self.transport.poll()
            return []
        out: list[dict[str, Any]] = []
        for kind, text in self.transport.poll():
            if kind == "open":
                self._opened()
            elif kind == "message":
                msg = self._read(text)
                if msg is not None:
                    out.append(msg)
            elif self.status != "closed":
                out.append(self._dropped(text))
        if self._retry_at is not None and self.clock() >= self._retry_at:
            self._retry_at = None
            self._connect(again=True)
        return out

    # the session underneath
    def _connect(self, again: bool = False) -> None:
        self._shut = False
        self.status = "reconnecting" if again else "connecting"
        self.transport.open(self.url)

    def _opened(self) -> None:
        if self.token is not None and self._welcomed:
            self.send("resume", token=self.token)
        elif self._login is not None:
            self.transport.send(json.dumps({"v": VERSION, **self._login}))

    def _read(self, text: str) -> dict[str, Any] | None:
        try:
            msg = json.loads(text)
        except ValueError:
            return None
        if not isinstance(msg, dict):
            return None
        kind = msg.get("type")
        if kind == "welcome":
            self.status, self._delay = "open", BACKOFF_FIRST
            self.name, self.token, self._welcomed = msg.get("name", ""), msg.get("token"), True
        elif kind == "tables":
            for t in msg.get("tables", []):
                if not t.get("over") and t.get("seat") is not None:
                    self.send("sync", table=t["table"], since=self.seqs.get(t["table"], 0))
        elif "seq" in msg and isinstance(msg.get("table"), str):
            last = self.seqs.get(msg["table"], 0)
            if msg["seq"] <= last:
                return None                         # said again by a sync: seen already
            self.seqs[msg["table"]] = msg["seq"]
        elif kind == "error" and not self._welcomed and msg.get("refused") in ("login", "register", "guest", "resume",
                                                                                "connection"):
            self.status = "closed"                  # refused: the page says why; no retry
            self.transport.close()
        return msg

    def _dropped(self, why: str) -> dict[str, Any]:
        if not self._welcomed:
            self.status = "closed"                  # never got in: say why, once
            return {"type": "unreachable", "reason": why}
        self.status = "reconnecting"
        self._retry_at = self.clock() + self._delay
        self._delay = min(self._delay * 2, BACKOFF_MOST)
        return {"type": "reconnecting", "reason": why, "seconds": self._retry_at - self.clock()}


__all__ = ["BrowserTransport", "RoomClient", "ThreadTransport", "Transport", "default_transport"]
