"""Playing a person at GinRummy in the card room: the game screen on a real room.

One real room (``python -m port.room``) for the module; the player's screen is the real
program headless (the script driver), its session polled by the screen itself; the
other seat is a real room bot (``python -m port.room.bot``) or a second session played
by the test.
"""
from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from port.cards import Card
from port.ginrummy import record
from port.ginrummy.main import play as playscreen
from port.ginrummy.main.roomplay import (
    CHAT_AREA, HINTS_OFF, MUTE_X, MY_CLOCK_X, STATUS_X, STATUS_Y, RoomPlayScreen, play,
)
from port.ginrummy.main.table import PACE, Mode
from port.ginrummy.rules import arrange
from port.main.driver import Driver
from port.main.reviewscreen import ReviewScreen
from port.main.roomsession import RoomSession, TableLink
from port.screen import png
from port.screen.profiles import DARKGRAY, LIGHTGRAY, YELLOW
from tests.ginrummy.helpers import center, click_at, open_game, pixels_in, red_over, shows_text, yellow_over
from tests.ginrummy.scenes import scene_image
from tests.room.helpers import BotProcess, RoomProcess, polled

REFERENCE = Path(__file__).parent / "reference"
NAMES = itertools.count(1)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RoomProcess]:
    with RoomProcess(tmp_path_factory.mktemp("room")) as r:
        yield r


@pytest.fixture(autouse=True)
def collected_here() -> Iterator[None]:
    """Each test's pyxel images freed on this (pyxel's) thread: a collection that happened
    to run on a connection's thread would drop them there, which pyxel refuses."""
    yield
    gc.collect()


def pump(d: Driver, others: list[RoomSession], until: Callable[[], bool], seconds: float = 10.0) -> None:
    """Frames of the screen (which polls its own session) and polls of the other
    sessions, until ``until``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        d.step()
        for s in others:
            s.poll()
        if until():
            return
        time.sleep(0.002)
    raise AssertionError("never came")


def enter(url: str, name: str, keep: list[str | None] | None = None) -> RoomSession:
    s = RoomSession(url, keep_token=keep.append if keep is not None else None)
    s.register(name, "pw")
    deadline = time.monotonic() + 10
    while not s.welcomed:
        assert time.monotonic() < deadline and not s.error, s.error
        s.poll()
        time.sleep(0.005)
    return s


class Pair:
    """Ann at the screen, Bob a second session the test plays."""

    def __init__(self, d: Driver, ann: RoomSession, bob: RoomSession, screen: RoomPlayScreen,
                 bob_link: TableLink, token: list[str | None]) -> None:
        self.d, self.ann, self.bob, self.screen, self.bob_link, self.token = d, ann, bob, screen, bob_link, token
        self.asked: dict[str, Any] | None = None

    @property
    def table(self):  # noqa: ANN201 - the RoomTable
        return self.screen.table

    def pump(self, until: Callable[[], bool], seconds: float = 10.0) -> None:
        pump(self.d, [self.bob], until, seconds)

    def ann_to_move(self) -> bool:
        """Ann's screen waits for her, with nothing sent and nothing left to play out."""
        t = self.table
        return t.view is not None and t.mode is not Mode.COMPUTER and not t.sent and not t.queue

    def bob_turn(self) -> None:
        """Bob answers what the room asks of him until it is Ann's move: from the
        stock, throwing the card drawn; he declines offers and plays on."""
        while True:
            self.pump(lambda: self._bob_asked() or self.ann_to_move(), 10)
            if self.asked is None:
                return
            ask, self.asked = self.asked, None
            view = ask["view"]
            decision = ask["decision"]
            if decision == "draw":
                self.bob_link.move({"act": "stock"})
            elif decision == "offer":
                self.bob_link.move({"act": "decline"})
            elif decision == "knock":
                self.bob_link.move({"act": "play_on"})
            else:
                self.bob_link.move({"act": "discard", "card": view["drawn"] or view["hand"][-1]})

    def _bob_asked(self) -> bool:
        for m in self.bob_link.take():
            if m.get("type") == "ask":
                self.asked = m
        return self.asked is not None

    def settle(self) -> None:
        """Until Ann's screen shows her move with nothing left to play out."""
        self.pump(self.ann_to_move)


