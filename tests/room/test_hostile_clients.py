"""The hostile-client list: what a malformed, hostile or careless client sends, and what
the room answers. Each kind gets one error message naming what is wrong (or, where
said, is slowed down or closed), and the connection stays usable: after each, a ping
still gets its pong, on the same connection. docs/room.md has the same list.
"""
from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from tests.room.helpers import Client, RoomProcess

V = '"v":1,'
PRE_LOGIN: list[tuple[str, str | bytes, str]] = [
    ("not JSON", "hello", "this one is not JSON"),
    ("a JSON list", "[1, 2]", "one JSON object, not a list"),
    ("a JSON string", '"ping"', "not a string"),
    ("a JSON number", "42", "not a number"),
    ("JSON null", "null", "not a null"),
    ("no version", '{"type":"ping"}', 'send "v": 1'),
    ("another version", '{"v":2,"type":"ping"}', 'send "v": 1'),
    ("the version as text", '{"v":"1","type":"ping"}', 'send "v": 1'),
    ("no type", '{"v":1}', 'needs a "type"'),
    ("a type that is a number", '{"v":1,"type":5}', 'needs a "type", a string'),
    ("an unknown type", '{"v":1,"type":"explode"}', "there is no message type 'explode'"),
    ("a 5,000-character type", '{"v":1,"type":"' + "x" * 5000 + '"}', "there is no message type 'xxxxxxxxxxxxxxxxxxxx...'"),
    ("an unknown field", '{' + V + '"type":"login","name":"a","password":"b","admin":true}', "has no field 'admin'"),
    ("a missing field", '{' + V + '"type":"login","name":"a"}', "needs its 'password' field"),
    ("a name that is a number", '{' + V + '"type":"login","name":7,"password":"b"}', "'name' is a string, not a number"),
    ("a name of 17 characters", '{' + V + '"type":"login","name":"' + "a" * 17 + '","password":"b"}', "1 to 16 characters long, not 17"),
    ("an empty name", '{' + V + '"type":"login","name":"","password":"b"}', "1 to 16 characters long, not 0"),
    ("a control character", '{' + V + '"type":"login","name":"a\\u0000b","password":"b"}', "holds a control character"),
    ("a 10,000-character password", '{' + V + '"type":"login","name":"a","password":"' + "p" * 10000 + '"}', "1 to 128 characters"),
    ("a frame over 16 KiB", '{' + V + '"type":"ping","x":"' + "y" * 17000 + '"}', "at most 16384 bytes"),
    ("bytes that are not UTF-8", b"\xff\xfe{}", "JSON text in UTF-8"),
    ("NaN", '{' + V + '"type":"ping","t":NaN}', "not JSON"),
    ("Infinity", '{' + V + '"type":"ping","t":Infinity}', "not JSON"),
    ("nesting 7,000 deep", '{' + V + '"type":"ping","t":' + "[" * 7000 + "]" * 7000 + "}", "not JSON"),
    ("a fraction for a whole number", '{' + V + '"type":"game","number":1.5}', "'number' is a whole number"),
    ("a number out of range", '{' + V + '"type":"ping","t":' + str(2**60) + "}", "'t' is -9007199254740992 to"),
    ("true for a number", '{' + V + '"type":"game","number":true}', "'number' is a whole number"),
    ("the lobby before logging in", '{' + V + '"type":"lobby"}', "log in first"),
    ("a move before logging in", '{' + V + '"type":"move","table":"t1","move":{}}', "log in first"),
    ("a stale session token", '{' + V + '"type":"resume","token":"' + "a" * 40 + '"}', "that session has ended"),
    ("a name of other characters", '{' + V + '"type":"register","name":"<script>","password":"b"}', "only, not < >"),
    ("a path for a name", '{' + V + '"type":"register","name":"../../etc","password":"b"}', "not ."),
]

