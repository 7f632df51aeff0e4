"""Past one process: two room processes on one real Redis.

A player on process 1 invites one on process 2, they negotiate and play; process 1,
which holds the table, is killed with ``kill -9`` mid-hand; the player comes back on
process 2 at once, which takes the table over from the moves in Redis within seconds
(telling the players meanwhile), and the game is finished there. Its record is the
game the same seed and moves give without Redis.
"""
from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path
from typing import Any

import redis

from port.cribbage.levels import load_player as crib_player
from port.files.gamerecord import Meta
from port.ginrummy.levels import load_player as gin_player
from port.room.games import GinDriver, replay
from port.room.seat import seat_for
from tests.room.helpers import Client, RoomProcess, stream

TAKEOVER = 5.0      # seconds: a dead process's table goes on within this (issue 37)


def _step(client: Client, seat: Any, table: str, moves: list, who: int, held: dict | None = None) -> bool:
    """Answer what the client has been told (or, with ``held``, keep the answer
    unsent there); True once its game is over."""
    over = False
    for m in client.drain(0.03):
        if m.get("type") == "game_end":
            over = True
        if m.get("table") == table and "seq" in m:
            fed = client.__dict__.setdefault("fed", {})       # a message said again (a sync) is seen
            if m["seq"] <= fed.get(table, 0):
                continue
            fed[table] = m["seq"]
            move = seat.feed(m)
            if move is not None and held is not None:
                held[who] = move
            elif move is not None:
                client.send("move", table=table, move=move)
                moves.append((who, move))
    return over


def test_two_processes_share_one_redis_and_a_dead_ones_table_goes_on(tmp_path: Path, redis_url: str) -> None:
    one = RoomProcess(tmp_path / "one", "--redis", redis_url).start()       # the default lease
    two = RoomProcess(tmp_path / "two", "--redis", redis_url).start()
    try:
        ann, bob = Client(one.url), Client(two.url)
        ann.enter("Ann")
        bob.enter("Bob")
        lobby = {p["name"] for p in ann.answer("lobby")["players"]}
        assert lobby == {"Ann", "Bob", "House Easy", "House Standard", "House Expert"}   # on either process

        # The room deals at random and the game is one hand: a hand knocked within the
        # first few turns leaves nothing to kill mid-hand, so such a game is played again.
        for _ in range(5):
            ann.send("invite", to="Bob", game="ginrummy", rules={"score_limit": 0})
            inv = bob.wait("invitation")
            bob.send("counter", id=inv["id"], rules={"gin_bonus": 20})
            assert ann.wait("invitation")["round"] == 1                   # her own, through process 1
            assert ann.wait("invitation")["changed"] == ["gin_bonus"]      # Bob's, through process 2
            ann.send("accept", id=inv["id"])
            table = ann.wait("start")["table"]
            assert bob.wait("start")["table"] == table

            seats = [seat_for("ginrummy", gin_player("easy", 1)), seat_for("ginrummy", gin_player("easy", 2))]
            moves: list[tuple[int, dict[str, Any]]] = []
            over = False
            while len(moves) < 8 and not over:                # a few turns, Bob's moves through process 1
                over = _step(ann, seats[0], table, moves, 0) | _step(bob, seats[1], table, moves, 1)
            if not over:
                break
        else:
            raise AssertionError("five games in a row ended within four turns")
        held: dict[int, dict[str, Any]] = {}                  # then nobody answers: all is acknowledged
        for _ in range(10):
            _step(ann, seats[0], table, moves, 0, held)
            _step(bob, seats[1], table, moves, 1, held)
        assert len(held) == 1
        seen = stream(ann.got, table)
        one.kill()                                            # the table's process dies mid-hand
        killed = time.monotonic()

        again = Client(two.url)                               # Ann comes back at once, on process 2
        assert again.answer("resume", token=ann.token)["name"] == "Ann"
        listed = again.wait("tables")["tables"]
        assert [t["table"] for t in listed] == [table], (table, listed)
        (who, move), = held.items()                            # the open question is answered now
        if who == 1:
            bob.send("move", table=table, move=move)          # passed to the dead process first
        again.send("sync", table=table, since=0)
        said: dict[int, dict[str, Any]] = {}                  # by seq: the move's own events may come first
        while not all(n in said for n in range(1, len(seen) + 1)):
            m = again.wait(lambda m: m.get("table") == table and "seq" in m, timeout=TAKEOVER)
            said.setdefault(m["seq"], m)
        said_in_order = [said[n] for n in sorted(said)]
        assert stream(said_in_order[:len(seen)], table) == seen     # nothing it had acknowledged is lost
        notices = [m for m in again.got if m.get("type") == "notice"]
        assert [m["what"] for m in notices][:2] == ["moving", "moved"], notices      # told meanwhile
        fresh = seat_for("ginrummy", gin_player("easy", 1))
        assert sorted(said) == list(range(1, len(said) + 1))
        for m in said_in_order:
            fresh.feed(m)
        again.__dict__["fed"] = {table: len(said)}
        if who == 0:
            again.send("move", table=table, move=move)
        moves.append((who, move))
        opponent = bob if who == 0 else again                 # the move's event reaches the other seat
        opponent.wait(lambda m: m.get("table") == table and m.get("type") == "event", timeout=TAKEOVER)
        assert time.monotonic() - killed < TAKEOVER           # the game went on within seconds
        done = [False, False]
        deadline = time.monotonic() + 30
        while not all(done) and time.monotonic() < deadline:
            done[0] = done[0] or _step(again, fresh, table, moves, 0)
            done[1] = done[1] or _step(bob, seats[1], table, moves, 1)
        assert all(done)
        end = next(m for m in again.got if m.get("type") == "game_end")
        text = again.answer("game", number=end["number"])["text"]
        seed = int(re.search(r"^Seed: (\d+)$", text, re.M).group(1))
        day = re.search(r"^Date: (\S+)$", text, re.M).group(1)
        rules = GinDriver.check_rules({"score_limit": 0, "gin_bonus": 20})
        same = replay("ginrummy", rules, seed, moves).record(
            Meta(("Ann", "Bob"), ("room player", "room player"), date=day, seed=seed))
        assert text == same                                   # the game the same seed and moves give
        assert "Traceback" not in two.log()
    finally:
        one.kill()
        two.stop()