@pytest.fixture
def pair(room: RoomProcess, tmp_path: Path) -> Callable[..., Pair]:
    made: list[Pair] = []

    def make(rules: dict[str, Any] | None = None, clock: int = 0, bob_invites: bool = False,
             profile: str = "EGA") -> Pair:
        n = next(NAMES)
        token: list[str | None] = []
        ann, bob = enter(room.url, f"Ann{n}", token), enter(room.url, f"Bob{n}")
        host, guest = (bob, ann) if bob_invites else (ann, bob)
        host.invite(guest.name, "ginrummy", rules or {}, clock)
        polled([ann, bob], lambda: bool(guest.to_answer()))
        guest.answer(guest.to_answer()[0]["id"], "accept")
        polled([ann, bob], lambda: bool(ann.tables) and bool(bob.tables))
        link, bob_link = ann.take_started()[0], bob.take_started()[0]
        d = open_game(tmp_path, profile=profile)
        ctx = d.controller.ctx
        d.loop.controller = play(ctx, ann, link, ctx.title_screen)
        p = Pair(d, ann, bob, d.controller, bob_link, token)
        made.append(p)
        return p

    yield make
    for p in made:
        p.ann.close()
        p.bob.close()
    # The screens' pyxel images are freed here, on the main thread, never by a collection
    # that happens to run on a connection's thread (pyxel's objects must not cross threads).
    made.clear()
    gc.collect()


def worst(cards: list[Card]) -> Card:
    """The card a plain player throws: its highest deadwood card."""
    loose = arrange(cards).deadwood_cards
    return max(loose, key=lambda c: (c.value, c.rank)) if loose else max(cards, key=lambda c: c.rank)


def ann_moves(d: Driver, screen: RoomPlayScreen) -> None:
    """Ann's move through the screen's keys and clicks, as a plain player makes it."""
    t = screen.table
    if t.mode is Mode.UPCARD_OFFER:
        d.key("D")
    elif t.mode is Mode.HUMAN_DRAW:
        click_at(d, playscreen.DECK_BOX)                # the DECK box, by the mouse
    elif t.mode is Mode.HUMAN_DISCARD:
        card = worst(list(t.view.hand))
        if card == t.drawn:
            d.key("D")                                  # the DRAWN CARD
        else:
            d.key(playscreen.KEYS_HAND[t.shown().cards.index(card)])
    elif t.mode is Mode.KNOCK_PROMPT:
        d.key("Y")


# ---- a whole game against a room bot -------------------------------------------------------

def test_a_whole_game_against_a_room_bot_through_the_screen_its_record_the_rooms(room: RoomProcess,
                                                                                  tmp_path: Path) -> None:
    bot = BotProcess(room.url, "Stan", "--games", "1", "--seed", "3", "--quiet")
    try:
        ann = enter(room.url, "Annie")
        ann.watch_lobby()
        polled([ann], lambda: "Stan" in ann.players)
        ann.invite("Stan", "ginrummy", {"score_limit": 30}, 60)
        polled([ann], lambda: bool(ann.tables))
        link = ann.take_started()[0]
        d = open_game(tmp_path)
        ctx = d.controller.ctx
        d.loop.controller = screen = play(ctx, ann, link, ctx.title_screen)
        assert isinstance(screen, RoomPlayScreen)
        shown: list[tuple[int, int]] = []           # each hand's end as the screen showed it
        deadline = time.monotonic() + 60
        while screen.table.mode is not Mode.GAME_END:
            assert time.monotonic() < deadline, "the game did not end"
            d.step()
            t = screen.table
            assert not link.error, link.error        # no move of Ann's was refused
            if t.mode is Mode.HAND_END:
                assert t.result is not None
                assert shows_text(d, playscreen.MSG_X + 16, playscreen.MSG_Y,
                                  screen.words(playscreen.result_lines(t.result, "Annie", t.options)[0]))
                shown.append(t.scores)
                d.key("C")
            elif not t.sent and t.view is not None:
                ann_moves(d, screen)
        end = link.end
        assert end is not None and end["how"] == "played"
        mine = end["ratings"]["Annie"]
        you = f"ANNIE    {mine['before']} -> {mine['after']} ({mine['change']:+d})"
        d.step()
        assert any(shows_text(d, playscreen.MSG_X + 16, playscreen.MSG_Y + playscreen.LINE * i, you)
                   for i in range(6))
        # SAVE RECORD: the record the room keeps, as the room gives it
        pump(d, [], lambda: end["number"] in ann.records)
        d.key("R")
        saved = sorted(tmp_path.glob(f"{record.PREFIX}*.REC"))
        assert len(saved) == 1 and screen.note == f"Record saved as {saved[0].name}."
        text = saved[0].read_text()
        assert text == ann.records[end["number"]]["text"]
        log = record.parse(text)
        final = log.steps[-1].scores
        assert (final[link.seat], final[1 - link.seat]) == shown[-1] == (end["scores"][link.seat],
                                                                           end["scores"][1 - link.seat])
        assert len([s for s in log.steps if s.kind == "end"]) == len(shown)
        # REVIEW: the existing review screen on that record, and back to the game's end
        d.down("V")
        d.step()                                     # the frame V is pressed in
        d.up("V")
        review = d.controller
        assert isinstance(review, ReviewScreen) and review.back is screen
        assert review.title == "REVIEW OF THE GAME: YOUR DECISIONS BESIDE EXPERT'S"
        # (EXPERT's look at a whole game takes seconds: test_review.py covers the screen)
        d.loop.controller = review.back
        d.key("L")                                   # LOBBY: back()
        assert not isinstance(d.controller, RoomPlayScreen)
        code, out, _ = bot.finish(20)
        assert code == 0 and out.startswith(f"game {end['number']}: Annie v Stan")
        ann.close()
    finally:
        bot.stop()
        gc.collect()