LOGGED_IN: list[tuple[str, dict[str, Any], str]] = [
    ("an invitation to oneself", {"type": "invite", "to": "Ann", "game": "ginrummy"}, "cannot invite yourself"),
    ("an invitation to nobody", {"type": "invite", "to": "Nobody", "game": "ginrummy"}, "Nobody is not in the room"),
    ("a game there is not", {"type": "invite", "to": "Bob", "game": "chess"}, "is one of ginrummy, cribbage"),
    ("rules that are a list", {"type": "invite", "to": "Bob", "game": "ginrummy", "rules": [1]}, "is a JSON object, not a list"),
    ("a rule there is not", {"type": "invite", "to": "Bob", "game": "ginrummy", "rules": {"jokers": True}}, "GinRummy has no rule 'jokers'"),
    ("a rule of the wrong type", {"type": "invite", "to": "Bob", "game": "ginrummy", "rules": {"score_limit": "100"}}, "is a whole number, not '100'"),
    ("a rule out of range", {"type": "invite", "to": "Bob", "game": "cribbage", "rules": {"limit": 100}}, "the score limit is 121 or 61, not 100"),
    ("rules no source describes", {"type": "invite", "to": "Bob", "game": "ginrummy", "rules": {"doublers": ["SPADES"]}}, "need the knock card from a second deck"),
    ("a nested rule", {"type": "invite", "to": "Bob", "game": "ginrummy", "rules": {"a": {"b": 1}}}, "at most 40 plain values"),
    ("a clock below zero", {"type": "invite", "to": "Bob", "game": "ginrummy", "clock": -1}, "'clock' is 0 to 3600"),
    ("a clock of a year", {"type": "invite", "to": "Bob", "game": "ginrummy", "clock": 31536000}, "'clock' is 0 to 3600"),
    ("someone else's invitation", {"type": "accept", "id": "ix"}, "there is no invitation ix for you"),
    ("a table one does not sit at", {"type": "move", "table": "t-none", "move": {"act": "stock"}}, "you are not at table t-none"),
    ("a chat at a strange table", {"type": "chat", "table": "t-none", "text": "hi"}, "you are not at table t-none"),
    ("resigning a strange table", {"type": "resign", "table": "t-none"}, "you are not at table t-none"),
    ("a sync from -1", {"type": "sync", "table": "t-none", "since": -1}, "'since' is 0 to"),
    ("game number 0", {"type": "game", "number": 0}, "'number' is 1 to"),
    ("a game there is not", {"type": "game", "number": 424242}, "there is no game 424242"),
    ("a leaderboard of a game there is not", {"type": "top", "game": "chess"}, "is one of ginrummy, cribbage"),
    ("a leaderboard too far down", {"type": "top", "game": "cribbage", "start": 10**6}, "is 0 to 10000"),
    ("a profile of nobody", {"type": "profile", "name": "Nobody"}, "there is no player Nobody"),
    ("a second name on one connection", {"type": "register", "name": "Zed", "password": "pw"}, "logged in as Ann already"),
    ("a seek of a game there is not", {"type": "seek", "game": "chess"}, "is one of ginrummy, cribbage"),
    ("a seek with a rule there is not", {"type": "seek", "game": "ginrummy", "rules": {"jokers": True}}, "GinRummy has no rule 'jokers'"),
    ("a seek's house bot there is not", {"type": "seek", "game": "cribbage", "level": "master"}, "is one of easy, standard, expert"),
    ("cancelling no seek", {"type": "cancel_seek"}, "you are not looking for a game"),
    ("a house bot invited to rules no source describes", {"type": "invite", "to": "House Easy", "game": "ginrummy",
                                                          "rules": {"doublers": ["SPADES"]}}, "need the knock card from a second deck"),
    ("blocking oneself", {"type": "block", "name": "Ann"}, "you cannot block yourself"),
    ("blocking nobody", {"type": "block", "name": "Nobody"}, "there is no player Nobody"),
    ("blocking a house bot", {"type": "block", "name": "House Easy"}, "House Easy is a house bot"),
    ("a name too long to block", {"type": "unblock", "name": "x" * 17}, "is 1 to 16 characters long, not 17"),
]

