"""``cardroom``: the card room's server on a port (``python -m port.room``).

    cardroom                                  ws://127.0.0.1:7300, ROOM.DB in this directory
    cardroom --port 7400 --data /srv/room     another port, the store elsewhere
    cardroom --redis redis://127.0.0.1:6379/0 one of several processes sharing one Redis
    cardroom --cert room.pem --key room.key   wss:// (TLS) without a proxy
    cardroom --trusted-proxy 127.0.0.1        behind nginx: the client's address from X-Forwarded-For
    cardroom --house-bots expert              only House Expert (none: no house bots)
    cardroom backup /backups/room-monday.db   a copy of ROOM.DB, taken while the room runs

Every refusal is one sentence and exit code 2 (a port in use, a data directory that
cannot be written, a store that is not the room's, a Redis that does not answer).
What the room makes (the data directory, ROOM.DB, a backup) is its owner's only: the
room runs with the umask 077 (ROOM.DB holds the password hashes).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sqlite3
import ssl
import sys
from pathlib import Path

from port.protocol import MAX_BYTES
from port.room.limits import (CONNECTIONS_PER_ADDRESS, GUESTS_PER_ADDRESS, HOUSE_TABLES, HOUSE_TABLES_PER_PLAYER,
                              LOGIN_WITHIN, SEEK_WAIT)

PROG = "cardroom"
STORE_FILE = "ROOM.DB"
CHECKOUT = Path(__file__).resolve().parents[2]       # where scripts/build_web.sh puts dist/
PRIVATE = 0o077                                      # the umask: what the room makes is its owner's
FRAME_MAX = 64 * MAX_BYTES   # frames past this are closed by websockets itself (1009); past MAX_BYTES, refused
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:   # one sentence, as every refusal
        print(f"{PROG}: {message} (cardroom --help lists the options)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="The card room: people and bots play GinRummy and Cribbage.",
                epilog="cardroom backup FILE [--data DIR] copies ROOM.DB while the room runs.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=7300, help="the port (default 7300; 0: any free one, printed)")
    p.add_argument("--data", default=".", help="the directory of ROOM.DB (default: the current one, "
                                               "where the games keep their files)")
    p.add_argument("--redis", metavar="URL", help="share presence, invitations and tables with other "
                                                  "processes on this Redis (redis://HOST:PORT/DB)")
    p.add_argument("--cert", help="TLS certificate (PEM): serve wss://")
    p.add_argument("--key", help="TLS private key (PEM), with --cert")
    p.add_argument("--clock", type=int, default=60, help="the move clock an invitation starts with (seconds)")
    p.add_argument("--shown-wait", type=float, default=30.0,
                   help="seconds a person's move clock waits for the screen to say the question is shown "
                        "before it runs anyway (default 30)")
    p.add_argument("--grace", type=float, default=120.0, help="seconds a dropped player has to come back")
    p.add_argument("--invite-time", type=float, default=120.0,
                   help="seconds an invitation (each round of it) waits for its answer")
    p.add_argument("--lease", type=float, default=4.0,
                   help="with --redis: seconds a process's heartbeat lives unless beaten again (another "
                        "process takes its tables over once it has run out)")
    p.add_argument("--pages", metavar="DIR",
                   help="where scripts/build_web.sh put ginrummy.html and cribbage.html: served over "
                        "HTTP on the room's own port when they are there, beside the room's own pages "
                        "(/, /top/GAME, /players/NAME, /games/N; default: the checkout's dist, whatever the current directory)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                   help="a reverse proxy (an address or a network; repeatable, or a comma list) whose "
                        "X-Forwarded-For gives the client's address; from anyone else that header is ignored")
    p.add_argument("--connections-per-address", type=int, default=CONNECTIONS_PER_ADDRESS, metavar="N",
                   help=f"open connections one address may have (default {CONNECTIONS_PER_ADDRESS}; 0: no limit)")
    p.add_argument("--guests-per-address", type=int, default=GUESTS_PER_ADDRESS, metavar="N",
                   help=f"new guests one address may make a minute (default {GUESTS_PER_ADDRESS}; 0: no limit, "
                        "nor of the room's new guests a second: for a benchmark)")
    p.add_argument("--login-time", type=float, default=LOGIN_WITHIN, metavar="SECONDS",
                   help=f"a connection not logged in within this long is closed (default {LOGIN_WITHIN:g})")
    p.add_argument("--house-bots", default="easy,standard,expert", metavar="LEVELS",
                   help="the room's own bot players, House Easy, House Standard, House Expert: any of easy, "
                        "standard, expert, comma-separated (default all three; none: no house bots)")
    p.add_argument("--seek-wait", type=float, default=SEEK_WAIT, metavar="SECONDS",
                   help=f"seconds PLAY NOW waits for a person before the house bot plays (default {SEEK_WAIT:g})")
    p.add_argument("--quiet", action="store_true", help="log only faults")
    return p


def _fail(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.umask(PRIVATE)
    if argv[:1] == ["backup"]:
        return backup(argv[1:])
    args = parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        _fail(f"a port is 0 to 65535, not {args.port}")
    if (args.cert is None) != (args.key is None):
        _fail("TLS needs both --cert and --key")
    if not 0 <= args.shown_wait <= 3600:
        _fail(f"--shown-wait is 0 to 3600 seconds, not {args.shown_wait:g}")
    if not 0 <= args.clock <= 3600:
        _fail(f"the move clock is 0 (none) to 3600 seconds, not {args.clock}")
    if args.connections_per_address < 0 or args.guests_per_address < 0:
        _fail("a limit per address is 0 (none) or more")
    if not 0 < args.login_time <= 3600:
        _fail(f"the time to log in is more than 0 and at most 3600 seconds, not {args.login_time:g}")
    if not 0 <= args.seek_wait <= 3600:
        _fail(f"--seek-wait is 0 to 3600 seconds, not {args.seek_wait:g}")
    from port.room.house import levels_of

    try:
        args.levels = levels_of(args.house_bots)
    except ValueError as exc:
        _fail(str(exc))
    from port.room.server import networks

    try:
        args.trusted = networks(args.trusted_proxy)
    except ValueError as exc:
        _fail(f"--trusted-proxy: {exc}")
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s cardroom %(levelname)s %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(_serve(args))
    except KeyboardInterrupt:
        pass
    return 0


def _loop_factory():   # -> a new event loop, or None (asyncio's own)
    """uvloop's event loop (libuv's, in C) where it is installed: a move's work in the
    loop's own machinery (its tasks, queues, sockets) costs about a third less
    (docs/room-bench.md); asyncio's own loop otherwise."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _store(args: argparse.Namespace):   # -> (Store, Hub)
    from port.room.hub import LocalHub
    from port.room.redishub import RedisHub
    from port.room.store import SqliteStore, StoreError

    try:
        if args.redis:
            from port.room.redisstore import RedisStore

            store = RedisStore(args.redis)
            return store, RedisHub(store, args.redis, table_ttl=args.lease)
        return SqliteStore(_data_directory(args.data) / STORE_FILE), LocalHub()
    except StoreError as exc:
        _fail(str(exc).rstrip("."))
        raise


