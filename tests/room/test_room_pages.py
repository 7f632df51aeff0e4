"""The card room's pages (``port.main.roompages``) in the real program against a real
room: logging in (an account, a wrong password, an unreachable address, a guest), the
lobby (a room bot, another player, the other game's greyed, scrolled by keys and by the
mouse), an invitation negotiated over rounds and handed to the game's screen, ``--room``
on the command line, the rejoin offered after a restart, the pages' screenshots as data,
and one login in a real window under Xvfb.

The game's own room screen (``port.<game>.main.roomplay``) is another engineer's; the
hand-over to it is checked with a test-local ``RoomGame`` that records being asked and,
where that module is not there yet, gives a plain page instead.
"""
from __future__ import annotations

import gc
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from port.cribbage.main.room import ROOM as CRIB_ROOM
from port.ginrummy import files
from port.ginrummy.main import menus as gin_menus
from port.ginrummy.main.room import ROOM as GIN_ROOM
from port.main.context import GameContext
from port.main.controller import Controller
from port.main.driver import Driver
from port.main.menus import Menu
from port.main.roompages import (COLS, HEAD_Y, INVITES_Y, LIST_Y, ROW_H, ROWS, STATUS_Y, SUB_Y, ConnectPage, InvitePage, LobbyPage,
                                 rule_rect, web_address)
from port.main.roomsession import RoomSession, TableLink
from port.screen import png
from port.screen.profiles import DARKGRAY, LIGHTGRAY, LIGHTRED, WHITE, YELLOW
from tests.ginrummy.helpers import click_at, open_game, pixels_in, shows_text
from tests.room.helpers import ENV, BotProcess, Client, RoomProcess, polled
from tests.room.scenes import SCENES, images, log_in, until
from tests.window_helpers import needs_xvfb, run_script
from tests.images import match_reference

REFERENCE = Path(__file__).parent / "reference"


# ---- the room, and a test-local RoomGame -------------------------------------------------------

@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One room for the module, with the accounts Ann (pw1), Bob (pw2) and Dora (pw3);
    every client here is 127.0.0.1, and a lobby of more than a page takes more guests
    and connections than one address may have (docs/room.md, "Limits")."""
    with RoomProcess(tmp_path_factory.mktemp("room"), "--guests-per-address", "0",
                     "--connections-per-address", "0") as process:
        for name, password in (("Ann", "pw1"), ("Bob", "pw2"), ("Dora", "pw3")):
            c = Client(process.url)
            c.enter(name, password)
            c.close()
        yield process.url


@pytest.fixture(autouse=True)
def collected_here() -> Iterator[None]:
    """The old screens' pyxel images freed on this (pyxel's) thread: a collection that
    happened to run on a connection's thread would drop them there, which pyxel refuses."""
    gc.collect()
    yield
    gc.collect()


class Handed(Menu):
    """Where the game's own room screen is not there yet: a plain page saying so."""

    def __init__(self, ctx: GameContext, link: TableLink) -> None:
        super().__init__(ctx)
        self.link = link

    def draw_body(self) -> None:
        self.screen.text(8, 8, f"HANDED TO THE GAME: {self.link.table}", WHITE)


@dataclass
class Asked:
    """The game's ``RoomGame``, with each hand-over to its ``play`` recorded."""

    inner: Any = GIN_ROOM
    asked: list[tuple[TableLink, Callable[[], Controller]]] = field(default_factory=list)

    @property
    def game(self) -> str:
        return str(self.inner.game)

    @property
    def title(self) -> str:
        return str(self.inner.title)

    def rule_rows(self) -> Any:
        return self.inner.rule_rows()

    def my_rules(self, ctx: GameContext) -> Any:
        return self.inner.my_rules(ctx)

    def play(self, ctx: GameContext, session: RoomSession, link: TableLink,
             back: Callable[[], Controller]) -> Controller:
        self.asked.append((link, back))
        try:
            return self.inner.play(ctx, session, link, back)
        except ModuleNotFoundError as exc:         # engineer B's or C's screen, not merged yet
            if exc.name != f"port.{self.game}.main.roomplay":
                raise
            return Handed(ctx, link)


