"""``cardroom``: the card room's server on a port (``python -m port.room``).

    cardroom                                  ws://127.0.0.1:7300, ROOM.DB in this directory
    cardroom --port 7400 --data /srv/room     another port, the store elsewhere
    cardroom --redis redis://127.0.0.1:6379/0 one of several processes sharing one Redis
    cardroom --cert room.pem --key room.key   wss:// (TLS) without a proxy

Every refusal is one sentence and exit code 2 (a port in use, a data directory that
cannot be written, a store that is not the room's, a Redis that does not answer).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import ssl
import sys
from pathlib import Path

from port.protocol import MAX_BYTES

PROG = "cardroom"
STORE_FILE = "ROOM.DB"
FRAME_MAX = 64 * MAX_BYTES   # frames past this are closed by websockets itself (1009); past MAX_BYTES, refused
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:   # one sentence, as every refusal
        print(f"{PROG}: {message} (cardroom --help lists the options)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="The card room: people and bots play GinRummy and Cribbage.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=7300, help="the port (default 7300; 0: any free one, printed)")
    p.add_argument("--data", default=".", help="the directory of ROOM.DB (default: the current one, "
                                               "where the games keep their files)")
    p.add_argument("--redis", metavar="URL", help="share presence, invitations and tables with other "
                                                  "processes on this Redis (redis://HOST:PORT/DB)")
    p.add_argument("--cert", help="TLS certificate (PEM): serve wss://")
    p.add_argument("--key", help="TLS private key (PEM), with --cert")
    p.add_argument("--clock", type=int, default=60, help="the move clock an invitation starts with (seconds)")
    p.add_argument("--grace", type=float, default=120.0, help="seconds a dropped player has to come back")
    p.add_argument("--invite-time", type=float, default=120.0,
                   help="seconds an invitation (each round of it) waits for its answer")
    p.add_argument("--lease", type=float, default=4.0,
                   help="with --redis: seconds a process's heartbeat lives unless beaten again (another "
                        "process takes its tables over once it has run out)")
    p.add_argument("--pages", default="dist", metavar="DIR",
                   help="where scripts/build_web.sh put ginrummy.html and cribbage.html: served over "
                        "HTTP on the room's own port when they are there (default: dist)")
    p.add_argument("--quiet", action="store_true", help="log only faults")
    return p


def _fail(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        _fail(f"a port is 0 to 65535, not {args.port}")
    if (args.cert is None) != (args.key is None):
        _fail("TLS needs both --cert and --key")
    if not 0 <= args.clock <= 3600:
        _fail(f"the move clock is 0 (none) to 3600 seconds, not {args.clock}")
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s cardroom %(levelname)s %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        pass
    return 0


def _store(args: argparse.Namespace):   # -> (Store, Hub)
    from port.room.hub import LocalHub
    from port.room.redishub import RedisHub
    from port.room.store import SqliteStore, StoreError

    try:
        if args.redis:
            from port.room.redisstore import RedisStore

            store = RedisStore(args.redis)
            return store, RedisHub(store, args.redis, table_ttl=args.lease)
        data = Path(args.data)
        if not data.is_dir():
            _fail(f"the data directory {args.data} does not exist")
        return SqliteStore(data / STORE_FILE), LocalHub()
    except StoreError as exc:
        _fail(str(exc).rstrip("."))
        raise


def _tls(args: argparse.Namespace) -> ssl.SSLContext | None:
    if args.cert is None:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(args.cert, args.key)
    except (OSError, ssl.SSLError) as exc:
        _fail(f"cannot use the certificate {args.cert} with the key {args.key} ({getattr(exc, 'strerror', None) or exc})")
    return context


PAGES = ("ginrummy.html", "cribbage.html")
GC_THRESHOLDS = (10_000, 10, 10_000)


def quiet_collector() -> None:
    """Python's full (generation 2) collection walks every object the room holds: at
    1,000 tables that stopped every table for up to 400 ms, the whole p99
    (docs/room-bench.md). The room makes few cycles (its tables are trees of values,
    freed by reference counting), so what is there at start is frozen out of the
    collector's sight and the full collection all but never runs; the young
    generations are still collected."""
    import gc

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pages(folder: Path):   # -> websockets' process_request
    """The web pages of both games, served over plain HTTP on the room's own port, so a
    browser player needs nothing but the room's address. Only these two names are
    served, read from ``folder``: nothing a client sends becomes a path."""
    def answer(connection, request):   # noqa: ANN001 - websockets' own types
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None                      # the room itself
        name = request.path.split("?", 1)[0].lstrip("/")
        if name in ("", "index.html"):
            built = [p for p in PAGES if (folder / p).is_file()]
            links = "".join(f'<p><a href="{p}">{p.split(".")[0].upper()}</a></p>' for p in built) or \
                "<p>No page is built here: scripts/build_web.sh builds them.</p>"
            body = (f"<!doctype html><title>Card room</title><body style='background:#000;color:#aaa;"
                    f"font-family:monospace'><h1 style='color:#f55'>CARD ROOM</h1>{links}</body>").encode()
            return _page(body)
        if name in PAGES and (folder / name).is_file():
            return _page((folder / name).read_bytes())
        return connection.respond(404, "There is no such page here.\n")
    return answer


def _page(body: bytes):   # -> websockets.http11.Response
    """A page, its length said (else the browser waits for the connection to close)."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    return Response(200, "OK", Headers({"Content-Type": "text/html; charset=utf-8",
                                        "Content-Length": str(len(body)), "Connection": "close"}), body)


async def _serve(args: argparse.Namespace) -> None:
    from websockets.asyncio.server import serve

    from port.room.server import Room

    tls = _tls(args)
    store, hub = _store(args)
    room = Room(store, hub, grace=args.grace, clock_default=args.clock, invite_ttl=args.invite_time)
    await room.start()
    quiet_collector()
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    try:
        server = await serve(room.handler, args.host, args.port, max_size=FRAME_MAX, ssl=tls,
                             process_request=pages(Path(args.pages)))
    except OSError as exc:
        await room.stop()
        _fail(f"cannot listen on {args.host} port {args.port} ({exc.strerror or exc})")
        return
    port = server.sockets[0].getsockname()[1]
    scheme = "wss" if tls else "ws"
    where = f"Redis {args.redis}" if args.redis else str(Path(args.data).resolve() / STORE_FILE)
    print(f"cardroom: listening on {scheme}://{args.host}:{port} ({where}; {len(room.tables)} tables resumed)",
          flush=True)
    async with server:
        await stop
    await room.stop()
    store.close()
