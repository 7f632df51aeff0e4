"""A seat's stream against a long game (issue 37, items 1 and 2): a rejoin gets
everything it missed, however long, and one connection asking for its stream again and
again slows nobody else.

The long game is a GinRummy game to 500 between two EASY players, played through the
room's own driver (``port.room.games``) in about a second and written to a ROOM.DB as a
running table of Ann and Bob; the room resumes it at start, as after a restart. Its
streams run past 2,000 messages a seat (the room's queue for one connection) and
3 MB.
"""
from __future__ import annotations

import json
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from port.protocol import dumps
from port.room import accounts
from port.room.games import GinDriver, replay
from port.room.seat import seat_for
from port.room.store import SqliteStore, TableRow
from tests.room.helpers import Client, RoomProcess

TABLE = "tlonggame0001"
RULES = {"score_limit": 500}
SEED = 12345


def _long_game() -> list[tuple[int, dict[str, Any]]]:
    """The moves of a game to 500 between two EASY players (about 1,400 moves)."""
    from port.ginrummy.levels import load_player

    driver = GinDriver(RULES, SEED)
    seats = [seat_for("ginrummy", load_player("easy", s)) for s in (1, 2)]
    while not driver.over:
        out, driver.out = driver.out, []
        move = None
        for seat, msg in out:
            got = seats[seat].feed(msg)
            if got is not None:
                move = (seat, got)
        assert move is not None
        driver.apply(*move)
    return driver.moves[:-1]        # the last move ends the game: the table is left asking for it


def _open_long_table(store: Any, moves: list[tuple[int, dict[str, Any]]]) -> None:
    """Ann and Bob's accounts and their long game's table, its moves all made, in ``store``."""
    for name in ("Ann", "Bob"):
        secret, salt = accounts.hash_password("pw")
        store.create_account(name, secret, salt, False)
    store.open_table(TableRow(TABLE, "ginrummy", ("Ann", "Bob"), {**RULES, "_room": {"clock": 0}}, SEED,
                              time.time(), tuple({"seat": s, "move": m} for s, m in moves)))
    store.close()


@pytest.fixture(scope="module")
def long_room(tmp_path_factory: pytest.TempPathFactory):
    data = tmp_path_factory.mktemp("long") / "room"
    data.mkdir()
    moves = _long_game()
    _open_long_table(SqliteStore(data / "ROOM.DB"), moves)
    with RoomProcess(data) as server:
        yield server, moves


def _expected(moves: list[tuple[int, dict[str, Any]]], seat: int) -> list[str]:
    """The seat's stream as the room owes it: every frame, numbered from 1."""
    frames, n = [], 0
    for s, msg in replay("ginrummy", RULES, SEED, moves).out:
        if s == seat:
            n += 1
            frames.append(dumps({**msg, "table": TABLE, "seq": n}))
    return frames


def _stream(client: Client, until: int, quiet: float = 5.0) -> list[str]:
    """The raw frames of the table's stream, read until message ``until`` (or until the
    room has said nothing for ``quiet`` seconds)."""
    frames: list[str] = []
    while True:
        try:
            text = client.ws.recv(timeout=quiet)
        except TimeoutError:
            break
        msg = json.loads(text)
        if msg.get("table") == TABLE and "seq" in msg:
            frames.append(text)
            if msg["seq"] >= until:
                break
    return frames


def test_a_rejoin_gets_every_message_of_a_long_game_in_order(long_room: tuple[RoomProcess, Any]) -> None:
    """Past 2,000 messages (the queue of one connection) a `sync` from 0 still gives the
    whole stream, the open question last, each message once, as the game said it."""
    room, moves = long_room
    ann = Client(room.url)
    ann.enter("Ann")
    tables = next(m for m in reversed(ann.got) if m["type"] == "tables")
    summary = next(t for t in tables["tables"] if t["table"] == TABLE)
    expected = _expected(moves, 0)
    assert summary["seq"] == len(expected) > 2000
    ann.send("sync", table=TABLE, since=0)
    got = _stream(ann, len(expected))
    assert [json.loads(f)["seq"] for f in got] == list(range(1, len(expected) + 1))
    assert got == expected
    # And from the middle: what followed message 2,100, and nothing before it.
    ann.send("sync", table=TABLE, since=2100)
    assert _stream(ann, len(expected)) == expected[2100:]
    ann.close()


