"""Watching a table: the public stream never holds a card that was not public then.

In-process over 100 whole games (the room's own drivers, EASY at both seats, as
tests/room/test_hidden.py plays them): every message a watcher would get is checked,
at the moment it is said, against the cards either seat may not know then (a card is
public when both may know it), and a watcher's stream that leaks is caught. Then a real
room: a watcher who joins mid-game gets the public stream from its start, message for
message what the two seats' streams give, and the table live; the players hear how many
watch; nothing of their chat reaches the watcher; the limits hold.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from port.cribbage.levels import load_player as crib_player
from port.ginrummy.levels import load_player as gin_player
from port.protocol import dumps
from port.room.limits import WATCHED_MAX
from port.room.seat import seat_for
from port.room.watch import PUBLIC, public_messages
from tests.room.helpers import Client, RoomProcess, stream
from tests.room.test_hidden import WatchedCrib, WatchedGin, _without_knock_card, cards_in

Build = Callable[[str, Sequence[tuple[int, Mapping[str, Any]]]], list[dict[str, Any]]]


def watch_game(driver_cls: type, rules: dict[str, Any], seed: int, load: Any,
               build: Build = public_messages) -> tuple[int, list[str], set[str]]:
    """A whole game between two EASY seats, watched; (watcher's messages checked, leaks,
    the cards the watcher was shown)."""
    driver = driver_cls(driver_cls.check_rules(rules), seed)
    seats = [seat_for(driver.game, load("easy", seed)), seat_for(driver.game, load("easy", seed + 1))]
    checked, leaks, seen = 0, [], set()
    while True:
        out, driver.out = driver.out, []
        # What each seat may not know when each message is said; a watcher's message is
        # made of the n-th message to each seat: it may hold neither seat's secrets.
        secrets: list[list[set[str]]] = [[], []]
        for seat, m in out:
            hidden = m.pop("_hidden")
            if m["type"] != "ask":
                secrets[seat].append(hidden)
        unknown = [a | b for a, b in zip(*secrets)]
        public = build(driver.game, out)
        assert len(public) == len(unknown)
        for m, hidden in zip(public, unknown):
            wire = json.loads(dumps(m))
            cards = cards_in(_without_knock_card(wire))
            seen |= cards
            leak = cards & hidden
            if leak:
                leaks.append(f"seed {seed} {m['type']}: {sorted(leak)}")
            checked += 1
        moves = [(seat, move) for seat, m in out if (move := seats[seat].feed(m)) is not None]
        if not moves:
            return checked, leaks, seen
        driver.apply(*moves[0])


def test_no_message_to_a_watcher_of_100_games_holds_a_card_not_public() -> None:
    checked, leaks = 0, []
    for seed in range(50):
        rules = {"score_limit": 0} if seed % 2 else {"score_limit": 0, "knock_deck": True, "upcard_offer": True}
        n, found, seen = watch_game(WatchedGin, rules, seed, gin_player)
        # ... and it is shown what is public: the discards, and both hands at the hand's end
        assert len(seen) >= 20, (seed, sorted(seen))
        checked, leaks = checked + n, leaks + found
        n, found, seen = watch_game(WatchedCrib, {"limit": 61}, seed, crib_player)
        assert len(seen) >= 20, (seed, sorted(seen))      # the play, the starters, the shows
        checked, leaks = checked + n, leaks + found
    assert leaks == []
    assert checked > 4_000


def test_the_check_finds_a_leaky_watcher_stream() -> None:
    """The check can fail: a watcher given seat 0's own messages (its hand in every
    view) is caught at once, in both games."""
    def leaky(game: str, out: Sequence[tuple[int, Mapping[str, Any]]]) -> list[dict[str, Any]]:
        return [dict(m) for seat, m in out if seat == 0 and m["type"] != "ask"]

    _, leaks, _ = watch_game(WatchedGin, {"score_limit": 0}, 3, gin_player, leaky)
    assert leaks and leaks[0].startswith("seed 3 deal")
    _, leaks, _ = watch_game(WatchedCrib, {"limit": 61}, 3, crib_player, leaky)
    assert leaks and leaks[0].startswith("seed 3 deal")


# ---- a real room ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with RoomProcess(tmp_path_factory.mktemp("watchroom")) as server:
        yield server


class Table:
    """Two test clients at a table, each playing its seat through the player interface
    (EASY), one move at a time, while the test looks on."""

    def __init__(self, url: str, names: tuple[str, str], game: str, rules: dict[str, Any], clock: int = 0,
                 guests: bool = False, bots: bool = False) -> None:
        self.game = game
        self.clients = [Client(url), Client(url)]
        for c, name in zip(self.clients, names):
            if guests:
                c.name = c.answer("guest")["name"]
                c.wait("tables")
            else:
                c.enter(name, bot=bots)
        a, b = self.clients
        a.send("invite", to=b.name, game=game, rules=rules, clock=clock)
        b.send("accept", id=b.wait("invitation")["id"])
        self.id = a.wait("start")["table"]
        b.wait("start")
        load = gin_player if game == "ginrummy" else crib_player
        self.seats = [seat_for(game, load("easy", 1)), seat_for(game, load("easy", 2))]
        self.moves = 0
        self.over = [False, False]

    def play(self, moves: int = 10**6) -> None:
        """Moves until ``moves`` more were made or the game is over (both told)."""
        goal = self.moves + moves
        while self.moves < goal and not all(self.over):
            for i, c in enumerate(self.clients):
                for m in c.drain(0.02):
                    c.unread.append(m)          # kept for the test: it reads ``got``
                    if m.get("type") == "game_end":
                        self.over[i] = True
                    if m.get("table") == self.id and "seq" in m:
                        move = self.seats[i].feed(m)
                        if move is not None:
                            c.send("move", table=self.id, move=move)
                            self.moves += 1
                c.unread.clear()

    def streams(self) -> list[tuple[int, dict[str, Any]]]:
        """Both seats' streams as their clients got them."""
        return [(seat, m) for seat, c in enumerate(self.clients) for m in stream(c.got, self.id)]

    def close(self) -> None:
        for c in self.clients:
            c.close()


