"""Past one process: two room processes on one real Redis.

A player on process 1 invites one on process 2, they negotiate and play; process 1,
which holds the table, is killed with ``kill -9`` mid-hand; the player comes back on
process 2, which takes the table over from the moves in Redis, and the game is
finished there. Its record is the game the same seed and moves give without Redis.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from port.files.gamerecord import Meta
from port.ginrummy.levels import load_player as gin_player
from port.room.games import GinDriver, replay
from port.room.seat import seat_for
from tests.room.helpers import Client, RoomProcess, stream

LEASE = "1.5"


def _step(client: Client, seat: Any, table: str, moves: list, who: int, held: dict | None = None) -> bool:
    """Answer what the client has been told (or, with ``held``, keep the answer
    unsent there); True once its game is over."""
    over = False
    for m in client.drain(0.03):
        if m.get("type") == "game_end":
            over = True
        if m.get("table") == table and "seq" in m:
            move = seat.feed(m)
            if move is not None and held is not None:
                held[who] = move
            elif move is not None:
                client.send("move", table=table, move=move)
                moves.append((who, move))
    return over


def test_two_processes_share_one_redis_and_a_dead_ones_table_goes_on(tmp_path: Path, redis_url: str) -> None:
    one = RoomProcess(tmp_path / "one", "--redis", redis_url, "--lease", LEASE).start()
    two = RoomProcess(tmp_path / "two", "--redis", redis_url, "--lease", LEASE).start()
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

        time.sleep(float(LEASE) + 0.5)
        again = Client(two.url)
        assert again.answer("resume", token=ann.token)["name"] == "Ann"
        listed = again.wait("tables")["tables"]
        assert [t["table"] for t in listed] == [table]
        again.send("sync", table=table, since=0)
        said = [again.wait(lambda m: m.get("table") == table and "seq" in m, timeout=10) for _ in seen]
        assert stream(said, table) == seen                    # nothing it had acknowledged is lost
        fresh = seat_for("ginrummy", gin_player("easy", 1))
        for m in said:
            fresh.feed(m)
        (who, move), = held.items()                            # the open question is answered now
        (again if who == 0 else bob).send("move", table=table, move=move)
        moves.append((who, move))
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
    finally:
        one.kill()
        two.stop()