def _pings(honest: Client, seconds: float) -> list[float]:
    """An honest client's round trips (seconds), a ping every 20 ms for ``seconds``."""
    times = []
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        t = time.perf_counter()
        honest.send("ping", t=n)
        honest.wait(lambda m, n=n: m.get("type") == "pong" and m.get("t") == n, timeout=10)
        times.append(time.perf_counter() - t)
        time.sleep(0.02)
    return times


def test_asking_for_a_long_stream_again_and_again_slows_nobody_else(long_room: tuple[RoomProcess, Any]) -> None:
    """Bob asks for his whole stream (3 MB) as often as the message rate lets him (40 at
    once, then 20 a second), reading all he gets as fast as he can; an honest client's
    ping meanwhile stays low. Before, each sync replayed the game on the room's loop:
    the honest client could not even connect."""
    room, moves = long_room
    honest = Client(room.url)
    baseline = statistics.median(_pings(honest, 0.5))
    bob = Client(room.url)
    bob.enter("Bob")
    stop = threading.Event()
    read = [0]

    def flood() -> None:
        for n in range(1000):
            if stop.wait(0 if n < 40 else 0.05):
                return
            bob.send("sync", table=TABLE, since=0)

    def drain() -> None:
        while not stop.is_set():
            try:
                bob.ws.recv(timeout=0.2)
                read[0] += 1
            except TimeoutError:
                continue
            except Exception:
                return

    threads = [threading.Thread(target=flood, daemon=True), threading.Thread(target=drain, daemon=True)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    try:
        times = _pings(honest, 2.0)
    finally:
        stop.set()
        bob.ws.close_timeout = 0.5       # the room reads Bob's frames no faster than it answers them
        bob.close()
        for t in threads:
            t.join(2)
        honest.close()
    assert read[0] > 2000, "the flood's syncs were not answered at all"
    worst = max(times)
    print(f"ping alone {1000 * baseline:.1f} ms; under the flood median {1000 * statistics.median(times):.1f} ms, "
          f"max {1000 * worst:.1f} ms, {len(times)} pings; Bob read {read[0]} frames")
    assert statistics.median(times) < 0.05
    # The 95th percentile, not the worst: on a loaded 2-core machine (the suite's other
    # worker) one ping in 75 can wait for a CPU whatever the room does; before the
    # pages and the budget, no ping was answered within 10 s.
    assert statistics.quantiles(times, n=20)[-1] < 0.1 + 3 * baseline, worst


def test_a_ping_echoes_any_number_it_is_given(long_room: tuple[RoomProcess, Any]) -> None:
    """docs/room.md: `ping`'s `t` is a number (a page sends performance.now(), with a
    fraction): it comes back as it was given; beyond what a double holds exactly as a
    whole number, or not finite, it is refused in one sentence."""
    c = Client(long_room[0].url)
    for t in (1234.5678, -0.25, 0, 2**53, 1e-300):
        assert c.answer("ping", t=t) == {"v": 1, "type": "pong", "t": t}
    for text, shown in (("1e300", "1e+300"), ("-1e999", "-inf"), ('"7"', None)):
        c.raw('{"v":1,"type":"ping","t":' + text + "}")
        reason = c.wait("error")["reason"]
        assert reason == (f"the ping message's 't' is -9007199254740992 to 9007199254740992, not {shown}" if shown
                          else "the ping message's 't' is a number, not a string"), reason
    c.close()


def test_a_rejoin_through_the_other_process_gets_the_whole_long_stream(tmp_path: Path, redis_url: str) -> None:
    """On Redis, a seat connected to another process than its table's owner: its sync is
    passed on to the owner and answered through the hub, page by page, and it gets every
    message past 2,000 as the local one does, in order, each once."""
    from port.room.redisstore import RedisStore

    moves = _long_game()
    _open_long_table(RedisStore(redis_url), moves)
    owner = RoomProcess(tmp_path / "one", "--redis", redis_url).start()        # resumes the table: its owner
    other = RoomProcess(tmp_path / "two", "--redis", redis_url).start()
    try:
        ann = Client(other.url)
        ann.enter("Ann")
        expected = _expected(moves, 0)
        ann.send("sync", table=TABLE, since=0)
        got = _stream(ann, len(expected))
        assert [json.loads(f)["seq"] for f in got] == list(range(1, len(expected) + 1))
        assert got == expected
        ann.close()
    finally:
        other.stop()
        owner.stop()
