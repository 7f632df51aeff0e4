"""Cribbage against a person in the card room: the game screen of ``port.cribbage.main.play``
playing the person at a ``TableLink``'s table (docs/room.md, "The player's side: a
Cribbage game").

The room owns the game: ``RoomTable`` keeps no rules state of its own. It reads the
table's own reading interface (``hand``, ``game``, ``row``, ``front``, the beats) from
the seat's latest ``View``, which every stream message carries, and your moves go to
the room (``link.move``); the position changes only when the room's stream says the
move was made. The screen's seats are yours 0 and the other's 1 (``HUMAN``,
``COMPUTER`` in the layout) whichever room seat you sit in.

The opponent's cards are never on this side: its hand is drawn from the number of
cards it holds (``opponent_left``), its two cards in the crib are backs, and they are
seen only when the show counts them (``View.shows``). Each stream message is played
out as the computer's move is in the game against it: a move of the other seat waits
the computer's pause, then its flight and its boxes; your own moves at once. A stream
that arrives all at once (a rejoin syncs from the first message, a long drop) is
caught up at once, without flights or boxes.
"""
from __future__ import annotations

import textwrap
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from port.cards import Card
from port.cribbage import record, review
from port.cribbage.main import layout as L
from port.cribbage.main.context import CribContext
from port.cribbage.main.layout import COMPUTER, HUMAN, LINE
from port.cribbage.main.play import CribPlay
from port.cribbage.main.table import COMPUTER_FRAMES, DEAL_GAP, Beat, Box, CribTable, Flight
from port.cribbage.record import PREFIX
from port.cribbage.rules import Act, Event, Options, Phase, ShowEntry, View
from port.cribbage.rules.state import fitting
from port.main.controller import Controller
from port.main.reviewscreen import ReviewScreen
from port.main.roomsession import RoomSession, TableLink
from port.main.roomwidgets import ChatLine, draw_clock, rating_line, status_text, watchers_text
from port.mouse import Key, Press
from port.protocol import ProtocolError, decode
from port.screen import Rect
from port.screen.profiles import LIGHTGRAY, WHITE, YELLOW

HIDDEN_HAND = 100          # the other's cards in hand as the screen holds them: 100, 101, ...
HIDDEN_CRIB = 110          # and its two laid away (never drawn face up)
MOVES = (Act.DISCARD, Act.PLAY, Act.GO)      # a seat's own decisions; the rest follow from them

# The room's boxes on the bottom row, where the game against the computer has QUIT.
RESIGN_BOX = Rect(544, 326, 80, 20)
# Your clock under the message area's three lines and the yes/no boxes, over YOUR CRIB
# (clear of it on CGA's 200 lines); the chat in the corner right of the crib, its lines
# wrapped (docs/room.md).
MY_CLOCK = (L.MSG_X + 16, 216)
CHAT_AREA = Rect(484, 246, 148, 62)
MESSAGE_ROWS = 3


# ---- the room's view in the screen's seats ---------------------------------------------------

def _flip_event(e: Event) -> Event:
    return replace(e, seat=1 - e.seat)


def _flip_show(s: ShowEntry) -> ShowEntry:
    return replace(s, seat=1 - s.seat)


def screen_view(v: View, me: int) -> View:
    """The room seat's view with the seats as the screen numbers them: you 0, the other 1."""
    if me == 0:
        return v
    return replace(v, seat=0, dealer=1 - v.dealer, to_act=None if v.to_act is None else 1 - v.to_act,
                   played=tuple((1 - s, c) for s, c in v.played), said_go=(v.said_go[1], v.said_go[0]),
                   scores=(v.scores[1], v.scores[0]), shows=tuple(_flip_show(s) for s in v.shows),
                   events=tuple(_flip_event(e) for e in v.events))