# ---- the opponent away, the own connection, a rejoin ------------------------------------------

def test_the_opponent_away_is_waited_for_on_the_status_line_and_back_clears_it(pair: Callable[..., Pair],
                                                                               room: RoomProcess) -> None:
    p = pair()
    bob = p.bob.name
    p.settle()
    p.bob.client.transport.close()                   # Bob's program quits, no goodbye
    p.bob.client.close()
    p.pump(lambda: shows_text(p.d, STATUS_X, STATUS_Y, f"Waiting for {bob} (", YELLOW))
    assert p.screen.table.mode is Mode.HUMAN_DRAW    # Ann plays on meanwhile
    back = RoomSession(room.url)
    back.resume(str(p.bob.client.token))
    pump(p.d, [back], lambda: back.welcomed and p.ann.tables[p.screen.link.table].away_left() is None)
    p.d.step()
    assert not shows_text(p.d, STATUS_X, STATUS_Y, f"Waiting for {bob} (", YELLOW)
    back.close()


def test_the_own_connection_dropped_says_reconnecting_and_the_position_comes_back(pair: Callable[..., Pair]) -> None:
    p = pair()
    p.settle()
    click_at(p.d, playscreen.DECK_BOX)
    p.settle()
    held = list(p.table.view.hand)
    p.ann.client.transport.close()                   # the line drops under the screen
    p.pump(lambda: shows_text(p.d, STATUS_X, STATUS_Y, "reconnecting...", YELLOW))
    p.pump(lambda: p.ann.status == "open")
    p.settle()
    assert (p.table.mode, list(p.table.view.hand)) == (Mode.HUMAN_DISCARD, held)
    p.d.key("D")                                     # and the game goes on from there
    p.pump(lambda: p.table.mode is Mode.COMPUTER)
    p.bob_turn()
    p.settle()
    assert p.table.mode is Mode.HUMAN_DRAW and not p.screen.link.error


def test_a_rejoin_with_the_kept_token_is_the_same_game_at_once(pair: Callable[..., Pair], room: RoomProcess) -> None:
    p = pair()
    p.settle()
    for _ in range(2):                               # two turns each, then Ann quits
        ann_moves(p.d, p.screen)
        p.pump(lambda: p.table.mode is Mode.HUMAN_DISCARD)
        ann_moves(p.d, p.screen)
        p.bob_turn()
        p.settle()
    before = p.d.snapshot()
    p.ann.client.transport.close()
    p.ann.client.close()
    again = RoomSession(room.url)
    again.resume(str(p.token[-1]))
    last = p.ann.client.seqs[p.screen.link.table]    # the last of the stream the old screen saw
    polled([again, p.bob], lambda: bool(again.tables)
           and any(m.get("seq") == last for m in again.tables[p.screen.link.table].inbox))
    link = again.take_started()[0]
    ctx = p.screen.ctx
    p.d.loop.controller = screen = play(ctx, again, link, ctx.title_screen)
    frames = 0
    while screen.table.mode is not Mode.HUMAN_DRAW or screen.table.queue or screen.table.view is None:
        p.d.step()
        frames += 1
        assert frames < 10 * PACE, (screen.table.mode, [m.get("type") for m in screen.table.queue],
                                    link.seq_seen, link.sync_to, again.status)
    # the whole stream from seq 0, caught up at once up to Ann's last move, then Bob's
    # last turn at the computer's pace: two steps
    assert frames <= 3 * PACE
    p.d.step()
    assert p.d.snapshot() == before
    p.screen = screen
    ann_moves(p.d, screen)
    p.pump(lambda: screen.table.mode is Mode.HUMAN_DISCARD)
    assert not link.error
    again.close()


