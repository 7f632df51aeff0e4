"""Always someone to play (issue 38, section 1): the house bots, PLAY NOW and blocks,
in a real room (``python -m port.room`` in a subprocess) with real clients: the house
bots listed and taking every valid invitation as it is, rated; their thinking off the
event loop (an honest client's ping stays low while house tables play); seeks paired
when they fit, else the house bot; a block that keeps two players apart, privately,
across a restart."""
from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from port.cribbage.levels import load_player as crib_player
from port.ginrummy.levels import load_player as gin_player
from port.room.house import Throttle
from port.room.seat import Seat, seat_for
from tests.room.helpers import BotProcess, Client, RoomProcess

HOUSE = {"House Easy", "House Standard", "House Expert"}
SEEK_WAIT = 3.0
LOADS = {"ginrummy": gin_player, "cribbage": crib_player}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomProcess]:
    with RoomProcess(tmp_path_factory.mktemp("house") / "room", "--seek-wait", str(SEEK_WAIT)) as r:
        yield r


def play(c: Client, tables: dict[str, str], stop: threading.Event | None = None,
         seen: list[int] | None = None) -> list[dict[str, Any]]:
    """A person's side at each table (table -> game), played by EASY through the same
    seat as the bot client, until every table has ended; once ``stop`` is set, each
    table resigns at its next question. The ``game_end`` messages."""
    seats: dict[str, Seat] = {t: seat_for(g, LOADS[g]("easy", 1)) for t, g in tables.items()}
    ends: list[dict[str, Any]] = []
    while len(ends) < len(tables):
        m = c.wait(lambda m: m.get("table") in seats and ("seq" in m or m["type"] == "game_end"), timeout=60)
        if m["type"] == "game_end":
            ends.append(m)
            continue
        if seen is not None:
            seen[0] += 1
        move = seats[m["table"]].feed(m)
        if m["type"] == "ask" and move is not None:
            if stop is not None and stop.is_set():
                c.send("resign", table=m["table"])
            else:
                c.send("move", table=m["table"], move=move)
    return ends


def test_the_house_bots_are_in_the_lobby_and_take_every_valid_invitation_as_it_is(room: RoomProcess) -> None:
    ann = Client(room.url)
    ann.enter("Ann")
    lobby = {p["name"]: p for p in ann.answer("lobby")["players"]}
    assert HOUSE <= set(lobby)
    assert all(lobby[n]["bot"] and lobby[n].get("house") and lobby[n]["status"] == "free" for n in HOUSE)
    assert "house bots: House Easy, House Standard, House Expert" in room.lines[3]
    # Nobody registers a house bot's name, or logs in as one.
    assert ann.answer("register", name="house expert", password="pw")["reason"] == \
        "names like house expert are the house bots': choose another"
    assert Client(room.url).answer("login", name="House Expert", password="x")["reason"] == \
        "wrong password for House Expert"

    assert "has no rule 'jokers'" in ann.answer("invite", to="House Expert", game="ginrummy",
                                                 rules={"jokers": True})["reason"]
    ann.send("invite", to="House Expert", game="ginrummy", rules={"score_limit": 0, "oklahoma": True}, clock=30)
    assert ann.wait("invitation_closed")["why"] == "accepted"        # round 1: nothing sent back
    start = ann.wait("start")
    assert start["players"] == ["Ann", "House Expert"] and start["rules"]["oklahoma"] is True and start["clock"] == 30
    end = play(ann, {start["table"]: "ginrummy"})[0]
    assert end["rated"] is True and end["ratings"]["House Expert"]["after"] != "1500?"
    lobby = {p["name"]: p for p in ann.answer("lobby")["players"]}
    assert lobby["House Expert"]["ratings"]["ginrummy"] == end["ratings"]["House Expert"]["after"]
    record = ann.answer("game", number=end["number"])
    assert "House Expert" in record["text"] and "room bot" in record["text"]
    ann.send("rematch", table=start["table"])                          # a rematch is taken too
    again = ann.wait("start")
    assert again["players"] == ["House Expert", "Ann"]
    ann.send("resign", table=again["table"])
    ann.wait("game_end")
    ann.close()