AT_THE_TABLE: list[tuple[str, dict[str, Any], str]] = [
    ("an act there is not", {"act": "cheat"}, "a move's \"act\" is one of take, decline, stock"),
    ("a move that is text", "stock", "'move' is a JSON object, not a string"),
    ("another game's act", {"act": "lay_away", "cards": ["AS", "2S"]}, "a move's \"act\" is one of"),
    ("a field a move does not have", {"act": "stock", "peek": True}, "a move has no field 'peek'"),
    ("a card that is not a card", {"act": "discard", "card": "ZZ"}, "'ZZ' is not a card"),
    ("a card that is a number", {"act": "discard", "card": 12}, "a card's text"),
    ("discarding before drawing", {"act": "discard", "card": "AS"}, "Ann cannot discard now: it must draw first"),
    ("knocking out of phase", {"act": "knock"}, "must draw first"),
    ("undoing a draw never made", {"act": "undo"}, "must draw first"),
]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory):
    with RoomProcess(tmp_path_factory.mktemp("hostile") / "room") as server:
        yield server


@pytest.fixture
def anon(room: RoomProcess):
    """A connection not logged in, one a test: the room closes one that has not logged in
    within 10 s, and a module of these takes longer on a loaded machine."""
    c = Client(room.url)
    yield c
    c.close()


@pytest.fixture(scope="module")
def pair(room: RoomProcess) -> tuple[Client, Client, str]:
    ann, bob = Client(room.url), Client(room.url)
    ann.enter("Ann")
    bob.enter("Bob")
    ann.send("invite", to="Bob", game="ginrummy", rules={"score_limit": 0}, clock=0)
    bob.send("accept", id=bob.wait("invitation")["id"])
    table = ann.wait("start")["table"]
    bob.wait("start")
    return ann, bob, table


def _usable(c: Client) -> None:
    assert c.answer("ping", t=7) == {"v": 1, "type": "pong", "t": 7}


@pytest.mark.parametrize("frame, expected", [p[1:] for p in PRE_LOGIN], ids=[p[0] for p in PRE_LOGIN])
def test_a_malformed_message_gets_one_error_and_the_connection_stays(anon: Client, frame: str | bytes,
                                                                    expected: str) -> None:
    anon.raw(frame)
    error = anon.wait("error")
    assert expected in error["reason"], error
    assert len(error["reason"]) < 200
    _usable(anon)


@pytest.mark.parametrize("message, expected", [p[1:] for p in LOGGED_IN], ids=[p[0] for p in LOGGED_IN])
def test_a_request_the_room_refuses(pair: tuple[Client, Client, str], message: dict[str, Any], expected: str) -> None:
    ann = pair[0]
    ann.raw(json.dumps({"v": 1, **message}))
    error = ann.wait("error")
    assert expected in error["reason"], error
    _usable(ann)


@pytest.mark.parametrize("move, expected", [p[1:] for p in AT_THE_TABLE], ids=[p[0] for p in AT_THE_TABLE])
def test_an_illegal_move_changes_nothing(pair: tuple[Client, Client, str], move: Any, expected: str) -> None:
    ann, bob, table = pair
    ann.drain(0.05)
    ann.raw(json.dumps({"v": 1, "type": "move", "table": table, "move": move}))
    error = ann.wait("error")
    # A move refused by the rules names its table; one not of a move's shape is refused at the edge.
    assert expected in error["reason"] and error.get("table") in (table, None), error
    ann.send("sync", table=table, since=0)
    after = ann.drain(0.2)
    assert [m["type"] for m in after if m.get("table") == table and "seq" in m] == ["deal", "ask"]
    _usable(ann)