@dataclass
class SeatHand:
    """The deal as your seat sees it, read as the game screen reads a ``HandState``:
    your cards, the other's as so many backs, the crib's backs, the starter once cut,
    the show's counts as far as they have been shown."""

    dealer: int
    phase: Phase
    to_act: int | None
    hands: tuple[list[int], list[int]]
    cribs: tuple[tuple[int, ...], tuple[int, ...]]
    starter: Card | None
    stock: list[int]
    count: int
    shows: list[ShowEntry] = field(default_factory=list)
    seen: View | None = None

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def crib(self) -> tuple[int, ...]:
        """The crib's four cards once the show has counted it (before, backs)."""
        if self.shows and self.shows[-1].what == "crib":
            return self.shows[-1].cards
        return (*self.cribs[0], *self.cribs[1])

    def discarded(self, seat: int) -> bool:
        return bool(self.cribs[seat])

    def legal_plays(self, seat: int) -> list[Card]:
        if seat != HUMAN or self.phase is not Phase.PLAY or self.to_act != HUMAN:
            return []
        return fitting([Card(c) for c in self.hands[HUMAN]], self.count)

    def view(self, seat: int) -> View:
        """Your own view (the hint asks it); the other seat's is not on this side."""
        assert seat == HUMAN and self.seen is not None
        return self.seen


def seat_hand(v: View | None, shown: int, starter_seen: bool) -> SeatHand:
    """``v`` as far as the screen has played it out: ``shown`` counts of the show, the
    starter once its cut has been played (a move's later events come with its view)."""
    if v is None:
        return SeatHand(0, Phase.DISCARD, None, ([], []), ((), ()), None, [0] * 52, 0)
    theirs = list(range(HIDDEN_HAND, HIDDEN_HAND + v.opponent_left))
    crib = (HIDDEN_CRIB, HIDDEN_CRIB + 1) if v.opponent_discarded else ()
    shows = list(v.shows[:shown])
    phase = Phase.SHOW if v.phase is Phase.DONE and len(shows) < len(v.shows) else v.phase
    starter = v.starter if starter_seen else None
    stock = [0] * (52 - 12 - (1 if starter is not None else 0))
    return SeatHand(v.dealer, phase, v.to_act, (list(v.hand), theirs), (v.my_crib, crib), starter,
                    stock, v.count, shows, v)


@dataclass
class GameSeen:
    """What the screen asks of the game: over, who won, a skunk, the hands dealt."""

    over: bool
    winner: int | None
    skunk: bool
    hands_dealt: int


# ---- the table ----------------------------------------------------------------------------

