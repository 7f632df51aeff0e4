"""The room's door in the open (issue 37): what one hostile player could do to the others
by guessing passwords, holding connections, making guests and sending invitations, and
the smaller holes (withdrawing another's proposal, guests' names, logging out, a new
password, a rating farmed by resigning at once), each against a real room on a real
port with real clients. The room trusts 127.0.0.1 as its reverse proxy here, so each
client says its own address in X-Forwarded-For, as behind nginx (docs/room.md,
"Hosting a room")."""
from __future__ import annotations

import resource
import socket
import sqlite3
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from port.main.roomsession import RoomSession
from port.room.server import forwarded, networks
from tests.room.helpers import Client, RoomProcess, polled


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory):
    with RoomProcess(tmp_path_factory.mktemp("door") / "room", "--trusted-proxy", "127.0.0.1") as server:
        yield server


def at(room: RoomProcess, address: str) -> Client:
    """A client whose address, as the trusted proxy says it, is ``address``."""
    return Client(room.url, forwarded=address)


def closed(c: Client, timeout: float = 5.0) -> None:
    """The room closes ``c``: nothing more comes but the close."""
    with pytest.raises(ConnectionClosed):
        while True:
            c.ws.recv(timeout=timeout)


def accounts(room: RoomProcess) -> set[str]:
    """The accounts in ROOM.DB, read beside the running room (WAL lets a reader in)."""
    db = sqlite3.connect(f"file:{room.data / 'ROOM.DB'}?mode=ro", uri=True)
    try:
        return {r[0] for r in db.execute("SELECT name FROM accounts")}
    finally:
        db.close()


def soon(check, seconds: float = 3.0) -> None:    # noqa: ANN001 - a predicate
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


# ---- 4. guessing passwords: throttled, nobody locked out --------------------------------------

def test_a_guesser_delays_itself_and_never_locks_the_owner_out(room: RoomProcess) -> None:
    home = at(room, "198.51.100.7")
    token = home.answer("register", name="Dora", password="right")["token"]
    home.close()
    guesser = at(room, "203.0.113.9")
    reasons = [guesser.answer("login", name="Dora", password=f"guess{i}")["reason"] for i in range(6)]
    assert reasons[:5] == ["wrong password for Dora"] * 5
    assert reasons[5] == "too many wrong passwords for Dora: try again in 1 s"
    time.sleep(1.05)
    assert guesser.answer("login", name="Dora", password="guess6")["reason"] == "wrong password for Dora"
    assert guesser.answer("login", name="Dora", password="guess7")["reason"] == \
        "too many wrong passwords for Dora: try again in 2 s"          # each failure more doubles it
    # The owner, from where it logged in before, or anywhere with a token of its account: in.
    assert at(room, "198.51.100.7").answer("login", name="Dora", password="right")["type"] == "welcome"
    assert at(room, "192.0.2.1").answer("login", name="Dora", password="right", token=token)["type"] == "welcome"
    # From a new place without a token the name is held, as the guesser is.
    assert "too many wrong passwords for Dora: try again in" in \
        at(room, "192.0.2.2").answer("login", name="Dora", password="right")["reason"]
    # Asking for a taken name again and again guesses no password: it holds nothing.
    squatter = at(room, "203.0.113.10")
    assert [squatter.answer("register", name="Dora", password="x")["reason"] for _ in range(6)] == \
        ["the name Dora is taken"] * 6
    assert squatter.answer("register", name="Zed", password="zed")["type"] == "welcome"


