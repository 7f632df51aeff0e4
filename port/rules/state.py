"""The hand and the game as state machines: one phase at a time, one method per action.

A hand (GinRummy's documentation, "The Play" and "Game Play"):

    DRAW     the player to move takes the top of the stock or of the discard pile;
             with only two cards left in the stock, a stock draw ends the hand as a draw
    DISCARD  the player discards one of 11 cards, never the card just taken from the
             pile; a pile draw may be undone (back to DRAW), a stock draw may not
    KNOCK    after a discard that leaves deadwood within the knock value: knock,
             play on, or play to gin (no more offers to that player this hand).
             No deadwood at all is gin, and ends the hand at once.
    OVER     settled: see ``result``

Illegal actions raise ``IllegalMove`` (a ValueError) and change nothing. Both seats are
the same to the engine; the game's rule that the human (seat 0) always goes first is
``Options.first_turn``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from port.cards import Card, Rng, cards_of, shuffled_deck
from port.rules.melds import deadwood_mask
from port.rules.options import FirstTurn, Options
from port.rules.settle import Outcome, Settlement, settle_draw, settle_out

HAND_SIZE = 10
DRAW_AT = 2   # "If only two cards remain in the deck at the start of a turn ..."


class IllegalMove(ValueError):
    """An action the rules do not allow now; the state is unchanged."""


class Phase(Enum):
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
    upcard: Card                      # the hand's first upcard (Oklahoma knock card)
    knock_value: int
    options: Options
    drawn: Card | None                # the card this seat just drew, while discarding
    drawn_from_pile: bool
    play_to_gin: bool
    opponent_hand_size: int
    events: tuple[Event, ...]
    scores: tuple[int, int] = (0, 0)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


class HandState:
    """One hand of gin rummy. Copy with ``copy()`` for look-ahead."""

    __slots__ = ("options", "upcard", "knock_value", "hands", "stock", "pile", "to_move",
                 "phase", "drawn", "drawn_from_pile", "gin_only", "events", "result")

    def __init__(self, options: Options, deck: list[Card], first: int = 0) -> None:
        """Deal from ``deck`` (its last card is the top): ten each, one at a time,
        starting with ``first``; the next card turned up starts the pile."""
        if len(deck) != 52 or len(set(deck)) != 52:
            raise ValueError("a hand is dealt from a full deck of 52 different cards")
        deck = list(deck)
        dealt = [0, 0]
        for i in range(2 * HAND_SIZE):
            dealt[(first + i) % 2] |= deck.pop().bit
        self.options = options
        self.upcard = deck.pop()
        self.knock_value = options.knock_value(self.upcard)
        self.hands = dealt
        self.stock = deck
        self.pile = [self.upcard]
        self.to_move = first
        self.phase = Phase.DRAW
        self.drawn: Card | None = None
        self.drawn_from_pile = False
        self.gin_only = [False, False]   # "Play to Gin" chosen, per seat
        self.events: list[Event] = []
        self.result: Settlement | None = None

    @classmethod
    def deal(cls, options: Options, rng: Rng, first: int = 0) -> HandState:
        return cls(options, shuffled_deck(rng), first)

    def copy(self) -> HandState:
        new = HandState.__new__(HandState)
        new.options, new.upcard, new.knock_value = self.options, self.upcard, self.knock_value
        new.hands, new.stock, new.pile = list(self.hands), list(self.stock), list(self.pile)
        new.to_move, new.phase, new.drawn = self.to_move, self.phase, self.drawn
        new.drawn_from_pile, new.gin_only = self.drawn_from_pile, list(self.gin_only)
        new.events, new.result = list(self.events), self.result
        return new

    # ---- reading -------------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def deadwood(self, seat: int) -> int:
        return deadwood_mask(self.hands[seat])

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def view(self, seat: int, scores: tuple[int, int] = (0, 0)) -> View:
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
            events=tuple(e if e.seat == seat or e.act is not Act.DRAW_STOCK else Event(e.seat, e.act)
                         for e in self.events),
            scores=scores,
        )

    # ---- actions ---------------------------------------------------------------------

    def _expect(self, seat: int, phase: Phase) -> None:
        if self.phase is Phase.OVER:
            raise IllegalMove("the hand is over")
        if seat != self.to_move:
            raise IllegalMove(f"it is not seat {seat}'s turn")
        if self.phase is not phase:
            raise IllegalMove(f"seat {seat} must {_NEXT[self.phase]} now, not that")

    def draw_stock(self, seat: int) -> Card | None:
        """Take the top of the stock. With two cards left the hand ends as a draw
        instead, and None is returned."""
        self._expect(seat, Phase.DRAW)
        if len(self.stock) <= DRAW_AT:
            self.events.append(Event(seat, Act.DRAW_HAND))
            self._finish(settle_draw((self.hands[0], self.hands[1]), self.options, self.upcard))
            return None
        card = self.stock.pop()
        self.hands[seat] |= card.bit
        self.drawn, self.drawn_from_pile = card, False
        self.phase = Phase.DISCARD
        self.events.append(Event(seat, Act.DRAW_STOCK, card))
        return card

    def draw_pile(self, seat: int) -> Card:
        """Take the top of the discard pile."""
        self._expect(seat, Phase.DRAW)
        if not self.pile:
            raise IllegalMove("the discard pile is empty")
        card = self.pile.pop()
        self.hands[seat] |= card.bit
        self.drawn, self.drawn_from_pile = card, True
        self.phase = Phase.DISCARD
        self.events.append(Event(seat, Act.DRAW_PILE, card))
        return card

    def undo_draw(self, seat: int) -> None:
        """Put back a card taken from the pile (a stock draw cannot be undone)."""
        self._expect(seat, Phase.DISCARD)
        if not self.drawn_from_pile or self.drawn is None:
            raise IllegalMove("only a draw from the discard pile can be undone")
        card = self.drawn
        self.hands[seat] &= ~card.bit
        self.pile.append(card)
        self.drawn, self.drawn_from_pile = None, False
        self.phase = Phase.DRAW
        self.events.append(Event(seat, Act.UNDO, card))

    def discard(self, seat: int, card: Card) -> None:
        """Discard a card; then gin ends the hand, or a knock may be offered."""
        self._expect(seat, Phase.DISCARD)
        card = Card(card)
        if not self.hands[seat] & card.bit:
            raise IllegalMove(f"{card} is not in seat {seat}'s hand")
        if self.drawn_from_pile and card == self.drawn:
            raise IllegalMove(f"{card} was just taken from the discard pile: it cannot be discarded this turn")
        self.hands[seat] &= ~card.bit
        self.pile.append(card)
        self.drawn, self.drawn_from_pile = None, False
        self.events.append(Event(seat, Act.DISCARD, card))
        dw = deadwood_mask(self.hands[seat])
        if dw == 0:
            self.events.append(Event(seat, Act.GIN))
            self._go_out(seat)
        elif self.can_knock(seat, dw):
            self.phase = Phase.KNOCK
        else:
            self._next_turn()

    def can_knock(self, seat: int, dw: int | None = None) -> bool:
        """Whether a knock is open to ``seat`` with its current ten cards."""
        if self.gin_only[seat] or self.knock_value == 0:
            return False
        return (self.deadwood(seat) if dw is None else dw) <= self.knock_value

    def knock(self, seat: int) -> Settlement:
        self._expect(seat, Phase.KNOCK)
        self.events.append(Event(seat, Act.KNOCK))
        self._go_out(seat)
        assert self.result is not None
        return self.result

    def play_on(self, seat: int) -> None:
        """Decline this knock; offered again after later discards."""
        self._expect(seat, Phase.KNOCK)
        self.events.append(Event(seat, Act.PLAY_ON))
        self._next_turn()

    def play_to_gin(self, seat: int) -> None:
        """Decline, and no more knock offers to this seat for the rest of the hand."""
        self._expect(seat, Phase.KNOCK)
        self.gin_only[seat] = True
        self.events.append(Event(seat, Act.PLAY_TO_GIN))
        self._next_turn()

    # ---- internals -----------------------------------------------------------------

    def _next_turn(self) -> None:
        self.to_move = 1 - self.to_move
        self.phase = Phase.DRAW

    def _go_out(self, seat: int) -> None:
        self._finish(settle_out(seat, (self.hands[0], self.hands[1]), self.options, self.upcard))

    def _finish(self, result: Settlement) -> None:
        self.result = result
        self.phase = Phase.OVER


_NEXT = {Phase.DRAW: "draw", Phase.DISCARD: "discard", Phase.KNOCK: "decide whether to knock"}


class Game:
    """Hands until a score reaches the limit (limit 0: exactly one hand, even a draw)."""

    def __init__(self, options: Options, rng: Rng, first: int = 0) -> None:
        self.options = options
        self.rng = rng
        self.first = first
        self.scores = [0, 0]
        self.results: list[Settlement] = []
        self.hand = HandState.deal(options, rng, self._first_of(0))

    def _first_of(self, hand_no: int) -> int:
        if self.options.first_turn is FirstTurn.ALTERNATE:
            return (self.first + hand_no) % 2
        return self.first

    @property
    def hands_played(self) -> int:
        return len(self.results)

    def record(self) -> Settlement:
        """Add the finished hand's points to the scores."""
        result = self.hand.result
        if result is None:
            raise IllegalMove("the hand is not over yet")
        if len(self.results) and self.results[-1] is result:
            raise IllegalMove("that hand is recorded already")
        self.results.append(result)
        if result.winner is not None:
            self.scores[result.winner] += result.points
        return result

    @property
    def over(self) -> bool:
        """Whether the game has ended (scores recorded up to the last finished hand)."""
        if not self.results:
            return False
        return max(self.scores) >= self.options.score_limit

    @property
    def winner(self) -> int | None:
        if not self.over or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1

    def next_hand(self) -> HandState:
        if self.hand.result is None or not self.results or self.results[-1] is not self.hand.result:
            raise IllegalMove("finish and record this hand first")
        if self.over:
            raise IllegalMove("the game is over")
        self.hand = HandState.deal(self.options, self.rng, self._first_of(len(self.results)))
        return self.hand

    def view(self, seat: int) -> View:
        return self.hand.view(seat, (self.scores[0], self.scores[1]))


__all__ = ["Act", "Event", "Game", "HandState", "IllegalMove", "Outcome", "Phase", "View"]