def _data_directory(given: str) -> Path:
    """The data directory, made (0700, by the umask) if it is not there but its parent is."""
    data = Path(given)
    if not data.is_dir() and not data.exists() and data.parent.is_dir():
        try:
            data.mkdir()
        except OSError as exc:
            _fail(f"the data directory {given} cannot be made ({exc.strerror or exc})")
    if not data.is_dir():
        _fail(f"the data directory {given} does not exist")
    return data


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


def pages_folder(given: str | None) -> Path:
    """Where the pages are: the folder given (relative to the current directory, as any
    path on a command line), else the checkout's ``dist``, whatever the current
    directory (scripts/build_web.sh builds them there)."""
    return Path(given) if given is not None else CHECKOUT / "dist"


def pages_line(folder: Path, scheme: str, host: str, port: int) -> str:
    """The start-up line saying where the pages are (or how to build them)."""
    built = [p for p in PAGES if (folder / p).is_file()]
    if not built:
        return f"no pages: run scripts/build_web.sh (looked in {folder.resolve()})"
    return f"pages: {scheme}://{host}:{port}/ ({', '.join(built)})"


def limits_line(descriptors: tuple[int, int], per_address: int, login_time: float) -> str:
    """The start-up line of the connections' limits."""
    before, after = descriptors
    raised = f" (raised from {before})" if after > before else ""
    per = f"{per_address} connections an address" if per_address else "no limit of connections an address"
    return f"descriptors: {after}{raised}; {per}; a connection logs in within {login_time:g} s"


