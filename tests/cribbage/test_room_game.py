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
import pyxel

from port.cribbage.main import layout as L
from port.cribbage.main.roomplay import CHAT_AREA, HIDDEN_HAND, MY_CLOCK, RESIGN_BOX, RoomPlay, RoomTable, play
from port.main.roomwidgets import rating_line
from port.cribbage.main.table import COMPUTER_FRAMES
from port.cribbage.rules import Phase
from port.main.driver import Driver
from port.main.reviewscreen import ReviewScreen
from port.main.roomwidgets import clock_text
from port.screen.profiles import LIGHTGRAY, LIGHTGREEN, YELLOW
from port.main.roomsession import RoomSession, TableLink
from port.cribbage.rules import View
from port.protocol import decode
from tests.cribbage.helpers import box_up, click_at, open_cribbage
from tests.cribbage.roomscenes import REFERENCE, SCENES, scene_image
from tests.cribbage.seen import shows_box, shows_line
from tests.room.helpers import BotProcess, RoomProcess, polled
from tests.images import match_reference

STEPS = 20000


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomProcess]:
    with RoomProcess(tmp_path_factory.mktemp("room"), "--quiet") as r:
        yield r


def enter(url: str, name: str) -> RoomSession:
    s = RoomSession(url)
    s.register(name, "pw")
    polled([s], lambda: s.welcomed or bool(s.error))
    assert s.welcomed, s.error
    return s


def with_bot(room: RoomProcess, me: str, bot: str, rules: dict[str, Any], clock: int = 0,
             *args: str) -> tuple[RoomSession, TableLink, BotProcess]:
    """A session that invited a room bot, and their table."""
    proc = BotProcess(room.url, bot, "--game", "cribbage", "--games", "1", "--quiet", *args)
    s = enter(room.url, me)
    s.watch_lobby()
    polled([s], lambda: bot in s.players, 20)
    s.invite(bot, "cribbage", rules, clock)
    polled([s], lambda: bool(s.tables))
    return s, s.take_started()[0], proc


def with_person(room: RoomProcess, me: str, other: str, rules: dict[str, Any], clock: int = 0,
                invited: bool = False) -> tuple[RoomSession, TableLink, RoomSession, TableLink]:
    """Two sessions at one table: the screen's and the test's own, playing the other seat
    (the one who invites sits in seat 0: ``invited``, the screen's player is in seat 1)."""
    s, o = enter(room.url, me), enter(room.url, other)
    host, guest = (o, s) if invited else (s, o)
    host.invite(guest.name, "cribbage", rules, clock)
    polled([s, o], lambda: bool(guest.to_answer()))
    guest.answer(guest.to_answer()[0]["id"], "accept")
    polled([s, o], lambda: bool(s.tables) and bool(o.tables))
    return s, s.take_started()[0], o, o.take_started()[0]


LOBBIES: dict[int, object] = {}


def lobby_of(d: Driver) -> object:
    """What ``back()`` gives the room game opened by ``screen``: here, the title screen
    the driver started on (the lobby page is another engineer's)."""
    return LOBBIES[id(d)]


def screen(tmp_path: Path, session: RoomSession, link: TableLink, **fields: object) -> tuple[Driver, RoomPlay]:
    d = open_cribbage(tmp_path, **fields)
    ctx = d.controller.ctx
    lobby = LOBBIES[id(d)] = d.controller
    d.loop.controller = play(ctx, session, link, lambda: lobby)
    d.step()
    assert isinstance(d.controller, RoomPlay)
    return d, d.controller


def key_of(t: RoomTable, c: int) -> str:
    return str(t.hand.hands[L.HUMAN].index(c) + 1)


def run(d: Driver, until: Callable[[], bool], move: bool = True, steps: int = STEPS,
        dismiss: bool = True, also: Callable[[], None] | None = None) -> None:
    """Frames until ``until()``: boxes cleared by a key, your moves made by keys (the
    first two cards to the crib, the first card that fits); ``also`` each frame (the
    other seat's player)."""
    for _ in range(steps):
        if also is not None:
            also()
        if until():
            return
        t = d.controller.table
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
    t = d.controller.table
    raise AssertionError(f"it never came; pending {[m['type'] for m in t.pending]}, asked {t.asked}, "
                         f"sent {t.sent}, hand {t.hand_no} {t.hand.phase}, to act {t.hand.to_act}, "
                         f"box {t.box}, status {d.controller.session.status}, error {d.controller.link.error}")