def test_the_opponents_moves_are_played_out_at_the_computers_pace_with_the_red_bar(pair: Callable[..., Pair]) -> None:
    p = pair()
    p.settle()
    ann_moves(p.d, p.screen)                         # from the deck
    p.pump(lambda: p.table.mode is Mode.HUMAN_DISCARD)
    thrown = worst(list(p.table.view.hand))
    ann_moves(p.d, p.screen)
    frames = 0
    for decision, move in (("draw", {"act": "pile"}), ("discard", None)):
        p.pump(lambda: p._bob_asked())
        ask, p.asked = p.asked, None
        assert ask["decision"] == decision
        if move is None:                             # not the card just taken from the pile
            move = {"act": "discard", "card": next(c for c in ask["view"]["hand"] if c != str(thrown))}
        p.bob_link.move(move)
    while not p.ann_to_move():
        p.d.step()
        frames += 1
        if p.table.computer_took_pile and p.table.mode is Mode.COMPUTER:
            assert red_over(p.d, playscreen.PILE_X, playscreen.ROW_Y - 22)
    # Bob's draw and discard, each a visible step PACE frames apart (as the computer's)
    assert frames >= PACE and p.table.mode is Mode.HUMAN_DRAW
    assert red_over(p.d, playscreen.PILE_X, playscreen.ROW_Y - 22)     # until Ann's next move


# ---- resigning, hints, the clock -----------------------------------------------------------------

def test_resign_asks_yes_or_no_and_yes_ends_the_game_then_a_rematch(pair: Callable[..., Pair]) -> None:
    p = pair()
    p.settle()
    x, y = playscreen.MSG_X + 16, playscreen.ROW_Y + 8
    p.d.key("Q")
    assert shows_text(p.d, x, y, "RESIGN THIS GAME?")
    p.d.key("N")
    assert not shows_text(p.d, x, y, "RESIGN THIS GAME?") and p.screen.link.end is None
    click_at(p.d, playscreen.QUIT_BOX)               # the RESIGN box
    assert shows_text(p.d, x, y, "RESIGN THIS GAME?")
    click_at(p.d, playscreen.YES_BOX)
    p.pump(lambda: p.table.mode is Mode.GAME_END and p.bob_link.end is not None)
    p.d.step()
    assert shows_text(p.d, playscreen.MSG_X + 16, playscreen.MSG_Y + playscreen.LINE, "YOU RESIGNED.")
    assert p.bob_link.end["winner"] == p.bob.name and p.bob_link.end["how"] == "resigned"
    # REMATCH: asked, the other asks too, and the room's new table is on the screen
    p.d.move(630, 340)                               # the pointer off the lines
    p.d.key("A")
    p.pump(lambda: p.bob_link.rematch_from == p.ann.name)
    assert any(shows_text(p.d, playscreen.MSG_X + 16, playscreen.MSG_Y + playscreen.LINE * i,
                          "REMATCH ASKED: WAITING.") for i in range(6))
    p.bob_link.rematch()
    p.pump(lambda: isinstance(p.d.controller, RoomPlayScreen) and p.d.controller is not p.screen)
    again = p.d.controller
    assert again.link.table != p.screen.link.table and again.link.seat == 1 - p.screen.link.seat
    p.screen = again
    p.pump(lambda: again.table.view is not None)


def test_hints_are_off_unless_both_accepted_them(pair: Callable[..., Pair]) -> None:
    off = pair()
    off.settle()
    off.d.key("H")
    assert shows_text(off.d, playscreen.MSG_X + 16, playscreen.MSG_Y, HINTS_OFF)
    assert off.table.hint_target is None
    on = pair({"hints": True})
    on.settle()
    on.d.click("middle", 600, 150)                  # "the center button ... ANYWHERE"
    on.d.step()
    assert on.table.hint_target in ("deck", "pile")
    x = playscreen.DECK_X if on.table.hint_target == "deck" else playscreen.PILE_X
    assert yellow_over(on.d, x, playscreen.ROW_Y - 22)