def test_a_move_out_of_turn_and_a_card_not_held(pair: tuple[Client, Client, str]) -> None:
    ann, bob, table = pair
    assert "Bob cannot draw from the stock now: it is Ann's turn" in bob.answer("move", table=table,
                                                                                move={"act": "stock"})["reason"]
    ann.send("move", table=table, move={"act": "stock"})
    ask = ann.wait(lambda m: m.get("type") == "ask" and m["decision"] == "discard")
    held = set(ask["view"]["hand"])
    other = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS",
                             "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH")
                 if c not in held)
    reply = ann.answer("move", table=table, move={"act": "discard", "card": other})
    assert reply["type"] == "error" and f"Ann cannot discard {other}: it is not in Ann's hand" in reply["reason"]
    _usable(ann)


def test_a_flood_is_slowed_to_the_rate_and_slows_nobody_else(room: RoomProcess) -> None:
    """Past 20 messages a second (after a burst of 40) a connection's messages wait
    their turn: nothing is lost, its sender is slowed, the others are not."""
    c, other = Client(room.url), Client(room.url)
    t0 = time.monotonic()
    for i in range(80):
        c.send("ping", t=i)
    time.sleep(0.3)
    t1 = time.monotonic()
    _usable(other)
    assert time.monotonic() - t1 < 0.5
    got = [c.wait("pong", timeout=5)["t"] for _ in range(80)]
    assert got == list(range(80))
    assert time.monotonic() - t0 >= (80 - 40) / 20 - 0.1
    _usable(c)


def test_wrong_passwords_hold_the_guesser_back_more_and_more(room: RoomProcess) -> None:
    """After 5 wrong passwords for a name (10 from where it logged in before, as here),
    each try waits 1 s, then 2, 4, ... (tests/room/test_door.py: the owner is never
    locked out)."""
    c = Client(room.url)
    assert c.answer("register", name="Dora", password="right")["type"] == "welcome"
    d = Client(room.url)
    reasons = [d.answer("login", name="Dora", password="wrong")["reason"] for _ in range(11)]
    assert reasons[:10] == ["wrong password for Dora"] * 10
    assert reasons[10] == "too many wrong passwords for Dora: try again in 1 s"
    _usable(d)


def test_a_text_frame_that_is_not_utf8_gets_one_error(anon: Client) -> None:
    """websockets closes the connection for such a frame (1007); the room reads it as
    bytes and answers it, as it does a binary frame."""
    anon.ws.send(b'{"v":1,"type":"ping","t":\xff}', text=True)
    assert anon.wait("error")["reason"] == "a message is JSON text in UTF-8"
    _usable(anon)


def test_a_name_with_quotes_is_kept_as_written(room: RoomProcess) -> None:
    """Nothing a client sends reaches SQL but as a parameter: a name with quotes and
    dashes is an ordinary name."""
    c = Client(room.url)
    c.enter('O"Neil -- x')
    lobby = c.answer("lobby")
    assert 'O"Neil -- x' in [p["name"] for p in lobby["players"]]
    again = Client(room.url)
    assert again.answer("login", name='O"Neil -- x', password="pw")["type"] == "welcome"


def test_a_frame_past_a_mebibyte_closes_that_connection_only(room: RoomProcess) -> None:
    c = Client(room.url)
    c.raw("x" * (1024 * 1024 + 10))
    with pytest.raises(Exception):
        c.answer("ping", t=1)
    _usable(Client(room.url))


def test_garbage_on_the_socket_does_not_stop_the_room(room: RoomProcess) -> None:
    host, port = room.url.removeprefix("ws://").split(":")
    with socket.create_connection((host, int(port))) as s:
        s.sendall(b"GARBAGE / NOT-HTTP\r\n\r\n" + bytes(range(256)))
        s.settimeout(2)
        try:
            s.recv(100)
        except OSError:
            pass
    with socket.create_connection((host, int(port))) as s:
        s.close()                                    # and one that says nothing at all
    _usable(Client(room.url))


def test_the_list_has_forty_kinds() -> None:
    # The move out of turn, the card not held, the flood, wrong passwords, a text frame
    # not in UTF-8, quotes, the big frame, garbage and a silent socket: 81 in all
    # (docs/room.md).
    special = 9
    assert len(PRE_LOGIN) + len(LOGGED_IN) + len(AT_THE_TABLE) + special == 81
