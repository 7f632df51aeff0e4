"""One game of Cribbage at the table's pace: the rules' state machine, the computer's
turns, and what the screen shows between the moves (cards in flight, information
boxes), all timed by the frame clock so the pace is the same on every machine.

Nothing here draws. The rules (``port.cribbage.rules``) say what happened as events;
the table turns each into *beats* the screen plays one after another: a flight of
cards (the deal, the laying away, the cut, a card played), or a box (who deals, GO,
what a card pegged, each count of the show, the scores after the hand). While a beat
plays the game waits: the computer does not move and your cards are not taken.

The pegs move with the box that announces their points, when it comes up, never
before: a card that pegs flies first, then its box comes and the score with it; the
three counts of the show move the pegs one box at a time, "non-dealer, then dealer's
hand, then CRIB". The rules have counted everything already; the table only shows it
at the pace it is told.

LAST COUNT brings the last show's boxes back, one after another, each until a key or
a button: "the dialogue boxes ... so that you can look at the point counting of the
hands" (PAUSE) after they have gone (docs/choices.md, "Cribbage").
"""
from __future__ import annotations

import textwrap
from collections import deque
from dataclasses import dataclass, field

from port.cards import Card, Rng, text
from port.cribbage.computer import hint_discard, hint_play
from port.cribbage.main import layout as L
from port.cribbage.main.layout import COMPUTER, HUMAN
from port.cribbage import record
from port.cribbage.rules import Act, Event, GameState, HandState, Options, Phase, Player, ShowEntry
from port.cribbage.rules.scoring import aloud, peg_phrases, show_phrases
from port.files.gamerecord import Meta

FPS = 30
BOX_FRAMES = 5 * FPS       # "it will stay on the screen for 5 seconds"
FLY_FRAMES = 9             # one card's flight
DEAL_GAP = 3               # frames between two cards of the deal
SHOW_ROWS = 7              # phrases of the count listed one a line in the show box
SHOW_COLUMNS = (L.SHOW.w - 24) // 8    # characters a line of the show box holds (8x8 font)
INFO_COLUMNS = 34          # characters a line of the information box holds
COMPUTER_FRAMES = 12       # the computer's pause before it moves, so each move is seen


@dataclass(frozen=True)
class Flight:
    card: Card
    face_up: bool
    src: tuple[int, int]
    dst: tuple[int, int]
    delay: int = 0
    frames: int = FLY_FRAMES

    def at(self, age: int) -> tuple[int, int] | None:
        """Where the card is ``age`` frames into its beat; None before it leaves."""
        t = age - self.delay
        if t < 0:
            return None
        t = min(t, self.frames)
        (x0, y0), (x1, y1) = self.src, self.dst
        return x0 + (x1 - x0) * t // self.frames, y0 + (y1 - y0) * t // self.frames

    @property
    def end(self) -> int:
        return self.delay + self.frames


@dataclass
class Box:
    """An information box: a title, lines, and for the show the cards counted."""

    title: str
    lines: list[str] = field(default_factory=list)
    show: ShowEntry | None = None
    clear_row: bool = False    # the count is over: the play's cards go when it closes
    # It offers commands (the scores box: LAST COUNT, REVIEW, SAVE RECORD): it stays
    # until a key or button, not 5 seconds, so it is not gone before you choose
    # (docs/choices.md, "Cribbage").
    waits: bool = False


@dataclass
class Beat:
    flights: list[Flight] = field(default_factory=list)
    box: Box | None = None
    clear_row: bool = False    # a beat of no time that clears the play's row
    pegs: tuple[tuple[int, int], ...] = ()   # (seat, points) its box announces
    started: bool = False      # it has come to the head of the queue: its pegs moved

    @property
    def frames(self) -> int:
        return max((f.end for f in self.flights), default=0)


def who(seat: int, name: str, them: str = "COMPUTER") -> str:
    return name if seat == HUMAN else them


