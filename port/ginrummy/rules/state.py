"""The hand and the game as state machines: one phase at a time, one method per action.

A hand (GinRummy's documentation, "The Play" and "Game Play"):

    UPCARD_OFFER  (``Options.upcard_offer``, 001) the first upcard is offered to the
             non-dealer, then to the dealer: take it (then DISCARD) or decline; both
             declining, the non-dealer draws from the stock (the pile is refused)
    DRAW     the player to move takes the top of the stock or of the discard pile;
             with only two cards left in the stock, a stock draw ends the hand as a draw
    DISCARD  the player discards one of 11 cards, never the card just taken from the
             pile; a pile draw may be undone (back to DRAW), a stock draw may not
    KNOCK    after a discard that leaves deadwood within the knock value: knock,
             play on, or play to gin (no more offers to that player this hand).
             No deadwood at all is gin, and ends the hand at once.
    OVER     settled: see ``result``

The deal of eleven (``Options.deal_eleven``, 003) starts in DISCARD: the non-dealer
holds 11 cards and starts the pile with a discard that is not a turn (no draw before
it, no knock or gin after it: ``opening``).

Ours, where the documentation is silent (docs/engine.md): when the pile has been taken
``PILE_RUN_LIMIT`` times in a row, with no stock draw between, the hand is a draw at
the start of the next turn, so no hand lasts for ever.

Every action returns a ``Move`` saying what happened. Illegal actions raise
``IllegalMove`` (a ValueError; ``BadArgument``, also a TypeError, for an argument of
the wrong type) and change nothing: arguments are checked before anything else. Both
seats are the same to the engine; the game's rule that the human (seat 0) always goes
first is ``Options.first_turn``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum

from port.cards import CARDS, Card, Rng, cards_of, shuffled_deck
from port.checks import BadArgument, IllegalMove, check_card, check_cards, check_seat
from port.ginrummy.rules.melds import deadwood_mask
from port.ginrummy.rules.options import FirstTurn, Options
from port.ginrummy.rules.scoring import COLUMNS, ScoreSheet, sheet
from port.ginrummy.rules.settle import DrawnBy, Outcome, Settlement, settle_draw_mask, settle_out_mask

HAND_SIZE = 10
DRAW_AT = 2   # "If only two cards remain in the deck at the start of a turn ..."
# Ours: the pile taken this many times in a row (no stock draw between) makes the hand a
# draw. Far above real play (the longest run in 5,320 hands, 100 games of each of six
# pairings of EASY, STANDARD, EXPERT and the reference bot, was 6), and it bounds a hand:
# at most 29 stock draws, and at most PILE_RUN_LIMIT pile draws before, between and after
# them, so 29 + 30 * 20 = 629 draws.
PILE_RUN_LIMIT = 20


class Phase(Enum):
    UPCARD_OFFER = "upcard offer"
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    OVER = "over"


class Act(Enum):
    """Public events, as both players see them (a stock draw hides its card)."""

    DRAW_STOCK = "draw stock"
    DRAW_PILE = "draw pile"
    UNDO = "undo"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    PLAY_ON = "play on"
    PLAY_TO_GIN = "play to gin"
    DRAW_HAND = "draw hand"
    DECLINE = "decline"     # the first upcard declined (the upcard offer); taking it is DRAW_PILE


@dataclass(frozen=True)
class Event:
    seat: int
    act: Act
    card: Card | None = None     # None where the card is not public


@dataclass(frozen=True)
class View:
    """What one seat may know: its own cards and the public facts, nothing else.

    Built fresh from the state by ``HandState.view``; it holds copies, so a player
    holding a View cannot reach the other hand or the order of the stock.
    """

    seat: int
    hand: tuple[Card, ...]
    phase: Phase
    to_move: int
    pile: tuple[Card, ...]            # bottom .. top
    stock_count: int
    upcard: Card | None               # the hand's first upcard (Oklahoma knock card); None
                                      # in the deal of eleven until the opening discard
    knock_value: int
    options: Options
    drawn: Card | None                # the card this seat just drew, while discarding
    drawn_from_pile: bool
    play_to_gin: bool
    opponent_hand_size: int
    events: tuple[Event, ...]
    scores: tuple[int, int] = (0, 0)
    pile_run: int = 0                 # pile draws in a row so far (PILE_RUN_LIMIT ends the hand)
    knock_card: Card | None = None    # the card setting the knock value: the knock deck's, or
                                      # Oklahoma's upcard; None for the fixed 10
    dealer: int = 1                   # who dealt (the other seat moved first)
    opening: bool = False             # the deal of eleven's first discard, not a turn
    stock_only: bool = False          # both declined the upcard: this draw is from the stock
    boxes: tuple[int, int] = (0, 0)   # boxes won so far this game (BOXES scoring)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True)
class Move:
    """What an action did, returned by every action of ``HandState``.

    ``act`` is the action made (DRAW_STOCK, DRAW_PILE, UNDO, DISCARD, KNOCK, PLAY_ON,
    PLAY_TO_GIN, DECLINE; taking the offered upcard is DRAW_PILE); ``card`` the card
    drawn, put back, discarded or declined (None for a stock draw that ended the hand,
    and for the knock answers); ``phase`` and ``to_move`` what
    comes next; ``result`` the settlement when the hand is over (``over``): its
    ``outcome`` says how (GIN, KNOCK, UNDERCUT, DRAW) and, for a draw, ``drawn_by`` why.
    """

    seat: int
    act: Act
    card: Card | None
    phase: Phase
    to_move: int
    result: Settlement | None = None

    @property
    def over(self) -> bool:
        return self.result is not None


_new_object = object.__new__


def _event(seat: int, act: Act, card: Card | None = None) -> Event:
    """``Event(seat, act, card)`` filled at once, as ``HandState._move`` fills a Move."""
    e = _new_object(Event)
    d = e.__dict__
    d["seat"] = seat
    d["act"] = act
    d["card"] = card
    return e


class HandState:
    """One hand of gin rummy. Copy with ``copy()`` for look-ahead."""

    __slots__ = ("options", "upcard", "knock_value", "hands", "stock", "pile", "to_move",
                 "phase", "drawn", "drawn_from_pile", "gin_only", "events", "result", "pile_run",
                 "knock_card", "first", "opening", "declines", "stock_only", "undo_phase",
                 "_public")

    def __init__(self, options: Options, deck: list[Card], first: int = 0,
                 knock_card: Card | None = None) -> None:
        """Deal from ``deck`` (52 different cards, its last card the top): ten each, one
        at a time, starting with ``first`` (0 or 1, the non-dealer, who moves first);
        the next card turned up starts the pile. The deal of eleven gives ``first`` one
        more card instead, and turns none. ``knock_card`` is the second deck's card
        (needed with ``Options.knock_deck``, refused without)."""
        doing = "deal the hand"
        if not isinstance(options, Options):
            raise BadArgument(f"cannot {doing}: the options are an Options, not a {type(options).__name__}")
        first = check_seat(first, f"{doing} to the first player")
        deck = check_cards(deck, doing, "the deck", 52)
        if options.knock_deck:
            if knock_card is None:
                raise IllegalMove(f"cannot {doing}: the knock card from the second deck is needed")
            knock_card = check_card(knock_card, f"{doing} with the knock card")
        elif knock_card is not None:
            raise IllegalMove(f"cannot {doing}: a knock card from a second deck needs Options.knock_deck")
        dealt = [0, 0]
        for i in range(2 * HAND_SIZE):
            dealt[(first + i) % 2] |= deck.pop().bit
        self.options = options
        self.first = first
        self.opening = options.deal_eleven
        if self.opening:
            dealt[first] |= deck.pop().bit
            self.upcard: Card | None = None
            self.pile: list[Card] = []
        else:
            self.upcard = deck.pop()
            self.pile = [self.upcard]
        self.knock_card = knock_card if options.knock_deck else (self.upcard if options.oklahoma else None)
        self.knock_value = options.knock_value(self.knock_card)
        self.hands = dealt
        self.stock = deck
        self.to_move = first
        self.phase = (Phase.DISCARD if self.opening else
                      Phase.UPCARD_OFFER if options.upcard_offer else Phase.DRAW)
        self.drawn: Card | None = None
        self.drawn_from_pile = False
        self.gin_only = [False, False]   # "Play to Gin" chosen, per seat
        self.events: list[Event] = []
        self.result: Settlement | None = None
        self.pile_run = 0                # pile draws since the last stock draw
        self.declines = 0                # the upcard offer: declines so far
        self.stock_only = False          # both declined: the first draw is from the stock
        self.undo_phase = Phase.DRAW     # where undoing a pile draw goes back to
        self._public: list[tuple[list[Event], int, tuple[Event, ...]] | None] = [None, None]

    @classmethod
    def deal(cls, options: Options, rng: Rng, first: int | None = 0) -> HandState:
        """Shuffle and deal; with the knock deck, the knock card is then turned from a
        second, full deck (the same generator, after the shuffle: the play deck is
        the one the same seed gives without it). ``first`` None: the dealer is drawn
        at random after that (003's random first dealer), so the cards are the same."""
        deck = shuffled_deck(rng)
        knock_card = CARDS[rng.below(52)] if options.knock_deck else None
        if first is None:
            first = 1 - rng.below(2)
        return cls(options, deck, first, knock_card)

    @property
    def dealer(self) -> int:
        """The seat that dealt: the other one moves first."""
        return 1 - self.first

    def copy(self) -> HandState:
        new = HandState.__new__(HandState)
        new.options, new.upcard, new.knock_value = self.options, self.upcard, self.knock_value
        new.hands, new.stock, new.pile = list(self.hands), list(self.stock), list(self.pile)
        new.to_move, new.phase, new.drawn = self.to_move, self.phase, self.drawn
        new.drawn_from_pile, new.gin_only = self.drawn_from_pile, list(self.gin_only)
        new.events, new.result, new.pile_run = list(self.events), self.result, self.pile_run
        new.knock_card, new.first, new.opening = self.knock_card, self.first, self.opening
        new.declines, new.stock_only, new.undo_phase = self.declines, self.stock_only, self.undo_phase
        new._public = [None, None]
        return new

    clone = copy      # the name tree search uses (port.ginrummy.rules.search)

    # ---- reading -------------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """The seat's cards as held now, in card order (11 while it discards)."""
        return cards_of(self.hands[check_seat(seat, "show a hand")])

    def deadwood(self, seat: int) -> int:
        """The least deadwood of the seat's cards as held now. While the seat discards
        that is all 11 cards, the drawn one included (not what a discard would leave:
        ask ``knock_options``); otherwise its ten."""
        return deadwood_mask(self.hands[check_seat(seat, "count deadwood")])

    def can_knock(self, seat: int) -> bool:
        """Whether the seat's cards as held now would be offered a knock: a knock is
        open to it (knocking on, a knock value above 0, no Play to Gin this hand) and
        their least deadwood is within the knock value. While the seat discards it
        counts all 11 cards; ``knock_options`` says which discards open a knock."""
        seat = check_seat(seat, "ask about a knock")
        return self._knock_open(seat, deadwood_mask(self.hands[seat]))

    def knock_options(self, seat: int) -> dict[Card, int]:
        """While ``seat`` discards: each legal discard that ends the hand or opens a
        knock, with the deadwood of the ten cards it leaves (0: gin, the hand ends at
        once; otherwise within the knock value: the knock question follows). Card order;
        empty when no discard goes out, and outside the seat's DISCARD phase."""
        seat = check_seat(seat, "ask about a knock")
        if self.phase is not Phase.DISCARD or seat != self.to_move or self.opening:
            return {}
        limit = 0 if self.gin_only[seat] else self.knock_value
        return knock_options_of(self.hands[seat], self.drawn if self.drawn_from_pile else None, limit)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def view(self, seat: int, scores: tuple[int, int] = (0, 0),
             boxes: tuple[int, int] = (0, 0)) -> View:
        seat = check_seat(seat, "show a view")
        mine = self.to_move == seat
        return View(
            seat=seat,
            hand=tuple(cards_of(self.hands[seat])),
            phase=self.phase,
            to_move=self.to_move,
            pile=tuple(self.pile),
            stock_count=len(self.stock),
            upcard=self.upcard,
            knock_value=self.knock_value,
            options=self.options,
            drawn=self.drawn if mine else None,
            drawn_from_pile=self.drawn_from_pile if mine else False,
            play_to_gin=self.gin_only[seat],
            opponent_hand_size=self.hands[1 - seat].bit_count(),
            events=self._public_events(seat),
            scores=scores,
            pile_run=self.pile_run,
            knock_card=self.knock_card,
            dealer=self.dealer,
            opening=self.opening,
            stock_only=self.stock_only and mine,
            boxes=boxes,
        )

    def _public_events(self, seat: int) -> tuple[Event, ...]:
        """The events as ``seat`` may see them: the other seat's stock draws without
        their cards. Kept per seat and extended with the events added since the last
        view (events are only ever appended), so a view costs the new events, not the
        whole hand's: the environments ask for one at every step. A different events
        list (a copy, or one put in its place) is read afresh."""
        events = self.events
        kept = self._public[seat]
        if kept is not None and kept[0] is events and kept[1] <= len(events):
            if kept[1] == len(events):
                return kept[2]
            seen = kept[2] + tuple(_public(e, seat) for e in events[kept[1]:])
        else:
            seen = tuple(_public(e, seat) for e in events)
        self._public[seat] = (events, len(events), seen)
        return seen

    # ---- actions ---------------------------------------------------------------------

    def _expect(self, seat: object, phase: Phase, doing: str) -> int:
        """The seat, checked: it exists, the hand is on, it is its turn and its phase."""
        seat = check_seat(seat, doing)
        if self.phase is Phase.OVER:
            reason = "the hand is over"
        elif seat != self.to_move:
            reason = f"it is seat {self.to_move}'s turn"
        elif self.phase is not phase:
            reason = _NEXT[self.phase]
        else:
            return seat
        raise IllegalMove(f"seat {seat} cannot {doing} now: {reason}", reason)

    def _move(self, seat: int, act: Act, card: Card | None) -> Move:
        # ``Move(seat, act, card, phase, to_move, result)``, its fields put in its dict at
        # once: the frozen dataclass's ``__init__`` sets each through
        # ``object.__setattr__``, twice the time (a move is made at every action). The
        # same object: equal, same hash and repr, still frozen.
        m = _new_object(Move)
        d = m.__dict__
        d["seat"] = seat
        d["act"] = act
        d["card"] = card
        d["phase"] = self.phase
        d["to_move"] = self.to_move
        d["result"] = self.result
        return m

    def draw_stock(self, seat: int) -> Move:
        """Take the top of the stock: ``Move.card`` is the card. With two cards left the
        hand ends as a draw instead: no card is taken, ``Move.card`` is None and
        ``Move.result`` the draw (``drawn_by`` STOCK)."""
        seat = self._expect(seat, Phase.DRAW, "draw from the stock")
        if len(self.stock) <= DRAW_AT:
            self.events.append(Event(seat, Act.DRAW_HAND))
            self._finish(settle_draw_mask((self.hands[0], self.hands[1]), self.options, self.knock_card,
                                          DrawnBy.STOCK))
            return self._move(seat, Act.DRAW_STOCK, None)
        card = self.stock.pop()
        self.stock_only = False
        self.hands[seat] |= card.bit
        self.drawn, self.drawn_from_pile = card, False
        self.phase = Phase.DISCARD
        self.pile_run = 0
        self.events.append(_event(seat, Act.DRAW_STOCK, card))
        return self._move(seat, Act.DRAW_STOCK, card)

    def draw_pile(self, seat: int) -> Move:
        """Take the top of the discard pile: ``Move.card`` is the card."""
        seat = self._expect(seat, Phase.DRAW, "draw from the pile")
        if self.stock_only:
            reason = "both players declined the upcard: the first draw is from the stock"
            raise IllegalMove(f"seat {seat} cannot draw from the pile: {reason}", reason)
        if not self.pile:
            raise IllegalMove(f"seat {seat} cannot draw from the pile: the discard pile is empty",
                              "the discard pile is empty")
        self.undo_phase = Phase.DRAW
        return self._take_pile(seat)

    def _take_pile(self, seat: int) -> Move:
        card = self.pile.pop()
        self.hands[seat] |= card.bit
        self.drawn, self.drawn_from_pile = card, True
        self.phase = Phase.DISCARD
        self.pile_run += 1
        self.events.append(_event(seat, Act.DRAW_PILE, card))
        return self._move(seat, Act.DRAW_PILE, card)

    def take_upcard(self, seat: int) -> Move:
        """The upcard offer: take the first upcard (then discard, as after a pile draw;
        undoing it goes back to the offer). ``Move.act`` is DRAW_PILE."""
        seat = self._expect(seat, Phase.UPCARD_OFFER, "take the upcard")
        self.undo_phase = Phase.UPCARD_OFFER
        return self._take_pile(seat)

    def decline_upcard(self, seat: int) -> Move:
        """The upcard offer: decline the first upcard. The non-dealer declining, the
        dealer is asked; the dealer declining too, the non-dealer draws from the stock."""
        seat = self._expect(seat, Phase.UPCARD_OFFER, "decline the upcard")
        self.events.append(Event(seat, Act.DECLINE, self.upcard))
        self.declines += 1
        self.to_move = 1 - seat
        if self.declines == 2:
            self.phase = Phase.DRAW
            self.stock_only = True
        return self._move(seat, Act.DECLINE, self.upcard)

    def undo_draw(self, seat: int) -> Move:
        """Put back a card taken from the pile (a stock draw cannot be undone):
        ``Move.card`` is the card put back; the seat draws again."""
        seat = self._expect(seat, Phase.DISCARD, "undo the draw")
        if not self.drawn_from_pile or self.drawn is None:
            reason = "only a draw from the discard pile can be undone"
            raise IllegalMove(f"seat {seat} cannot undo the draw: {reason}", reason)
        card = self.drawn
        self.hands[seat] &= ~card.bit
        self.pile.append(card)
        self.drawn, self.drawn_from_pile = None, False
        self.phase = self.undo_phase
        self.pile_run -= 1
        self.events.append(Event(seat, Act.UNDO, card))
        return self._move(seat, Act.UNDO, card)

    def discard(self, seat: int, card: Card) -> Move:
        """Discard a card (a Card or an int 0..51). Then gin ends the hand
        (``Move.result``), or the knock question comes (phase KNOCK), or the turn passes."""
        seat = self._expect(seat, Phase.DISCARD, "discard")
        if card.__class__ is not Card:          # a Card is one of the 52 already
            card = check_card(card, "discard", f"seat {seat} ")
        if not self.hands[seat] & card.bit:
            raise IllegalMove(f"seat {seat} cannot discard {card}: it is not in seat {seat}'s hand",
                              f"{card} is not in seat {seat}'s hand")
        if self.drawn_from_pile and card == self.drawn:
            reason = f"{card} was just taken from the discard pile: it cannot be discarded this turn"
            raise IllegalMove(f"seat {seat} cannot discard {card}: {reason}", reason)
        self.hands[seat] &= ~card.bit
        self.pile.append(card)
        self.drawn, self.drawn_from_pile = None, False
        self.events.append(_event(seat, Act.DISCARD, card))
        if self.opening:     # the deal of eleven's first discard starts the pile: not a turn
            self.opening = False
            self.upcard = card
            self._next_turn()
            return self._move(seat, Act.DISCARD, card)
        dw = deadwood_mask(self.hands[seat])
        if dw == 0:
            self.events.append(Event(seat, Act.GIN))
            self._go_out(seat)
        elif self._knock_open(seat, dw):
            self.phase = Phase.KNOCK
        else:
            self._next_turn()
        return self._move(seat, Act.DISCARD, card)

    def _knock_open(self, seat: int, dw: int) -> bool:
        return not self.gin_only[seat] and 0 < self.knock_value and dw <= self.knock_value

    def knock(self, seat: int) -> Move:
        """Knock: the hand ends, ``Move.result`` is the settlement (KNOCK or UNDERCUT)."""
        seat = self._expect(seat, Phase.KNOCK, "knock")
        self.events.append(Event(seat, Act.KNOCK))
        self._go_out(seat)
        return self._move(seat, Act.KNOCK, None)

    def play_on(self, seat: int) -> Move:
        """Decline this knock; offered again after later discards."""
        seat = self._expect(seat, Phase.KNOCK, "play on")
        self.events.append(Event(seat, Act.PLAY_ON))
        self._next_turn()
        return self._move(seat, Act.PLAY_ON, None)

    def play_to_gin(self, seat: int) -> Move:
        """Decline, and no more knock offers to this seat for the rest of the hand."""
        seat = self._expect(seat, Phase.KNOCK, "play to gin")
        self.gin_only[seat] = True
        self.events.append(Event(seat, Act.PLAY_TO_GIN))
        self._next_turn()
        return self._move(seat, Act.PLAY_TO_GIN, None)

    # ---- internals -----------------------------------------------------------------

    def _next_turn(self) -> None:
        self.to_move = 1 - self.to_move
        self.phase = Phase.DRAW
        if self.pile_run >= PILE_RUN_LIMIT:
            # Ours (docs/engine.md): the pile has gone back and forth long enough.
            self.events.append(Event(self.to_move, Act.DRAW_HAND))
            self._finish(settle_draw_mask((self.hands[0], self.hands[1]), self.options, self.knock_card,
                                          DrawnBy.PILE))

    def _go_out(self, seat: int) -> None:
        self._finish(settle_out_mask(seat, (self.hands[0], self.hands[1]), self.options, self.knock_card))

    def _finish(self, result: Settlement) -> None:
        self.result = result
        self.phase = Phase.OVER


# The other seat's stock draw as a seat sees it (no card): one shared value per seat.
_HIDDEN_DRAW = (Event(0, Act.DRAW_STOCK), Event(1, Act.DRAW_STOCK))


def _public(e: Event, seat: int) -> Event:
    """The event as ``seat`` sees it."""
    return e if e.seat == seat or e.act is not Act.DRAW_STOCK else _HIDDEN_DRAW[e.seat]


_NEXT = {Phase.UPCARD_OFFER: "it must take or decline the upcard first",
         Phase.DRAW: "it must draw first", Phase.DISCARD: "it has drawn and must discard",
         Phase.KNOCK: "it must answer the knock question first (knock, play on or play to gin)"}


def knock_options_of(hand: int, pile_card: Card | None, knock_value: int) -> dict[Card, int]:
    """For an 11-card hand mask: each discard (not ``pile_card``, the card just taken
    from the pile) leaving gin (0) or deadwood within ``knock_value`` (0: gin only),
    with that deadwood, in card order."""
    out: dict[Card, int] = {}
    for c in cards_of(hand):
        if c == pile_card:
            continue
        dw = deadwood_mask(hand ^ c.bit)
        if dw == 0 or dw <= knock_value:
            out[c] = dw
    return out


class Game:
    """Hands until the game is over (``over``): a score reaches the limit (limit 0:
    exactly one hand, even a draw); under flop gin one decided hand; under Hollywood
    all three games over. ``sheet()`` is the score sheet at the end."""

    def __init__(self, options: Options, rng: Rng, first: int = 0, hand: HandState | None = None) -> None:
        """``hand``: the first hand as already dealt (a game record's replay); None deals
        it from ``rng``. Either way ``rng`` deals the hands that follow, unless
        ``next_hand`` is given them too."""
        if not isinstance(options, Options):
            raise BadArgument(f"cannot start a game: the options are an Options, not a {type(options).__name__}")
        if not callable(getattr(rng, "below", None)):
            raise BadArgument("cannot start a game: the generator needs a below(n) method (PascalRandom(seed))")
        first = check_seat(first, "start a game with the first player")
        self.options = options
        self.rng = rng
        self.scores = [0, 0]                 # every hand's points, once each
        self.boxes = [0, 0]                  # boxes won (BOXES; Hollywood: game 1's, see columns)
        n = COLUMNS.get(options.scoring, 1)
        self.column_points = [[0, 0] for _ in range(n)]
        self.column_boxes = [[0, 0] for _ in range(n)]
        self.column_hands = [0] * n          # hands entered in each column
        self.wins = [0, 0]                   # hands won per seat (Hollywood's entries)
        # Every recorded hand's result, oldest first: a tuple, so that a clone shares it
        # (a search's or OpenSpiel's copies then do not grow with the hands played).
        self.results: tuple[Settlement, ...] = ()
        if hand is None:
            # 003: "The first dealer is chosen randomly" (after the first shuffle).
            hand = HandState.deal(options, rng, None if options.random_first else first)
        else:
            self._check_given(hand, "start a game")
        self.hand = hand
        self.first = self.hand.first

    def clone(self) -> Game:
        """An independent copy for look-ahead: the hand, the scores and the generator
        (the next deals are the same in both until one of them is played on)."""
        new = Game.__new__(Game)
        new.options, new.rng, new.first = self.options, copy.copy(self.rng), self.first
        new.scores, new.boxes, new.wins = list(self.scores), list(self.boxes), list(self.wins)
        new.column_points = [list(c) for c in self.column_points]
        new.column_boxes = [list(c) for c in self.column_boxes]
        new.column_hands, new.results = list(self.column_hands), self.results
        new.hand = self.hand.copy()
        return new

    def next_first(self) -> int:
        """Who moves first in the next hand, once this one is over and recorded."""
        result = self.hand.result
        if result is None:
            raise IllegalMove("cannot say who moves first next: the hand is not over", "the hand is not over")
        return self._next_first(result)

    def _next_first(self, result: Settlement) -> int:
        """Who moves first in the next hand (the other seat deals)."""
        prev = self.hand.first
        if self.options.winner_deals:
            # 003: "the winner deals"; ours: after a draw hand the same dealer deals again.
            return prev if result.winner is None else 1 - result.winner
        if self.options.random_first or self.options.first_turn is FirstTurn.ALTERNATE:
            return 1 - prev
        return self.first    # the original: "you always go first"

    @property
    def hands_played(self) -> int:
        return len(self.results)

    @property
    def dealer(self) -> int:
        """Who dealt the current hand."""
        return self.hand.dealer

    def record(self) -> Settlement:
        """Add the finished hand's points (and boxes) to the scores."""
        result = self.hand.result
        if result is None:
            raise IllegalMove("cannot record the hand: it is not over yet", "the hand is not over yet")
        if len(self.results) and self.results[-1] is result:
            raise IllegalMove("cannot record the hand: it is recorded already", "it is recorded already")
        self.results = (*self.results, result)
        w = result.winner
        if w is not None:
            self.scores[w] += result.points
            self.boxes[w] += result.boxes
            self.wins[w] += 1
            # One column but Hollywood: a seat's n-th win goes in games 1..n (3 at most)
            # that are not over yet.
            for i in range(min(self.wins[w], len(self.column_points))):
                # A column nothing was entered in is open, whatever the limit: with a
                # limit of 0 its first hand is the whole game (0 >= 0 is not "over").
                if self.column_hands[i] == 0 or not self._column_over(i):
                    self.column_points[i][w] += result.points
                    self.column_boxes[i][w] += result.boxes
                    self.column_hands[i] += 1
            if len(self.column_points) > 1:
                self.boxes = list(self.column_boxes[0])
        return result

    def _column_over(self, i: int) -> bool:
        return max(self.column_points[i]) >= self.options.score_limit

    @property
    def over(self) -> bool:
        """Whether the game has ended (scores recorded up to the last finished hand)."""
        if not self.results:
            return False
        if self.options.scoring == "FLOP":
            return self.results[-1].winner is not None or self.options.score_limit == 0
        return all(self._column_over(i) for i in range(len(self.column_points)))

    def sheet(self) -> ScoreSheet:
        """The score sheet as it stands (final once ``over``): points, boxes, game and
        box bonuses, the shutout doubling, final totals and the winner."""
        return sheet(self.options, self.column_points, self.column_boxes)

    @property
    def winner(self) -> int | None:
        """The game's winner once over: the higher final total (None: equal). Under
        BOXES that can be the player with fewer points."""
        return self.sheet().winner if self.over else None

    def next_hand(self, hand: HandState | None = None) -> HandState:
        """Deal the next hand from the generator, or take ``hand`` as already dealt (a
        game record's replay): it must be fresh, on these options, and moved first by
        the seat the rules say (``IllegalMove`` otherwise)."""
        if self.hand.result is None or not self.results or self.results[-1] is not self.hand.result:
            raise IllegalMove("cannot deal the next hand: finish and record this hand first",
                              "finish and record this hand first")
        if self.over:
            raise IllegalMove("cannot deal the next hand: the game is over", "the game is over")
        first = self._next_first(self.hand.result)
        if hand is None:
            hand = HandState.deal(self.options, self.rng, first)
        else:
            self._check_given(hand, "deal the next hand")
            if hand.first != first:
                reason = f"seat {first} moves first in it (seat {1 - first} deals), not seat {hand.first}"
                raise IllegalMove(f"cannot deal the next hand: {reason}", reason)
        self.hand = hand
        return self.hand

    def _check_given(self, hand: object, doing: str) -> None:
        """A hand given to the game: a fresh deal on the game's own options."""
        if not isinstance(hand, HandState):
            raise BadArgument(f"cannot {doing}: the hand is a HandState, not a {type(hand).__name__}")
        if hand.options != self.options:
            raise IllegalMove(f"cannot {doing}: the hand was dealt under other options", "other options")
        if hand.events or hand.result is not None:
            raise IllegalMove(f"cannot {doing}: the hand has been played already", "it has been played")

    def view(self, seat: int) -> View:
        return self.hand.view(check_seat(seat, "show a view"), (self.scores[0], self.scores[1]),
                              (self.boxes[0], self.boxes[1]))


__all__ = ["Act", "BadArgument", "DrawnBy", "Event", "Game", "HandState", "IllegalMove", "Move",
           "Outcome", "PILE_RUN_LIMIT", "Phase", "ScoreSheet", "View", "knock_options_of"]