def watch(c: Client, **fields: Any) -> dict[str, Any]:
    """Ask to watch; the answer (``watching``, or an ``error``)."""
    c.send("watch", **fields)
    return c.wait(lambda m: m.get("type") in ("watching", "error"))


def public_got(c: Client, table: str) -> list[dict[str, Any]]:
    """What a watcher got of a table's public stream, without the envelope (numbered 1 to N)."""
    got = [m for m in c.got if m.get("table") == table and m.get("type") in PUBLIC]
    assert [m["seq"] for m in got] == list(range(1, len(got) + 1))
    return stream(got, table)


@pytest.mark.parametrize("game, rules", [("ginrummy", {"score_limit": 0}), ("cribbage", {"limit": 61})])
def test_a_watcher_joins_mid_game_and_sees_what_both_seats_see(room: RoomProcess, game: str,
                                                               rules: dict[str, Any]) -> None:
    t = Table(room.url, (f"Ann{game}", f"Bob{game}"), game, rules)
    t.play(6)
    cy, di = Client(room.url), Client(room.url)
    cy.enter(f"Cy{game}")
    di.enter(f"Di{game}")
    said = watch(cy, name=t.clients[0].name)                # a player AT A TABLE, by name
    assert said["type"] == "watching", said
    assert said["players"] == [c.name for c in t.clients] and said["game"] == game and said["last"] > 0
    assert watch(di, table=t.id)["watchers"] == 2
    for c in t.clients:                                     # the players hear how many watch
        assert c.wait(lambda m: m.get("type") == "watchers" and m.get("count") == 2)["table"] == t.id
    t.clients[0].send("chat", table=t.id, text="nobody else hears this")
    di.send("unwatch", table=t.id)
    assert di.wait(lambda m: m.get("type") in ("unwatched", "error"))["type"] == "unwatched"
    assert t.clients[1].wait(lambda m: m.get("type") == "watchers" and m.get("count") == 1)
    t.play()
    end = cy.wait("game_end")
    assert end["table"] == t.id
    # From the start (joined mid-game), message for message what both seats were said in common.
    assert public_got(cy, t.id) == public_messages(game, t.streams())
    assert not [m for m in cy.got + di.got if m.get("type") == "chat"]
    seen = public_got(di, t.id)                                # up to where Di stopped watching
    assert len(seen) >= said["last"] and seen == public_got(cy, t.id)[:len(seen)]
    t.close()
    for c in (cy, di):
        c.close()