def test_the_clock_runs_beside_the_name_of_whoever_moves(pair: Callable[..., Pair]) -> None:
    p = pair(clock=30)
    p.settle()
    other = p.bob.name[:8]
    theirs = (playscreen.HAND_X + 8 * len(other) + 12 + 1, playscreen.CPU_Y - playscreen.LINE + 2)
    assert pixels_in(p.d, MY_CLOCK_X + 1, STATUS_Y + 2, 94, 4, YELLOW) > 40      # Ann's, running
    assert pixels_in(p.d, *theirs, 94, 4, YELLOW) == 0
    ann_moves(p.d, p.screen)
    p.pump(lambda: p.table.mode is Mode.HUMAN_DISCARD)
    ann_moves(p.d, p.screen)
    p.pump(lambda: p.screen.link.clock_seat == p.bob_link.seat)
    p.d.step()
    assert pixels_in(p.d, *theirs, 94, 4, YELLOW) > 40                           # now Bob's
    assert pixels_in(p.d, MY_CLOCK_X + 1, STATUS_Y + 2, 94, 4, YELLOW) == 0


def test_a_clock_run_out_is_said_standard_moved(pair: Callable[..., Pair]) -> None:
    p = pair(clock=1, bob_invites=True)              # Bob moves first; Ann lets her 1 s go
    p.bob_turn()
    p.pump(lambda: bool(p.screen.link.timeouts))
    p.pump(lambda: shows_text(p.d, playscreen.MSG_X + 16, playscreen.MSG_Y, "STANDARD moved for you: the"))
    p.bob_link.resign()


def test_the_next_hands_question_is_said_shown_only_after_continue(headless_pyxel, tmp_path: Path) -> None:
    """At a hand's end the screen waits for CONTINUE while the room has dealt the next
    hand: the first question's clock starts when it is on the screen (``shown``), not
    while the result is read. The room's own driver plays both seats by the hints."""
    from port.ginrummy.computer import hint
    from port.ginrummy.rules.players import Draw, KnockChoice
    from tests.ginrummy.room_scenes import FixedRoom

    room = FixedRoom({"score_limit": 200})
    room.session.client.status = "open"             # as a session in the room: what it says is sent
    d = open_game(tmp_path)
    ctx = d.controller.ctx
    d.loop.controller = screen = play(ctx, room.session, room.link, ctx.title_screen)
    t = screen.table
    said: list[int] = []
    while room.driver.hand_number == 1:
        seat = room.driver.to_move()
        h = hint(room.driver.state.view(seat))
        if h.offer is not None:
            room.move(seat, "take" if h.offer else "decline")
        elif h.draw is not None:
            room.move(seat, "pile" if h.draw is Draw.PILE else "stock")
        elif h.discard is not None:
            room.move(seat, "discard", str(h.discard))
        else:
            room.move(seat, {KnockChoice.KNOCK: "knock", KnockChoice.PLAY_ON: "play_on",
                             KnockChoice.PLAY_TO_GIN: "play_to_gin"}[h.knock])
        for _ in range(4 * PACE):                    # the screen catches up, saying each question shown
            d.step()
            if room.link.shown_seq not in said[-1:]:
                said.append(room.link.shown_seq)
            if t.mode is Mode.HAND_END or (not t.queue and t.mode is not Mode.COMPUTER):
                break
    while room.driver.to_move() != room.link.seat:    # the next hand: Ann is asked first
        room.move(1 - room.link.seat, "decline" if room.driver.decision() == "offer" else "stock")
        room.move(1 - room.link.seat, "discard", room.drawn(1 - room.link.seat))
    asked = room.seq                                  # her question's seq, the last said to her
    for _ in range(3 * PACE):
        d.step()
    assert t.mode is Mode.HAND_END and room.link.shown_seq < asked and len(said) > 3
    d.key("C")                                        # CONTINUE: the next hand, its question on the screen
    for _ in range(3 * PACE):
        d.step()
    assert t.mode is not Mode.HAND_END and room.link.shown_seq == asked


