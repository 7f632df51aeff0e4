"""One deal of cribbage as a state machine, and the game as a string of deals.

A deal (the documentation, "The Deal", "Game play", "Scoring Hands"):

    DISCARD  six cards each; each seat lays away two to the dealer's CRIB, in any
             order. When both have, the STARTER is cut: a jack pegs the dealer 2
             ("his heels"), which can win the game on the spot.
    PLAY     the non-dealer leads; seats alternate, the count never passes 31. A seat
             holding cards of which none fits says GO; the other plays on while able,
             then pegs 1 for the go, or 2 for exactly 31 (2 in all). The count starts
             again from zero, led by the seat that did not play the last card (the one
             that said GO). The last card of the play pegs 1 (a go), 2 at 31.
    SHOW     ``show()`` counts the non-dealer's hand, then the dealer's, then the crib,
             each with the starter.
    DONE     the deal is over, or the game is: ``winner`` is set the moment a seat
             reaches the limit, in any phase, and nothing more is counted.

Illegal actions and arguments raise ``IllegalMove`` (a ValueError; an argument of the
wrong type is a ``BadArgument``, a TypeError too: ``port.checks``) and change nothing. The state
holds the deck; a player never sees it: ``view(seat)`` builds a ``View`` of that seat's
own cards and the public facts only.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from port.cards import CARDS, Card, Rng, shuffle_finish, shuffle_started, shuffled_top, text
from port.checks import BadArgument, IllegalMove, check_card, check_cards, check_scores, check_seat
from port.cribbage.rules.options import Options
from port.cribbage.rules.scoring import (JACK, RANK_VALUE, Score, _run_length, hand_breakdown, peg_breakdown,
                                         score_hand)

HAND_SIZE = 6
CRIB_SHARE = 2     # cards each seat lays away
LAST_COUNT = 31
HEELS = 2
_SETTLED = 2 * HAND_SIZE + 1     # the cards of a deal's shuffle read in play: the hands, the starter




class Phase(Enum):
    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    DONE = "done"


class Act(Enum):
    """Public events. A discard event names no cards: the crib stays face down."""

    DISCARD = "discard"
    STARTER = "starter"      # the cut; points 2 when it is a jack (heels)
    PLAY = "play"
    GO = "go"                # a seat says GO
    GO_POINT = "go point"    # 1 for the go, or for the last card
    SHOW = "show"            # a hand or the crib counted


@dataclass(frozen=True)
class Event:
    seat: int
    act: Act
    card: Card | None = None
    points: int = 0          # points pegged by this event (after the limit: what fitted)
    count: int = 0           # the count after a play
    scores: tuple[Score, ...] = ()
    words: str = ""


_new_object = object.__new__


def _event(seat: int, act: Act, card: Card | None = None, points: int = 0, count: int = 0,
           scores: tuple[Score, ...] = (), words: str = "") -> Event:
    """``Event(...)``, its fields put in its dict at once: the frozen dataclass's
    ``__init__`` sets each through ``object.__setattr__``, twice the time (an event is
    made at every move). The same object: equal, same hash and repr, still frozen."""
    e = _new_object(Event)
    d = e.__dict__
    d["seat"] = seat
    d["act"] = act
    d["card"] = card
    d["points"] = points
    d["count"] = count
    d["scores"] = scores
    d["words"] = words
    return e


@dataclass(frozen=True)
class ShowEntry:
    """One box of the show: whose, hand or crib, the four cards, the breakdown and the
    points actually pegged (fewer when the limit is reached during it)."""

    seat: int
    what: str                # "hand" or "crib"
    cards: tuple[Card, ...]
    starter: Card
    breakdown: tuple[Score, ...]
    points: int

    @property
    def total(self) -> int:
        """What the cards are worth, pegged or not."""
        return self.breakdown[-1].total if self.breakdown else 0


@dataclass(frozen=True)
class View:
    """What one seat may know: its own cards and the public facts, nothing else.

    Built fresh by ``HandState.view`` from copies: it holds no reference to the state,
    the opponent's cards, the opponent's crib discards or the deck.
    """

    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]            # own cards not yet played (six before the discard)
    kept: tuple[Card, ...]            # own four kept cards, () before the discard
    my_crib: tuple[Card, ...]         # own two discards, () before the discard
    starter: Card | None
    count: int
    count_cards: tuple[Card, ...]     # the cards of the current count, in order
    played: tuple[tuple[int, Card], ...]   # the whole play so far: (seat, card)
    said_go: tuple[bool, bool]
    opponent_left: int                # cards in the opponent's hand
    opponent_discarded: bool
    scores: tuple[int, int]
    options: Options
    shows: tuple[ShowEntry, ...] = ()
    events: tuple[Event, ...] = ()

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    def legal_plays(self) -> list[Card]:
        """The cards this seat may play now (empty: not its turn, or it must say GO)."""
        if self.phase is not Phase.PLAY or self.to_act != self.seat:
            return []
        return fitting(self.hand, self.count)


def fitting(cards: Sequence[Card], count: int) -> list[Card]:
    """The cards that keep the count at 31 or less."""
    room = LAST_COUNT - count
    return [c for c in cards if RANK_VALUE[c % 13] <= room]


def _check_options(options: object, doing: str) -> Options:
    if not isinstance(options, Options):
        raise BadArgument(f"cannot {doing}: the options are an Options, not {options!r}")
    return options


class HandState:
    """One deal of cribbage. ``copy()`` is cheap, for look-ahead."""

    # ``events`` and ``shows`` are properties over ``_events`` and ``_shows``: the
    # boxes ``count_show`` pegged but has not written yet (``_unsaid``) are written when
    # either is first read. ``stock`` is a property over ``_stock``: a deal from a
    # PascalRandom shuffles the 13 cards it deals and cuts, and the rest of the
    # shuffle (from the seed ``_unshuffled``) is made when the stock is first read.
    __slots__ = ("options", "dealer", "_stock", "_unshuffled", "hands", "kept", "cribs", "starter", "phase",
                 "to_act", "count", "count_cards", "played", "said_go", "last_player",
                 "board", "winner", "_events", "_shows", "_unsaid", "pegging", "heels",
                 "hand_points", "crib_points")

    def __init__(self, dealer: int, deck: Sequence[int], scores: tuple[int, int] = (0, 0),
                 options: Options = Options()) -> None:
        """Deal from ``deck`` (52 different cards, the last is the top): six each, one
        at a time, the non-dealer first. The card left on top is cut as the starter."""
        dealer = check_seat(dealer, "deal")
        options = _check_options(options, "deal")
        cards = check_cards(deck, "deal", "the deck", 52)
        scores = check_scores(scores, "deal", options.limit)
        self._set_up(dealer, cards, scores, options, None)

    def _set_up(self, dealer: int, cards: list[Card], scores: tuple[int, int], options: Options,
                unshuffled: int | None) -> None:
        """The deal of checked arguments (``cards``: the deck as a list of 52 different
        ``Card``, which becomes the stock; ``unshuffled``: the seed the shuffle of all
        but its top 13 cards goes on from, or None when it is shuffled)."""
        self.options = options
        self.dealer = dealer
        # Six each from the top (the list's end), one at a time, the non-dealer first:
        # the non-dealer's are the top card and every second one below it.
        top = len(cards) - 1
        first = cards[top:top - 2 * HAND_SIZE:-2]
        second = cards[top - 1:top - 2 * HAND_SIZE:-2]
        hands = [second, first] if dealer == 0 else [first, second]
        del cards[top + 1 - 2 * HAND_SIZE:]
        self._stock = cards
        self._unshuffled = unshuffled
        self.hands = hands
        self.kept: list[tuple[Card, ...]] = [(), ()]
        self.cribs: list[tuple[Card, ...]] = [(), ()]
        self.starter: Card | None = None
        self.phase = Phase.DISCARD
        self.to_act: int | None = 1 - dealer
        self.count = 0
        self.count_cards: list[Card] = []
        self.played: list[tuple[int, Card]] = []
        self.said_go = [False, False]
        self.last_player: int | None = None
        self.board = [scores[0], scores[1]]   # each seat's front peg
        self.winner: int | None = None
        self._events: list[Event] = []
        self._shows: list[ShowEntry] = []
        self._unsaid: list[tuple[int, int]] = []
        self.pegging = [0, 0]
        self.heels = [0, 0]
        self.hand_points = [0, 0]
        self.crib_points = [0, 0]

    @classmethod
    def deal(cls, dealer: int, rng: Rng, scores: tuple[int, int] = (0, 0),
             options: Options = Options()) -> HandState:
        """A deal from a deck shuffled by ``rng``: the same seed, the same deal."""
        # The deck is the Cards unit's own shuffle of the 52 cards: not checked again
        # (an environment deals at every reset); the other arguments are. Only the
        # cards dealt and the starter are shuffled now (``stock`` makes the rest).
        dealer = check_seat(dealer, "deal")
        options = _check_options(options, "deal")
        scores = check_scores(scores, "deal", options.limit)
        h = cls.__new__(cls)
        cards, unshuffled = shuffle_started(rng, _SETTLED)
        h._set_up(dealer, cards, scores, options, unshuffled)
        return h

    @classmethod
    def from_cards(cls, dealer: int, non_dealer_hand: Sequence[int], dealer_hand: Sequence[int],
                   starter: int, scores: tuple[int, int] = (0, 0),
                   options: Options = Options()) -> HandState:
        """A deal of given cards (for tests, puzzles and look-ahead)."""
        first = check_cards(non_dealer_hand, "deal", "the non-dealer's hand", HAND_SIZE)
        second = check_cards(dealer_hand, "deal", "the dealer's hand", HAND_SIZE)
        starter = check_card(starter, "deal", "")
        if set(first) & set(second) or starter in first or starter in second:
            raise IllegalMove("cannot deal: a card is dealt twice (the hands and the starter "
                              "are different cards)")
        dealt = [c for pair in zip(first, second) for c in pair]
        rest = [c for c in CARDS if c not in dealt and c != starter]
        return cls(dealer, rest + [starter] + dealt[::-1], scores, options)

    def copy(self) -> HandState:
        # Field by field (search clones often): the lists copied, the rest shared
        # (tuples, cards, events and show entries are immutable).
        new = HandState.__new__(HandState)
        new.options, new.dealer, new._stock = self.options, self.dealer, list(self._stock)
        new._unshuffled = self._unshuffled
        new.hands = [list(self.hands[0]), list(self.hands[1])]
        new.kept, new.cribs, new.starter = list(self.kept), list(self.cribs), self.starter
        new.phase, new.to_act, new.count = self.phase, self.to_act, self.count
        new.count_cards, new.played = list(self.count_cards), list(self.played)
        new.said_go, new.last_player = list(self.said_go), self.last_player
        new.board, new.winner, new._events = list(self.board), self.winner, list(self._events)
        new._shows, new._unsaid = list(self._shows), list(self._unsaid)
        new.pegging, new.heels = list(self.pegging), list(self.heels)
        new.hand_points, new.crib_points = list(self.hand_points), list(self.crib_points)
        return new

    clone = copy      # the name tree search uses (port.cribbage.rules.search)

    # ---- reading ---------------------------------------------------------------------

    @property
    def stock(self) -> list[Card]:
        """The cards left in the deck, its top last (the starter's place until the cut)."""
        if self._unshuffled is not None:
            shuffle_finish(self._stock, self._unshuffled, _SETTLED)
            self._unshuffled = None
        return self._stock

    @stock.setter
    def stock(self, cards: list[Card]) -> None:
        self._stock = cards
        self._unshuffled = None

    @property
    def events(self) -> list[Event]:
        """The public events of the deal so far, in order."""
        if self._unsaid:
            self._say_show()
        return self._events

    @events.setter
    def events(self, events: list[Event]) -> None:
        if self._unsaid:             # the boxes' events first, then the list given in their place
            self._say_show()
        self._events = events

    @property
    def shows(self) -> list[ShowEntry]:
        """The boxes of the show counted so far."""
        if self._unsaid:
            self._say_show()
        return self._shows

    @shows.setter
    def shows(self, shows: list[ShowEntry]) -> None:
        if self._unsaid:
            self._say_show()
        self._shows = shows

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def crib(self) -> tuple[Card, ...]:
        """The four crib cards (non-dealer's two first), once both have discarded."""
        return self.cribs[self.non_dealer] + self.cribs[self.dealer]

    @property
    def scores(self) -> tuple[int, int]:
        return (self.board[0], self.board[1])

    def discarded(self, seat: int) -> bool:
        return bool(self.cribs[check_seat(seat, "ask whether a seat has laid away")])

    def can_play(self, seat: int) -> bool:
        """Whether a card of the seat's fits the count (turn or not)."""
        return bool(fitting(self.hands[check_seat(seat, "ask whether a seat can play")], self.count))

    def legal_plays(self, seat: int) -> list[Card]:
        """The cards the seat may play now: none unless it is its turn to play."""
        seat = check_seat(seat, "list a seat's legal plays")
        if self.phase is not Phase.PLAY or self.to_act != seat:
            return []
        return fitting(self.hands[seat], self.count)

    def view(self, seat: int) -> View:
        seat = check_seat(seat, "show a seat's view")
        other = 1 - seat
        return View(
            seat=seat,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=tuple(self.hands[seat]),
            kept=self.kept[seat],
            my_crib=self.cribs[seat],
            starter=self.starter,
            count=self.count,
            count_cards=tuple(self.count_cards),
            played=tuple(self.played),
            said_go=(self.said_go[0], self.said_go[1]),
            opponent_left=len(self.hands[other]),
            opponent_discarded=bool(self.cribs[other]),
            scores=(self.board[0], self.board[1]),
            options=self.options,
            shows=tuple(self.shows),
            events=tuple(self.events),
        )

    # ---- actions ---------------------------------------------------------------------

    def discard(self, seat: int, cards: Sequence[int]) -> None:
        """Lay away two cards to the dealer's crib. Either seat may go first; after the
        second discard the starter is cut (and heels pegged)."""
        seat = check_seat(seat, "lay away cards")
        self._expect_phase(Phase.DISCARD, "lay away cards")
        if self.cribs[seat]:
            raise IllegalMove(f"seat {seat} has laid away its two cards already")
        if cards.__class__ is not tuple and cards.__class__ is not list and (
                isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence)):
            raise BadArgument(f"lay away two cards, not {cards!r}")
        chosen = [CARDS[c] if c.__class__ is Card else check_card(c, "lay away", f"seat {seat} ") for c in cards]
        if len(chosen) != CRIB_SHARE:
            raise IllegalMove(f"lay away exactly two cards to the crib, not {len(chosen)}")
        if chosen[0] == chosen[1]:
            raise IllegalMove(f"{chosen[0]} is laid away twice")
        for c in chosen:
            if c not in self.hands[seat]:
                raise IllegalMove(f"{c} is not in seat {seat}'s hand")
        self.hands[seat] = [c for c in self.hands[seat] if c not in chosen]
        self.kept[seat] = tuple(self.hands[seat])
        self.cribs[seat] = (chosen[0], chosen[1])
        self._events.append(_event(seat, Act.DISCARD))
        if self.cribs[1 - seat]:
            self._cut()
        else:
            self.to_act = 1 - seat

    def play(self, seat: int, card: int) -> int:
        """Play a card to the count; returns the points it pegged."""
        # The seat on turn in the play is the common case: one test for the seat's
        # check, the phase's and the turn's (their messages when it is not).
        if seat.__class__ is not int or seat != self.to_act or self.phase is not Phase.PLAY \
                or self.winner is not None:
            seat = check_seat(seat, "play a card")
            self._expect_turn(seat, "play a card")
        # A card or an int in range is the card itself (check_card's answer, without
        # its message built at every play).
        if (card.__class__ is Card or card.__class__ is int) and 0 <= card < 52:   # type: ignore[operator]
            c = CARDS[card]                                                         # type: ignore[index]
        else:
            c = check_card(card, "play", f"seat {seat} ")
        held = self.hands[seat]
        if c not in held:
            raise IllegalMove(f"{c} is not in seat {seat}'s hand")
        value = RANK_VALUE[c % 13]
        count = self.count + value
        if count > LAST_COUNT:
            raise IllegalMove(f"{c} would take the count from {self.count} past 31")
        held.remove(c)
        cards = self.count_cards
        cards.append(c)
        self.played.append((seat, c))
        self.count = count
        self.last_player = seat
        # What peg_breakdown finds nothing in, seen without it (most cards): the count
        # not 15 or 31, the card below of another rank, and no run of three or more. A
        # run of the last k cards (k <= n) holds this card's rank and the one below's,
        # at most k - 1 apart: ranks n or more apart need no search.
        parts: tuple[Score, ...] = ()
        if count == 15 or count == LAST_COUNT:
            parts = tuple(peg_breakdown(cards))
        elif (n := len(cards)) > 1:
            apart = cards[-2] % 13 - c % 13
            if apart == 0 or (n > 2 and -n < apart < n and _run_length(cards)):
                parts = tuple(peg_breakdown(cards))
        if parts:
            points = self._peg(seat, parts[-1].total, self.pegging)
            words = ", ".join([p.words for p in parts])
        else:                      # most cards peg nothing
            points, words = 0, ""
        self._events.append(_event(seat, Act.PLAY, c, points, count, parts, words))
        if self.winner is None:
            if count == LAST_COUNT:
                self._end_count()
                return points
            # _next_turn(other)'s common case first: the other seat still in the count,
            # and this one too or the other able to play.
            other = 1 - seat
            said = self.said_go
            if not said[other] and self.hands[other] and ((held and not said[seat]) or self._fits(other)):
                self.to_act = other
            else:
                self._next_turn(other)
        return points

    def go(self, seat: int) -> None:
        """Say GO: only when no card in hand fits the count."""
        if seat.__class__ is not int or seat != self.to_act or self.phase is not Phase.PLAY \
                or self.winner is not None:      # as in play: the seat on turn is one test
            seat = check_seat(seat, "say GO")
            self._expect_turn(seat, "say GO")
        if self._fits(seat):
            raise IllegalMove(f"seat {seat} cannot say GO: it holds a card that fits the count of {self.count}")
        self.said_go[seat] = True
        self._events.append(_event(seat, Act.GO, count=self.count, words="go"))
        self._next_turn(1 - seat)

    def show(self) -> ShowEntry:
        """Count the next box of the show: non-dealer's hand, dealer's hand, the crib."""
        self._expect_phase(Phase.SHOW, "count the show")
        step = len(self._shows)
        seat, cards, crib, tally = self._box(step)
        assert self.starter is not None
        parts = tuple(hand_breakdown(cards, self.starter, crib))
        points = self._peg(seat, parts[-1].total if parts else 0, tally)
        entry = self._write_box(step, parts, points)
        if self.winner is None and step == 2:
            self.phase = Phase.DONE
        return entry

    def finish_show(self) -> list[ShowEntry]:
        """Count what is left of the show; returns the boxes counted."""
        out = []
        while self.phase is Phase.SHOW:
            out.append(self.show())
        return out

    def count_show(self) -> None:
        """``finish_show()`` with the boxes' breakdowns written later: what is left of
        the show is counted and pegged now (the same points, the same pegs, the same
        end of the game at the limit), and each box's ``ShowEntry`` and event are made
        when ``shows`` or ``events`` is first read (a view reads them). An
        environment's episode nobody looks into never spends the breakdowns' words."""
        starter = self.starter
        while self.phase is Phase.SHOW:
            step = len(self._shows) + len(self._unsaid)
            seat, cards, crib, tally = self._box(step)
            assert starter is not None
            points = self._peg(seat, score_hand(cards, starter, crib), tally)
            self._unsaid.append((step, points))
            if self.winner is None and step == 2:
                self.phase = Phase.DONE

    def _box(self, step: int) -> tuple[int, tuple[Card, ...], bool, list[int]]:
        """The show's box ``step`` (0, 1, 2): whose, its cards, whether it is the crib,
        and the tally its points go to."""
        if step < 2:
            seat = self.non_dealer if step == 0 else self.dealer
            return seat, self.kept[seat], False, self.hand_points
        return self.dealer, self.crib, True, self.crib_points

    def _write_box(self, step: int, parts: tuple[Score, ...], points: int) -> ShowEntry:
        """The box's entry and its event, ``points`` being what it pegged."""
        seat, cards, _, _ = self._box(step)
        assert self.starter is not None
        entry = ShowEntry(seat, "crib" if step == 2 else "hand", tuple(cards), self.starter, parts, points)
        self._shows.append(entry)
        words = ", ".join([p.words for p in parts]) or "no points"
        self._events.append(_event(seat, Act.SHOW, None, points, 0, parts, words))
        return entry

    def _say_show(self) -> None:
        """Write the boxes ``count_show`` pegged: each breakdown (whose total is the
        points ``score_hand`` gave) and the points it pegged then."""
        unsaid, self._unsaid = self._unsaid, []
        assert self.starter is not None
        for step, points in unsaid:
            _, cards, crib, _ = self._box(step)
            self._write_box(step, tuple(hand_breakdown(cards, self.starter, crib)), points)

    # ---- internals -------------------------------------------------------------------

    def _expect_phase(self, phase: Phase, action: str) -> None:
        if self.winner is not None:
            raise IllegalMove(f"cannot {action}: the game is over")
        if self.phase is not phase:
            raise IllegalMove(f"cannot {action} now: the deal is in its {self.phase.value} phase")

    def _expect_turn(self, seat: int, action: str) -> None:
        self._expect_phase(Phase.PLAY, action)
        if seat != self.to_act:
            raise IllegalMove(f"seat {seat} cannot {action}: it is seat {self.to_act}'s turn")

    def _peg(self, seat: int, points: int, tally: list[int]) -> int:
        """Move the seat's peg; the peg stops in the last hole and the game ends there.
        Returns the points actually pegged."""
        if points <= 0:
            return 0
        limit = self.options.limit
        points = min(points, limit - self.board[seat])
        self.board[seat] += points
        tally[seat] += points
        if self.board[seat] >= limit:
            self.winner = seat
            self.phase = Phase.DONE
            self.to_act = None
        return points

    def _cut(self) -> None:
        self.starter = self._stock.pop()        # the top: shuffled, whatever is below it
        heels = HEELS if self.starter.rank == JACK else 0
        points = self._peg(self.dealer, heels, self.heels)
        self._events.append(_event(self.dealer, Act.STARTER, self.starter, points,
                                 words="his heels for 2" if heels else ""))
        if self.winner is None:
            self.phase = Phase.PLAY
            self._next_turn(self.non_dealer)

    def _in_count(self, seat: int) -> bool:
        return not self.said_go[seat] and bool(self.hands[seat])

    def _next_turn(self, candidate: int) -> None:
        """Whose turn it is, ``candidate`` first: a seat still in the count (no GO said,
        cards left) that can play; or one that cannot, to say GO, while the other is
        still in. Otherwise the count is over."""
        other = 1 - candidate
        if self._in_count(candidate):
            if self._fits(candidate) or self._in_count(other):
                self.to_act = candidate
                return
        elif self._in_count(other) and self._fits(other):
            self.to_act = other
            return
        self._end_count()

    def _fits(self, seat: int) -> bool:
        """``can_play`` for a seat known good: whether a card it holds fits the count."""
        room = LAST_COUNT - self.count
        for c in self.hands[seat]:
            if RANK_VALUE[c % 13] <= room:
                return True
        return False

    def _end_count(self) -> None:
        """The count is over: 1 for the go (or the last card) unless it reached 31;
        then a new count from zero, led by the seat that did not play the last card."""
        last = self.last_player
        assert last is not None
        finished = not self.hands[0] and not self.hands[1]
        if self.count != LAST_COUNT:
            points = self._peg(last, 1, self.pegging)
            words = "last card for 1" if finished else "go for 1"
            self._events.append(_event(last, Act.GO_POINT, None, points, self.count, words=words))
            if self.winner is not None:
                return
        self.count = 0
        self.count_cards = []
        self.said_go = [False, False]
        if finished:
            self.phase = Phase.SHOW
            self.to_act = None
        else:
            self._next_turn(1 - last)

    def __repr__(self) -> str:
        return (f"<HandState dealer={self.dealer} {self.phase.value} to_act={self.to_act} "
                f"count={self.count} hands={text(self.hands[0])!r}/{text(self.hands[1])!r} "
                f"scores={self.scores}>")