def test_a_timeout_tells_the_move_it_made_to_its_own_seat_only(room: RoomProcess) -> None:
    """Cribbage's stand-in lays away two cards for a seat whose clock ran out: the seat
    is told which; the other seat and a watcher are told the clock ran out, and see the
    lay-away as the stream shows it (no cards)."""
    # Bot accounts: a bot's clock runs as soon as it is asked.
    t = Table(room.url, ("BotAnn", "BotBob"), "cribbage", {"limit": 61}, clock=1, bots=True)
    ed = Client(room.url)
    ed.enter("Ed")
    assert watch(ed, table=t.id)["type"] == "watching"
    said = [c.wait("timeout", timeout=5) for c in t.clients]
    seat = said[0]["seat"]
    assert said[seat]["move"]["act"] == "lay_away" and len(said[seat]["move"]["cards"]) == 2
    assert "move" not in said[1 - seat]
    assert "move" not in ed.wait("timeout", timeout=5)
    ed.wait(lambda m: m.get("type") == "event" and m["event"]["act"] == "discard" and m["event"]["seat"] == seat)
    for c in (*t.clients, ed):
        c.send("bye")
    t.close()
    ed.close()



def test_a_watcher_whose_line_drops_is_back_where_it_was(room: RoomProcess) -> None:
    """The watcher's session, its line dropped mid-game: it comes back on its own, asks
    again from the last message it saw, and has the whole public stream once, in order."""
    from port.main.roomsession import RoomSession
    from tests.room.helpers import polled

    t = Table(room.url, ("AnnDrop", "BobDrop"), "cribbage", {"limit": 61})
    t.play(4)
    cy = RoomSession(room.url)
    cy.register("CyDrop", "pw")
    polled([cy], lambda: cy.welcomed)
    cy.watch(name="BobDrop")
    polled([cy], lambda: t.id in cy.watched and cy.watched[t.id].seq_seen >= cy.watched[t.id].sync_to > 0)
    link = cy.watched[t.id]
    cy.client.transport.close()                          # the line drops under the watcher
    polled([cy], lambda: cy.status == "reconnecting")
    t.play(6)                                            # moves it misses meanwhile
    polled([cy], lambda: cy.status == "open", seconds=10)
    t.play()
    polled([cy], lambda: link.end is not None)
    got = [m for m in link.take() if m.get("type") in PUBLIC]
    assert [m["seq"] for m in got] == list(range(1, len(got) + 1))
    assert stream(got, t.id) == public_messages("cribbage", t.streams())
    cy.close()
    t.close()


def test_the_limits_of_watching_each_in_one_sentence(tmp_path: Path) -> None:
    with RoomProcess(tmp_path / "room", "--guests-per-address", "0") as server:
        tables = [Table(server.url, ("", ""), "cribbage", {"limit": 61}, guests=True) for _ in range(WATCHED_MAX + 1)]
        cy, di = Client(server.url), Client(server.url)
        for c in (cy, di):
            c.name = c.answer("guest")["name"]
        for t in tables[:WATCHED_MAX]:
            assert watch(cy, table=t.id)["type"] == "watching"
        refused = {
            "more tables": watch(cy, table=tables[-1].id),
            "your own": watch(tables[0].clients[0], table=tables[0].id),
            "no table": watch(di, table="tnothing"),
            "nobody seated": watch(di, name=cy.name),
            "nothing named": watch(di),
        }
        di.send("unwatch", table=tables[0].id)
        refused["not watching"] = di.wait("error")
        assert {k: m["reason"] for k, m in refused.items()} == {
            "more tables": f"you watch {WATCHED_MAX} tables already: stop watching one first",
            "your own": "you play at that table: watch another",
            "no table": "there is no table tnothing in play",
            "nobody seated": f"{cy.name} is not playing at a table",
            "nothing named": "a watch message names a table or a player",
            "not watching": f"you are not watching table {tables[0].id}",
        }
        last = tables[-1]
        last.clients[0].send("resign", table=last.id)
        last.clients[1].wait("game_end")
        assert watch(di, table=last.id)["reason"] == "that game is over"
        # Each watch sends the game so far: an address starts 10 at once, then one each 6 s.
        answers = [watch(di, table=tables[0].id) for _ in range(7)]
        assert [a["type"] for a in answers] == ["watching"] * (10 - WATCHED_MAX) + ["error"]
        assert answers[-1]["reason"].startswith("too many new watches from your address: try again in ")
        assert di.answer("ping")["type"] == "pong"