def test_the_end_keeps_only_what_works_and_one_who_left_is_offered_no_rematch(headless_pyxel,
                                                                              tmp_path: Path) -> None:
    """Stan away on his turn: the message area does not say he is playing; no HINT box
    at a table without hints. Stan resigns and leaves the room: the game's end has no
    DECK, PILE, DRAWN CARD, HINT or QUIT boxes, and no REMATCH (he has left)."""
    from tests.ginrummy.room_scenes import FixedRoom

    room = FixedRoom()
    d = open_game(tmp_path)
    ctx = d.controller.ctx
    d.loop.controller = screen = play(ctx, room.session, room.link, ctx.title_screen)
    room.move(0, "stock")
    room.move(0, "discard", room.drawn(0))
    d.step(2 * PACE)
    x, y = playscreen.MSG_X + 16, playscreen.MSG_Y
    deck = playscreen.DECK_BOX
    assert screen.table.mode is Mode.COMPUTER and shows_text(d, x, y, "Stan is playing.")
    assert shows_text(d, deck.x + (deck.w - 32) // 2 + 8, deck.y + 6, "ECK")
    room.hear("away", name="Stan", seconds=102.0)
    d.step()
    assert not shows_text(d, x, y, "Stan is playing.")
    box = playscreen.HINT_BOX
    assert not shows_text(d, box.x + (box.w - 24) // 2, box.y + 6, "INT")       # H's box: none
    room.hear("game_end", number=4, how="resigned", winner="Ann", scores=[0, 0], rated=False, ratings={})
    room.session._hear({"v": 1, "type": "presence", "player": {"name": "Stan", "gone": True}})
    d.step(3)
    assert screen.table.mode is Mode.GAME_END
    assert "STAN HAS LEFT THE ROOM." in screen.game_end_lines()
    for rect, label in ((playscreen.DECK_BOX, "ECK"), (playscreen.QUIT_BOX, "UIT"),
                        (playscreen.AGAIN_BOX, "EMATCH")):
        assert not shows_text(d, rect.x + (rect.w - 8 * (len(label) + 1)) // 2 + 8, rect.y + 6, label)
    d.key("A")
    assert not screen.rematch_asked


# ---- the chat ------------------------------------------------------------------------------

def test_chat_is_typed_on_its_line_t_stays_take_in_the_upcard_offer_and_mute_clicks(pair: Callable[..., Pair]) -> None:
    p = pair({"upcard_offer": True})
    p.settle()
    assert p.table.mode is Mode.UPCARD_OFFER
    p.d.click("left", *center((CHAT_AREA.x, CHAT_AREA.y, CHAT_AREA.w, CHAT_AREA.h)))
    p.d.type("tdy")                                  # while typing every key is the chat's
    p.d.key("RETURN")
    p.pump(lambda: bool(p.bob_link.chat_lines) and bool(p.screen.link.chat_lines))
    assert p.bob_link.chat_lines[-1] == (p.ann.name, "tdy") and p.table.mode is Mode.UPCARD_OFFER
    p.d.key("T")                                     # the game's TAKE, not the chat
    p.pump(lambda: p.table.mode is Mode.HUMAN_DISCARD)
    assert shows_text(p.d, CHAT_AREA.x, CHAT_AREA.y, f"{p.ann.name}: tdy", LIGHTGRAY)
    p.d.click("left", MUTE_X + 8, CHAT_AREA.y + 24)  # "M MUTE", by the mouse
    p.pump(lambda: p.screen.link.muted)
    assert shows_text(p.d, MUTE_X, CHAT_AREA.y + 20, "M UNMUTE", DARKGRAY)


# ---- screenshots compared as data ----------------------------------------------------------------

ROOM_SCENE_NAMES = ("room_table", "herc_room_table", "cga_room_table", "room_game_end", "room_score_sheet",
                    "room_watch", "herc_room_watch", "cga_room_watch", "room_watch_hand_end")     # room_scenes.ROOM_SCENES


@pytest.mark.parametrize("name", ROOM_SCENE_NAMES)
def test_a_room_game_screen_is_its_reference_image(headless_pyxel, tmp_path: Path, name: str) -> None:
    from tests.ginrummy.room_scenes import ROOM_SCENES    # (the room's driver: imported when used)

    assert set(ROOM_SCENES) == set(ROOM_SCENE_NAMES)
    stored = png.read(REFERENCE / f"{name}.png")
    actual = scene_image(name)
    if (actual.width, actual.height, actual.pixels) != (stored.width, stored.height, stored.pixels):
        png.write(tmp_path / f"{name}.png", actual)
        pytest.fail(f"{name} differs from tests/ginrummy/reference/{name}.png; this run's image is "
                    f"{tmp_path / (name + '.png')} (if meant: scripts/make_main_references.py {name})")