def connect_page(d: Driver, room_game: Asked, address: str | None = None) -> ConnectPage:
    """The program's connection page, as CARD ROOM opens it, with the test's RoomGame."""
    page = ConnectPage(d.controller.ctx, room_game, address)
    d.loop.controller = page
    d.step()
    return page


def session_of(url: str, name: str, password: str) -> RoomSession:
    s = RoomSession(url)
    s.login(name, password)
    deadline = time.monotonic() + 10
    while not s.welcomed:
        s.poll()
        assert time.monotonic() < deadline and not s.error, s.error
        time.sleep(0.01)
    s.watch_lobby("ginrummy")
    return s


def status_shows(d: Driver, line: str, colour: int = LIGHTRED) -> bool:
    return shows_text(d, 8, STATUS_Y, line, colour)


def kept(path: Path) -> dict[str, str]:
    """The room's lines of the CFG in ``path``, as the game reads them back."""
    cfg = files.Store.open(path).config
    return {"room_url": cfg.room_url, "room_token": cfg.room_token, "room_with": cfg.room_with,
            "room_name": cfg.room_name, "name": cfg.name}


# ---- logging in --------------------------------------------------------------------------------

def test_the_title_opens_the_card_room_by_its_key_and_by_a_click(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path)
    d.key("C")
    assert isinstance(d.controller, ConnectPage)
    assert shows_text(d, 188, 70, "ws://127.0.0.1:7300")          # the room's default address
    d.key("M")                                                     # MAIN MENU
    box = next(r for r, label, _, _ in d.controller.items if label == "CARD ROOM")
    click_at(d, box)
    assert isinstance(d.controller, ConnectPage) and d.controller.room is GIN_ROOM


