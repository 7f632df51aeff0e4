"""Watching from the programs: the lobby's WATCH, each game's screen in its watch mode on a
real room.

Ann and Bob play through their sessions (the test makes their moves); Cy's program is
the real program headless (the script driver): its lobby picks Ann, AT A TABLE, and
WATCH opens the game's own room screen watching the table; the players hear that one
watches; LEAVE goes back to the lobby and the players hear that nobody does.
"""
from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from port.cribbage.main.room import ROOM as CRIB_ROOM
from port.cribbage.main.roomwatch import FIRST_BACKS, WatchPlay
from port.ginrummy.main import play as playscreen
from port.ginrummy.main.room import ROOM as GIN_ROOM
from port.ginrummy.main.roomwatch import LEAVE_BOX, WATCH_LINE_Y, WatchScreen
from port.ginrummy.main.table import Mode
from port.main.driver import Driver
from port.main.roompages import LobbyPage
from port.main.roomsession import RoomSession, TableLink
from port.screen.profiles import LIGHTGRAY, WHITE
from tests.ginrummy.helpers import click_at, open_game, shows_text
from tests.room.helpers import RoomProcess, polled
from tests.room.scenes import until

# The pictures: tests/ginrummy/room_scenes.py (room_watch, herc_room_watch, cga_room_watch,
# room_watch_hand_end) and tests/cribbage/roomscenes.py (room_watch, room_watch_herc,
# room_watch_cga, room_watch_show), compared with the games' other room screens.


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with RoomProcess(tmp_path_factory.mktemp("room"), "--guests-per-address", "0", "--house-bots", "none") as process:
        yield process.url


@pytest.fixture(autouse=True)
def collected_here() -> Iterator[None]:
    """Each test's pyxel objects freed on this (pyxel's) thread."""
    yield
    gc.collect()


def guest(url: str, game: str) -> RoomSession:
    s = RoomSession(url)
    s.login("", None)
    polled([s], lambda: s.welcomed)
    s.watch_lobby(game)
    return s


def seated(url: str, game: str, rules: dict[str, Any]) -> tuple[RoomSession, RoomSession, TableLink, TableLink]:
    """Two guests at a table of ``game``: their sessions and links."""
    ann, bob = guest(url, game), guest(url, game)
    bob.invite(ann.name, game, rules, 0)
    polled([ann, bob], lambda: bool(ann.to_answer()))
    ann.answer(ann.to_answer()[0]["id"], "accept")
    polled([ann, bob], lambda: bool(ann.tables) and bool(bob.tables))
    return ann, bob, ann.take_started()[0], bob.take_started()[0]


def lobby_watches(d: Driver, url: str, game_room: Any, player: str, others: tuple[RoomSession, ...]) -> Any:
    """Cy's lobby: the player picked with the arrows (AT A TABLE), then W: the screen."""
    cy = guest(url, game_room.game)
    d.loop.controller = lobby = LobbyPage(d.controller.ctx, game_room, cy)
    until(d, lambda: player in cy.players and cy.players[player].get("status") == "playing", others, what="the lobby")
    for _ in range(30):
        if lobby.picked == player:
            break
        d.key("DOWN")
    assert lobby.picked == player
    d.key("W")
    until(d, lambda: not isinstance(d.controller, LobbyPage), others, what="the watching screen")
    return d.controller


def answer(link: TableLink, moves: dict[str, dict[str, Any]]) -> bool:
    """The link's seat answers its last question, if it has one: True if it moved."""
    got = link.take()
    asks = [m for m in got if m.get("type") == "ask"]
    if not asks:
        return False
    ask = asks[-1]
    move = moves.get(ask["decision"]) or {"act": "discard", "card": ask["view"]["drawn"] or ask["view"]["hand"][-1]}
    link.move(move)
    return True