def test_an_address_guessing_many_names_holds_only_itself(room: RoomProcess) -> None:
    for name, address in (("Spray", "198.51.100.100"), ("Eli", "198.51.100.101"), ("Fay", "203.0.113.50")):
        assert at(room, address).answer("register", name=name, password="right")["type"] == "welcome"
    bad = at(room, "203.0.113.50")
    # A name with no account guesses no password, and counts nothing (a bot logs in so before it registers).
    assert [bad.answer("login", name=f"Nobody{i}", password="x")["reason"] for i in range(8)] == \
        [f"there is no account Nobody{i}: register it first" for i in range(8)]
    assert [bad.answer("login", name="Spray", password=f"guess{i}")["reason"] for i in range(5)] == \
        ["wrong password for Spray"] * 5
    assert bad.answer("login", name="Eli", password="guess")["reason"] == \
        "too many failed logins from your address: try again in 1 s"
    # Everyone else logs in (behind an untrusted proxy they would all be that address),
    assert at(room, "198.51.100.101").answer("login", name="Eli", password="right")["type"] == "welcome"
    # and so does a player behind the guessing address, from where it logged in before.
    assert at(room, "203.0.113.50").answer("login", name="Fay", password="right")["type"] == "welcome"


def test_the_forwarded_address_is_believed_only_from_a_trusted_proxy() -> None:
    proxy = networks(["127.0.0.1", "10.0.0.0/8,::1"])
    assert forwarded("127.0.0.1", ["203.0.113.9"], proxy) == "203.0.113.9"
    assert forwarded("198.51.100.1", ["203.0.113.9"], proxy) == "198.51.100.1"       # not from the proxy
    assert forwarded("127.0.0.1", ["6.6.6.6, 203.0.113.9"], proxy) == "203.0.113.9"    # the client's own words: no
    assert forwarded("127.0.0.1", ["203.0.113.9", "10.1.2.3"], proxy) == "203.0.113.9"  # through two proxies
    assert forwarded("::ffff:127.0.0.1", ["203.0.113.9"], proxy) == "203.0.113.9"
    assert forwarded("127.0.0.1", [], proxy) == "127.0.0.1"
    assert forwarded("127.0.0.1", ["nginx"], proxy) == "127.0.0.1"
    assert forwarded("127.0.0.1", ["203.0.113.9"], ()) == "127.0.0.1"
    with pytest.raises(ValueError, match="'nginx' is not an address or a network"):
        networks(["nginx"])


# ---- 5. connections --------------------------------------------------------------------------------

def test_connections_per_address_and_the_time_to_log_in(tmp_path: Path) -> None:
    # 2 s to log in: time enough, on a loaded machine, for what must happen before it.
    with RoomProcess(tmp_path / "room", "--connections-per-address", "3", "--login-time", "2") as room:
        first = [Client(room.url) for _ in range(3)]
        first[0].answer("guest")
        # No proxy is trusted: the header a client writes itself changes nothing.
        fourth = Client(room.url, forwarded="198.51.100.99")
        assert fourth.wait("error")["reason"] == "too many connections from your address (3 at most): close one first"
        closed(fourth)
        page = RoomSession(room.url)                 # what a program's page says of it
        page.login("Gus", None)
        polled([page], lambda: page.status == "closed")
        assert page.error == "Too many connections from your address (3 at most): close one first."
        for c in first[1:]:                  # silent past the time to log in: closed, said why
            assert c.wait("error", timeout=4)["reason"] == "log in within 2 s: this connection is closed"
            closed(c)
        assert first[0].answer("ping", t=1)["type"] == "pong"        # logged in: stays
        assert Client(room.url).answer("ping", t=2)["type"] == "pong"


def test_the_limit_counts_a_proxys_clients_by_their_own_address(room: RoomProcess) -> None:
    many = [at(room, "203.0.113.77") for _ in range(16)]
    extra = at(room, "203.0.113.77")
    assert "too many connections from your address (16 at most)" in extra.wait("error")["reason"]
    assert at(room, "203.0.113.78").answer("ping", t=1)["type"] == "pong"
    for c in many:
        c.close()