class CribTable:
    """A game against the computer, seat 0 you, seat 1 the computer."""

    # The other seat as the boxes name it: the computer here, a person's name in the
    # card room (``port.cribbage.main.roomplay``).
    them = "COMPUTER"
    the_them = "THE COMPUTER"
    mark = "Y"             # your track's letter on the board (a watcher's screen: the first player's initial)

    def __init__(self, options: Options, computer: Player, rng: Rng, *, name: str = "PLAYER",
                 animate: bool = True, pause: bool = False, first_dealer: int | None = None) -> None:
        self.options = options
        self.computer = computer
        self.name = name
        self.animate = animate
        self.pause = pause
        self.seed: int | None = getattr(rng, "seed", None)   # before the cut: the record's seed
        self.game = GameState.new(options, rng, first_dealer)
        # Each deal as dealt (a copy before its first move) and each deal ended: the record.
        self.dealt: list[HandState] = []
        self.ended: list[HandState] = []
        self.beats: deque[Beat] = deque()
        self.age = 0                       # frames the current beat has run
        self.wait = 0                      # the computer's pause
        self.selected: list[Card] = []     # your cards picked for the crib
        self.hint: tuple[Card, ...] | None = None
        self.message = ""
        self.row: list[tuple[int, Card]] = []   # the cards of the count on show
        self.count = 0
        self.previous = [0, 0]             # each seat's back peg
        self.front = [0, 0]                # each seat's front peg as shown
        # Your statistics for this game: the hands and cribs counted, and their points.
        self.hands_counted = 0
        self.hand_points = 0
        self.cribs_counted = 0
        self.crib_points = 0
        self._seen = 0
        self._closed = False               # this hand's score box is queued
        self._shows_now: list[Box] = []    # this hand's show boxes, as they are made
        self._shows_before: list[Box] = [] # the last hand's
        self.recalled: list[Box] = []      # LAST COUNT's boxes still to see
        self._recall_size = 0
        dealer = "YOU DEAL." if self.hand.dealer == HUMAN else "THE COMPUTER DEALS."
        self._box(Box("NEW GAME", ["CUT FOR THE DEAL:", dealer]))
        self._deal_beat()

    # ---- reading --------------------------------------------------------------------

    @property
    def hand(self):  # noqa: ANN201 - the HandState
        return self.game.hand

    @property
    def scores(self) -> tuple[int, int]:
        return self.front[0], self.front[1]

    @property
    def over(self) -> bool:
        """The game is over and every box about it has been seen."""
        return self.game.over and not self.beats

    @property
    def busy(self) -> bool:
        """A box is up or waiting: your moves wait for it (cards in flight do not
        stop you: your move's own flight follows theirs)."""
        return bool(self.recalled) or any(b.box is not None for b in self.beats)

    @property
    def beat(self) -> Beat | None:
        return self.beats[0] if self.beats else None

    @property
    def box(self) -> Box | None:
        """The box on the screen: a recalled count, or the current beat's box."""
        if self.recalled:
            return self.recalled[0]
        beat = self.beat
        return beat.box if beat is not None else None

    @property
    def last_count(self) -> list[Box]:
        """The boxes LAST COUNT brings back: the last show whose boxes have all been
        seen (this hand's once it is over: from its scores box on, or when the game
        ends in the show)."""
        if self.hand.phase is Phase.DONE and self._shows_now and (self._closed or not self.beats):
            return self._shows_now
        return self._shows_before

    @property
    def recall_note(self) -> str | None:
        """The line under a recalled box: which of the last count's boxes it is."""
        if not self.recalled:
            return None
        return f"LAST COUNT {self._recall_size - len(self.recalled) + 1} OF {self._recall_size}"

    def hidden(self) -> set[Card]:
        """Cards on their way: not drawn where they are going until they land."""
        out: set[Card] = set()
        for i, beat in enumerate(self.beats):
            for f in beat.flights:
                if i > 0 or self.age < f.end:
                    out.add(f.card)
        return out

    def flying(self) -> list[tuple[Flight, tuple[int, int]]]:
        beat = self.beat
        if beat is None:
            return []
        return [(f, pos) for f in beat.flights if (pos := f.at(self.age)) is not None and self.age < f.end]

    @property
    def can_save(self) -> bool:
        """SAVE RECORD is open: at a hand's end (its scores box) and at the game's end."""
        return self.game.over or (self.hand.phase is Phase.DONE and self._closed)

    def record_text(self, meta: Meta) -> str:
        """The game so far as a record (docs/records.md): its finished deals."""
        ended = [*self.ended, self.hand] if self.hand.phase is Phase.DONE else self.ended
        return record.write(self.options, meta, list(zip(self.dealt, ended)))

    def your_turn_to_lay_away(self) -> bool:
        h = self.hand
        return not self.busy and h.phase is Phase.DISCARD and not h.discarded(HUMAN) and not self.game.over

    def your_turn_to_play(self) -> bool:
        h = self.hand
        return (not self.busy and h.phase is Phase.PLAY and h.to_act == HUMAN and not self.game.over
                and bool(h.legal_plays(HUMAN)))     # else GO is said for you

    # ---- your moves -----------------------------------------------------------------

    def pick(self, i: int) -> bool:
        """Pick (or put back) your i-th card for the crib."""
        if not self.your_turn_to_lay_away():
            return False
        cards = self.hand.hands[HUMAN]
        if not 0 <= i < len(cards):
            return False
        c = cards[i]
        self.message = ""
        if c in self.selected:
            self.selected.remove(c)
        elif len(self.selected) < 2:
            self.selected.append(c)
        else:
            self.message = "Two cards are picked: take one back first."
            return False
        return True

    def lay_away(self) -> bool:
        """Lay the two picked cards away to the dealer's crib."""
        if not self.your_turn_to_lay_away():
            return False
        if len(self.selected) != 2:
            self.message = "Pick two cards for the crib first."
            return False
        h = self.hand
        flights = self._to_crib(HUMAN, self.selected)
        h.discard(HUMAN, tuple(self.selected))
        self.selected = []
        self.hint = None
        self.message = ""
        self._fly(flights)
        self._absorb()
        return True

    def play_at(self, i: int) -> bool:
        """Play your i-th card to the count."""
        if not self.your_turn_to_play():
            return False
        cards = self.hand.hands[HUMAN]
        if not 0 <= i < len(cards):
            return False
        c = cards[i]
        if c not in self.hand.legal_plays(HUMAN):
            self.message = f"That card would take the count past 31 ({self.hand.count})."
            return False
        self.message = ""
        self.hint = None
        self._play(HUMAN, c)
        return True

    def ask_hint(self) -> bool:
        """The hint: STANDARD's own choice for your cards."""
        view = self.hand.view(HUMAN)
        if self.your_turn_to_lay_away():
            self.hint = tuple(hint_discard(view))
        elif self.your_turn_to_play():
            c = hint_play(view)
            self.hint = (c,) if c is not None else None
        else:
            return False
        return True

    def dismiss(self) -> bool:
        """Any key or button clears the box on screen sooner (a recalled one: the next
        of the last count, or back to the game)."""
        if self.recalled:
            self.recalled.pop(0)
            return True
        beat = self.beat
        if beat is None or beat.box is None:
            return False
        self._next_beat()
        return True

    @property
    def scores_up(self) -> bool:
        """The hand's scores box is on the screen (not a recalled count over it)."""
        return self._closed and not self.recalled and self.box is not None

    def recall(self) -> bool:
        """LAST COUNT: the last show's boxes again, while no box is up but the hand's
        scores box (which comes back after them). The game waits until each has been
        cleared by a key or button; they peg nothing."""
        boxes = self.last_count
        if not boxes or (self.box is not None and not self.scores_up):
            return False
        self.recalled = list(boxes)
        self._recall_size = len(boxes)
        return True

    # ---- the frame clock ------------------------------------------------------------

    def _run_beat(self) -> bool:
        """The current beat's frame, if one is running (a box waits its time, or its
        click; a flight its frames): True while it runs."""
        beat = self.beat
        if beat is None:
            return False
        self.age += 1
        if beat.box is not None:
            if not self.pause and not beat.box.waits and self.age >= BOX_FRAMES:
                self._next_beat()
        elif self.age >= beat.frames:
            self._next_beat()
        return True

    def tick(self) -> None:
        """One frame: the current beat runs on, or the game takes its next step."""
        if self.recalled:
            return                          # the game waits while you look back
        if self._run_beat():
            return
        if self.game.over:
            return
        h = self.hand
        if h.phase is Phase.DISCARD:
            if not h.discarded(COMPUTER):
                self._computer_discards()
        elif h.phase is Phase.PLAY:
            if h.to_act == COMPUTER:
                self.wait += 1
                if self.wait >= COMPUTER_FRAMES:
                    self.wait = 0
                    self._computer_plays()
            elif h.to_act == HUMAN and not h.legal_plays(HUMAN):
                h.go(HUMAN)                 # "GO is said for you when you cannot play"
                self._absorb()
        elif h.phase is Phase.SHOW:
            h.show()
            self._absorb()
        elif h.phase is Phase.DONE:
            if not self._closed:
                self._close_hand()
            else:
                self._next_hand()

    # ---- the computer ---------------------------------------------------------------

    def _computer_discards(self) -> None:
        h = self.hand
        throw = tuple(self.computer.discard(h.view(COMPUTER)))
        flights = self._to_crib(COMPUTER, throw)
        h.discard(COMPUTER, throw)
        self._fly(flights)
        self._absorb()

    def _computer_plays(self) -> None:
        h = self.hand
        choice = self.computer.play(h.view(COMPUTER))
        if choice is None:
            h.go(COMPUTER)
            self._absorb()
        else:
            self._play(COMPUTER, choice)

    # ---- moves and what they show ---------------------------------------------------

    def _play(self, seat: int, c: Card) -> None:
        h = self.hand
        i = h.hands[seat].index(c)
        src = L.hand_slot(seat, i)
        dst = L.play_slot(len(self.row))
        h.play(seat, c)
        self._fly([Flight(c, True, src, dst)])
        self._absorb()

    def _to_crib(self, seat: int, cards: tuple[Card, ...] | list[Card]) -> list[Flight]:
        h = self.hand
        dst = L.crib_slot(h.dealer)
        return [Flight(c, False, L.hand_slot(seat, h.hands[seat].index(c)), dst, delay=2 * k)
                for k, c in enumerate(cards)]

    def _deal_beat(self) -> None:
        """Six cards each, one at a time, the non-dealer first, from the deck."""
        h = self.hand
        self.dealt.append(h.copy())
        first = h.non_dealer
        flights = []
        for k in range(12):
            seat = (first + k) % 2
            i = k // 2
            c = h.hands[seat][i]
            flights.append(Flight(c, seat == HUMAN, L.DECK, L.hand_slot(seat, i), delay=DEAL_GAP * k))
        self._fly(flights)
        self.computer.begin_hand(h.view(COMPUTER))

    def _fly(self, flights: list[Flight]) -> None:
        if self.animate and flights:
            self._push(Beat(flights=flights))

    def _box(self, box: Box, pegs: tuple[tuple[int, int], ...] = ()) -> None:
        self._push(Beat(box=box, pegs=pegs))

    def _push(self, beat: Beat) -> None:
        self.beats.append(beat)
        if len(self.beats) == 1:
            self.age = 0
            self._start()

    def _next_beat(self) -> None:
        beat = self.beats.popleft()
        if beat.clear_row or (beat.box is not None and beat.box.clear_row):
            self.row = []
            self.count = 0
        self.age = 0
        # A beat of no time (clearing the row) runs at once.
        if self.beats and self.beats[0].box is None and not self.beats[0].flights:
            self._next_beat()
        elif self.beats:
            self._start()

    def _start(self) -> None:
        """The beat at the head comes up: the points its box announces move the pegs
        now, so the score never runs ahead of the box that tells it."""
        beat = self.beats[0]
        if not beat.started:
            beat.started = True
            for seat, points in beat.pegs:
                self._peg(seat, points)

    def _absorb(self) -> None:
        """The rules' new events, as beats and as what the table shows."""
        h = self.hand
        events = h.events[self._seen:]
        self._seen = len(h.events)
        for e in events:
            self._event(e)

    def _peg(self, seat: int, points: int) -> None:
        if points:
            self.previous[seat] = self.front[seat]
            self.front[seat] += points

    def _event(self, e: Event) -> None:
        name = self.name
        pegs = ((e.seat, e.points),) if e.points else ()
        if e.act is Act.STARTER:
            assert e.card is not None
            self._fly([Flight(e.card, True, L.DECK, L.STARTER)])
            if e.points:
                # Version 1.7: a jack cut as the starter is "heels", not "nobs".
                self._box(Box("HIS HEELS", ["THE STARTER IS A JACK:", f"{who(e.seat, name, self.them)} PEGS 2."]), pegs)
        elif e.act is Act.PLAY:
            assert e.card is not None
            self.row.append((e.seat, e.card))
            self.count = e.count
            if e.points:
                said = " ".join(aloud(peg_phrases(e.scores))).upper()
                self._box(Box(f"{who(e.seat, name, self.them)} PEGS {e.points}",
                              [f"COUNT {e.count}:", *_wrap(said, INFO_COLUMNS)],
                              clear_row=e.count == 31), pegs)
            elif e.count == 31:
                self._push(Beat(clear_row=True))
        elif e.act is Act.GO:
            self._box(Box("GO", [f"{'YOU SAY' if e.seat == HUMAN else self.the_them + ' SAYS'} GO."]))
        elif e.act is Act.GO_POINT:
            self._box(Box(f"{who(e.seat, name, self.them)} PEGS {e.points}", [e.words.upper() + "."], clear_row=True), pegs)
        elif e.act is Act.SHOW:
            entry = self.hand.shows[-1]
            self._count_for_stats(entry)
            box = Box(show_title(entry, self.hand.dealer, name, self.the_them), show_lines(entry), show=entry)
            self._shows_now.append(box)
            self._box(box, pegs)

    def _count_for_stats(self, entry: ShowEntry) -> None:
        if entry.seat != HUMAN:
            return
        if entry.what == "hand":
            self.hands_counted += 1
            self.hand_points += entry.total
        else:
            self.cribs_counted += 1
            self.crib_points += entry.total

    def _close_hand(self) -> None:
        """The score box after each hand ("a box that shows the scores after each hand")."""
        self._closed = True
        you, cpu = self.front
        self._box(Box(f"AFTER HAND {self.game.hands_dealt}",
                      [f"{self.name:<8}  {you:>3}", f"{self.them:<8}  {cpu:>3}",
                       f"TO {self.options.limit}"], waits=True))

    def _next_hand(self) -> None:
        self.computer.end_hand(self.hand.view(COMPUTER))
        self.ended.append(self.hand)
        self.game.next_hand()
        self._seen = 0
        self._closed = False
        self._shows_before, self._shows_now = self._shows_now, []
        self.row, self.count = [], 0
        self._deal_beat()