def _restart(folder: Path, url: str) -> subprocess.Popen[bytes]:
    """The test's redis-server again, on its port and folder: it loads what it saved."""
    port = url.rsplit(":", 1)[1]
    proc = subprocess.Popen(
        ["redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder), "--databases", "64", "--logfile", str(folder / "redis2.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if redis.Redis.from_url(url, socket_connect_timeout=0.5).ping():
                return proc
        except redis.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("redis-server did not come back")


def test_when_redis_dies_the_room_says_so_once_and_goes_on_when_it_is_back(
        tmp_path: Path, own_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    server, url = own_redis
    one = RoomProcess(tmp_path / "one", "--redis", url).start()
    two = RoomProcess(tmp_path / "two", "--redis", url).start()
    again = None
    try:
        ann, bob = Client(one.url), Client(two.url)
        ann.enter("Ann")
        bob.enter("Bob")
        ann.send("invite", to="Bob", game="cribbage", rules={"limit": 61})
        bob.send("accept", id=bob.wait("invitation")["id"])
        table = ann.wait("start")["table"]
        seats = [seat_for("cribbage", crib_player("easy", 1)), seat_for("cribbage", crib_player("easy", 2))]
        moves: list[tuple[int, dict[str, Any]]] = []
        held: dict[int, dict[str, Any]] = {}
        for _ in range(3):                                  # the first lay-away, held unsent
            _step(ann, seats[0], table, moves, 0, held)
            _step(bob, seats[1], table, moves, 1, held)
        (who, move), = held.items()
        mover = ann if who == 0 else bob
        seen = [stream(c.got, table) for c in (ann, bob)]

        redis.Redis.from_url(url).shutdown(save=True)       # Redis goes away (its data saved)
        server.wait(5)
        mover.send("move", table=table, move=move)          # what cannot be done: a plain error
        bob.send("chat", table=table, text="still there?")  # (Bob's process passes it on: it cannot)
        for client, kind in ((mover, "move"), (bob, "chat")):
            error = client.wait(lambda m: m.get("type") == "error" and m.get("refused") == kind, timeout=10)
            assert "Redis" in error["reason"] or "store" in error["reason"], error
        time.sleep(1.5)                                     # the room tries again meanwhile, quietly
        again = _restart(tmp_path, url)
        deadline = time.monotonic() + 15
        while not all("is back" in p.log() for p in (one, two)) and time.monotonic() < deadline:
            time.sleep(0.1)
        for client, n in ((ann, 0), (bob, 1)):
            client.send("sync", table=table, since=0)       # nothing acknowledged was lost
            got = [client.wait(lambda m: m.get("table") == table and "seq" in m) for _ in seen[n]]
            assert stream(got, table) == seen[n]
        mover.send("move", table=table, move=move)          # the same move, now kept
        other = bob if who == 0 else ann                    # the move's event reaches the other seat
        other.wait(lambda m: m.get("table") == table and m.get("type") == "event", timeout=10)
        for p in (one, two):
            log = p.log()
            assert "Traceback" not in log, log[-3000:]
            assert log.count("lost its connection to Redis") == 1, log[-3000:]
            assert log.count("is back") == 1, log[-3000:]
    finally:
        one.stop()
        two.stop()
        if again is not None:
            again.terminate()
            again.wait(5)