# ---- the game -------------------------------------------------------------------------

def cut_for_deal(rng: Rng) -> int:
    """The first dealer, by a cut of the deck: each seat cuts a card, the lower rank
    deals (Ace low), equal ranks cut again. (The documentation is silent; the common
    rule.)"""
    while True:
        top = shuffled_top(rng, 2)    # a shuffled deck's top two, the generator moved on alike
        a, b = top[-1], top[-2]       # seat 0 cuts first, seat 1 from the rest
        if a.rank != b.rank:
            return 0 if a.rank < b.rank else 1


@dataclass
class GameState:
    """Deals until a seat reaches the limit; the deal alternates.

    ``scores`` are the scores at the start of the current deal (before its play and
    its show); the pegs as they stand now are ``board`` (``hand.scores``), which a
    finished deal's show has moved."""

    options: Options
    rng: Rng
    first_dealer: int
    scores: tuple[int, int] = (0, 0)       # at the start of the current deal
    hands_dealt: int = 0
    hand: HandState = field(init=False)

    def __post_init__(self) -> None:
        self.first_dealer = check_seat(self.first_dealer, "start a game")
        self.options = _check_options(self.options, "start a game")
        if not callable(getattr(self.rng, "below", None)):
            raise BadArgument(f"cannot start a game: the deal needs a seeded generator (PascalRandom), "
                              f"not {self.rng!r}")
        self.scores = check_scores(self.scores, "start a game", self.options.limit)
        self.hand = HandState.deal(self.first_dealer, self.rng, self.scores, self.options)
        self.hands_dealt = 1

    @classmethod
    def new(cls, options: Options, rng: Rng, first_dealer: int | None = None) -> GameState:
        if first_dealer is None:
            first_dealer = cut_for_deal(rng)
        return cls(options, rng, first_dealer)

    @classmethod
    def at(cls, hand: HandState, rng: Rng, first_dealer: int | None = None, hands_dealt: int = 1) -> GameState:
        """A game whose current deal is ``hand`` (dealt, perhaps played on), the next
        deals from ``rng``: for look-ahead and sampled worlds."""
        game = cls.__new__(cls)
        game.options, game.rng = hand.options, rng
        game.first_dealer = hand.dealer if first_dealer is None else first_dealer
        start = [hand.board[s] - hand.pegging[s] - hand.heels[s] - hand.hand_points[s] - hand.crib_points[s]
                 for s in (0, 1)]
        game.scores = (start[0], start[1])
        game.hands_dealt = hands_dealt
        game.hand = hand
        return game

    def clone(self) -> GameState:
        """An independent copy for look-ahead (the generator too: the next deals are
        the same in both until one is played on)."""
        return GameState.at(self.hand.copy(), copy.copy(self.rng), self.first_dealer, self.hands_dealt)

    @property
    def board(self) -> tuple[int, int]:
        """The pegs now: the scores after everything counted so far in this deal."""
        return self.hand.scores

    @property
    def winner(self) -> int | None:
        return self.hand.winner

    @property
    def over(self) -> bool:
        return self.hand.winner is not None

    @property
    def skunk(self) -> bool:
        """Whether the game was won by a skunk (the skunking option on)."""
        w = self.hand.winner
        return w is not None and self.options.is_skunk(self.hand.scores[1 - w])

    def next_hand(self) -> HandState:
        """Deal the next hand, the other seat dealing, with the scores so far."""
        if self.hand.phase is not Phase.DONE:
            raise IllegalMove("finish this deal first")
        if self.over:
            raise IllegalMove("the game is over")
        self.scores = (self.hand.scores[0], self.hand.scores[1])
        self.hand = HandState.deal(1 - self.hand.dealer, self.rng, self.scores, self.options)
        self.hands_dealt += 1
        return self.hand


Game = GameState

__all__ = ["Act", "Event", "Game", "GameState", "HandState", "IllegalMove", "Phase",
           "ShowEntry", "View", "cut_for_deal", "fitting"]