def house_line(names: list[str], seek_wait: float) -> str:
    """The start-up line of the house bots and PLAY NOW."""
    if not names:
        return "house bots: none; PLAY NOW waits for a person"
    return (f"house bots: {', '.join(names)} ({HOUSE_TABLES} tables each, {HOUSE_TABLES_PER_PLAYER} a player); "
            f"PLAY NOW falls back on them after {seek_wait:g} s")


def raise_descriptor_limit() -> tuple[int, int]:
    """The soft limit of open files raised to the hard one (each connection is one, and
    the usual soft 1,024 is reached by a thousand idle sockets): (before, after)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else [1 << 20, 1 << 16]
    for limit in wanted:
        if limit <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            break
        except (ValueError, OSError):
            continue
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def backup(argv: list[str]) -> int:
    """``cardroom backup FILE``: a copy of ROOM.DB by SQLite's online backup API, which
    reads one consistent state of the database while the room goes on writing it (the
    WAL lets a reader and the writer run together); the copy is one file of its own (no
    -wal), checked before it is said to be done, and is the owner's only (0600)."""
    p = _Parser(prog=f"{PROG} backup", description="Copy the room's database while the room runs.")
    p.add_argument("file", help="the copy to write (replaced if it is there)")
    p.add_argument("--data", default=".", help="the directory of ROOM.DB (default: the current one)")
    args = p.parse_args(argv)
    source, dest = Path(args.data) / STORE_FILE, Path(args.file)
    if not source.is_file():
        _fail(f"there is no {STORE_FILE} in {args.data}")
    if dest.exists() and dest.resolve() == source.resolve():
        _fail(f"the backup cannot be {STORE_FILE} itself")
    if not dest.parent.is_dir():
        _fail(f"the directory of {args.file} does not exist")
    partial = dest.with_name(f".{dest.name}.partial")
    try:
        counts = _copy(source, partial)
        os.replace(partial, dest)
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        _fail(f"the backup of {source} to {args.file} failed ({getattr(exc, 'strerror', None) or exc})")
    print(f"{PROG}: backed up {source.resolve()} to {dest} ({counts[0]} accounts, {counts[1]} finished games, "
          f"{counts[2]} running tables)")
    return 0


def _copy(source: Path, dest: Path) -> tuple[int, int, int]:
    """The online backup of ``source`` into a new file ``dest``: (accounts, games, tables)."""
    dest.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=10)
    out = sqlite3.connect(dest)
    try:
        src.backup(out)                      # in one step: one consistent snapshot
        out.execute("PRAGMA journal_mode = DELETE")         # one self-contained file
        if out.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("the copy does not check")
        return tuple(out.execute(f"SELECT count(*) FROM {t}").fetchone()[0]      # type: ignore[return-value]
                     for t in ("accounts", "games", "tables"))
    finally:
        out.close()
        src.close()
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


async def _serve(args: argparse.Namespace) -> None:
    from websockets.asyncio.server import serve

    from port.room.pages import Pages
    from port.room.server import Room

    tls = _tls(args)
    store, hub = _store(args)
    descriptors = raise_descriptor_limit()
    room = Room(store, hub, grace=args.grace, clock_default=args.clock, invite_ttl=args.invite_time,
                shown_wait=args.shown_wait, trusted=args.trusted_proxy, per_address=args.connections_per_address,
                login_within=args.login_time, guests_per_address=args.guests_per_address,
                house_levels=args.levels, seek_wait=args.seek_wait)
    await room.start()
    quiet_collector()
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    try:
        server = await serve(room.handler, args.host, args.port, max_size=FRAME_MAX, ssl=tls,
                             process_request=Pages(store, pages_folder(args.pages), room.hub.everyone).process_request)
    except OSError as exc:
        await room.stop()
        _fail(f"cannot listen on {args.host} port {args.port} ({exc.strerror or exc})")
        return
    port = server.sockets[0].getsockname()[1]
    scheme = "wss" if tls else "ws"
    where = f"Redis {args.redis}" if args.redis else str(Path(args.data).resolve() / STORE_FILE)
    print(f"cardroom: listening on {scheme}://{args.host}:{port} ({where}; {len(room.tables)} tables resumed)")
    print(f"cardroom: {pages_line(pages_folder(args.pages), 'https' if tls else 'http', args.host, port)}")
    print(f"cardroom: {limits_line(descriptors, args.connections_per_address, args.login_time)}")
    print(f"cardroom: {house_line(room.house.names(), args.seek_wait)}", flush=True)
    async with server:
        await stop
    await room.stop()
    store.close()