def test_out_of_descriptors_one_line_and_the_room_serves_on(tmp_path: Path) -> None:
    def low() -> None:       # the room's process: soft 32, hard 64 (the room raises it to 64)
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 64))

    with RoomProcess(tmp_path / "room", "--connections-per-address", "0", preexec=low) as room:
        assert room.lines[2].startswith("cardroom: descriptors: 64 (raised from 32)"), room.lines
        honest = Client(room.url)
        honest.enter("Hal")
        host, port = room.url.removeprefix("ws://").split(":")
        # Each socket the room accepts is a descriptor: 80 are more than it has.
        socks = [socket.create_connection((host, int(port))) for _ in range(80)]
        time.sleep(1.5)                      # the room counts its descriptors once a second
        assert honest.answer("ping", t=1, timeout=2)["type"] == "pong"
        for s in socks:
            s.close()
        time.sleep(1.2)                      # asyncio tries to accept again after a second
        Client(room.url).enter("Ivy")
        log = room.log()
        assert log.count("out of file descriptors") == 1 and "Traceback" not in log, log[-3000:]


# ---- 6. guests and invitations ----------------------------------------------------------------

def test_guests_from_one_address_are_limited_and_go_when_they_leave(room: RoomProcess) -> None:
    made = [at(room, "198.51.100.30") for _ in range(11)]
    welcomes = [c.answer("guest") for c in made]
    assert [w["type"] for w in welcomes] == ["welcome"] * 10 + ["error"]
    assert welcomes[10]["reason"].startswith("too many new guests from your address: try again in")
    assert at(room, "198.51.100.31").answer("guest")["type"] == "welcome"
    name, token = welcomes[0]["name"], welcomes[0]["token"]
    assert name in accounts(room)
    made[0].send("bye")
    closed(made[0])
    soon(lambda: name not in accounts(room))
    assert "that session has ended" in at(room, "198.51.100.32").answer("resume", token=token)["reason"]
    for c in made[1:]:
        c.close()


def test_a_guest_at_a_running_table_stays_until_it_ends_and_its_game_stays_named(room: RoomProcess) -> None:
    guest = at(room, "198.51.100.40")
    name = guest.answer("guest")["name"]
    host = at(room, "198.51.100.41")
    host.answer("guest")
    guest.send("invite", to=host.got[0]["name"], game="ginrummy", clock=0)
    host.send("accept", id=host.wait("invitation")["id"])
    table = host.wait("start")["table"]
    guest.close()
    host.wait("away")
    time.sleep(0.2)
    assert name in accounts(room)            # seated at a running table: kept for its grace
    host.send("resign", table=table)
    end = host.wait("game_end")
    assert end["rated"] is False and end["unrated"] == "a guest's game is not rated"
    soon(lambda: name not in accounts(room))
    games = host.answer("games")["games"]
    assert games[0]["players"] == [name, host.got[0]["name"]]       # the game stays, named