def test_ginrummy_watched_from_the_lobby_played_out_and_left(headless_pyxel, room: str, tmp_path: Path) -> None:
    ann, bob, ann_link, bob_link = seated(room, "ginrummy", {"score_limit": 100})
    d = open_game(tmp_path)
    screen = lobby_watches(d, room, GIN_ROOM, ann.name, (ann, bob))
    assert isinstance(screen, WatchScreen) and screen.link.players == [bob.name, ann.name]
    polled([ann, bob], lambda: ann_link.watchers == 1 and bob_link.watchers == 1)     # the players hear it
    plain = {"offer": {"act": "decline"}, "draw": {"act": "stock"}, "knock": {"act": "play_on"}}
    made = 0
    deadline = time.monotonic() + 20
    while made < 6:                                   # six moves (three turns), the watcher's screen running
        assert time.monotonic() < deadline
        d.step()
        for s in (ann, bob):
            s.poll()
        for link in (ann_link, bob_link):                # six moves, no more: then all stands still
            if made < 6:
                made += answer(link, plain)
    said: list[dict[str, Any]] = []                 # Ann's stream up to her next question: the table now
    until(d, lambda: bool(said.extend(ann_link.take())) or any(m.get("type") == "ask" for m in said), (ann, bob),
          what="Ann's turn")
    seen = next(m["view"] for m in reversed(said) if isinstance(m.get("view"), dict))
    until(d, lambda: screen.table.view is not None and not screen.table.queue and screen.table.mode is Mode.COMPUTER
          and [str(c) for c in screen.table.view.pile] == seen["pile"], (ann, bob), what="the moves played out")
    t = screen.table
    # both hands as backs, as many as each holds (Ann, at seat 1, knows both counts)
    assert t.sizes == (seen["opponent_hand_size"], len(seen["hand"])) and t.view.hand == ()
    assert 10 <= min(t.sizes) and t.opponent_cards == t.sizes[1]
    assert t.view.stock_count == seen["stock_count"]
    assert shows_text(d, 16, WATCH_LINE_Y, f"WATCHING {bob.name} v {ann.name}".upper(), LIGHTGRAY)
    assert shows_text(d, 640 - 8 - 8 * len("1 WATCHING"), 340, "1 WATCHING", LIGHTGRAY)
    bob_link.resign()
    until(d, lambda: screen.table.mode is Mode.GAME_END, (ann, bob), what="the game's end")
    lines = screen.game_end_lines()
    assert lines[:2] == [f"{ann.name.upper()} WINS THE GAME.", f"{bob.name.upper()} RESIGNED."]
    assert shows_text(d, playscreen.MSG_X + 16, playscreen.MSG_Y, lines[0], WHITE)
    click_at(d, LEAVE_BOX)                           # LEAVE, by the mouse: the lobby
    assert isinstance(d.controller, LobbyPage) and not d.controller.session.watched
    for s in (ann, bob):
        s.close()
    d.controller.session.close()


def test_cribbage_watched_from_its_lobby_both_hands_backs_and_left_by_its_key(headless_pyxel, room: str,
                                                                             tmp_path: Path) -> None:
    from tests.cribbage.helpers import open_cribbage

    ann, bob, ann_link, bob_link = seated(room, "cribbage", {"limit": 61})
    d = open_cribbage(tmp_path)
    screen = lobby_watches(d, room, CRIB_ROOM, bob.name, (ann, bob))
    assert isinstance(screen, WatchPlay)
    laid = 0
    deadline = time.monotonic() + 20
    while laid < 2:                                    # both lay away their first two cards
        assert time.monotonic() < deadline
        d.step()
        for s, link in ((ann, ann_link), (bob, bob_link)):
            s.poll()
            for m in link.take():
                if m.get("type") == "ask" and m["decision"] == "lay_away":
                    link.move({"act": "lay_away", "cards": m["view"]["hand"][:2]})
                    laid += 1
    until(d, lambda: screen.table.hand.phase.value == "play" and not screen.table.pending and not screen.table.beats,
          (ann, bob), seconds=20, what="the lay-away played out")
    h = screen.table.hand
    first, crib = FIRST_BACKS
    assert h.hands[0] == list(range(first, first + 4)) and len(h.hands[1]) == 4      # backs, four each
    assert len(h.cribs[0]) == 2 and len(h.cribs[1]) == 2 and h.starter is not None   # the crib backs, the cut
    polled([ann, bob], lambda: bob_link.watchers == 1)
    d.key("L")                                       # LEAVE: the lobby, and nobody watches
    assert isinstance(d.controller, LobbyPage)
    polled([ann, bob], lambda: bob_link.watchers == 0)
    for s in (ann, bob):
        s.close()
    d.controller.session.close()



def test_a_watcher_is_never_more_than_a_hand_behind_and_a_hand_end_goes_on_by_itself(headless_pyxel,
                                                                                    tmp_path: Path) -> None:
    """GinRummy's watch screen fed the public stream as the room says it (a fixed game):
    two hands played and the third dealt before the screen looks: it catches up at once
    to the last hand's end (shown as the players saw it); that stays HAND_HOLD frames,
    then the next hand comes without a key."""
    from port.ginrummy.main.roomwatch import HAND_HOLD
    from tests.ginrummy.room_scenes import FixedWatch, play

    d = open_game(tmp_path)
    room = FixedWatch()
    while room.ends < 2:
        room.hint_move()
    d.loop.controller = screen = play(d.controller.ctx, room.session, room.link, d.controller.ctx.title_screen)
    d.step()
    t = screen.table
    assert (t.mode, t.hand_number, [m["type"] for m in t.queue]) == (Mode.HAND_END, 2, ["deal"])
    d.step(HAND_HOLD - 2)
    assert t.mode is Mode.HAND_END                                   # still up, nobody pressed a key
    d.step(3)
    assert t.mode is not Mode.HAND_END and t.hand_number == 3
