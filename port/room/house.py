"""The room's own bot players, the house bots: always someone to play (issue 38, section 1).

``cardroom --house-bots easy,standard,expert`` (the default; ``none``: none) puts one
BOT account per level in the room: "House Easy", "House Standard", "House Expert" (names
nobody can register: ``port.room.accounts``). Each is in the lobby like a connected
player, FREE at any number of tables, with its rating; it accepts every invitation the
room finds valid, as it is (it never sends rules back), takes a REMATCH, and is the
fallback of PLAY NOW (``port.room.seeks``). Its games are rated like everyone's.

A house bot is a connection inside the room (``HouseConn``, in ``room.conns``): what the
room says to it arrives at its ``put`` and what it does goes through ``room.answer`` as
any client's message, so the tables, the clocks and the records treat it as any bot.
Its thinking never runs on the event loop: one worker process per room process
(``python -m port.room.house``, started when the first house table opens, at niceness
``HOUSE_NICE`` so the room's own process comes first on a busy machine) holds a player
of the level for each table, fed its seat's stream as ``port.room.seat`` feeds the bot
client, and answers each ``ask`` with a move; it takes at most ``HOUSE_CPU_SHARE`` of a
core (past it, it sleeps: ``Throttle``). The loop only passes lines: the seat's
messages, already made for the seat, go to the worker's stdin as they are; a move comes
back as one line. A worker that dies is started again (``HOUSE_RESTART`` apart), and
each of its tables is seated again from the stored moves.

What it may cost is bounded (``port.room.limits``): ``HOUSE_TABLES`` running tables a
house bot holds at once, ``HOUSE_TABLES_PER_PLAYER`` running tables one player may have
with the house bots; past them an invitation is refused in one sentence. With
``--redis`` every process has the house bots: a house bot plays the tables of the
process where its game was made (the invitation's or the seek's process), in that
process's worker (docs/room.md, "The house bots").
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from port.protocol import GAMES, LEVELS, Message
from port.room.errors import Refused
from port.room.limits import HOUSE_CPU_SHARE, HOUSE_NICE, HOUSE_RESTART, HOUSE_TABLES, HOUSE_TABLES_PER_PLAYER

log = logging.getLogger("cardroom")

# The room and its tables are passed in, not imported: the server imports this module.
Room = Any
Table = Any

NAMES = {"easy": "House Easy", "standard": "House Standard", "expert": "House Expert"}
STREAM = ("deal", "event", "ask", "hand_end")          # a seat's numbered stream
HEARD = ("invitation", "start", "game_end", "rematch", "error")
CHECKOUT = Path(__file__).resolve().parents[2]
_KIND = re.compile(r'^\{"v":\d+,"type":"([a-z_]+)"')
_TAIL = re.compile(r'"table":"([^"\\]+)","seq":(\d+)\}$')      # how ``Table.drain``'s messages end


def levels_of(text: str) -> tuple[str, ...]:
    """``--house-bots``' value as levels: "easy,standard,expert" (any of them, in any
    order), "none"; ValueError with one sentence for anything else."""
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if words == ["none"]:
        return ()
    wrong = [w for w in words if w not in LEVELS]
    if wrong or not words:
        raise ValueError(f"--house-bots is a list of {', '.join(LEVELS)} (or none), not {text!r}")
    return tuple(dict.fromkeys(words))


class HouseConn:
    """A house bot as the room's connections: listed in the lobby, told what a seat is
    told (``put``), answering through the room as a client does."""

    bot = True
    guest = False
    house = True
    watching = False
    game: str | None = None          # both games: never greyed in either lobby
    address = "house"
    token = None

    def __init__(self, owner: House, name: str, level: str) -> None:
        self.owner, self.name, self.level = owner, name, level
        self.ratings: dict[str, Any] = {}
        self.held: dict[str, list[str]] = {}        # never a stream being sent: nothing held (Conn's)

    def put(self, text: str | None) -> bool:
        if text is not None:
            self.owner.heard(self, text)
        return True


class House:
    """The room's house part: its bots' connections, the tables they sit at, the worker."""

    def __init__(self, room: Room, levels: Sequence[str] = ()) -> None:
        self.room = room
        self.levels = tuple(levels)
        self.conns: dict[str, HouseConn] = {}                  # level -> its bot
        self.seats: dict[str, tuple[HouseConn, int]] = {}      # table id -> the house bot there, its seat
        self.accepting: dict[str, tuple[HouseConn, str]] = {}  # invitation id -> (bot, person): accepts under way
        self.worker = Worker(self)
        self.tasks: set[asyncio.Task[None]] = set()

    # ---- start and stop --------------------------------------------------------------

    def start(self) -> None:
        """The house bots' accounts (made once, with no password: nobody logs in as
        them) and their places in the lobby; before the tables are resumed, so a
        resumed table finds its house bot in the room."""
        room = self.room
        for level in self.levels:
            name = NAMES[level]
            if room.store.account(name) is None:
                room.store.create_account(name, b"", b"", bot=True)
            account = room.store.account(name)
            if account is None or account.guest or not account.bot or account.secret:
                log.error("the account %s is not the house's (made before the house bots were): "
                          "that house bot stays out of the room", name)
                continue
            conn = HouseConn(self, account.name, level)
            conn.ratings = {g: room.store.rating(account.name, g) for g in GAMES}
            self.conns[level] = conn
            room.conns[account.name.lower()] = conn
            room.hub.here(account.name, room.lobby.entry(conn))

    async def stop(self) -> None:
        await self.worker.stop()

    def names(self) -> list[str]:
        return [c.name for c in self.conns.values()]

    def of(self, name: str) -> HouseConn | None:
        """The house bot of that name, if it is one of this room's."""
        conn = self.room.conns.get(name.lower())
        return conn if isinstance(conn, HouseConn) else None

    # ---- what it may take on ---------------------------------------------------------

    def _held_by(self, conn: HouseConn) -> int:
        return sum(1 for c, _ in self.seats.values() if c is conn) + sum(
            1 for c, _ in self.accepting.values() if c is conn)

    def _held_with(self, person: str) -> int:
        low = person.lower()
        tables = self.room.tables
        at = sum(1 for t in self.seats if t in tables and low in (p.lower() for p in tables[t].players))
        return at + sum(1 for _, p in self.accepting.values() if p.lower() == low)

    def check(self, person: str, conn: HouseConn) -> None:
        """Refused, in one sentence, if the house bot or the player has as many house
        tables as they may."""
        if self._held_with(person) >= HOUSE_TABLES_PER_PLAYER:
            raise Refused(f"you have {HOUSE_TABLES_PER_PLAYER} games with the house bots on already: "
                          "finish one first")
        if self._held_by(conn) >= HOUSE_TABLES:
            raise Refused(f"{conn.name} is at {HOUSE_TABLES} tables just now: try again in a while")

    def check_invite(self, sender: str, to: str) -> None:
        """An invitation to a house bot: refused past the limits (``check``)."""
        conn = self.of(to)
        if conn is not None:
            self.check(sender, conn)

    def play_seek(self, person: str, level: str, game: str, rules: dict[str, Any], clock: int) -> str:
        """A seek nobody answered: the house bot of ``level`` sits down with ``person``
        (a seat each at random). Its name, or Refused."""
        conn = self.conns.get(level)
        if conn is None:
            raise Refused(f"there is no house bot {level} in this room")
        self.check(person, conn)
        players = (person, conn.name) if self.room.rng.random() < 0.5 else (conn.name, person)
        self.room.play.open_table(game, players, rules, clock)
        return conn.name

    # ---- what the room says to a house bot ---------------------------------------------

    def heard(self, conn: HouseConn, text: str) -> None:
        """One message to a house bot. A seat's stream goes to the worker as it is (only
        its table is read, from the end of the text); the rest is read here."""
        head = _KIND.match(text)
        kind = head.group(1) if head else ""
        if kind in STREAM:
            tail = _TAIL.search(text)
            table = tail.group(1) if tail else json.loads(text).get("table")
            if table in self.seats:
                self.worker.send(f"msg {table} {text}")
            return
        if kind in HEARD:
            getattr(self, "_" + kind)(conn, json.loads(text))

    def _invitation(self, conn: HouseConn, msg: dict[str, Any]) -> None:
        """Every invitation the room let through is accepted as it is; past the limits
        (several sent at once) it is declined."""
        if msg.get("proposer") == conn.name:
            return
        person = str(msg.get("sender") if msg.get("to") == conn.name else msg.get("to"))
        inv_id = str(msg.get("id"))
        try:
            self.check(person, conn)
        except Refused:
            self._later(self._say(conn, "decline", id=inv_id))
            return
        self.accepting[inv_id] = (conn, person)
        self._later(self._accept(conn, inv_id))

    async def _accept(self, conn: HouseConn, inv_id: str) -> None:
        try:
            await self._say(conn, "accept", id=inv_id)       # the table opens in this call: seated
        finally:
            self.accepting.pop(inv_id, None)

    def _start(self, conn: HouseConn, msg: dict[str, Any]) -> None:
        table = self.room.tables.get(msg.get("table"))
        if table is not None and isinstance(msg.get("seat"), int):
            self.sit(conn, table, msg["seat"])

    def _game_end(self, conn: HouseConn, msg: dict[str, Any]) -> None:
        if self.seats.pop(str(msg.get("table")), None) is not None:
            self.worker.send(f"leave {msg.get('table')} -")

    def _rematch(self, conn: HouseConn, msg: dict[str, Any]) -> None:
        """The other asked for a rematch: taken, within the limits."""
        table = self.room.tables.get(msg.get("table"))
        if table is None:
            return
        seat = table.seat_of(conn.name)
        if seat is None:
            return
        try:
            self.check(table.players[1 - seat], conn)
        except Refused:
            return
        self._later(self._say(conn, "rematch", table=table.id))

    def _error(self, conn: HouseConn, msg: dict[str, Any]) -> None:
        log.warning("%s was refused (%s): %s", conn.name, msg.get("refused"), msg.get("reason"))

    # ---- the tables it sits at ---------------------------------------------------------

    def sit(self, conn: HouseConn, table: Table, seat: int) -> None:
        """The house bot plays ``seat`` at ``table``: the worker makes its player and
        feeds it the seat's stream so far (from the stored moves), answering the last
        question if it is still open."""
        if table.finished is not None:
            return
        self.seats[table.id] = (conn, seat)
        spec = {"game": table.game, "rules": table.rules, "seed": table.seed, "seat": seat, "level": conn.level,
                "player_seed": (table.seed * 2 + seat) & 0x7FFFFFFF,
                "moves": [[s, m] for s, m in table.moves]}
        self.worker.send(f"sit {table.id} {json.dumps(spec, separators=(',', ':'))}")

    def attach(self, table: Table) -> None:
        """A table made again (the room restarted, or a process took it over): its
        house bot, if it has one here, sits down again."""
        for seat in (0, 1):
            conn = self.of(table.players[seat])
            if conn is not None:
                self.sit(conn, table, seat)

    def reseat(self) -> None:
        """The worker was started again: every table it held, seated again."""
        for table_id, (conn, seat) in list(self.seats.items()):
            table = self.room.tables.get(table_id)
            if table is None or table.finished is not None:
                del self.seats[table_id]
            else:
                self.sit(conn, table, seat)

    async def answered(self, line: str) -> None:
        """A line from the worker: ``move TABLE SEQ MOVE`` or ``fail TABLE SEQ WHY``. A
        move for a question no longer open (the clock moved for it) is dropped."""
        try:
            op, table_id, seq, rest = line.rstrip("\n").split(" ", 3)
            held = self.seats.get(table_id)
            table = self.room.tables.get(table_id)
            if held is None or table is None or table.finished is not None:
                return
            conn, seat = held
            if table.asked != seat or table.ask_seq[seat] != int(seq):
                return
            if op == "move":
                await self._say(conn, "move", table=table_id, move=json.loads(rest))
            else:
                log.error("%s failed at table %s (%s): it resigns that game", conn.name, table_id, rest)
                await self._say(conn, "resign", table=table_id)
        except (ValueError, TypeError):
            log.error("the house bots' worker said something unreadable: %r", line[:200])

    # ---- plumbing ---------------------------------------------------------------------

    async def _say(self, conn: HouseConn, kind: str, **fields: Any) -> None:
        await self.room.answer(conn, Message(kind, fields))

    def _later(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class Worker:
    """The process that thinks for the house bots: lines in (``sit``, ``msg``, ``leave``),
    moves out. Started when first needed; started again if it dies."""

    def __init__(self, house: House) -> None:
        self.house = house
        self.proc: asyncio.subprocess.Process | None = None
        self.pending: list[bytes] = []           # lines said before the process was there
        self.starting: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.last_start = -HOUSE_RESTART
        self.stopping = False

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def send(self, line: str) -> None:
        data = line.encode() + b"\n"
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            self.pending.append(data)
            self._ensure()
            return
        proc.stdin.write(data)           # buffered by the transport: the loop never waits on it

    def _ensure(self) -> None:
        if self.starting is not None or self.stopping:
            return
        loop = asyncio.get_running_loop()
        wait = self.last_start + HOUSE_RESTART - time.monotonic()
        if wait > 0:                     # it died just now: not a start a moment
            self.starting = loop.create_task(self._spawn(wait))
        else:
            self.starting = loop.create_task(self._spawn(0.0))

    async def _spawn(self, wait: float) -> None:
        try:
            if wait > 0:
                await asyncio.sleep(wait)
            self.last_start = time.monotonic()
            env = {**os.environ, "PYTHONPATH": str(CHECKOUT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "port.room.house", str(HOUSE_NICE), str(HOUSE_CPU_SHARE),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, env=env, limit=2**20)
            assert proc.stdin is not None
            self.proc = proc
            log.info("house bots: a worker process (pid %d, nice %d, at most %g of a core) thinks for them",
                     proc.pid, HOUSE_NICE, HOUSE_CPU_SHARE)
            pending, self.pending = self.pending, []
            for data in pending:
                proc.stdin.write(data)
            self.reader = asyncio.get_running_loop().create_task(self._read(proc))
        except Exception:
            log.exception("the house bots' worker could not start")
        finally:
            self.starting = None

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while True:
            line = await proc.stdout.readline()
            if not line:
                break
            try:
                await self.house.answered(line.decode())
            except Exception:
                log.exception("a fault answering the house bots' worker")
        code = await proc.wait()
        if self.proc is proc:
            self.proc = None
        if not self.stopping:
            log.error("the house bots' worker ended (exit %s): started again, its %d tables seated again",
                      code, len(self.house.seats))
            self.house.reseat()

    async def stop(self) -> None:
        self.stopping = True
        if self.starting is not None:
            self.starting.cancel()
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()           # the worker ends at the end of its input
        try:
            await asyncio.wait_for(proc.wait(), 3.0)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
        if self.reader is not None:
            self.reader.cancel()


# ---- the worker process ------------------------------------------------------------------

class Throttle:
    """At most ``share`` of one core, over windows of ``window`` seconds: past it, sleep
    until the share is back (a bound on the CPU, which niceness alone is not: a nice
    process still takes a whole core nobody else wants just then)."""

    def __init__(self, share: float, window: float = 2.0, cpu: Any = time.process_time,
                 wall: Any = time.monotonic, sleep: Any = time.sleep) -> None:
        self.share, self.window = share, window
        self.cpu, self.wall, self.sleep = cpu, wall, sleep
        self.c0, self.w0 = cpu(), wall()

    def after_work(self) -> float:
        """Called after each piece of work: the seconds slept."""
        used, span = self.cpu() - self.c0, self.wall() - self.w0
        rest = used / self.share - span if self.share > 0 else 0.0
        if rest > 0:
            self.sleep(rest)
        if span + max(0.0, rest) >= self.window:
            self.c0, self.w0 = self.cpu(), self.wall()
        return max(0.0, rest)


def worker_main(argv: list[str]) -> int:
    """``python -m port.room.house [NICE [SHARE]]``: read lines on stdin, answer asks on stdout.

    ``sit TABLE SPEC``: a player of the level at the seat, fed the seat's stream made
    again from the moves (the last question answered if still open); ``msg TABLE
    MESSAGE``: the seat's next message (one already seen is skipped); ``leave TABLE -``.
    Each question's move goes out as ``move TABLE SEQ MOVE``; a player that raises,
    as ``fail TABLE SEQ WHY``."""
    try:
        os.nice(int(argv[0]) if argv else HOUSE_NICE)
    except (OSError, ValueError):
        pass                             # at the room's own priority, then
    throttle = Throttle(float(argv[1]) if len(argv) > 1 else HOUSE_CPU_SHARE)
    from port.cribbage.levels import load_player as crib_player
    from port.ginrummy.levels import load_player as gin_player
    from port.room.games import replay
    from port.room.seat import seat_for

    loads = {"ginrummy": gin_player, "cribbage": crib_player}
    seats: dict[str, list[Any]] = {}      # table -> [its Seat, the last seq fed]
    out = sys.stdout

    def say(op: str, table: str, seq: int, text: str) -> None:
        out.write(f"{op} {table} {seq} {text}\n")
        out.flush()

    def feed(table: str, msg: dict[str, Any], answer: bool) -> None:
        held = seats[table]
        seq = int(msg.get("seq", held[1] + 1))
        if seq <= held[1]:
            return
        held[1] = seq
        try:
            move = held[0].feed(msg)
        except Exception as exc:              # the level's own fault: that table only
            if msg.get("type") == "ask":
                say("fail", table, seq, f"{type(exc).__name__}: {exc}"[:300])
            return
        if answer and msg.get("type") == "ask" and move is not None:
            say("move", table, seq, json.dumps(move, separators=(",", ":")))

    for raw in iter(sys.stdin.buffer.readline, b""):
        try:
            op, table, rest = raw.decode().rstrip("\n").split(" ", 2)
            if op == "sit":
                spec = json.loads(rest)
                player = seat_for(spec["game"], loads[spec["game"]](spec["level"], int(spec["player_seed"])))
                seats[table] = [player, 0]
                stream = [m for s, m in replay(spec["game"], spec["rules"], spec["seed"],
                                               [(int(s), m) for s, m in spec["moves"]]).out if s == spec["seat"]]
                for i, msg in enumerate(stream):
                    feed(table, {**msg, "seq": i + 1}, answer=i == len(stream) - 1)
            elif op == "msg":
                if table in seats:
                    feed(table, json.loads(rest), answer=True)
            elif op == "leave":
                seats.pop(table, None)
        except Exception as exc:              # a line it cannot use: said, and on to the next
            print(f"house worker: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        throttle.after_work()
    return 0


__all__ = ["House", "HouseConn", "NAMES", "Throttle", "Worker", "levels_of", "worker_main"]


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