class PaceWatch:
    """Looks at the screen each frame of a room game: the score moves only with a new box
    that announces it, drawn; the other's card flies face up from its hand; and its move
    waits the computer's pause once the screen is still."""

    def __init__(self, d: Driver, t: RoomTable) -> None:
        self.d, self.t = d, t
        self.front, self.box = list(t.front), t.box
        self.flown_from_them = 0
        self.waits: list[int] = []
        self.since: int | None = None

    def __call__(self) -> None:
        t = self.t
        front, box = list(t.front), t.box
        if front != self.front:
            assert box is not None and box is not self.box, f"the score moved {self.front} -> {front} with no new box"
            seat = 0 if box.title.startswith(("ANN", "YOUR")) or " ANN " in f" {' '.join(box.lines)} " else 1
            assert front[1 - seat] == self.front[1 - seat], (box.title, box.lines)
            assert shows_box(self.d, box)
        self.front, self.box = front, box
        # The other's cards are not on this side: its hand and its crib cards are backs.
        h = t.hand
        assert all(c >= HIDDEN_HAND for c in (*h.hands[L.COMPUTER], *h.cribs[L.COMPUTER]))
        assert all(f.card >= HIDDEN_HAND for f, _ in t.flying() if not f.face_up and f.src[1] == L.CPU_Y)
        self.flown_from_them += sum(1 for f, _ in t.flying() if f.face_up and f.src[1] == L.CPU_Y)
        head = t.pending[0] if t.pending else None
        theirs = (head is not None and head["type"] == "event" and head["event"]["act"] == "play"
                  and head["event"]["seat"] != t.me)
        if theirs and not t.beats:
            if self.since is None:
                self.since = pyxel.frame_count     # frames, not looks: a key is two frames
        elif self.since is not None:
            self.waits.append(pyxel.frame_count - self.since)
            self.since = None


def test_a_whole_game_against_a_room_bot_through_the_screen(room: RoomProcess, tmp_path: Path) -> None:
    start = time.monotonic()
    s, link, bot = with_bot(room, "Ann", "Stan", {"limit": 61})
    d, p = screen(tmp_path, s, link)
    t = p.table
    watch = PaceWatch(d, t)
    run(d, lambda: t.over, also=watch)
    assert t.end is not None and t.end["how"] == "played"
    assert max(t.front) >= 61 and tuple(t.front) == tuple(t.view.scores)
    # Stan's cards came as the computer's do: face up from his hand, after its pause
    # (counted from the watch's first look: the key that clears a box is two frames).
    assert watch.flown_from_them > 0 and watch.waits and min(watch.waits) >= COMPUTER_FRAMES - 2, watch.waits
    d.key("R")                                               # SAVE RECORD: the room's record
    run(d, lambda: "saved" in p.note, move=False)
    saved = sorted(tmp_path.glob("CR*.REC"))
    assert len(saved) == 1
    text = s.records[link.end["number"]]["text"]
    assert saved[0].read_text() == text
    d.key("V")                          # REVIEW: your decisions of the room's record, beside EXPERT's
    run(d, lambda: isinstance(d.controller, ReviewScreen), move=False)
    lines = d.controller.make()
    assert lines and not lines[0].startswith("No record")
    d.key("B")
    assert d.controller is p
    assert bot.finish(30)[0] == 0
    s.close()
    assert time.monotonic() - start < 40


