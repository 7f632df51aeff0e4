"""Cribbage against a person in the card room, through the real game screen: a real
room server (one for the module), a real room bot (``python -m port.room.bot``) or a
second session in the test at the other seat, the screen driven headless by its keys
and clicks (docs/room.md, "The player's side: a Cribbage game")."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from port.cards import Card
from port.cribbage.main import layout as L
from port.cribbage.main.roomplay import RESIGN_BOX, RoomPlay, RoomTable, play
from port.cribbage.rules import Phase
from port.main.driver import Driver
from port.main.roomsession import RoomSession, TableLink
from tests.cribbage.helpers import box_up, click_at, open_cribbage
from tests.room.helpers import BotProcess, RoomProcess

STEPS = 20000


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomProcess]:
    with RoomProcess(tmp_path_factory.mktemp("room"), "--quiet") as r:
        yield r


def frames(sessions: list[RoomSession], until: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for s in sessions:
            s.poll()
        if until():
            return
        time.sleep(1 / 100)
    raise AssertionError("it never came")


def enter(url: str, name: str) -> RoomSession:
    s = RoomSession(url)
    s.register(name, "pw")
    frames([s], lambda: s.welcomed or bool(s.error))
    assert s.welcomed, s.error
    return s


def with_bot(room: RoomProcess, me: str, bot: str, rules: dict[str, Any], clock: int = 0,
             *args: str) -> tuple[RoomSession, TableLink, BotProcess]:
    """A session that invited a room bot, and their table."""
    proc = BotProcess(room.url, bot, "--game", "cribbage", "--games", "1", "--quiet", *args)
    s = enter(room.url, me)
    s.watch_lobby()
    frames([s], lambda: bot in s.players, 20)
    s.invite(bot, "cribbage", rules, clock)
    frames([s], lambda: bool(s.tables))
    return s, s.take_started()[0], proc


def with_person(room: RoomProcess, me: str, other: str, rules: dict[str, Any],
                clock: int = 0) -> tuple[RoomSession, TableLink, RoomSession, TableLink]:
    """Two sessions at one table: the screen's and the test's own, playing the other seat."""
    s, o = enter(room.url, me), enter(room.url, other)
    s.invite(other, "cribbage", rules, clock)
    frames([s, o], lambda: bool(o.to_answer()))
    o.answer(o.to_answer()[0]["id"], "accept")
    frames([s, o], lambda: bool(s.tables) and bool(o.tables))
    return s, s.take_started()[0], o, o.take_started()[0]


def screen(tmp_path: Path, session: RoomSession, link: TableLink, **fields: object) -> tuple[Driver, RoomPlay]:
    d = open_cribbage(tmp_path, **fields)
    ctx = d.controller.ctx
    lobby = d.controller
    d.loop.controller = play(ctx, session, link, lambda: lobby)
    d.step()
    assert isinstance(d.controller, RoomPlay)
    return d, d.controller


def key_of(t: RoomTable, c: int) -> str:
    return str(t.hand.hands[L.HUMAN].index(c) + 1)


def run(d: Driver, until: Callable[[], bool], move: bool = True, steps: int = STEPS,
        dismiss: bool = True) -> None:
    """Frames until ``until()``: boxes cleared by a key, your moves made by keys (the
    first two cards to the crib, the first card that fits)."""
    for _ in range(steps):
        t = d.controller.table
        if until():
            return
        if dismiss and box_up(t) and t.age > 2:
            d.key("SPACE")
        elif move and t.your_turn_to_lay_away():
            for c in t.hand.hands[L.HUMAN][:2]:
                d.key(key_of(t, c))
            d.key("L")
        elif move and t.your_turn_to_play():
            d.key(key_of(t, t.hand.legal_plays(L.HUMAN)[0]))
        else:
            d.step()
            time.sleep(0.0005)
    raise AssertionError(f"it never came; pending {[m['type'] for m in d.controller.table.pending]}")


def test_a_whole_game_against_a_room_bot_through_the_screen(room: RoomProcess, tmp_path: Path) -> None:
    start = time.monotonic()
    s, link, bot = with_bot(room, "Ann", "Stan", {"limit": 61})
    d, p = screen(tmp_path, s, link)
    t = p.table
    run(d, lambda: t.over)
    assert t.end is not None and t.end["how"] == "played"
    assert max(t.front) >= 61 and tuple(t.front) == tuple(t.view.scores)
    d.key("R")                                               # SAVE RECORD: the room's record
    run(d, lambda: "saved" in p.note, move=False)
    saved = sorted(tmp_path.glob("CR*.REC"))
    assert len(saved) == 1
    text = s.records[link.end["number"]]["text"]
    assert saved[0].read_text() == text
    assert bot.finish(30)[0] == 0
    s.close()
    assert time.monotonic() - start < 40