def show_title(entry: ShowEntry, dealer: int, name: str, the_them: str = "THE COMPUTER") -> str:
    whose = "YOUR" if entry.seat == HUMAN else f"{the_them}'S"
    role = "CRIB" if entry.what == "crib" else ("HAND (DEALER)" if entry.seat == dealer else "HAND (NON-DEALER)")
    return f"{whose} {role}"


def show_lines(entry: ShowEntry, width: int = SHOW_COLUMNS) -> list[str]:
    """The count as a player says it aloud, with running totals ("fifteen 2, fifteen
    4, fifteen 6 and a pair is 8."): a phrase a line with the cards it names, reading
    down as the sentence; or, when there are more phrases than rows (a 24, a 29), the
    sentence wrapped to the box. Then the total."""
    if not entry.breakdown:
        return ["NO POINTS."]
    phrases = show_phrases(entry.breakdown)
    pieces = [p.upper() for p in aloud(phrases)]
    cards = [text(p.cards) for p in phrases]
    column = max(len(p) for p in pieces) + 2
    if len(phrases) <= SHOW_ROWS and column + max(len(c) for c in cards) <= width:
        lines = [f"{p:<{column}}{c}" for p, c in zip(pieces, cards)]
    else:
        lines = _wrap(" ".join(pieces), width)
    lines.append(f"TOTAL {entry.total}." if entry.points == entry.total
                 else f"TOTAL {entry.total}: {entry.points} PEGGED TO THE LAST HOLE.")
    return lines


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width) or [""]


__all__ = ["BOX_FRAMES", "Beat", "Box", "CribTable", "Flight", "SHOW_COLUMNS", "show_lines", "show_title"]
