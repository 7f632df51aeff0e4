"""The card table's flow, as the game screen shows it: plain logic, no pyxel.

The play screen turns keys and clicks into the calls below and draws what this holds;
the computer's moves are paced here, a step every ``PACE`` frames, "to simulate a more
realistic play in which you can see from where your opponent draws" (documentation).

    HUMAN_DRAW ──deck/pile──> HUMAN_DISCARD ──card──> (KNOCK_PROMPT) ──> COMPUTER
        ^                        │ undo (pile only)                        │ draw, discard,
        └────────────────────────┘                                         │ knock: paced
        └──────────────────────────────────────────────────────────────────┘
    any hand end ──> HAND_END ──continue──> next hand, or GAME_END

The table rules (issue 12) add, as the engine's phases say: the upcard offer
(UPCARD_OFFER: take, then discard as after a pile draw, or decline), the deal of 11's
opening discard (HUMAN_DISCARD with 11 cards and nothing drawn), a computer that deals
or moves first (the hand starts in COMPUTER), and a score sheet at the game's end.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from port.cards import Card, Rng, sort_key_rank, sort_key_suit
from port.ginrummy.rules import Act, Game, HandState, IllegalMove, Options, Phase, Settlement, View
from port.ginrummy.rules.scoring import ScoreSheet
from port.ginrummy.rules.melds import arrange
from port.ginrummy.computer import hint
from port.ginrummy.rules.players import Draw, Player, step
from port.ginrummy import record
from port.files.gamerecord import Meta

HUMAN, COMPUTER = 0, 1
NO_DECK_UNDO = "A card drawn from the deck cannot be undone."
PACE = 12            # frames between the computer's visible steps (0.4 s at 30 fps)


class Mode(Enum):
    UPCARD_OFFER = "the upcard offer"      # take or decline the first upcard (a table rule)
    HUMAN_DRAW = "your draw"
    HUMAN_DISCARD = "your discard"
    KNOCK_PROMPT = "knock?"
    COMPUTER = "computer"
    HAND_END = "hand end"
    GAME_END = "game end"


@dataclass(frozen=True)
class Shown:
    """The human's hand in screen order, with its bars: the least-deadwood arrangement's
    sets (blue) and runs (green) first, then the unmatched cards by the SORT option."""

    cards: tuple[Card, ...]
    sets: frozenset[Card]
    runs: frozenset[Card]
    groups: tuple[tuple[Card, ...], ...]     # each meld, in screen order (one bar each)


def sort_key(sort: str) -> Callable[[int], tuple[int, int]]:
    """The SORT option's order for unmatched cards: by RANK or by SUIT."""
    return sort_key_suit if sort == "SUIT" else sort_key_rank


