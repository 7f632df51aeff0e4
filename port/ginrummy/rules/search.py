"""Tree search on GinRummy's exact rules: a position stepped by the environments'
action numbers, cheap to clone, and ``sample_world``: a full state consistent with
what one seat has seen, the hidden cards drawn uniformly (docs/envs.md, "Search").

    >>> import random
    >>> from port.ginrummy.rules import Options
    >>> from port.ginrummy.rules.search import Position, sample_world
    >>> p = Position.deal(Options(score_limit=0), seed=20)
    >>> p.legal_actions()
    [0, 1]
    >>> q = p.clone(); _ = q.step(0); p.legal_actions() == [0, 1]  # the copy moved, not p
    True
    >>> w = sample_world(p.view(1), random.Random(1))               # seat 1's guess at seat 0's hand
    >>> w.view(1) == p.view(1)
    True

The action numbers are the environments' (``port.ginrummy.spaces``): 0 draw from the
stock (under the upcard offer: decline it), 1 draw the pile (take the upcard), 2 + c
discard card c, 54 knock, 55 play on, 56 play to gin. Plain Python, no numpy: the
rules core stays small.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from port.cards import CARDS, Card, PascalRandom, cards_of
from port.checks import IllegalMove
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.state import HAND_SIZE, Act, Game, HandState, Move, Phase, View

DRAW_STOCK, DRAW_PILE = 0, 1
DISCARD0 = 2
KNOCK, PLAY_ON, PLAY_TO_GIN = 54, 55, 56
N_ACTIONS = 57
EPISODES = ("hand", "game")
TRIES = 20000      # candidate worlds sample_world draws before it gives up on a view


class Position:
    """A game of GinRummy for search: ``legal_actions()``, ``step(action)``,
    ``clone()``, ``returns()``. ``episode="hand"`` ends with the hand (returns: its
    points, + to the winner, - to the other); ``"game"`` plays hands to the score
    limit (returns: the score sheet's final difference), each hand dealt from the
    game's own generator. A finished hand is recorded at once."""

    __slots__ = ("game", "episode")

    def __init__(self, game: Game, episode: str = "hand") -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        self.game = game
        self.episode = episode

    @classmethod
    def deal(cls, options: Options, seed: int, episode: str = "hand", first: int = 0) -> Position:
        """A new game dealt by ``PascalRandom(seed)``: a game record's ``Seed:`` deals
        the same cards here."""
        return cls(Game(options, PascalRandom(seed), first), episode)

    @property
    def hand(self) -> HandState:
        return self.game.hand

    def clone(self) -> Position:
        return Position(self.game.clone(), self.episode)

    def __deepcopy__(self, memo: dict) -> Position:
        # OpenSpiel copies a Python game's state attribute by attribute with deepcopy:
        # this makes that the cheap clone (an independent copy all the same).
        return self.clone()

    @property
    def terminal(self) -> bool:
        if self.game.hand.phase is not Phase.OVER:
            return False
        return self.episode == "hand" or self.game.over

    def to_move(self) -> int | None:
        """The seat to move, None once the episode is over."""
        return None if self.terminal else self.game.hand.to_move

    def view(self, seat: int) -> View:
        return self.game.view(seat)

    def legal_actions(self) -> list[int]:
        """The legal action numbers now, in increasing order (none once over)."""
        h = self.game.hand
        phase = h.phase
        if phase is Phase.DRAW:
            return [DRAW_STOCK, DRAW_PILE] if h.pile and not h.stock_only else [DRAW_STOCK]
        if phase is Phase.DISCARD:
            mask = h.hands[h.to_move]
            if h.drawn_from_pile and h.drawn is not None:
                mask &= ~h.drawn.bit
            return [DISCARD0 + c for c in cards_of(mask)]
        if phase is Phase.KNOCK:
            return [KNOCK, PLAY_ON, PLAY_TO_GIN]
        if phase is Phase.UPCARD_OFFER:
            return [DRAW_STOCK, DRAW_PILE]
        return []

    def step(self, action: int) -> Move:
        """Make the move numbered ``action`` for the seat to move. An illegal one raises
        ``IllegalMove`` and changes nothing. A hand that ends is recorded; in a "game"
        episode the next hand is dealt."""
        if self.terminal:
            raise IllegalMove("the episode is over: there is no move to make")
        h = self.game.hand
        seat, phase = h.to_move, h.phase
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMove(f"an action is a whole number from 0 to {N_ACTIONS - 1}, not {action!r}")
        if phase is Phase.UPCARD_OFFER and action in (DRAW_STOCK, DRAW_PILE):
            move = h.take_upcard(seat) if action == DRAW_PILE else h.decline_upcard(seat)
        elif phase is Phase.DRAW and action == DRAW_STOCK:
            move = h.draw_stock(seat)
        elif phase is Phase.DRAW and action == DRAW_PILE:
            move = h.draw_pile(seat)
        elif phase is Phase.DISCARD and DISCARD0 <= action < DISCARD0 + 52:
            move = h.discard(seat, Card(action - DISCARD0))
        elif phase is Phase.KNOCK and action == KNOCK:
            move = h.knock(seat)
        elif phase is Phase.KNOCK and action == PLAY_ON:
            move = h.play_on(seat)
        elif phase is Phase.KNOCK and action == PLAY_TO_GIN:
            move = h.play_to_gin(seat)
        else:
            raise IllegalMove(f"action {action} is not legal now (seat {seat} is to {phase.value}; "
                              f"legal: {self.legal_actions()})")
        if h.phase is Phase.OVER:
            self.game.record()
            if self.episode == "game" and not self.game.over:
                self.game.next_hand()
        return move

    def returns(self) -> tuple[float, float]:
        """Each seat's points, zero-sum: the hand's (episode "hand"), or the score
        sheet's totals less the other's (episode "game"; so far, until it is over)."""
        if self.episode == "hand":
            r = self.game.hand.result
            if r is None or r.winner is None:
                return (0.0, 0.0)
            return (float(r.points), -float(r.points)) if r.winner == 0 else (-float(r.points), float(r.points))
        totals = self.game.sheet().totals if self.game.over else self.game.scores
        d = float(totals[0] - totals[1])
        return (d, -d)


# ---- sample_world ------------------------------------------------------------------

def sample_world(view: View, rng: random.Random, episode: str = "hand", world: Position | None = None,
                 tries: int = TRIES) -> Position:
    """A full state consistent with everything ``view``'s seat has seen, the cards it
    has not seen drawn uniformly among the deals consistent with it: the other hand
    (the cards it took from the pile stay in it; a card it discarded came from its
    deal or from one of its stock draws before that discard) and the stock's order.

    Deals are drawn exactly uniformly under the card constraints, then the hand's
    public events are replayed through the engine, and a deal the rules would have
    played otherwise (a gin the other hand would have had, a knock question it was or
    was not asked) is drawn again: so the sample is uniform among the consistent
    deals. Its ``view(seat)`` equals ``view``. Scores and boxes are the view's (a
    Hollywood game's three columns are not in a view: its first column takes them).
    ``rng`` is a ``random.Random``; it also seeds the game's generator for later hands.

    A knock question the other seat answered with play on says its ten cards had
    little deadwood: few deals pass that, and ``tries`` draws may find none. Given
    ``world`` (a state known to be consistent with the view: the true one, in a search
    that holds it), the sample is then the end of a Metropolis chain from it (swaps of
    two hidden cards, kept when the rules replay the view's events on them): its
    stationary distribution is the same uniform one, approached rather than exact.
    Without ``world`` a ``ValueError`` says no deal was found."""
    frame = _Frame(view)
    for _ in range(tries):
        found = frame.build(frame.draw(rng), rng, episode)
        if found is not None:
            return found
    if world is None:
        raise ValueError(f"no deal consistent with seat {view.seat}'s view was found in {tries} tries")
    return frame.chain(frame.cards_of(world), rng, episode)


CHAIN = 40          # swaps a Metropolis chain proposes before its state is taken


class _Frame:
    """What a view fixes of the deal: the seat's own cards as dealt, the upcard, the
    stock draws in order (the seat's own name their card; the other's are slots), and
    the other seat's discards that did not come from the pile (each from its deal or
    from one of its stock draws before it)."""

    def __init__(self, view: View) -> None:
        self.view = view
        me, opp = view.seat, 1 - view.seat
        options = view.options
        self.first = 1 - view.dealer
        events = view.events
        # My cards as dealt: the hand now, less what I drew, plus what I discarded or put back.
        mine = set(view.hand)
        for e in reversed(events):
            if e.seat != me or e.card is None:
                continue
            if e.act in (Act.DRAW_STOCK, Act.DRAW_PILE):
                mine.discard(e.card)
            elif e.act in (Act.DISCARD, Act.UNDO):
                mine.add(e.card)
        self.upcard = None if options.deal_eleven else view.upcard     # the hand's first upcard
        if not options.deal_eleven and self.upcard is None:
            raise ValueError("the view has no upcard: it is not a GinRummy hand's view")
        self.draws: list[Card | None] = []
        opp_draws = 0
        from_pile: set[Card] = set()
        self.needs: list[tuple[Card, int]] = []
        for e in events:
            if e.act is Act.DRAW_STOCK and e.seat == me and e.card is not None:
                self.draws.append(e.card)
            elif e.act is Act.DRAW_STOCK and e.seat == opp:
                self.draws.append(None)
                opp_draws += 1
            elif e.seat == opp and e.act is Act.DRAW_PILE and e.card is not None:
                from_pile.add(e.card)
            elif e.seat == opp and e.act is Act.UNDO and e.card is not None:
                from_pile.discard(e.card)
            elif e.seat == opp and e.act is Act.DISCARD and e.card is not None:
                if e.card in from_pile:
                    from_pile.discard(e.card)
                else:
                    self.needs.append((e.card, opp_draws))
        known = mine | {c for c in self.draws if c is not None} | ({self.upcard} if self.upcard else set())
        self.unseen = [c for c in CARDS if c not in known]
        self.opp_dealt = HAND_SIZE + (1 if options.deal_eleven and self.first == opp else 0)
        self.opp_slots = self.opp_dealt + opp_draws
        self.mine = sorted(mine)
        # Where each needed card may be: a slot of the other's deal or an earlier draw.
        self.allowed = {c: self.opp_dealt + before for c, before in self.needs}

    def draw(self, rng: random.Random) -> list[Card]:
        """The hidden cards, drawn uniformly under the card constraints: the other's
        deal, its stock draws in order, then the stock left (bottom first)."""
        slots: list[Card | None] = [None] * self.opp_slots
        placed: set[Card] = set()
        for card, before in self.needs:           # nested choices, fewest first: uniform
            free = [i for i in range(self.opp_dealt + before) if slots[i] is None]
            slots[rng.choice(free)] = card
            placed.add(card)
        rest = [c for c in self.unseen if c not in placed]
        rng.shuffle(rest)
        for i, s in enumerate(slots):
            if s is None:
                slots[i] = rest.pop()
        return slots + rest                        # type: ignore[operator]

    def cards_of(self, world: Position) -> list[Card]:
        """The hidden cards of a state, laid out as ``draw`` lays them out."""
        h, me, opp = world.hand, self.view.seat, 1 - self.view.seat
        held = set(cards_of(h.hands[opp]))
        drawn: list[Card] = []
        for e in reversed(h.events):
            if e.seat != opp or e.card is None:
                continue
            if e.act in (Act.DRAW_STOCK, Act.DRAW_PILE):
                held.discard(e.card)
            elif e.act in (Act.DISCARD, Act.UNDO):
                held.add(e.card)
        drawn = [e.card for e in h.events if e.seat == opp and e.act is Act.DRAW_STOCK and e.card is not None]
        assert me in (0, 1)
        return sorted(held) + drawn + list(h.stock)

    def fits(self, cards: list[Card]) -> bool:
        """The needed cards are where they may be."""
        at = {c: i for i, c in enumerate(cards[:self.opp_slots])}
        return all(at.get(c, self.opp_slots) < limit for c, limit in self.allowed.items())

    def build(self, cards: list[Card], rng: random.Random, episode: str) -> Position | None:
        """The state of these hidden cards, replayed; None when the rules would not
        have played the view's events on it."""
        view = self.view
        me, opp, first = view.seat, 1 - view.seat, self.first
        opp_cards = cards[:self.opp_dealt]
        opp_drawn = iter(cards[self.opp_dealt:self.opp_slots])
        rest = cards[self.opp_slots:]
        drawn = [d if d is not None else next(opp_drawn) for d in self.draws]
        # The deck, its last card the top: the stock left, the draws top first, the
        # upcard (or the deal of eleven's extra card), then the deal from ``first``.
        hands = {me: self.mine, opp: opp_cards}
        deal = [hands[(first + i) % 2][i // 2] for i in range(2 * HAND_SIZE)]
        extra = [hands[first][HAND_SIZE]] if len(hands[first]) > HAND_SIZE else []
        deck = list(rest) + drawn[::-1] + ([self.upcard] if self.upcard is not None else extra) + deal[::-1]
        knock_card = view.knock_card if view.options.knock_deck else None
        hand = HandState(view.options, deck, first, knock_card)
        game = Game(view.options, PascalRandom(rng.getrandbits(32)), first, hand=hand)
        game.scores, game.boxes = list(view.scores), list(view.boxes)
        game.column_points[0], game.column_boxes[0] = list(view.scores), list(view.boxes)
        if any(view.scores):
            game.column_hands[0] = 1
        try:
            _replay(hand, view.events)
        except IllegalMove:
            return None
        if hand.view(me, view.scores, view.boxes) != view:
            return None
        return Position(game, episode)

    def chain(self, cards: list[Card], rng: random.Random, episode: str) -> Position:
        """A Metropolis chain of swaps from consistent hidden cards (see ``sample_world``)."""
        current = self.build(cards, rng, episode)
        if current is None:
            raise ValueError("the world given is not consistent with the view")
        n = len(cards)
        for _ in range(CHAIN):
            i, j = rng.randrange(n), rng.randrange(n)
            if i == j or (i >= self.opp_slots and j >= self.opp_slots):
                continue            # two cards of the stock left: the same deal to the rules
            cards[i], cards[j] = cards[j], cards[i]
            moved = self.build(cards, rng, episode) if self.fits(cards) else None
            if moved is None:
                cards[i], cards[j] = cards[j], cards[i]
            else:
                current = moved
        rest = cards[self.opp_slots:]
        rng.shuffle(rest)           # the stock left: any order is as consistent as any other
        final = self.build(cards[:self.opp_slots] + rest, rng, episode)
        return final if final is not None else current


def _replay(hand: HandState, events: Sequence[object]) -> None:
    """Make the events' moves on a fresh hand (the engine adds gin, and the drawn hand
    after the pile's long run, itself); ``IllegalMove`` when the rules would not allow one."""
    for e in events:
        act, seat, card = e.act, e.seat, e.card          # type: ignore[attr-defined]
        if act is Act.GIN or (act is Act.DRAW_HAND and hand.phase is Phase.OVER):
            continue
        if hand.phase is Phase.OVER:
            raise IllegalMove("the hand ended before the view's last event")
        if act is Act.DRAW_STOCK or act is Act.DRAW_HAND:     # with two left: a draw hand

            if hand.to_move != seat:
                raise IllegalMove("not its turn")
            hand.draw_stock(seat)
        elif act is Act.DRAW_PILE:
            if hand.phase is Phase.UPCARD_OFFER:
                hand.take_upcard(seat)
            else:
                hand.draw_pile(seat)
        elif act is Act.DECLINE:
            hand.decline_upcard(seat)
        elif act is Act.UNDO:
            hand.undo_draw(seat)
        elif act is Act.DISCARD:
            hand.discard(seat, card)
        elif act is Act.KNOCK:
            hand.knock(seat)
        elif act is Act.PLAY_ON:
            hand.play_on(seat)
        elif act is Act.PLAY_TO_GIN:
            hand.play_to_gin(seat)


__all__ = ["DISCARD0", "DRAW_PILE", "DRAW_STOCK", "KNOCK", "N_ACTIONS", "PLAY_ON", "PLAY_TO_GIN",
           "Position", "sample_world"]