def test_a_player_has_at_most_ten_invitations_waiting(room: RoomProcess) -> None:
    kay = at(room, "198.51.100.50")
    kay_name = kay.answer("guest")["name"]
    senders = [at(room, f"198.51.100.{51 + i}") for i in range(2)]
    for s in senders:
        s.answer("guest")
    replies = [senders[i // 6].answer("invite", to=kay_name, game="cribbage") for i in range(11)]
    assert [r["type"] for r in replies] == ["invitation"] * 10 + ["error"]
    assert replies[10]["reason"] == f"{kay_name} has 10 invitations waiting already: try again later"
    time.sleep(0.2)
    assert len([m for m in kay.drain(0.1) if m["type"] == "invitation"]) == 10


# ---- 8. the smaller holes ----------------------------------------------------------------------------

def test_only_the_proposer_withdraws_and_only_the_other_declines(room: RoomProcess) -> None:
    ann, bob = at(room, "198.51.100.60"), at(room, "198.51.100.61")
    ann_name, bob_name = ann.answer("guest")["name"], bob.answer("guest")["name"]
    inv = ann.answer("invite", to=bob_name, game="cribbage")["id"]
    assert bob.answer("cancel", id=inv)["reason"] == f"you cannot withdraw {ann_name}'s proposal: decline it"
    assert ann.answer("decline", id=inv)["reason"] == "you cannot decline your own proposal: withdraw it (cancel)"
    ann.send("cancel", id=inv)
    assert bob.wait("invitation_closed")["why"] == f"withdrawn by {ann_name}"


def test_nobody_registers_a_guests_name(room: RoomProcess) -> None:
    c = at(room, "198.51.100.62")
    for name in ("Guest1234", "guest77", "GUEST5"):
        assert c.answer("register", name=name, password="pw")["reason"] == \
            f"names like {name} are the guests': choose another"
    assert c.answer("register", name="Guestly", password="pw")["type"] == "welcome"


def test_logout_ends_the_session_and_a_new_password_ends_them_all(room: RoomProcess) -> None:
    c = at(room, "198.51.100.70")
    first = c.answer("register", name="Lou", password="old")["token"]
    c.send("bye")
    closed(c)
    again = at(room, "198.51.100.70")
    assert again.answer("resume", token=first)["type"] == "welcome"            # a bye is a drop
    assert again.answer("logout")["type"] == "bye"
    closed(again)
    assert again.ws.close_code == 1000
    assert "that session has ended" in at(room, "198.51.100.70").answer("resume", token=first)["reason"]
    other = at(room, "198.51.100.71").answer("login", name="Lou", password="old")["token"]
    me = at(room, "198.51.100.70")
    me.answer("login", name="Lou", password="old")
    assert me.answer("password", old="wrong", new="new")["reason"] == \
        "wrong password for Lou: the password is unchanged"
    changed = me.answer("password", old="old", new="new")
    assert changed["type"] == "password_changed"
    assert "that session has ended" in at(room, "198.51.100.70").answer("resume", token=other)["reason"]
    assert at(room, "198.51.100.70").answer("resume", token=changed["token"])["type"] == "welcome"
    assert at(room, "198.51.100.70").answer("login", name="Lou", password="old")["reason"] == "wrong password for Lou"
    assert at(room, "198.51.100.70").answer("login", name="Lou", password="new")["type"] == "welcome"


def test_a_game_without_a_move_of_each_player_is_not_rated(room: RoomProcess) -> None:
    mia, ned = at(room, "198.51.100.80"), at(room, "198.51.100.81")
    mia.answer("register", name="Mia", password="pw")
    ned.answer("register", name="Ned", password="pw")
    mia.answer("invite", to="Ned", game="ginrummy", clock=0)
    ned.send("accept", id=ned.wait("invitation")["id"])
    table = ned.wait("start")["table"]
    ned.send("resign", table=table)           # at once: the farm's move
    end = mia.wait("game_end")
    assert end["rated"] is False and end["unrated"] == "neither player made a move: an aborted game is not rated"
    assert end["ratings"]["Mia"]["change"] == 0 and end["ratings"]["Ned"]["change"] == 0
    record = mia.answer("games")["games"][0]["result"]
    assert record["rated"] is False and record["unrated"] == end["unrated"]
    # Each moves once, then a resignation counts.
    mia.send("rematch", table=table)
    ned.send("rematch", table=table)
    table = ned.wait("start")["table"]         # Ned is seat 0 now: it moves first
    ned.send("move", table=table, move={"act": "stock"})
    ask = ned.wait(lambda m: m.get("type") == "ask" and m.get("table") == table and m["decision"] == "discard")
    ned.send("move", table=table, move={"act": "discard", "card": ask["view"]["hand"][0]})
    mia.wait(lambda m: m.get("type") == "ask" and m.get("table") == table and m["decision"] == "draw")
    mia.send("move", table=table, move={"act": "stock"})
    mia.wait(lambda m: m.get("type") == "ask" and m.get("table") == table and m["decision"] == "discard")
    mia.send("resign", table=table)
    end = ned.wait(lambda m: m.get("type") == "game_end" and m.get("table") == table)
    assert end["rated"] is True and "unrated" not in end and end["ratings"]["Ned"]["change"] > 0