def test_house_tables_think_off_the_loop_and_a_player_has_two_at_most(room: RoomProcess) -> None:
    """Six tables of House Expert's Cribbage (its pegging takes tens of ms a decision) for
    three players, the third table of one refused; an honest client's pings meanwhile."""
    players = [Client(room.url) for _ in range(3)]
    tables: list[dict[str, str]] = []
    for i, c in enumerate(players):
        c.enter(f"Crib{i}")
        for _ in range(2):
            c.send("invite", to="House Expert", game="cribbage", rules={"limit": 61}, clock=0)
        tables.append({c.wait("start")["table"]: "cribbage", c.wait("start")["table"]: "cribbage"})
    players[0].send("invite", to="House Easy", game="cribbage")
    assert players[0].wait("error")["reason"] == "you have 2 games with the house bots on already: finish one first"
    stop, seen = threading.Event(), [0]
    threads = [threading.Thread(target=play, args=(c, t, stop, seen)) for c, t in zip(players, tables)]
    for t in threads:
        t.start()
    pinger = Client(room.url)
    pinger.enter("Pinger")
    try:
        time.sleep(0.5)
        before, worst = seen[0], 0.0
        for i in range(10):
            sent = time.monotonic()
            assert pinger.answer("ping", t=i)["t"] == i
            worst = max(worst, time.monotonic() - sent)
            time.sleep(0.1)
        played = seen[0] - before
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    assert played > 5, "the house tables did not move while the pings went"
    assert worst < 0.5, f"a ping took {worst:.3f} s while six house tables played"
    # The thinking is another process's, below the room's own priority.
    pid = int(re.search(r"a worker process \(pid (\d+), nice 10,", room.log()).group(1))   # type: ignore[union-attr]
    stat = Path(f"/proc/{pid}/stat").read_text()
    assert int(stat[stat.rindex(")") + 2:].split()[16]) == 10          # the niceness field


def test_the_workers_throttle_keeps_it_to_its_share_of_a_core() -> None:
    """Half a core: a second of CPU in a second of time is followed by a second's sleep;
    work within the share sleeps nothing."""
    now = {"cpu": 0.0, "wall": 0.0}
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now["wall"] += s
    throttle = Throttle(0.5, window=10.0, cpu=lambda: now["cpu"], wall=lambda: now["wall"], sleep=sleep)
    now["cpu"] += 0.2
    now["wall"] += 0.5
    assert throttle.after_work() == 0.0 and slept == []
    now["cpu"] += 0.8
    now["wall"] += 0.5
    assert throttle.after_work() == pytest.approx(1.0)
    assert now["cpu"] / now["wall"] == pytest.approx(0.5)


def test_play_now_pairs_seeks_that_fit_else_the_house_bot_sits_down(room: RoomProcess) -> None:
    ann, bob, cy = Client(room.url), Client(room.url), Client(room.url)
    ann.enter("Seeker Ann")
    bob.enter("Seeker Bob")
    cy.enter("Seeker Cy")
    assert "has no rule" in ann.answer("seek", game="ginrummy", rules={"jokers": 1})["reason"]
    seeking = ann.answer("seek", game="ginrummy", rules={"score_limit": 0}, clock=30)
    assert seeking["type"] == "seeking" and seeking["level"] == "standard" and seeking["seconds"] == SEEK_WAIT
    assert bob.answer("seek", game="ginrummy", clock=60)["type"] == "seeking"        # another clock: no fit
    assert bob.answer("cancel_seek")["why"] == "cancelled"
    assert "not looking for a game" in bob.answer("cancel_seek")["reason"]
    bob.send("seek", game="ginrummy")                                                # any rules, any clock: fits
    assert bob.wait("seek_closed")["why"] == "paired with Seeker Ann"
    assert ann.wait("seek_closed")["opponent"] == "Seeker Bob"
    start = ann.wait("start")
    assert set(start["players"]) == {"Seeker Ann", "Seeker Bob"}
    assert start["rules"]["score_limit"] == 0 and start["clock"] == 30               # Ann's rules and clock
    ann.send("resign", table=start["table"])
    # A seek of one who left goes with it.
    cy.send("seek", game="cribbage")
    cy.wait("seeking")
    cy.close()
    time.sleep(0.2)
    # Nobody fits: after the wait the house bot asked for sits down (the bot client, --seek).
    bot = BotProcess(room.url, "Seeker Ed", "--seek", "easy", "--game", "cribbage", "--games", "1",
                     "--rules", "limit=61")
    code, out, err = bot.finish(60)
    assert code == 0, err
    assert "PLAY NOW: paired with House Easy" in out
    assert re.search(r"game \d+: (House Easy v Seeker Ed|Seeker Ed v House Easy) \(cribbage\): .* won \d+-\d+", out), out
    ann.close()
    bob.close()