def long_table(data: Path, moves: int = 650) -> str:
    """A GinRummy game to 250, ``moves`` moves in, written to a room's store as a running
    table (the room resumes it when it starts): both seats draw from the stock and throw
    the card drawn, so each hand runs the stock down to a draw. Its public stream is some
    650 frames, near a megabyte. The table's id."""
    from port.room.games import GinDriver
    from port.room.store import DB_NAME, SqliteStore, TableRow

    rules = GinDriver.check_rules({"score_limit": 250})
    driver = GinDriver(rules, 5)
    plain = {"offer": {"act": "decline"}, "draw": {"act": "stock"}, "knock": {"act": "play_on"}}
    while len(driver.moves) < moves:
        seat, decision = driver.to_move(), driver.decision()
        assert seat is not None and decision is not None
        drawn = driver.seat_view(seat).drawn
        driver.apply(seat, plain.get(decision) or {"act": "discard", "card": str(drawn)})
    data.mkdir(parents=True)
    store = SqliteStore(data / DB_NAME)
    stored = {**rules, "_room": {"clock": 0, "bots": [False, False], "guests": [False, False]}}
    store.open_table(TableRow("tlong", "ginrummy", ("Ann", "Bob"), stored, 5, 0.0,
                              tuple({"seat": s, "move": m} for s, m in driver.moves)))
    return "tlong"


def test_an_honest_clients_ping_stays_low_while_an_address_watches_a_long_game_again_and_again(tmp_path: Path) -> None:
    """One address asks for a long game's stream as often as it may (twelve at once: ten
    are taken, some 12 MB, sent as a sync is, within the connection's byte budget), the
    first of them making the stream; a player's pings meanwhile."""
    import threading
    import time

    table = long_table(tmp_path / "room")
    with RoomProcess(tmp_path / "room") as server:
        flooder, pinger = Client(server.url), Client(server.url)
        flooder.enter("Flo")
        pinger.enter("Pat")
        got: list[int] = []
        stop = threading.Event()

        def flood() -> None:
            for _ in range(12):
                flooder.send("watch", table=table)
            while not stop.is_set():
                try:
                    got.append(len(flooder.ws.recv(timeout=0.2)))
                except TimeoutError:
                    continue

        reader = threading.Thread(target=flood)
        reader.start()
        worst = 0.0
        try:
            for i in range(20):
                sent = time.monotonic()
                assert pinger.answer("ping", t=i)["t"] == i
                worst = max(worst, time.monotonic() - sent)
                time.sleep(0.05)
        finally:
            stop.set()
            reader.join()
        flooder.ws.close_socket()            # dropped, not closed: a close would wait behind its unread megabytes
        assert sum(got) > 2_000_000                      # the stream came, as fast as its budget lets it
        # (made on the event loop instead, the stream held a ping 0.22 s)
        assert worst < 0.15, f"a ping took {worst:.3f} s while a long game was watched again and again"


def test_a_table_is_watched_from_another_process_on_redis(tmp_path: Path, redis_url: str) -> None:
    """Two room processes on one Redis: the players at one, the watcher at the other; the
    ``watch`` goes to the table's process as a move does, the stream comes back."""
    one = RoomProcess(tmp_path / "one", "--redis", redis_url).start()
    two = RoomProcess(tmp_path / "two", "--redis", redis_url).start()
    try:
        t = Table(one.url, ("RedAnn", "RedBob"), "ginrummy", {"score_limit": 0})
        t.play(5)
        cy = Client(two.url)
        cy.enter("RedCy")
        assert watch(cy, name="RedAnn")["last"] > 0
        assert t.clients[0].wait("watchers")["count"] == 1
        t.play()
        cy.wait("game_end")
        assert public_got(cy, t.id) == public_messages("ginrummy", t.streams())
        cy.close()                                      # gone from the other process: the players hear
        assert t.clients[0].wait(lambda m: m.get("type") == "watchers" and m["count"] == 0)
        t.close()
    finally:
        one.stop()
        two.stop()