class Other:
    """The test's own player at the other seat: answers what the room asks (the first
    two cards to the crib, the first card that fits), unless told to hold."""

    def __init__(self, session: RoomSession, link: TableLink) -> None:
        self.session, self.link = session, link
        self.hold = False
        self.ask: dict[str, Any] | None = None
        self.view: dict[str, Any] = {}          # its seat's latest view, as the room sent it

    def __call__(self) -> None:
        self.session.poll()
        for m in self.link.take():
            self.view = m.get("view", self.view)
            if m["type"] == "ask":
                self.ask = m
                self.link.shown(m["seq"])       # its screen shows it (even when it holds)
            elif m["type"] == "event" and m["event"]["seat"] == self.link.seat:
                self.ask = None
        if self.ask is None or self.hold:
            return
        m, self.ask = self.ask, None
        v = decode(View, m["view"])
        if m["decision"] == "lay_away":
            self.link.move({"act": "lay_away", "cards": [str(c) for c in v.hand[:2]]})
        else:
            fits = v.legal_plays()
            self.link.move({"act": "play", "card": str(fits[0])} if fits else {"act": "go"})


def said(d: Driver, p: RoomPlay, words: str) -> bool:
    """Whether the message area shows a line holding ``words``, read from the screen."""
    for i, line in enumerate(p._message_lines()):
        if words in line and shows_line(d, L.MSG_X + 16, L.MSG_Y + L.LINE * i, line):
            return True
    return False


def test_the_opponent_away_and_back_and_the_own_connection_dropped(room: RoomProcess, tmp_path: Path) -> None:
    s, link, o, olink = with_person(room, "Cy", "Bob", {"limit": 61}, invited=True)
    assert link.seat == 1                             # the screen's seats turned: you 0 on the screen
    other = Other(o, olink)
    d, p = screen(tmp_path, s, link)
    t = p.table
    run(d, lambda: t.hand.phase is Phase.PLAY and not t.beats, also=other)
    # The other player's connection drops: the status line waits for them, counting down.
    o.client.transport.close()
    run(d, lambda: said(d, p, "Waiting for Bob ("), move=False)
    line = next(x for x in p._message_lines() if x.startswith("Waiting"))
    assert line[len("Waiting for Bob ("):-1] in {"2:00", "1:59", "1:58"}
    run(d, lambda: not any("Waiting" in x for x in p._message_lines()), move=False, also=other)
    # Your own connection drops while Bob plays on: "reconnecting...", then the same table.
    run(d, lambda: t.your_turn_to_play() or t.your_turn_to_lay_away(), also=other)
    s.client.transport.close()
    run(d, lambda: said(d, p, "reconnecting..."), move=False, also=other)
    run(d, lambda: t.hand_no >= 2 and t.hand.phase is Phase.PLAY, also=other)
    other.hold = True                                 # Bob stops: the screen comes to rest
    run(d, lambda: not t.beats and not t.pending and (t.your_turn_to_play() or other.ask is not None),
        move=False, also=other)
    v = decode(View, other.view)
    assert tuple(t.front) == (v.scores[link.seat], v.scores[olink.seat])
    assert len(t.hand.hands[L.COMPUTER]) == len(v.hand)
    assert s.status == "open"
    s.close()
    o.close()


def test_a_new_session_resumed_with_the_token_rejoins_and_finishes_the_game(room: RoomProcess, tmp_path: Path) -> None:
    s, link, bot = with_bot(room, "Dee", "Stu", {"limit": 61})
    kept: list[str | None] = [s.client.token]
    d, p = screen(tmp_path, s, link)
    t = p.table
    run(d, lambda: t.hand_no >= 2 and t.hand.phase is Phase.PLAY and t.your_turn_to_play() and not t.beats)
    mine, front = list(t.hand.hands[L.HUMAN]), list(t.front)
    s.client.transport.close()                      # the program quits: no goodbye
    again = RoomSession(room.url, keep_token=kept.append)
    again.resume(str(kept[0]))
    polled([again], lambda: bool(again.tables))
    link2 = again.take_started()[0]
    assert (link2.table, link2.seat) == (link.table, link.seat)
    d2, p2 = screen(tmp_path, again, link2)
    t2 = p2.table
    # The stream from its first message comes at once and is caught up at once: no
    # flights, no boxes to sit through, the same position as before the quit.
    run(d2, lambda: t2.your_turn_to_play(), move=False, dismiss=False, steps=200)
    assert (list(t2.hand.hands[L.HUMAN]), list(t2.front), t2.hand_no) == (mine, front, t.hand_no)
    assert shows_line(d2, L.SCORES_X, L.SCORES_Y + L.LINE, f"{'DEE':<8}  {front[0]:>3}", LIGHTGREEN)
    run(d2, lambda: t2.over)
    assert t2.end is not None and t2.end["how"] == "played"
    assert bot.finish(30)[0] == 0
    again.close()