def test_a_block_keeps_two_apart_privately_and_outlives_the_room(tmp_path: Path) -> None:
    server = RoomProcess(tmp_path / "room", "--house-bots", "none", "--seek-wait", "1").start()
    try:
        ann, bob = Client(server.url), Client(server.url)
        ann.enter("Ann")
        bob.enter("Bob")
        ann.send("invite", to="Bob", game="cribbage", clock=0)
        bob.send("accept", id=bob.wait("invitation")["id"])
        table = ann.wait("start")["table"]
        bob.wait("start")
        assert ann.answer("block", name="ann")["reason"] == "you cannot block yourself"
        assert ann.answer("block", name="Nobody")["reason"] == "there is no player Nobody"
        assert ann.answer("block", name="bob") == {"v": 1, "type": "blocks", "names": ["Bob"]}
        bob.send("chat", table=table, text="hello?")
        ann.send("chat", table=table, text="bye")
        assert bob.wait("chat")["text"] == "hello?"                      # the sender's own line only
        assert [m["text"] for m in ann.drain() if m["type"] == "chat"] == ["bye"]
        assert [m for m in bob.drain() if m["type"] == "chat"] == []
        ann.send("resign", table=table)
        bob.wait("game_end")
        assert bob.answer("rematch", table=table)["reason"] == "Ann is not taking your rematches"
        assert bob.answer("invite", to="Ann", game="ginrummy")["reason"] == "Ann is not taking your invitations"
        assert ann.answer("invite", to="Bob", game="ginrummy")["reason"] == "you have blocked Bob: unblock them first"
        # Never paired: both seek the same game, neither is paired with the other.
        assert ann.answer("seek", game="ginrummy")["type"] == "seeking"
        assert bob.answer("seek", game="ginrummy")["type"] == "seeking"
        assert ann.answer("cancel_seek")["type"] == "seek_closed" and bob.answer("cancel_seek")["type"] == "seek_closed"
        # Private: Bob is never told of it, nor are the room's lists.
        said = " ".join(str(m) for m in bob.got + [bob.answer("profile", name="Ann"), bob.answer("lobby")])
        assert "block" not in said.lower()
        assert bob.answer("blocks")["names"] == []
        ann.close()
        bob.close()
        server.stop()
        server.start()                                                   # the store keeps it
        ann = Client(server.url)
        ann.enter("Ann")
        assert ann.answer("blocks")["names"] == ["Bob"]
        assert ann.answer("unblock", name="Bob")["names"] == []
        ann.close()
    finally:
        server.stop()


def test_play_now_on_the_lobby_looks_cancels_and_opens_the_house_bots_table(room: RoomProcess, tmp_path: Path,
                                                                            headless_pyxel: object) -> None:
    """The GinRummy program's lobby by its keys: PLAY NOW (N) looks ("Looking for a
    game... (0:00)", the box CANCEL), CANCEL (C) stops it; PLAY NOW again, and after the
    room's wait the game screen opens at House Standard's table (the player's LEVEL)."""
    from port.main.roompages import LobbyPage
    from tests.ginrummy.helpers import open_game
    from tests.room.scenes import log_in, until

    Client(room.url).enter("Sam", "pw4")
    d = open_game(tmp_path, room=room.url, name="Sam")
    log_in(d, "pw4")
    lobby = d.controller
    assert isinstance(lobby, LobbyPage) and lobby.session is not None
    session = lobby.session
    d.key("N")
    until(d, lambda: (session.seeking or {}).get("seconds") == SEEK_WAIT, what="the room looking")
    assert lobby.status()[0].startswith("Looking for a game... (0:0")
    assert lobby.items[lobby.seek_box][1:3] == ("CANCEL", "C")
    d.key("C")
    assert session.seeking is None and lobby.items[lobby.seek_box][1:3] == ("PLAY NOW", "N")
    d.key("N")
    until(d, lambda: not isinstance(d.controller, LobbyPage), seconds=SEEK_WAIT + 10, what="the house bot's table")
    link = next(iter(session.tables.values()))
    assert link.opponent == "House Standard" and link.game == "ginrummy"
    link.resign()
    session.close()


def test_with_redis_seeks_pair_across_processes_and_a_house_bot_plays_where_its_game_was_made(
        tmp_path: Path, redis_url: str) -> None:
    one = RoomProcess(tmp_path / "one", "--redis", redis_url, "--seek-wait", "30").start()
    two = RoomProcess(tmp_path / "two", "--redis", redis_url, "--seek-wait", "30").start()
    try:
        ann, bob = Client(one.url), Client(two.url)
        ann.enter("Ann")
        bob.enter("Bob")
        assert ann.answer("seek", game="cribbage", rules={"limit": 61})["type"] == "seeking"
        bob.send("seek", game="cribbage", clock=0)                     # on the other process: fits
        assert bob.wait("seek_closed")["opponent"] == "Ann" and ann.wait("seek_closed")["opponent"] == "Bob"
        start = ann.wait("start")
        assert bob.wait("start")["table"] == start["table"] and start["rules"]["limit"] == 61
        ann.send("resign", table=start["table"])
        bob.send("invite", to="House Easy", game="ginrummy", rules={"score_limit": 0})
        table = bob.wait("start")["table"]
        assert play(bob, {table: "ginrummy"})[0]["how"] == "played"
        assert "a worker process" in two.log() and "a worker process" not in one.log()
    finally:
        one.stop()
        two.stop()
