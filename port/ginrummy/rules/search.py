"""Tree search on GinRummy's exact rules: a position stepped by the environments'
action numbers, cheap to clone, and ``sample_world``: a full state consistent with
what one seat has seen, the hidden cards drawn uniformly (docs/envs.md, "Search").

    >>> import random
    >>> from port.ginrummy.rules import Options
    >>> from port.ginrummy.rules.search import Position, sample_world
    >>> p = Position.deal(Options(score_limit=0), seed=20)
    >>> p.legal_actions()
    [0, 1]
    >>> q = p.clone(); q.step(0); p.legal_actions() == [0, 1]      # the copy moved, not p
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

def sample_world(view: View, rng: random.Random, episode: str = "hand") -> Position:
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
    ``rng`` is a ``random.Random``; it also seeds the game's generator for later hands."""
    me, opp = view.seat, 1 - view.seat
    options = view.options
    first = 1 - view.dealer
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
    upcard = None if options.deal_eleven else view.upcard     # the hand's first upcard
    # The stock draws in order (mine name their card; the other's are slots to fill),
    # and the other seat's discards that did not come from the pile (each from its
    # deal or from one of its stock draws before it).
    draws: list[Card | None] = []
    opp_draws = 0
    from_pile: set[Card] = set()
    needs: list[tuple[Card, int]] = []
    if not options.deal_eleven and upcard is None:
        raise ValueError("the view has no upcard: it is not a GinRummy hand's view")
    for e in events:
        if e.act is Act.DRAW_STOCK and e.seat == me and e.card is not None:
            draws.append(e.card)
        elif e.act is Act.DRAW_STOCK and e.seat == opp:
            draws.append(None)
            opp_draws += 1
        elif e.seat == opp and e.act is Act.DRAW_PILE and e.card is not None:
            from_pile.add(e.card)
        elif e.seat == opp and e.act is Act.UNDO and e.card is not None:
            from_pile.discard(e.card)
        elif e.seat == opp and e.act is Act.DISCARD and e.card is not None:
            if e.card in from_pile:
                from_pile.discard(e.card)
            else:
                needs.append((e.card, opp_draws))
    known = mine | {c for c in draws if c is not None} | ({upcard} if upcard is not None else set())
    unseen = [c for c in CARDS if c not in known]
    opp_dealt = HAND_SIZE + (1 if options.deal_eleven and first == opp else 0)
    mine_dealt = sorted(mine)
    for _ in range(TRIES):
        world = _candidate(view, rng, mine_dealt, opp_dealt, upcard, draws, needs, unseen, first, episode)
        if world is not None:
            return world
    raise ValueError(f"no deal consistent with seat {me}'s view was found in {TRIES} tries")


def _candidate(view: View, rng: random.Random, mine: list[Card], opp_dealt: int, upcard: Card | None,
               draws: list[Card | None], needs: list[tuple[Card, int]], unseen: list[Card], first: int,
               episode: str) -> Position | None:
    """One deal drawn uniformly under the card constraints, replayed; None when the
    rules would not have played the view's events on it."""
    me, opp = view.seat, 1 - view.seat
    # Slots: 0 .. opp_dealt-1 the other's deal, then its stock draws in order.
    slots: list[Card | None] = [None] * (opp_dealt + sum(1 for d in draws if d is None))
    placed: set[Card] = set()
    for card, before in needs:           # nested choices, fewest first: uniform
        free = [i for i in range(opp_dealt + before) if slots[i] is None]
        if not free:
            return None
        slots[rng.choice(free)] = card
        placed.add(card)
    rest = [c for c in unseen if c not in placed]
    rng.shuffle(rest)
    for i, s in enumerate(slots):
        if s is None:
            slots[i] = rest.pop()
    opp_cards = slots[:opp_dealt]
    opp_drawn = iter(slots[opp_dealt:])
    drawn = [d if d is not None else next(opp_drawn) for d in draws]
    # The deck, its last card the top: the stock left (the rest), the draws top first,
    # the upcard, then the deal one card at a time from ``first``.
    deal: list[Card] = []
    hands = {me: list(mine), opp: list(opp_cards)}
    for i in range(2 * HAND_SIZE):
        deal.append(hands[(first + i) % 2][i // 2])
    extra = [hands[first][HAND_SIZE]] if len(hands[first]) > HAND_SIZE else []
    deck = rest + drawn[::-1] + ([upcard] if upcard is not None else extra) + deal[::-1]
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
    world = Position(game, episode)
    if hand.view(me, view.scores, view.boxes) != view:
        return None
    return world


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