def result_order(r: Settlement, seat: int, sort: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A hand as the hand's end lays it out: its melds, then the cards it laid off on the
    knocker's melds, then its deadwood in the SORT order (as while playing)."""
    laid = tuple(r.layoffs) if r.knocker is not None and seat != r.knocker else ()
    loose = tuple(sorted(r.deadwood_cards[seat], key=sort_key(sort)))
    return tuple(c for m in r.melds[seat] for c in m) + laid + loose, laid


def shown_hand(cards: list[Card], sort: str, order: tuple[Card, ...] | None = None) -> Shown:
    """The hand as the screen lays it out: with no ``order``, the original's (melds first,
    then the unmatched cards by SORT); with one, the player's own arrangement (cards it
    does not name, newly drawn ones, go on the right). The bars always show the
    least-deadwood melds, wherever their cards stand."""
    arr = arrange(cards)
    groups = [tuple(sorted(s, key=lambda c: c.suit)) for s in arr.sets]
    groups += [tuple(sorted(r, key=lambda c: c.rank)) for r in arr.runs]
    if order is None:
        loose = sorted(arr.deadwood_cards, key=sort_key(sort))
        shown = tuple(c for g in groups for c in g) + tuple(loose)
    else:
        held = set(cards)
        named = [c for c in order if c in held]
        shown = tuple(named) + tuple(c for c in cards if c not in set(named))
    return Shown(shown, frozenset(c for s in arr.sets for c in s),
                 frozenset(c for r in arr.runs for c in r), tuple(groups))


def hint_target(view: View) -> object:
    """What the YELLOW bar marks for a hint on ``view``: "take" or "decline" (the upcard
    offer), "pile" or "deck", the card to discard, or the knock choice."""
    h = hint(view)
    if h.offer is not None:
        return "take" if h.offer else "decline"
    if h.draw is not None:
        return "pile" if h.draw is Draw.PILE else "deck"
    return h.discard if h.discard is not None else h.knock


ARRANGEMENTS = ("RANK", "SUIT", "MELDS")


class Arranging:
    """Arranging your own hand, the same on every table the game screen draws (against
    the computer, or a person in the card room): the host gives ``mode`` and ``shown()``.

    "sort by rank" and "sort by suit" buttons (004), a "sort" that puts the melds on the
    left and the deadwood on the right (001), and "click on card A first, and then on
    Card B, then Card A will be placed just on the right of Card B" (001)."""

    mode: Mode
    order: tuple[Card, ...] | None
    arranging: bool
    picked: Card | None

    def shown(self) -> Shown:
        raise NotImplementedError

    def can_arrange(self) -> bool:
        return self.mode in (Mode.UPCARD_OFFER, Mode.HUMAN_DRAW, Mode.HUMAN_DISCARD, Mode.COMPUTER,
                             Mode.KNOCK_PROMPT)

    def arrange_by(self, how: str) -> bool:
        """RANK or SUIT: the whole hand in that order, kept until the next sort or hand;
        MELDS: back to the original's layout, melds on the left."""
        if how not in ARRANGEMENTS or not self.can_arrange():
            return False
        if how == "MELDS":
            self.order = None
        else:
            self.order = tuple(sorted(self.shown().cards, key=sort_key(how)))
        self.picked = None
        return True

    def toggle_arranging(self) -> bool:
        if not self.can_arrange():
            return False
        self.arranging = not self.arranging
        self.picked = None
        return True

    def choose_to_arrange(self, index: int) -> bool:
        """While arranging: the first card chosen is picked, the second is the one it
        goes just right of (choosing the picked card again puts it down)."""
        cards = self.shown().cards
        if not self.arranging or not 0 <= index < len(cards):
            return False
        card = cards[index]
        if self.picked is None:
            self.picked = card
        elif self.picked == card:
            self.picked = None
        else:
            self.move_after(self.picked, card)
            self.picked = None
        return True

    def move_after(self, a: Card, b: Card) -> bool:
        """Card A to just right of card B, both in the shown hand."""
        cards = list(self.shown().cards)
        if a not in cards or b not in cards or a == b:
            return False
        cards.remove(a)
        cards.insert(cards.index(b) + 1, a)
        self.order = tuple(cards)
        return True


class Table(Arranging):
    """One game against the computer, from the human's seat (seat 0: first to move
    unless a table rule deals otherwise)."""

    def __init__(self, options: Options, computer: Player, rng: Rng, sort: str = "RANK") -> None:
        # The engine decides who deals (the original: the computer, so that "you always
        # go first"; the table rules: at random, then the winner).
        self.options = options
        self.computer = computer
        self.rng = rng
        self.sort = sort
        self.seed: int | None = getattr(rng, "seed", None)   # before the deal: the record's seed
        self.game = Game(options, rng, first=HUMAN)
        # Each hand as dealt (a copy before its first move) and as it ended: the record.
        self.dealt: list[HandState] = []
        self.ended: list[HandState] = []
        self.message = ""
        self.hint_target: object = None         # "deck", "pile", a Card, or a KnockChoice
        self.computer_took_pile = False         # the RED bar over the pile
        # Arranging your own hand (a table rule from other programs): a manual order,
        # or None for the original's melds-first layout; and, while ARRANGE is on, the
        # card picked to move (the next card chosen is the one it goes after).
        self.order: tuple[Card, ...] | None = None
        self.arranging = False
        self.picked: Card | None = None
        self._wait = 0
        self._seen_events = 0
        self._begin_hand()

    # ---- reading -------------------------------------------------------------------

    @property
    def hand(self):  # noqa: ANN201 - the HandState
        return self.game.hand

    @property
    def scores(self) -> tuple[int, int]:
        return self.game.scores[0], self.game.scores[1]

    @property
    def result(self) -> Settlement | None:
        return self.hand.result

    @property
    def boxes(self) -> tuple[int, int]:
        return self.game.boxes[0], self.game.boxes[1]

    @property
    def dealer(self) -> int:
        return self.hand.dealer

    @property
    def opening(self) -> bool:
        """The deal of 11: your first discard starts the pile (nothing drawn before it)."""
        return self.mode is Mode.HUMAN_DISCARD and self.hand.opening

    def sheet(self) -> ScoreSheet:
        return self.game.sheet()

    @property
    def opponent_cards(self) -> int:
        """How many cards the computer holds (its backs on the table)."""
        return self.hand.hands[COMPUTER].bit_count()

    @property
    def sheet_shown(self) -> bool:
        """Whether the game's end shows the SCORE SHEET: under any scoring but the
        original's running total, or with the shutout doubler (the original's game
        end is unchanged)."""
        return self.options.scoring != "TOTAL" or self.options.shutout

    def shown(self) -> Shown:
        """The human's ten held cards (the drawn card is shown apart while discarding)."""
        cards = self.hand.hand(HUMAN)
        if self.mode is Mode.HUMAN_DISCARD and self.hand.drawn is not None:
            cards = [c for c in cards if c != self.hand.drawn]
        return shown_hand(cards, self.sort, self.order)

    @property
    def drawn(self) -> Card | None:
        return self.hand.drawn if self.mode is Mode.HUMAN_DISCARD else None

    @property
    def drawn_from_pile(self) -> bool:
        return self.mode is Mode.HUMAN_DISCARD and self.hand.drawn_from_pile

    # ---- the human's actions ---------------------------------------------------------
    # Each returns True when it did something; an action that does not fit the moment
    # is ignored (a click on the deck while discarding does nothing, as in the original).

    def draw_deck(self) -> bool:
        if self.mode is not Mode.HUMAN_DRAW:
            return False
        self._clear_marks()
        if self.hand.draw_stock(HUMAN).over:         # two cards left: a draw hand
            self._after_human_move()
            return True
        self.mode = Mode.HUMAN_DISCARD
        return True

    def draw_pile(self) -> bool:
        if self.mode is not Mode.HUMAN_DRAW or not self.hand.pile:
            return False
        self._clear_marks()
        try:
            self.hand.draw_pile(HUMAN)
        except IllegalMove as refused:       # both declined the upcard: the stock only
            self.message = f"{refused.reason}."
            return False
        self.mode = Mode.HUMAN_DISCARD
        return True

    # ---- the upcard offer (001: take the first upcard or decline it) ----------------

    def take_upcard(self) -> bool:
        if self.mode is not Mode.UPCARD_OFFER:
            return False
        self._clear_marks()
        self.hand.take_upcard(HUMAN)
        self.mode = Mode.HUMAN_DISCARD
        return True

    def decline_upcard(self) -> bool:
        if self.mode is not Mode.UPCARD_OFFER:
            return False
        self._clear_marks()
        self.hand.decline_upcard(HUMAN)
        self._after_human_move()
        return True

    def declined_by_computer(self) -> bool:
        """Whether the computer has declined this hand's upcard (said on screen)."""
        return any(e.seat == COMPUTER and e.act is Act.DECLINE for e in self.hand.events)

    def undo(self) -> bool:
        """Put a pile card back. A deck card stays in hand, and the message area says why:
        "You cannot UNDO a draw from the deck" (documentation)."""
        if self.mode is not Mode.HUMAN_DISCARD or self.hand.drawn is None:
            return False                     # (the deal of 11's opening: nothing was drawn)
        if not self.hand.drawn_from_pile:
            self.message = NO_DECK_UNDO
            return False
        self.hand.undo_draw(HUMAN)
        self.hint_target = None
        # back to the draw, or to the upcard offer when the offered upcard was taken
        self.mode = Mode.UPCARD_OFFER if self.hand.phase is Phase.UPCARD_OFFER else Mode.HUMAN_DRAW
        return True

    def discard_drawn(self) -> bool:
        """Throw back the card just drawn (a pile card is refused: undo instead)."""
        if self.mode is not Mode.HUMAN_DISCARD:
            return False
        return self.discard(self.hand.drawn)

    def discard_at(self, index: int) -> bool:
        """Discard the card at a position of the shown hand (keys 1..9, 0 = 10th)."""
        cards = self.shown().cards
        if self.mode is not Mode.HUMAN_DISCARD or not 0 <= index < len(cards):
            return False
        return self.discard(cards[index])

    def discard(self, card: Card | None) -> bool:
        if self.mode is not Mode.HUMAN_DISCARD or card is None:
            return False
        try:
            self.hand.discard(HUMAN, card)
        except IllegalMove as refused:       # the rules say why: show it, change nothing
            # The reason alone ("KH was just taken ..."): the screen says who is acting.
            reason = refused.reason
            self.message = f"{reason}. UNDO to put it back." if self.hand.drawn_from_pile else reason
            return False
        self.hint_target = None
        self._after_human_move()
        return True

    def knock(self) -> bool:
        if self.mode is not Mode.KNOCK_PROMPT:
            return False
        self.hand.knock(HUMAN)
        self._after_human_move()
        return True

    def play_on(self) -> bool:
        if self.mode is not Mode.KNOCK_PROMPT:
            return False
        self.hand.play_on(HUMAN)
        self._after_human_move()
        return True

    def play_to_gin(self) -> bool:
        if self.mode is not Mode.KNOCK_PROMPT:
            return False
        self.hand.play_to_gin(HUMAN)
        self._after_human_move()
        return True

    def ask_hint(self) -> bool:
        """The YELLOW bar: the pile or deck to draw, the card to discard, or the knock."""
        if self.mode not in (Mode.UPCARD_OFFER, Mode.HUMAN_DRAW, Mode.HUMAN_DISCARD, Mode.KNOCK_PROMPT):
            return False
        self.hint_target = hint_target(self.game.view(HUMAN))
        return True

    def next_hand(self) -> bool:
        """Leave the hand-end display: the next hand, or the game's end."""
        if self.mode is not Mode.HAND_END:
            return False
        if self.game.over:
            self.mode = Mode.GAME_END
        else:
            self.game.next_hand()
            self._begin_hand()
        return True

    def redeal(self, deck: list[Card], first: int = HUMAN, knock_card: Card | None = None) -> None:
        """Start the current hand again from a given deck (its last card on top): for
        tests and set positions. Scores and finished hands stay. ``first`` moves first
        (the other deals); ``knock_card`` is the knock deck's card (that rule on: the
        one turned at the deal if None)."""
        if self.options.knock_deck and knock_card is None:
            knock_card = self.hand.knock_card
        self.game.hand = HandState(self.options, deck, first=first, knock_card=knock_card)
        self._begin_hand()

    # ---- the computer, one paced step per call of tick() ------------------------------

    def tick(self) -> None:
        """Advance one frame: the computer makes its next visible step when due."""
        if self.mode is not Mode.COMPUTER:
            return
        if self._wait > 0:
            self._wait -= 1
            return
        self._computer_step()
        self._wait = PACE

    def _computer_step(self) -> None:
        h = self.hand
        self._feed()
        step(h, self.computer, self.game.view(COMPUTER))
        last = h.events[-1]
        if last.seat == COMPUTER and last.act is Act.DRAW_PILE:
            self.computer_took_pile = True
        self._feed()
        if h.phase is Phase.OVER:
            self._end_hand()
        elif h.to_move == HUMAN:
            self.mode = self._human_mode()

    # ---- internals -----------------------------------------------------------------

    def _human_mode(self) -> Mode:
        """The human's mode for the engine's phase, the human being to move."""
        return {Phase.UPCARD_OFFER: Mode.UPCARD_OFFER, Phase.DISCARD: Mode.HUMAN_DISCARD,
                Phase.KNOCK: Mode.KNOCK_PROMPT}.get(self.hand.phase, Mode.HUMAN_DRAW)

    def record_text(self, meta: Meta) -> str:
        """The game so far as a record (docs/records.md): its finished hands."""
        return record.write(self.options, meta, list(zip(self.dealt, self.ended)))

    def _begin_hand(self) -> None:
        # the hand as dealt (a redeal replaces the hand not yet played)
        self.dealt[self.game.hands_played:] = [self.hand.copy()]
        self.mode = self._human_mode() if self.hand.to_move == HUMAN else Mode.COMPUTER
        self.order = None                 # "A manual order stays until ... the next hand"
        self.picked = None
        self.message = ""
        self.hint_target = None
        self.computer_took_pile = False
        self._seen_events = 0
        self._wait = PACE
        self.computer.begin_hand(self.game.view(COMPUTER))

    def _clear_marks(self) -> None:
        self.hint_target = None
        self.computer_took_pile = False      # "until the next turn"
        self.message = ""

    def _feed(self) -> None:
        """Tell the computer the public events it has not heard yet."""
        events = self.hand.view(COMPUTER).events
        for e in events[self._seen_events:]:
            self.computer.observe(e)
        self._seen_events = len(events)

    def _after_human_move(self) -> None:
        h = self.hand
        if h.phase is Phase.OVER:
            self._feed()
            self._end_hand()
        elif h.to_move == COMPUTER:
            self.mode = Mode.COMPUTER
            self._wait = PACE
        else:
            self.mode = self._human_mode()

    def _end_hand(self) -> None:
        result = self.game.record()
        self.ended.append(self.hand)
        self.computer.end_hand(self.game.view(COMPUTER), result)
        self.hint_target = None
        self.mode = Mode.HAND_END