def test_a_registered_account_logs_in_and_the_address_and_token_are_kept(headless_pyxel, tmp_path: Path,
                                                                         room: str) -> None:
    d = open_game(tmp_path, name="Ann", room=room)
    assert isinstance(d.controller, ConnectPage)                  # --room: straight here
    log_in(d, "pw1")
    lobby = d.controller
    assert lobby.session.name == "Ann"
    sub = "GINRUMMY LOBBY   YOU: Ann 1500?"
    assert shows_text(d, (640 - 8 * len(sub)) // 2, SUB_Y, sub, LIGHTGRAY)
    cfg = kept(tmp_path)
    assert cfg["room_url"] == room and len(cfg["room_token"]) > 20 and cfg["room_with"] == ""
    assert cfg["name"] == "PLAYER"                                 # the command line's name: not written
    lobby.session.close()


def test_a_wrong_password_is_one_line_and_the_page_stays(headless_pyxel, tmp_path: Path, room: str) -> None:
    d = open_game(tmp_path, name="Ann", room=room)
    d.key("P")
    d.type("nope")
    d.key("RETURN")
    d.key("L")
    page = d.controller
    until(d, lambda: bool(page.line), what="the refusal")
    assert isinstance(d.controller, ConnectPage) and page.line == "Wrong password for Ann."
    assert status_shows(d, "Wrong password for Ann.")
    assert page.session is None and page.doing == ""               # ready for another try


def test_an_unreachable_address_is_one_line(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, room="ws://127.0.0.1:9")
    d.key("G")                                                     # GUEST
    page = d.controller
    until(d, lambda: bool(page.line), what="the refusal")
    assert page.line == "No room at ws://127.0.0.1:9."
    assert status_shows(d, page.line)
    d.key("A")                                   # the field keeps its text, the cursor at its end
    assert page.typed == "ws://127.0.0.1:9"
    d.type("7")
    assert page.typed == "ws://127.0.0.1:97"
    for _ in page.typed:
        d.key("BACKSPACE")
    d.type("http://x")                                             # an address that is none
    d.key("RETURN")
    d.key("G")
    assert page.line == "'http://x' is not a room's address (ws://HOST:PORT)."
    assert page.session is None


def test_a_guest_comes_in_by_the_mouse_alone(headless_pyxel, tmp_path: Path, room: str) -> None:
    d = open_game(tmp_path, room=room, nokeyboard=True)
    box = next(r for r, label, _, _ in d.controller.items if label == "GUEST")
    click_at(d, box)
    until(d, lambda: isinstance(d.controller, LobbyPage), what="the lobby")
    assert d.controller.session.name.startswith("Guest") and d.controller.session.guest
    d.controller.session.close()


def test_a_password_typed_on_the_on_screen_keys(headless_pyxel, tmp_path: Path, room: str) -> None:
    """Mouse-only: the PASSWORD field clicked, its letters clicked on the keys under it."""
    c = Client(room)
    c.enter("PADDY", "Ab1")                                        # a small letter: SHIFT's
    c.close()
    d = open_game(tmp_path, room=room, name="PADDY", nokeyboard=True)
    page = d.controller
    click_at(d, next(r for r, label, _, _ in page.items if label == "PASSWORD"))
    assert page.typing == "password"
    from port.main.roompages import PAD_KEYS, SHIFT, pad_rect
    shift = pad_rect(PAD_KEYS.index(SHIFT))
    assert shows_text(d, shift.x + (shift.w - 24) // 2, shift.y + 6, "abc", WHITE)
    for key in ("A", SHIFT, "B", "1", "OK"):
        click_at(d, pad_rect(PAD_KEYS.index(key)))
        if key == SHIFT:                                           # the letters now type small
            b = pad_rect(PAD_KEYS.index("B"))
            assert shows_text(d, b.x + (b.w - 8) // 2, b.y + 6, "b", WHITE)
    assert page.values["password"] == "Ab1" and page.typing is None
    click_at(d, next(r for r, label, _, _ in page.items if label == "LOG IN"))
    until(d, lambda: isinstance(d.controller, LobbyPage), what="the lobby")
    d.controller.session.close()


def test_a_dropped_connection_says_reconnecting_and_comes_back(headless_pyxel, tmp_path: Path) -> None:
    """The room killed under the lobby: "reconnecting..." on the status line; started
    again on its port, the session comes back on its own and the line clears."""
    first = RoomProcess(tmp_path / "room").start()
    try:
        c = Client(first.url)
        c.enter("Ann", "pw1")
        c.close()
        c = Client(first.url)
        c.enter("Bob", "pw2")
        c.close()
        bob = session_of(first.url, "Bob", "pw2")
        d = open_game(tmp_path, name="Ann", room=first.url)
        log_in(d, "pw1")
        lobby = d.controller
        until(d, lambda: lobby.picked == "Bob", (bob,), what="Bob picked")
        first.kill()
        until(d, lambda: d.controller.session.status == "reconnecting", what="the drop")
        d.step()
        assert status_shows(d, "reconnecting...")
        # An invitation made while the line is down is held, and said so; sent when it is back.
        d.key("I")
        d.key("E")
        page = d.controller
        assert isinstance(page, InvitePage) and page.sent and page.session.held is not None
        assert status_shows(d, "reconnecting...: the invitation goes to Bob when the line is back.", LIGHTGRAY)
        again = RoomProcess(tmp_path / "room", port=first.port).start()
        try:
            bob.close()
            bob = session_of(again.url, "Bob", "pw2")               # Bob back first
            until(d, lambda: bool(bob.to_answer()), (bob,), seconds=20, what="the invitation at Bob's")
            assert page.session.held is None and bob.to_answer()[0]["sender"] == "Ann"
            until(d, lambda: page.inv is not None, (bob,), what="the invitation at Ann's")
            d.step()
            assert status_shows(d, "Sent to Bob: waiting for an answer (a round lasts 2:00).", LIGHTGRAY)
            d.key("O")                                              # LOBBY
            until(d, lambda: isinstance(d.controller, LobbyPage) and d.controller.session.status == "open"
                  and "Ann" in d.controller.session.players, seconds=20, what="the session back")
            d.step()
            assert d.controller.status() == ("", WHITE)
            d.controller.session.close()
            bob.close()
        finally:
            again.stop()
    finally:
        first.stop()


# ---- the lobby ---------------------------------------------------------------------------------

def test_the_lobby_shows_a_room_bot_a_player_and_the_other_games_greyed_and_scrolls(
        headless_pyxel, tmp_path: Path, room: str) -> None:
    bot = BotProcess(room, "Stan", "--game", "ginrummy", cwd=tmp_path)
    others = []
    try:
        cleo = Client(room)
        cleo.enter("Cleo", "pw")
        cleo.send("lobby", game="cribbage")
        others.append(cleo)
        for _ in range(12):                                        # more than a page of players
            g = Client(room)
            g.send("guest")
            g.wait("welcome")
            others.append(g)
        bob = session_of(room, "Bob", "pw2")
        d = open_game(tmp_path, name="Ann", room=room)
        log_in(d, "pw1")
        lobby = d.controller
        until(d, lambda: {"Stan", "Cleo", "Bob"} <= set(lobby.session.players)
              and lobby.session.players["Cleo"].get("game") == "cribbage"
              and lobby.session.players["Stan"].get("game") == "ginrummy"           # a bot says its game
              and len(lobby.session.players) >= 16, seconds=20, what="the room's players")
        rows = [p["name"] for p in lobby.rows()]

        def row_y(name: str) -> int:
            return LIST_Y + ROW_H * (rows.index(name) - lobby.top)

        # The first page: Ann, Bob, Cleo, then the guests (names sorted, case aside).
        assert rows[:3] == ["Ann", "Bob", "Cleo"]
        assert shows_text(d, COLS["name"], row_y("Bob"), "Bob", WHITE)
        assert shows_text(d, COLS["rating"], row_y("Bob"), "1500?", WHITE)
        assert shows_text(d, COLS["where"], row_y("Bob"), "FREE", WHITE)
        assert shows_text(d, COLS["name"], row_y("Cleo"), "Cleo", DARKGRAY)   # the other game's: greyed
        assert shows_text(d, COLS["where"], row_y("Cleo"), "IN CRIBBAGE", DARKGRAY)
        assert "Stan" not in [p["name"] for p in lobby.rows()[:ROWS]]
        # Scrolled by the keys: END picks the last (Stan, the bot), and the list follows.
        d.key("END")
        assert lobby.picked == "Stan" and lobby.top > 0
        assert shows_text(d, COLS["name"], row_y("Stan"), "Stan", WHITE)
        assert shows_text(d, COLS["bot"], row_y("Stan"), "BOT", WHITE)
        d.key("HOME")
        assert lobby.picked == "Bob" and lobby.top == 0             # Ann herself is stepped over
        d.key("DOWN")
        assert lobby.picked != "Cleo"                                # greyed: stepped over too
        # And by the mouse: PG DN and PG UP boxes.
        boxes = {label: r for r, label, _, _ in lobby.items}
        click_at(d, boxes["PG DN"])
        assert lobby.top == len(rows) - ROWS
        click_at(d, boxes["PG UP"])
        assert lobby.top == 0
        click_at(d, (COLS["name"], row_y("Cleo"), 40, 8))            # a greyed one picked by a click
        d.key("I")
        assert isinstance(d.controller, LobbyPage) and lobby.line == "Cleo is in the other game's program."
        bob.close()
        lobby.session.close()
    finally:
        bot.stop()
        for c in others:
            c.close()


# ---- invitations -------------------------------------------------------------------------------

def play_one_each_then_bob_resigns(d: Driver, bob: Any) -> None:
    """Bob (seat 0, first to move) draws from the stock and throws the card drawn; Ann's
    screen draws from the deck (D); then Bob resigns. A game is rated only once each seat
    has made a move of its own (docs/room.md, "Ratings")."""
    from port.ginrummy.main.table import Mode

    bob_link = bob.take_started()[0]
    screen = d.controller

    def bob_answers() -> bool:
        for m in bob_link.take():
            if m.get("type") == "ask":
                view = m["view"]
                move = ({"act": "stock"} if m["decision"] == "draw" else {"act": "decline"}
                        if m["decision"] == "offer" else {"act": "discard", "card": view["drawn"] or view["hand"][-1]})
                bob_link.move(move)
        table = screen.table
        return table.view is not None and table.mode is Mode.HUMAN_DRAW and not table.sent and not table.queue

    until(d, bob_answers, (bob,), what="Ann's first draw")
    d.key("D")                                                     # the deck: Ann's own move
    until(d, lambda: screen.table.mode is Mode.HUMAN_DISCARD, (bob,), what="Ann's draw taken")
    bob_link.resign()


def test_an_invitation_negotiated_over_two_rounds_then_the_game_is_asked_for(
        headless_pyxel, tmp_path: Path, room: str) -> None:
    """Bob invites Ann; Ann changes HINTS and sends it back (round 2); Bob changes the
    limit (round 3), which Ann's page frames in yellow; Ann accepts; the room starts the
    table and the game's own screen is asked for, with the lobby to come back to."""
    asked = Asked()
    bob = session_of(room, "Bob", "pw2")
    d = open_game(tmp_path, name="Ann")
    connect_page(d, asked, room)
    log_in(d, "pw1")
    lobby = d.controller
    bob.invite("Ann", "ginrummy", {"score_limit": 100}, 60)
    until(d, lambda: bool(lobby.waiting_invitations()), (bob,), what="Bob's invitation")
    line = "1 Bob INVITES YOU (ROUND 1): ANSWER"                   # its key, 1, then what it is
    assert shows_text(d, 24 + (480 - 8 * len(line)) // 2 + 16, INVITES_Y + 5, line[2:], WHITE)
    d.key("1")
    page = d.controller
    assert isinstance(page, InvitePage) and not page.mine and page.round == 1
    d.key("E")                                                     # SEND BACK unchanged: said
    assert page.line == "Change a rule first to send it back, or ACCEPT."
    hints = len(GIN_ROOM.rule_rows()) + 1
    click_at(d, rule_rect(hints))                                  # HINTS: YES, by a click
    assert page.rules["hints"] is True
    d.key("E")                                                     # SEND BACK
    until(d, lambda: bool(bob.to_answer()) and bob.to_answer()[0]["round"] == 2, (bob,), what="round 2")
    assert bob.to_answer()[0]["changed"] == ["hints"]
    until(d, lambda: page.round == 2, (bob,), what="round 2 at Ann's")
    assert page.mine and shows_text(d, 8, STATUS_Y, "Sent to Bob: waiting for an answer (a round lasts 2:00).",
                                    LIGHTGRAY)
    inv = bob.to_answer()[0]
    bob.counter(inv["id"], {**inv["rules"], "score_limit": 150}, 60)
    until(d, lambda: page.round == 3, (bob,), what="round 3")
    d.step()
    limit_box = rule_rect(0)
    assert page.rules["score_limit"] == 150 and page.rules["hints"] is True
    assert pixels_in(d, limit_box.x + limit_box.w + 4, limit_box.y + 2, 32, 16, YELLOW) > 40   # framed
    gin = rule_rect(1)
    assert pixels_in(d, gin.x + gin.w + 4, gin.y + 2, 32, 16, YELLOW) == 0                    # not changed
    d.key("A")                                                     # ACCEPT
    until(d, lambda: bool(asked.asked), (bob,), what="the table")
    link, back = asked.asked[0]
    assert (link.opponent, link.seat, link.game) == ("Bob", 1, "ginrummy")
    assert link.rules["score_limit"] == 150 and link.hints
    assert kept(tmp_path)["room_with"] == "Bob"              # a restart offers to rejoin
    assert type(d.controller).__module__ == "port.ginrummy.main.roomplay"     # the game's own screen
    play_one_each_then_bob_resigns(d, bob)                  # rated: each seat made a move
    until(d, lambda: link.end is not None, (bob,), what="the game's end")
    assert kept(tmp_path)["room_with"] == ""                 # over: no rejoin offered for it
    d.loop.controller = lobby = back()
    d.step()
    assert isinstance(lobby, LobbyPage)
    after = link.end["ratings"]["Ann"]["after"]             # the header's rating is the new one
    sub = f"GINRUMMY LOBBY   YOU: Ann {after}"
    assert after != link.end["ratings"]["Ann"]["before"] and shows_text(d, (640 - 8 * len(sub)) // 2, SUB_Y, sub,
                                                                         LIGHTGRAY)
    bob.close()
    link.session.close()


def test_cribbage_from_its_title_to_its_room_game_screen(headless_pyxel, tmp_path: Path, room: str) -> None:
    """The whole way in Cribbage's program, its own ROOM: CARD ROOM (C), LOG IN, Bob's
    invitation opened (1) and accepted (A): Cribbage's room game screen against Bob."""
    from tests.cribbage.helpers import open_cribbage

    bob = session_of(room, "Bob", "pw2")
    d = open_cribbage(tmp_path, name="Ann")
    d.key("C")
    assert isinstance(d.controller, ConnectPage) and d.controller.room is CRIB_ROOM
    d.key("A")                                                     # the module's room, typed
    for _ in d.controller.typed:                                   # over the address kept
        d.key("BACKSPACE")
    d.type(room)
    d.key("RETURN")
    log_in(d, "pw1")
    bob.invite("Ann", "cribbage", {"limit": 61}, 0)
    until(d, lambda: bool(d.controller.waiting_invitations()), (bob,), what="Bob's invitation")
    d.key("1")
    assert [r.label for r in d.controller.all_rows()] == ["SCORE LIMIT", "SKUNKING", "MOVE CLOCK", "HINTS"]
    d.key("A")
    until(d, lambda: type(d.controller).__module__ == "port.cribbage.main.roomplay", (bob,),
          what="Cribbage's room game screen")
    assert d.controller.link.opponent == "Bob" and d.controller.link.rules["limit"] == 61
    for t in bob.take_started():
        t.resign()
    bob.close()
    d.controller.session.close()


def test_an_invitation_sent_and_declined_says_so_in_the_lobby(headless_pyxel, tmp_path: Path, room: str) -> None:
    bob = session_of(room, "Bob", "pw2")
    d = open_game(tmp_path, name="Ann", room=room)
    log_in(d, "pw1")
    lobby = d.controller
    until(d, lambda: "Bob" in lobby.session.players, (bob,), what="Bob in the lobby")
    lobby.picked = "Bob"
    d.key("I")
    page = d.controller
    assert isinstance(page, InvitePage) and page.other() == "Bob" and page.inv is None
    d.key("M")                                                     # MOVE CLOCK 1:00 -> 2:00
    d.key("G")                                                     # GIN BONUS 25 -> 10
    d.key("RETURN")                                                # SEND
    until(d, lambda: bool(bob.to_answer()), (bob,), what="the invitation at Bob's")
    inv = bob.to_answer()[0]
    assert (inv["clock"], inv["rules"]["gin_bonus"], inv["rules"]["hints"]) == (120, 10, False)
    bob.answer(inv["id"], "decline")
    until(d, lambda: isinstance(d.controller, LobbyPage), (bob,), what="the lobby")
    assert status_shows(d, "The invitation was declined by Bob.")
    bob.close()
    d.controller.session.close()


def test_cribbage_rules_on_the_invitation_page(headless_pyxel, tmp_path: Path, room: str) -> None:
    """Cribbage's rows: SCORE LIMIT 61/121 (L) and SKUNKING (K), then the room's two."""
    assert [r.label for r in CRIB_ROOM.rule_rows()] == ["SCORE LIMIT", "SKUNKING"]
    rules = {"limit": 121, "skunking": False}
    limit, skunk = CRIB_ROOM.rule_rows()
    assert limit.change(rules, False)["limit"] == 61 and limit.change(rules, True)["limit"] == 61
    assert skunk.value(skunk.change(rules, False)) == "YES"


def test_gin_rules_give_way_as_on_the_table_rules_page() -> None:
    """A rule chosen makes the ones it cannot go with give way, as TABLE RULES does: the
    room is never sent a mix it must refuse."""
    rows = {r.label: r for r in GIN_ROOM.rule_rows()}
    rules = {"oklahoma": True, "deal_eleven": False, "doublers": []}
    eleven = rows["DEAL 11"].change(rules, False)
    assert eleven["deal_eleven"] is True and eleven["oklahoma"] is False
    doubled = rows["DOUBLERS"].change({}, False)
    assert doubled["doublers"] == ["SPADES"] and doubled["knock_deck"] is True
    assert rows["KNOCK CARD"].value(doubled) == "FROM A DECK"
    assert rows["SCORE LIMIT"].change({"score_limit": 500}, False)["score_limit"] == 0


# ---- the command line --------------------------------------------------------------------------

@pytest.mark.parametrize("module,word", [("port", "ws://"), ("port.cribbage", "http://example.com:80")])
def test_a_bad_room_address_on_the_command_line_is_one_sentence(tmp_path: Path, module: str, word: str) -> None:
    done = subprocess.run([sys.executable, "-m", module, "--room", word], cwd=tmp_path, env=ENV,
                          capture_output=True, text=True, timeout=60)
    program = "ginrummy" if module == "port" else "cribbage"
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"{program}: --room: {word!r} is not a room's address (ws://HOST:PORT)  "
                           f"({program} /? for help)\n")


def test_room_on_the_command_line_goes_straight_to_the_connection_page(tmp_path: Path, room: str) -> None:
    """``cribbage --room URL`` in a subprocess: the first screen is the connection page,
    its address the one given (the screen as the in-process page draws it)."""
    script = tmp_path / "s.txt"
    script.write_text("move 630 340\nwait 2\nshot first\n")
    done = subprocess.run([sys.executable, "-m", "port.cribbage", "--headless", "--room", room, "Ann",
                           "--script", str(script), "--shots", str(tmp_path / "shots")],
                          cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first = png.read(tmp_path / "shots" / "first.png")
    from tests.cribbage.helpers import open_cribbage

    (tmp_path / "here").mkdir()
    d = open_cribbage(tmp_path / "here", room=room, name="Ann")
    assert isinstance(d.controller, ConnectPage) and d.controller.room is CRIB_ROOM
    d.move(630, 340)
    d.step(2)
    assert first.pixels == d.snapshot()


# ---- a rejoin after a restart -----------------------------------------------------------------

def test_a_restart_offers_to_rejoin_the_game_and_a_stale_token_falls_back_to_the_login(
        headless_pyxel, tmp_path: Path, room: str) -> None:
    bob = session_of(room, "Bob", "pw2")
    asked = Asked()
    d = open_game(tmp_path, name="Dora")
    connect_page(d, asked, room)
    log_in(d, "pw3")
    bob.invite("Dora", "ginrummy", {}, 0)
    lobby = d.controller
    until(d, lambda: bool(lobby.waiting_invitations()), (bob,), what="the invitation")
    d.key("1")
    d.key("A")
    until(d, lambda: bool(asked.asked), (bob,), what="the table")
    table = asked.asked[0][0].table
    bob.tables[table].chat("still there?")
    until(d, lambda: bool(asked.asked[0][0].chat_lines), (bob,), what="Bob's chat")
    asked.asked[0][0].session.client.transport.close()            # the program quits: no goodbye
    # Started again: the title's CARD ROOM offers the game.
    again = open_game(tmp_path)
    again.key("C")
    page = again.controller
    assert isinstance(page, ConnectPage) and page.rejoin_with == "Bob"
    assert shows_text(again, 48, 216, "Your game with Bob is still on: REJOIN?", YELLOW)
    asked2 = Asked()
    page.room = asked2
    again.key("RETURN")                                            # REJOIN
    until(again, lambda: bool(asked2.asked), (bob,), what="the table again")
    link = asked2.asked[0][0]
    assert (link.table, link.opponent) == (table, "Bob")
    # The room is told which program the player came back in: the other program greys
    # her (IN GINRUMMY), and the table's chat so far comes back with the game.
    until(again, lambda: bob.players.get("Dora", {}).get("game") == "ginrummy"
          and link.chat_lines == [("Bob", "still there?")], (bob,), what="Dora's game and the chat")
    assert bob.players["Dora"]["status"] == "playing"
    link.session.client.transport.close()                         # the program quits again
    link.session.client.close()
    # The game ends while she is away (Bob resigns): the offer is still made (the room
    # knows, the program does not), and coming back says how it ended.
    bob.tables[table].resign()
    until(again, lambda: bob.tables[table].end is not None, (bob,), what="the resignation")
    fourth = open_game(tmp_path)
    fourth.key("C")
    assert fourth.controller.rejoin_with == "Bob"
    fourth.key("J")
    until(fourth, lambda: isinstance(fourth.controller, LobbyPage) and fourth.controller.line.endswith("hand 1."),
          what="the lobby with the game's result")
    assert fourth.controller.line == "Your game with Bob is over: you won: Bob resigned in hand 1."
    assert kept(tmp_path)["room_with"] == "" and kept(tmp_path)["room_name"] == "Dora"
    fourth.controller.session.close()
    # A token the room does not know: the login, with one line, and no offer.
    cfg = files.Store.open(tmp_path).config
    files.Store.open(tmp_path).save_config(cfg.with_(room_token="not-a-token", room_with="Bob"))
    third = open_game(tmp_path)
    third.key("C")
    third.controller.room = Asked()
    third.key("J")
    until(third, lambda: bool(third.controller.line) and not third.controller.rejoin_with,
          what="the refusal")
    assert third.controller.line == "That session has ended: log in again."
    assert status_shows(third, third.controller.line)
    assert kept(tmp_path)["room_token"] == "" and kept(tmp_path)["room_with"] == ""
    bob.close()


def test_the_web_page_defaults_to_its_own_host() -> None:
    """On the web page the address is the page's own host: ws:// or wss:// as it was loaded."""
    @dataclass
    class Location:
        protocol: str
        host: str

    @dataclass
    class Page:
        location: Location

    assert web_address(Page(Location("http:", "cards.example:7300"))) == "ws://cards.example:7300"
    assert web_address(Page(Location("https:", "cards.example"))) == "wss://cards.example"


def test_the_room_lines_are_kept_in_the_web_pages_storage_too() -> None:
    """The browser keeps the CFG in its storage under the game's prefix: the room's lines
    go there with the rest (the same store, so a reloaded page offers the rejoin)."""
    import base64

    from port.files.storage import LocalStorageBackend

    class Storage(dict):                  # the browser's localStorage: getItem, setItem
        def getItem(self, key: str) -> str | None:
            return self.get(key)

        def setItem(self, key: str, value: str) -> None:
            self[key] = value

    @dataclass
    class Js:                             # Pyodide's js module, as much as the store asks of it
        localStorage: Storage

    storage = Storage()
    backend = files.backend_for(None, platform="emscripten", js=Js(storage))
    assert isinstance(backend, LocalStorageBackend)
    store = files.Store.open(backend=backend)
    store.save_config(store.config.with_(room_url="wss://cards.example", room_token="t0k", room_with="Bob"))
    again = files.Store.open(backend=files.backend_for(None, platform="emscripten", js=Js(storage))).config
    assert (again.room_url, again.room_token, again.room_with) == ("wss://cards.example", "t0k", "Bob")
    kept = base64.b64decode(storage["ginrummy/GINRUMMY.CFG"]).decode()
    assert "room_with=Bob" in kept


# ---- screenshots as data ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def page_images(headless_pyxel) -> dict[str, png.Indexed]:
    return images(SCENES)                  # one room for the four


@pytest.mark.parametrize("name", SCENES)
def test_room_page_matches_its_reference_image(page_images: dict[str, png.Indexed], tmp_path: Path,
                                               name: str) -> None:
    match_reference(page_images[name], REFERENCE / f"{name}.png", tmp_path, "scripts/make_main_references.py --room")


# ---- a real window -----------------------------------------------------------------------------

@needs_xvfb
def test_logging_in_in_a_real_window_under_xvfb(tmp_path: Path, room: str) -> None:
    """``ginrummy --room URL Wendy`` in a window: the password typed, LOG IN, the lobby: its
    heading and its column heads are the reference lobby's, pixel for pixel."""
    c = Client(room)
    c.enter("Wendy", "pw4")
    c.close()
    # 8 s for the login and the lobby to come: a loaded machine's scrypt and start-up are slow.
    script = "move 630 340\nkey p\ntext \"pw4\"\nwait 1\nkey return\nkey l\nwait 240\nshot lobby\n"
    shots = run_script(tmp_path / "w", script, "--room", room, "Wendy", window=True)
    shot = png.read(shots / "lobby.png")
    ref = png.read(REFERENCE / "lobby_ega.png")
    # CARD ROOM, and NAME BOT RATING WHERE; not the page's corners, where the window's
    # own pointer may be.
    for top, bottom in ((0, 26), (HEAD_Y, HEAD_Y + 8)):
        for y in range(top, bottom):
            assert shot.pixels[640 * y + 100:640 * y + 540] == ref.pixels[640 * y + 100:640 * y + 540], y