def test_resign_asks_yes_or_no_and_the_end_shows_the_ratings_and_the_lobby(room: RoomProcess, tmp_path: Path) -> None:
    s, link, o, olink = with_person(room, "Eve", "Fay", {"limit": 121})
    other = Other(o, olink)
    d, p = screen(tmp_path, s, link)
    t = p.table
    # Both lay away first: a game resigned before each player has moved is not rated.
    run(d, lambda: t.hand.phase is Phase.PLAY and not t.beats, also=other)
    click_at(d, RESIGN_BOX)
    assert p.quit_asked and shows_line(d, L.MSG_X + 16, L.MSG_Y + 8, "RESIGN THIS GAME?")
    d.key("N")                                       # no: the game goes on
    assert not p.quit_asked and t.end is None
    d.key("R")                                       # RESIGN's letter in both programs
    assert shows_line(d, L.YES_BOX.x + 20, L.YES_BOX.y + 6, "ES")    # YES: clear of the clock and the chat
    d.key("Y")
    run(d, lambda: t.over, move=False, also=other)
    assert t.end["how"] == "resigned" and t.end["winner"] == "Fay"
    d.step()
    r = L.SHOW
    line = "YOU RESIGNED."
    assert shows_line(d, r.x + (r.w - d.screen.text_width(line)) // 2, r.y + 64, line)
    change = t.end["ratings"]["Eve"]
    rows = [rating_line(n, t.end["ratings"][n], 12) for n in ("Eve", "Fay")]
    assert rows[0] == f"EVE          {change['before']} -> {change['after']} ({change['change']})"
    assert change["change"] < 0 and f"({change['change']})" in rows[0]
    x = r.x + (r.w - max(d.screen.text_width(row) for row in rows)) // 2
    assert shows_line(d, x, r.y + 64 + 2 * L.LINE, rows[0]) and shows_line(d, x, r.y + 64 + 3 * L.LINE, rows[1])
    d.key("R")                          # SAVE RECORD: the room's record says who won and how
    run(d, lambda: "saved" in p.note, move=False, also=other)
    saved = sorted(tmp_path.glob("CR*.REC"))[-1].read_text().splitlines()
    assert saved[-1].startswith("Result: Fay wins: Eve resigned in hand 1, ")
    d.key("V")                          # REVIEW: the hand she stopped in, as far as it went (her lay-away)
    run(d, lambda: isinstance(d.controller, ReviewScreen), move=False)
    assert d.controller.make()[0].startswith(("1 decision: EXPERT ", "2 decisions: EXPERT "))   # her lead too, as dealt
    d.key("B")                                       # back from the review to the game's end
    assert d.controller is p
    d.key("A")                                       # REMATCH (PLAY AGAIN's A): asked, and said so
    line = "REMATCH ASKED: WAITING FOR FAY."
    assert shows_line(d, r.x + (r.w - d.screen.text_width(line)) // 2, r.y + 64 + 5 * L.LINE, line, YELLOW)
    olink.rematch()
    run(d, lambda: d.controller is not p, move=False, also=other)
    again = d.controller
    assert isinstance(again, RoomPlay) and again.link.table != link.table
    assert again.link.seat == 1 - link.seat           # a rematch swaps the seats
    run(d, lambda: again.table.view is not None and not again.table.beats, move=False, also=other)
    d.key("Q")                                       # Q resigns too, as QUIT quits
    d.key("Y")
    run(d, lambda: again.table.over, move=False, also=other)
    d.key("L")                                       # LOBBY: back to the page the game came from
    assert d.controller is lobby_of(d)
    s.close()
    o.close()


def test_hints_are_off_unless_the_table_has_them_and_the_chat_line_talks(room: RoomProcess, tmp_path: Path) -> None:
    s, link, o, olink = with_person(room, "Hal", "Ian", {"limit": 61})
    other = Other(o, olink)
    d, p = screen(tmp_path, s, link)
    t = p.table
    run(d, lambda: t.your_turn_to_lay_away() or t.your_turn_to_play(), move=False, also=other)
    d.key("H")
    assert t.hint is None and said(d, p, "Hints are off at this table.")
    t.message = ""
    d.click("middle", 600, 200)                      # "the center button ... ANYWHERE"
    assert t.hint is None and said(d, p, "Hints are off at this table.")
    # The chat: T to type (every key is the line's while typing), ENTER to send.
    d.key("T")
    d.type("hi")
    d.key("ENTER")
    polled([o], lambda: bool(olink.chat_lines))
    assert olink.chat_lines == [("Hal", "hi")] and t.hint is None
    olink.chat("good luck")
    run(d, lambda: ("Ian", "good luck") in link.chat_lines, move=False, also=other)
    d.step()
    assert shows_line(d, CHAT_AREA.x, CHAT_AREA.y + 10, "Ian: good luck", LIGHTGRAY)
    d.key("M")                                       # mute: Ian's lines are not sent any more
    run(d, lambda: link.muted, move=False, also=other)
    # A move the room refuses: its sentence on the status line, nothing changed.
    before = (list(t.hand.hands[L.HUMAN]), t.asked)
    link.move({"act": "play", "card": "AS"} if t.asked != "play" else {"act": "lay_away", "cards": ["AS", "2S"]})
    run(d, lambda: bool(link.error), move=False, also=other)
    d.step()
    assert said(d, p, link.error[:20]) and (list(t.hand.hands[L.HUMAN]), t.asked) == before
    s.close()
    o.close()
    # A table where both accepted hints: H gives STANDARD's choice, as against the computer.
    s, link, o, olink = with_person(room, "Jo", "Kit", {"limit": 61, "hints": True})
    other = Other(o, olink)
    d, p = screen(tmp_path, s, link)
    t = p.table
    run(d, lambda: t.your_turn_to_lay_away() or t.your_turn_to_play(), move=False, also=other)
    d.key("H")
    assert t.hint is not None and all(c in t.hand.hands[L.HUMAN] for c in t.hint)
    s.close()
    o.close()


def test_the_clocks_and_a_timeout_are_shown(room: RoomProcess, tmp_path: Path) -> None:
    s, link, o, olink = with_person(room, "Lu", "Gil", {"limit": 61}, clock=2)
    other = Other(o, olink)
    other.hold = True                                # Gil never moves: STANDARD moves for him
    d, p = screen(tmp_path, s, link)
    t = p.table
    x_them = L.CPU_X + d.screen.text_width("GIL") + 12 + 100

    def clock_seen(seat: int, x: int, y: int) -> bool:
        text = clock_text(link, seat)
        return bool(text) and shows_line(d, x, y, text)

    run(d, lambda: clock_seen(olink.seat, x_them, L.CPU_LABEL_Y), also=other)
    run(d, lambda: t.box is not None and t.box.title == "THE CLOCK RAN OUT", also=other)
    assert t.box.lines == ["STANDARD MOVED FOR GIL."] and shows_box(d, t.box)
    run(d, lambda: clock_seen(link.seat, MY_CLOCK[0] + 100, MY_CLOCK[1] - 1), move=False, also=other)
    run(d, lambda: t.over, also=other)
    assert t.end["how"] == "clock" and t.end["winner"] == "Lu"
    d.step()
    r = L.SHOW
    line = "GIL LOST ON THE CLOCK:"
    assert shows_line(d, r.x + (r.w - d.screen.text_width(line)) // 2, r.y + 64, line)
    s.close()
    o.close()


def test_your_clock_waits_behind_a_box_and_its_timeout_is_shown_when_it_happens(room: RoomProcess,
                                                                                  tmp_path: Path) -> None:
    """The clock of a question starts when it is on the screen (the screen says
    ``shown``), not while NEW GAME / CUT FOR THE DEAL still waits for a key; and when
    it runs out, its box says so at once."""
    s, link, o, olink = with_person(room, "Uma", "Vic", {"limit": 61}, clock=1)
    other = Other(o, olink)
    d, p = screen(tmp_path, s, link, pause=True)          # PAUSE: every box waits for a key
    t = p.table
    until = time.monotonic() + 1.6                       # past the 1 s clock
    run(d, lambda: time.monotonic() > until, move=False, dismiss=False, also=other)
    assert t.box is not None and t.box.title == "NEW GAME" and not link.timeouts
    assert link.clock_seat == link.seat and not link.clock_running        # asked, and waiting
    assert clock_text(link, link.seat) == "0:01"
    run(d, lambda: t.your_turn_to_lay_away(), move=False, also=other)    # the box cleared
    run(d, lambda: link.shown_seq > 0 and link.clock_running, move=False, dismiss=False, also=other)
    run(d, lambda: t.box is not None and t.box.title == "THE CLOCK RAN OUT", move=False, dismiss=False,
        also=other)
    assert t.box.lines == ["STANDARD MOVED FOR UMA."] and shows_box(d, t.box)
    assert [m["name"] for m in link.timeouts] == ["Uma"]
    s.close()
    o.close()


def test_the_other_away_is_not_playing_and_one_who_left_is_offered_no_rematch(headless_pyxel, tmp_path: Path) -> None:
    """The room's own driver (a fixed seed) heard by the screen: while Bob is away on his
    turn, the message area does not say he is playing; at the game's end, Bob gone from
    the room, no REMATCH: the end box says he has left."""
    from tests.cribbage.roomscenes import RULES, SEED, first_fit, link_to, say, settle
    from port.room.games import CribDriver

    driver = CribDriver(RULES, SEED)
    session, link = link_to(driver)
    d = open_cribbage(tmp_path)
    ctx = d.controller.ctx
    d.loop.controller = p = play(ctx, session, link, lambda: None)
    seq = [0]
    while not (driver.to_move() == 1 and driver.decision() == "play"):
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    d.step()
    settle(d)
    assert p._message_lines() == ["BOB is playing."]
    link.hear({"type": "away", "table": link.table, "name": "Bob", "seconds": 102.0})
    d.step()
    assert p._message_lines() == ["Waiting for Bob (1:42)"]
    while not driver.over:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    link.hear({"type": "game_end", "table": link.table, "number": 3, "how": "away", "winner": "Ann",
               "scores": list(driver.scores()), "rated": False, "ratings": {}})
    session._hear({"type": "presence", "player": {"name": "Bob", "gone": True}})
    settle(d)
    d.step()
    r = L.SHOW
    line = "BOB HAS LEFT THE ROOM."
    assert p.table.over and shows_line(d, r.x + (r.w - d.screen.text_width(line)) // 2, r.y + 64 + 4 * L.LINE,
                                         line, YELLOW)
    d.key("A")
    assert not p.rematch_asked                       # nobody to play again


@pytest.mark.parametrize("name", list(SCENES))
def test_a_room_game_matches_its_reference_image(headless_pyxel, tmp_path: Path, name: str) -> None:
    match_reference(scene_image(name), REFERENCE / f"{name}.png", tmp_path, "python -m tests.cribbage.roomscenes")


def test_the_room_killed_and_started_again_the_game_comes_back(tmp_path: Path) -> None:
    first = RoomProcess(tmp_path / "room", "--quiet").start()
    try:
        s, link, o, olink = with_person(first, "Mo", "Ned", {"limit": 61})
        other = Other(o, olink)
        d, p = screen(tmp_path, s, link)
        t = p.table
        run(d, lambda: t.hand.phase is Phase.PLAY and t.your_turn_to_play() and not t.beats, also=other)
        mine, front, hand = list(t.hand.hands[L.HUMAN]), list(t.front), t.hand_no
        first.kill()                                 # kill -9: no goodbye, no flush
        run(d, lambda: said(d, p, "reconnecting..."), move=False, also=other)
        assert not t.your_turn_to_play()             # a move would be lost with the line
        again = RoomProcess(tmp_path / "room", "--quiet", port=first.port).start()
        try:
            run(d, lambda: s.status == "open" and t.your_turn_to_play(), move=False, also=other)
            assert (list(t.hand.hands[L.HUMAN]), list(t.front), t.hand_no) == (mine, front, hand)
            run(d, lambda: t.hand_no > hand, also=other)      # and the game goes on
        finally:
            again.stop()
    finally:
        first.stop()