class RoomTable(CribTable):
    """A room game at the table's pace: the stream's messages played out as beats."""

    sees_own = True          # your own cards are yours to see (a watcher's screen sees no seat's)

    def __init__(self, link: TableLink, name: str, *, animate: bool = True, pause: bool = False) -> None:
        # No CribTable.__init__: no deck, no rules state, no computer on this side.
        self.link = link
        self.me = link.seat
        self.name = name.upper()
        self.them = link.opponent.upper()
        self.the_them = self.them
        self.options = Options(int(link.rules.get("limit", 121)), bool(link.rules.get("skunking", False)))
        self.computer = None
        self.animate, self.pause = animate, pause
        self.seed = None
        self.dealt, self.ended = [], []
        self.beats: deque[Beat] = deque()
        self.age = 0
        self.wait = 0
        self.selected: list[Card] = []
        self.hint: tuple[Card, ...] | None = None
        self.message = ""
        self.row: list[tuple[int, Card]] = []
        self.count = 0
        self.previous = [0, 0]
        self.front = [0, 0]
        self.hands_counted = self.hand_points = self.cribs_counted = self.crib_points = 0
        self._seen = 0
        self._closed = False
        self._shows_now: list[Box] = []
        self._shows_before: list[Box] = []
        self.recalled: list[Box] = []
        self._recall_size = 0
        # the room's side
        self.view: View | None = None          # the seat's latest view, in the screen's seats
        self.hand_no = 0
        self._shown = 0                        # counts of this hand's show played out
        self._starter_seen = False
        self.pending: deque[dict[str, Any]] = deque()   # the stream, not played out yet
        self.asked: str | None = None          # the decision the room asked of you
        self.ask_seq = 0                       # ... its seq (its clock starts once it is shown)
        self.sent: str | None = None           # the decision your move answered, on its way
        self.end: dict[str, Any] | None = None  # game_end, once played out
        self.quick = False                     # catching up: no flights, no boxes
        self._status = link.session.status

    # ---- reading --------------------------------------------------------------------

    @property
    def hand(self) -> SeatHand:  # type: ignore[override]
        return seat_hand(self.view, self._shown, self._starter_seen)

    @property
    def game(self) -> GameSeen:  # type: ignore[override]
        end = self.end
        if end is None:
            return GameSeen(False, None, False, self.hand_no)
        mine = self.link.players[self.me]
        winner = None if end.get("winner") is None else HUMAN if end.get("winner") == mine else COMPUTER
        skunk = (end.get("how") == "played" and winner is not None
                 and self.options.is_skunk(self.front[1 - winner]))
        return GameSeen(True, winner, skunk, self.hand_no)

    @property
    def can_save(self) -> bool:
        """SAVE RECORD (the room's record) at the game's end only: mid-game the record
        is the room's to give, and it gives it once the game is over."""
        return self.over

    @property
    def connected(self) -> bool:
        """A move waits while the connection is down ("reconnecting..."): it would be lost."""
        return self.link.session.status == "open"

    def your_turn_to_lay_away(self) -> bool:
        return (not self.busy and self.asked == "lay_away" and self.end is None and self.connected
                and not self.hand.discarded(HUMAN))

    def your_turn_to_play(self) -> bool:
        return (not self.busy and self.asked == "play" and self.end is None and self.connected
                and bool(self.hand.legal_plays(HUMAN)))

    # ---- your moves: to the room ---------------------------------------------------------

    def _send(self, move: dict[str, Any]) -> None:
        self.sent, self.asked = self.asked, None
        self.hint = None
        self.message = ""
        self.link.move(move)

    def lay_away(self) -> bool:
        if not self.your_turn_to_lay_away():
            return False
        if len(self.selected) != 2:
            self.message = "Pick two cards for the crib first."
            return False
        self._send({"act": "lay_away", "cards": [str(Card(c)) for c in self.selected]})
        return True

    def play_at(self, i: int) -> bool:
        if not self.your_turn_to_play():
            return False
        h = self.hand
        cards = h.hands[HUMAN]
        if not 0 <= i < len(cards):
            return False
        c = Card(cards[i])
        if c not in h.legal_plays(HUMAN):
            self.message = f"That card would take the count past 31 ({h.count})."
            return False
        self._send({"act": "play", "card": str(c)})
        return True

    # ---- the frame clock ------------------------------------------------------------

    def tick(self) -> None:
        status = self.link.session.status
        if status == "open" and self._status != "open" and self.sent is not None:
            # Back after a drop: the move may have been lost with the line. Yours to make
            # again; if the room had it, its event in the sync takes the question away.
            self.asked, self.sent = self.sent, None
        self._status = status
        self._take()
        if self.recalled:
            return
        while self.pending and self._ready(self.pending[0]):
            self._apply(self.pending.popleft())
        if self._run_beat():
            return
        if self.asked == "play" and not self.hand.legal_plays(HUMAN) and self.end is None and self.connected:
            self._send({"act": "go"})       # "GO is said for you when you cannot play"
        elif self.your_turn_to_lay_away() or self.your_turn_to_play():
            self.link.shown(self.ask_seq)   # on the screen, no box over it: its clock starts

    def _take(self) -> None:
        """The link's new messages; a stream come all at once is caught up at once."""
        got = [m for m in self.link.take() if m.get("type") in KINDS]
        if not got:
            return
        self.pending.extend(got)
        # Played live, the stream holds at most one question for you and one deal ahead
        # of the screen (you answer each before the next, or the clock's stand-in does:
        # its timeout is played out as it happens); more is a stream come at once.
        kinds = [m["type"] for m in self.pending]
        answered = sum(1 for m in self.pending if m["type"] == "timeout" and m.get("seat") == self.me)
        if kinds.count("ask") - answered >= 2 or kinds.count("deal") >= 2:
            self._catch_up(len(self.pending))

    def _catch_up(self, n: int) -> None:
        """The first ``n`` pending messages at once: no flights, no boxes, the pegs moved."""
        for beat in self.beats:
            self._skip(beat)
        self.beats.clear()
        self.age = 0
        self.quick = True
        try:
            for _ in range(n):
                self._apply(self.pending.popleft())
        finally:
            self.quick = False

    def _skip(self, beat: Beat) -> None:
        if not beat.started:
            beat.started = True
            for seat, points in beat.pegs:
                self._peg(seat, points)
        if beat.clear_row or (beat.box is not None and beat.box.clear_row):
            self.row, self.count = [], 0

    def _ready(self, m: dict[str, Any]) -> bool:
        """Whether the message's turn has come: the other's move after the computer's
        pause and once the screen is still; yours once no box is up; what follows from
        a move at once, behind it (as the computer game's events are absorbed)."""
        kind = m["type"]
        if kind in ("deal", "hand_end", "game_end", "timeout"):
            return not self.beats
        if kind != "event":
            return True
        act, seat = m["event"].get("act"), self._seat(m["event"].get("seat"))
        if act not in {a.value for a in MOVES}:
            return True
        if seat == HUMAN:
            return not self.busy
        if self.beats:
            return False
        if act == Act.DISCARD.value:
            return True
        self.wait += 1
        if self.wait < COMPUTER_FRAMES:
            return False
        self.wait = 0
        return True

    def _seat(self, seat: object) -> int:
        return (0 if seat == self.me else 1) if isinstance(seat, int) else -1

    def _view_of(self, m: dict[str, Any]) -> View | None:
        try:
            return screen_view(decode(View, m["view"]), self.me)
        except (KeyError, ProtocolError):
            return None

    # ---- what the room said, played out ---------------------------------------------------

    def _apply(self, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "error":
            if m.get("refused") == "move" and self.sent is not None:
                self.asked, self.sent = self.sent, None     # nothing changed: ask again
            return
        if kind == "game_end":
            self.end = m
            self.asked = None
            return
        if kind == "timeout":
            if not self.quick:
                self._box(Box("THE CLOCK RAN OUT", [f"STANDARD MOVED FOR {str(m.get('name', '')).upper()}."]))
            return
        view = self._view_of(m)
        if view is None:
            return
        if kind == "deal":
            self._deal(view, int(m.get("hand", self.hand_no + 1)))
        elif kind == "event":
            self._event_message(view)
        elif kind == "ask":
            self.view = view
            self.asked, self.sent = str(m.get("decision")), None
            self.ask_seq = int(m.get("seq", 0))
        elif kind == "hand_end":
            self.view = view
            self._shown = len(view.shows)
            if max(view.scores) >= self.options.limit:
                return                               # the game's end follows: no scores box
            if self.quick:
                self._closed = True
            else:
                self._close_hand()

    def _deal(self, view: View, number: int) -> None:
        if self.hand_no:
            self._shows_before, self._shows_now = self._shows_now, []
        self.hand_no = number
        self.view = view
        self._seen = self._shown = 0
        self._closed = self._starter_seen = False
        self.row, self.count = [], 0
        self.selected, self.hint, self.message = [], None, ""
        self.asked = self.sent = None
        if not self.beats:                   # the pegs stand where the room says
            self.front = list(view.scores)
        if number == 1 and not self.quick:
            dealer = "YOU DEAL." if view.dealer == HUMAN else f"{self.them} DEALS."
            self._box(Box("NEW GAME", ["CUT FOR THE DEAL:", dealer]))
        first = 1 - view.dealer
        mine = list(view.hand)
        flights = []
        for k in range(12):
            seat, i = (first + k) % 2, k // 2
            c, up = self._dealt(seat, i, mine)
            flights.append(Flight(c, up, L.DECK, L.hand_slot(seat, i), delay=DEAL_GAP * k))
        self._fly(flights)

    def _dealt(self, seat: int, i: int, mine: list[Card]) -> tuple[int, bool]:
        """The ``i``-th card dealt to ``seat`` as the screen holds it, and whether face up:
        yours, the other's backs (a watcher's screen: both seats' backs)."""
        return (mine[i], True) if seat == HUMAN and self.sees_own else (self._backs(seat)[0] + i, False)

    def _backs(self, seat: int) -> tuple[int, int]:
        """The numbers a seat's hidden cards and crib cards start from (never drawn face up)."""
        return HIDDEN_HAND, HIDDEN_CRIB

    def _event_message(self, view: View) -> None:
        if self._seen >= len(view.events):
            self.view = view
            return
        e = view.events[self._seen]
        self._seen += 1
        before = self.hand
        self.view = view
        if e.act is Act.DISCARD:
            self._discarded(e.seat, before, view)
        elif e.act is Act.PLAY and e.card is not None:
            if e.seat == HUMAN and self.sees_own:
                src = L.hand_slot(HUMAN, before.hands[HUMAN].index(e.card))
            else:
                src = L.hand_slot(e.seat, max(0, len(before.hands[e.seat]) - 1))
            self._fly([Flight(e.card, True, src, L.play_slot(len(self.row)))])
        elif e.act is Act.STARTER:
            self._starter_seen = True
        elif e.act is Act.SHOW:
            self._shown += 1
        if e.seat == HUMAN and e.act in MOVES:
            self.asked = self.sent = None
        self._event(e)

    def _discarded(self, seat: int, before: SeatHand, view: View) -> None:
        dst = L.crib_slot(view.dealer)
        if seat == HUMAN and self.sees_own:
            cards = list(view.my_crib)
            srcs = [L.hand_slot(HUMAN, before.hands[HUMAN].index(c)) for c in cards]
            self.selected, self.hint, self.message = [], None, ""
        else:
            crib = self._backs(seat)[1]
            cards = [crib, crib + 1]
            srcs = [L.hand_slot(seat, 4), L.hand_slot(seat, 5)]
        self._fly([Flight(c, False, src, dst, delay=2 * k) for k, (c, src) in enumerate(zip(cards, srcs))])

    def _fly(self, flights: list[Flight]) -> None:
        if not self.quick:
            super()._fly(flights)

    def _push(self, beat: Beat) -> None:
        if self.quick:
            self._skip(beat)
            return
        super()._push(beat)

    def _count_for_stats(self, entry: ShowEntry) -> None:
        """No statistics file for a room game: the room rates it."""


KINDS = frozenset({"deal", "event", "ask", "hand_end", "game_end", "timeout", "error"})


# ---- the screen ---------------------------------------------------------------------------

class RoomPlay(CribPlay):
    """The game screen at a card room's table."""

    QUIT_ASK = ("RESIGN THIS GAME?", "(IT COUNTS AS A LOSS)")

    def __init__(self, ctx: CribContext, session: RoomSession, link: TableLink,
                 back: Callable[[], Controller]) -> None:
        launch = ctx.session.launch
        table = RoomTable(link, session.name or link.players[link.seat],
                          animate=not launch.noanimation, pause=launch.pause)
        super().__init__(ctx, table)
        self.table: RoomTable = table
        self.session = session
        self.link = link
        self.back = back
        self.chat = ChatLine()
        self.want: str | None = None           # SAVE RECORD or REVIEW, waiting for the record
        self.rematch_asked = False

    # ---- input ---------------------------------------------------------------------

    def update(self, events: list[Any]) -> Controller | None:
        self.session.poll()
        t = self.table
        if t.end is not None or self.link.end is not None:
            nxt = self._rematch_started()
            if nxt is not None:
                return nxt
        nxt = super().update(events)
        if nxt is self and self.want is not None and self._record_text() is not None:
            want, self.want = self.want, None
            if want == "review":
                return self._review()
            self._save()
        return nxt

    def _rematch_started(self) -> Controller | None:
        started = self.session.take_started()
        ours = [k for k in started if k.game == "cribbage" and set(k.players) == set(self.link.players)]
        self.session.started.extend(k for k in started if k not in ours)
        if ours:
            return RoomPlay(self.ctx, self.session, ours[-1], self.back)
        return None

    def _input(self, e: Key | Press) -> Controller | None:
        if isinstance(e, Key) and self.chat.key(e, self.link):
            return self          # T, M and every key while typing are the chat's
        t = self.table
        if self.quit_asked:
            target = self._quit_target(e)
            if target == "yes":
                self.link.resign()
            if target in ("yes", "no"):
                self.quit_asked = False
            return self
        if t.over:
            if self._save_asked(e):
                self._want("save")
                return self
            if self._review_asked(e):
                self._want("review")
                return self
        return super()._input(e)

    def _key_target(self, k: Key) -> object:
        t = self.table
        if k.char == "C":
            return "last_count"
        if t.over:
            return {"A": "rematch", "L": "lobby", "\r": "lobby"}.get(k.char)
        if k.char in "123456":
            return "123456".index(k.char)
        return {"\r": "lay_away", "L": "lay_away", "H": "hint", "R": "resign", "Q": "resign"}.get(k.char)

    def _target_at(self, x: int, y: int) -> object:
        t = self.table
        if t.over:
            areas = [(L.AGAIN_BOX, "rematch"), (L.MENU_BOX, "lobby")]
        else:
            areas = [(L.LAY_AWAY_BOX, "lay_away"), (RESIGN_BOX, "resign")]
            if self.link.hints:
                areas.append((L.HINT_BOX, "hint"))
        if t.last_count:
            areas.append((L.LAST_COUNT_BOX, "last_count"))
        for rect, name in areas:
            if rect.contains(x, y):
                return name
        if t.over:
            return None
        h = t.hand
        for i, c in enumerate(h.hands[HUMAN]):
            if L.card_rect(i, c in t.selected).contains(x, y):
                return i
        return None

    def _choose(self, target: object) -> Controller | None:
        t = self.table
        if target == "rematch":
            if not self.rematch_asked and self.link.opponent_here:
                self.rematch_asked = True
                self.link.rematch()
            return self
        if target == "lobby":
            return self.back()
        if target == "resign":
            self.quit_asked = True
            return self
        if target == "hint" and not self.link.hints:
            t.message = "Hints are off at this table."
            return self
        return super()._choose(target)

    # ---- the record ------------------------------------------------------------------

    def _record(self) -> None:
        """The game is over: ask the room for its record (SAVE RECORD and REVIEW read it)."""
        self.recorded = True
        self.link.fetch_record()

    def _record_text(self) -> str | None:
        end = self.link.end
        number = end.get("number") if end is not None else None
        got = self.session.records.get(number) if isinstance(number, int) else None
        return None if got is None else str(got.get("text", ""))

    def _want(self, what: str) -> None:
        if self._record_text() is None:
            self.want = what
            self.note = "Asking the room for the record..."
            self.link.fetch_record()
        elif what == "review":
            self.want = "review"                     # taken in update, which may change screens
        else:
            self._save()

    def _save(self) -> None:
        text = self._record_text() or ""
        if not text:
            self.note = "No record: the game ended in its first hand."
            return
        self.note = self.ctx.save_record(PREFIX, lambda: text)

    def _review(self) -> Controller:
        text = self._record_text() or ""
        seat = self.link.seat

        def lines() -> list[str]:
            if not text:
                return ["No record: the game ended in its first hand."]
            log = record.parse(text)
            return review.lines(review.review(review.choices(log, seat)))

        return ReviewScreen(self.ctx.session, "REVIEW OF THE GAME: YOUR DECISIONS BESIDE EXPERT'S", lines, self)

    # ---- drawing -------------------------------------------------------------------

    def _playing_line(self) -> str:
        # Your question waiting for the line to come back is not the other's turn; nor
        # is theirs while they are away (the status line waits for them).
        if self.table.asked or self.link.away_left() is not None:
            return ""
        return f"{self.table.them} is playing."

    def _message_lines(self) -> list[str]:
        status = status_text(self.session, self.link)
        lines = [line for line in super()._message_lines() if line]
        if status:
            lines = textwrap.wrap(status, 28)[:2] + lines
        return lines[:MESSAGE_ROWS]

    def _draw_boxes(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        if not t.over:
            s.button(*L.LAY_AWAY_BOX, "LAY AWAY", "L")
            if self.link.hints:                 # at a table without hints, no HINT box
                s.button(*L.HINT_BOX, "HINT", "H")
            s.button(*RESIGN_BOX, "RESIGN", "R")
        if t.last_count:
            s.button(*L.LAST_COUNT_BOX, "LAST COUNT", "C")
        if t.over:
            s.button(*L.SAVE_BOX, "SAVE RECORD", "R")
            s.button(*L.REVIEW_BOX, "REVIEW", "V")
            if self.note:
                s.text(L.NOTE_X, L.NOTE_Y, self.note[:36], WHITE)

    def _draw_beside(self) -> None:
        """The clocks (the other's beside its name, yours over the chat) and the chat."""
        s = self.ctx.session.screen
        link, t = self.link, self.table
        draw_clock(s, link, 1 - link.seat, L.CPU_X + s.text_width(t.them) + 12, L.CPU_LABEL_Y + 1)
        draw_clock(s, link, link.seat, *MY_CLOCK)
        self.chat.draw(s, link, CHAT_AREA, wrap=True)
        count = watchers_text(link)              # under the scores: how many watch the table
        if count:
            s.text(L.SCORES_X, L.SCORES_Y + 4 * LINE + 4, count, LIGHTGRAY)

    def _draw_game_end(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        end = t.end or {}
        r = L.SHOW
        self._frame(r)
        won = t.game.winner == HUMAN
        head = "YOU WIN THE GAME!" if won else f"{t.them} WINS."
        s.text(r.x + (r.w - s.text_width(head, 2)) // 2, r.y + 24, head, YELLOW, 2)
        you, them = t.front
        loser = t.them if won else "YOU"
        how = end.get("how")
        lines = {"resigned": [f"{loser} RESIGNED."],
                 "clock": [f"{loser} LOST ON THE CLOCK:", "THREE MOVES IN A ROW TIMED OUT."],
                 "away": [f"{loser} DID NOT COME BACK IN TIME."]}.get(str(how), [f"{t.name} {you}, {t.them} {them}."])
        if how == "played" and t.game.skunk:
            lines.append("A SKUNK: IT COUNTS AS TWO GAMES.")
        ratings = end.get("ratings") or {}
        rows = [rating_line(name, ratings.get(name) or {}, 12) for name in self.link.players] if end.get("rated") else []
        if not rows:
            lines.append("NOT RATED.")
        after: list[str] = []
        here = self.link.opponent_here
        if not here:
            after.append(f"{t.them} HAS LEFT THE ROOM.")
        elif self.link.rematch_from and self.link.rematch_from != self.link.players[self.link.seat]:
            after.append(f"{self.link.rematch_from.upper()} ASKS FOR A REMATCH.")
        elif self.rematch_asked:
            after.append(f"REMATCH ASKED: WAITING FOR {t.them}.")
        y = r.y + 64
        for line in lines:
            s.text(r.x + (r.w - s.text_width(line)) // 2, y, line, WHITE)
            y += LINE
        x = r.x + (r.w - max((s.text_width(row) for row in rows), default=0)) // 2
        for row in rows:                   # one column: the ratings read down
            s.text(x, y + LINE, row, WHITE)
            y += LINE
        for line in after:
            s.text(r.x + (r.w - s.text_width(line)) // 2, y + 2 * LINE, line, YELLOW)
        if here:                                # no rematch with one who has left
            s.button(*L.AGAIN_BOX, "REMATCH", "A")
        s.button(*L.MENU_BOX, "LOBBY", "L")


def play(ctx: CribContext, session: RoomSession, link: TableLink, back: Callable[[], Controller]) -> Controller:
    """The game screen playing the person at ``link``'s table; ``back()`` is the lobby."""
    return RoomPlay(ctx, session, link, back)


__all__ = ["RoomPlay", "RoomTable", "SeatHand", "play", "screen_view", "seat_hand"]
