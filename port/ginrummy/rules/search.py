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

import math
import random
from collections.abc import Sequence

from port.cards import CARDS, Card, PascalRandom, cards_of
from port.checks import IllegalMove
from port.ginrummy.rules.melds import deadwood_mask
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.state import HAND_SIZE, Act, Game, HandState, Move, Phase, View

DRAW_STOCK, DRAW_PILE = 0, 1
DISCARD0 = 2
KNOCK, PLAY_ON, PLAY_TO_GIN = 54, 55, 56
N_ACTIONS = 57
EPISODES = ("hand", "game")
TRIES = 20000      # candidate deals sample_world draws before it takes the chain
_BIT = tuple(c.bit for c in CARDS)


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

def sample_world(view: View, rng: random.Random, episode: str = "hand", tries: int = TRIES) -> Position:
    """A full state consistent with everything ``view``'s seat has seen, the cards it
    has not seen drawn uniformly among the deals consistent with it: the other hand
    (the cards it took from the pile stay in it; a card it discarded came from its
    deal or from one of its stock draws before that discard) and the stock's order.

    Deals are drawn exactly uniformly under the card constraints, and a deal the rules
    would have played otherwise (a gin the other hand would have had, a knock question
    it was or was not asked) is drawn again: so the sample is uniform among the
    consistent deals. The knock questions are checked first on the other hand's cards
    alone (a few deadwood counts), then the hand's public events are replayed through
    the engine. Its ``view(seat)`` equals ``view``. Scores and boxes are the view's (a
    Hollywood game's three columns are not in a view: its first column takes them).
    ``rng`` is a ``random.Random``; it also seeds the game's generator for later hands.

    Only the view is read: no sampler is given the true state (a search that holds it
    would search worlds near the real one). A knock question the other seat answered
    with play on says its ten cards had little deadwood, and few deals pass that: when
    ``tries`` draws find none, the sample is the end of a Metropolis chain (swaps of
    two hidden cards, kept when the view's events still follow) started from a deal
    found from the view alone and run ``MIX`` swaps: its stationary distribution is
    the same uniform one, approached rather than exact (docs/envs.md, "Search"). A
    ``ValueError`` says when no consistent deal was found at all."""
    found = exact_world(view, rng, episode, tries)
    return found if found is not None else chained_world(view, rng, episode)


def exact_world(view: View, rng: random.Random, episode: str = "hand", tries: int = TRIES) -> Position | None:
    """``sample_world``'s exact draws alone: a consistent deal drawn uniformly, or None
    when ``tries`` draws found none."""
    frame = _Frame(view)
    for _ in range(tries):
        cards = frame.draw(rng, asked=True)
        if cards is None or frame.misfit(cards, 1):
            continue
        found = frame.build(cards, rng, episode)
        if found is not None:
            return found
    return None


def chained_world(view: View, rng: random.Random, episode: str = "hand", mix: int | None = None) -> Position:
    """``sample_world``'s chain alone: the end of ``mix`` (default ``MIX``) Metropolis
    swaps from a consistent deal found from the view alone."""
    return _Frame(view).chain(rng, episode, MIX if mix is None else mix)


MIX = 2000          # swaps a Metropolis chain proposes after it first reaches a consistent deal
SEARCH = 20000      # swaps the search for a first consistent deal proposes before giving up
_FAR = 1000         # a misfit that no swap of knock-question cards mends: a card not held
# The search's odds of taking a step d points further off, at three temperatures in
# turn: a search that got nowhere at one tries again at the next. On hard play-on
# views (STANDARD against STANDARD, exact draws failing; two samples) a search failed
# 6% and 15% of the time at 1.5, 12% and 27% at 3, 33% at 6, 33% at 1 and 45% at 0.5
# (docs/envs.md): hence these. The
# third and twelve more searches were added when a view of an ISMCTS run met no start
# in twelve searches at the first two and no deal in the exact draws after them.
_UPHILL = tuple([math.exp(-d / t) for d in range(8)] for t in (1.5, 3.0, 2.0))
STARTS = 24         # searches for a first consistent deal before exact draws again
LAST_TRIES = 2_000_000   # the exact draws (seconds) after a chain found no start


class _Frame:
    """What a view fixes of the deal: the seat's own cards as dealt, the upcard, the
    stock draws in order (the seat's own name their card; the other's are slots), and
    the other seat's discards that did not come from the pile (each from its deal or
    from one of its stock draws before it); and the other hand's moves in order, with
    what the rules then asked of it (gin, a knock question, nothing)."""

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
        known = mine | {c for c in self.draws if c is not None} | ({self.upcard} if self.upcard is not None else set())
        self.unseen = [c for c in CARDS if c not in known]
        self.opp_dealt = HAND_SIZE + (1 if options.deal_eleven and self.first == opp else 0)
        self.opp_slots = self.opp_dealt + opp_draws
        self.mine = sorted(mine)
        # Where each needed card may be: a slot of the other's deal or an earlier draw.
        self.allowed = {c: self.opp_dealt + before for c, before in self.needs}
        self.script = _script(view)
        needed = {c for c, _ in self.needs}
        self.limits = [(c, self.opp_dealt + before) for c, before in self.needs]     # never decreasing
        self.pool = [c for c in self.unseen if c not in needed]
        self.asks = _asks(self.script, self.opp_dealt)

    def draw(self, rng: random.Random, asked: bool = False) -> list[Card] | None:
        """The hidden cards, drawn uniformly under the card constraints: the other's
        deal, its stock draws in order, then the stock left (bottom first).

        ``asked``: the other's cards up to its last knock question are drawn first, and
        None is returned (the rest not drawn) when its deadwood at any question it was
        asked (``asks``) would not have asked it: a draw rejected early, at a tenth of
        the cost, with the same distribution for the draws it keeps."""
        slots: list[Card | None] = [None] * self.opp_slots
        rand = rng.random
        avail: list[int] = []                     # the free places below the current limit
        top = 0
        for card, limit in self.limits:           # nested choices, fewest first: uniform
            if limit > top:
                avail.extend(range(top, limit))
                top = limit
            k = int(rand() * len(avail))
            slots[avail[k]] = card
            avail[k] = avail[-1]
            avail.pop()
        pool = list(self.pool)
        n = len(pool)
        taken = 0
        if asked and self.asks:
            # The free places below the last question get an ordered uniform sample of
            # the cards (a partial shuffle), as the whole shuffle below would give them.
            bit, knock_value = _BIT, self.view.knock_value
            upto_last = self.asks[-1][0]
            for i in range(upto_last):
                if slots[i] is None:
                    j = taken + int(rand() * (n - taken))
                    pool[taken], pool[j] = pool[j], pool[taken]
                    slots[i] = pool[taken]
                    taken += 1
            for upto, dropped, added in self.asks:
                h = sum(map(bit.__getitem__, slots[:upto]))   # type: ignore[arg-type]
                dw = deadwood_mask(h & ~dropped | added)
                if dw == 0 or dw > knock_value:
                    return None
        rest = pool[taken:]
        rng.shuffle(rest)
        for i, c in enumerate(slots):
            if c is None:
                slots[i] = rest.pop()
        return slots + rest                        # type: ignore[operator]

    def fits(self, cards: list[Card]) -> bool:
        """The needed cards are where they may be."""
        at = {c: i for i, c in enumerate(cards[:self.opp_slots])}
        return all(at.get(c, self.opp_slots) < limit for c, limit in self.allowed.items())

    def misfit(self, cards: list[Card], enough: int = 1 << 30) -> int:
        """How far the other hand of these hidden cards is from having been asked what
        the view says it was asked: 0 when every discard of it left gin, a knock
        question or neither as the view's events say; otherwise the deadwood points
        off (counted until ``enough``). Only the cards: the engine's replay (``build``)
        has the last word."""
        bit = _BIT
        h = 0
        for c in cards[:self.opp_dealt]:
            h |= bit[c]
        knock_value = self.view.knock_value
        off = 0
        for kind, arg, want in self.script:
            if kind is _SLOT:
                h |= bit[cards[arg]]
            elif kind is _ADD:
                h |= arg
            elif kind is _DROP:
                h &= ~arg
            else:                                   # a discard, then what the rules asked
                if not h & arg:
                    off += _FAR
                    if off >= enough:
                        return off
                    continue
                h ^= arg
                if want is _FREE:
                    continue
                dw = deadwood_mask(h)
                if want is _GIN:
                    off += dw
                elif dw == 0:
                    off += 1
                elif want is _ASKED:
                    off += dw - knock_value if dw > knock_value else 0
                elif want is _NOT_ASKED and dw <= knock_value:      # a question it was not asked
                    off += knock_value - dw + 1
                if off >= enough:
                    return off
        return off

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

    def swap(self, cards: list[Card], rng: random.Random) -> tuple[int, int] | None:
        """Swap two hidden cards in place, at least one of them the other seat's (two
        cards of the stock left are the same deal to the rules) and the needed cards
        still where they may be; the two places, or None (nothing changed)."""
        n = len(cards)
        i, j = rng.randrange(n), rng.randrange(n)
        if i == j or (i >= self.opp_slots and j >= self.opp_slots):
            return None
        cards[i], cards[j] = cards[j], cards[i]
        if self.allowed and not self.fits(cards):
            cards[i], cards[j] = cards[j], cards[i]
            return None
        return i, j

    def start(self, rng: random.Random, hot: int = 0) -> list[Card] | None:
        """Hidden cards consistent with the view, found from the view alone: a random
        deal under the card constraints, then swaps kept when they take it no further
        from the knock questions the view shows (``misfit``), and now and then when
        they do (more often when ``hot``), until none is off."""
        uphill = _UPHILL[hot]
        cards = self.draw(rng)
        off = self.misfit(cards)
        for _ in range(SEARCH):
            if off == 0:
                return cards
            moved = self.swap(cards, rng)
            if moved is None:
                continue
            now = self.misfit(cards, off + 8)
            if now <= off or rng.random() < uphill[min(now - off, 7)]:
                off = now
            else:
                i, j = moved
                cards[i], cards[j] = cards[j], cards[i]
        return cards if off == 0 else None

    def chain(self, rng: random.Random, episode: str, mix: int = MIX) -> Position:
        """The end of a Metropolis chain of swaps (see ``sample_world``): from a
        consistent deal found by ``start``, ``mix`` proposed swaps, each kept when the
        view's knock questions still follow (its target: every consistent deal alike),
        then the stock left shuffled (its order is no part of the view) and replayed.
        Should no start be found, exact draws again, many more."""
        for attempt in range(STARTS):
            cards = self.start(rng, attempt % len(_UPHILL))
            if cards is None or self.build(cards, rng, episode) is None:
                continue
            for _ in range(mix):
                moved = self.swap(cards, rng)
                if moved is not None and self.misfit(cards, 1):
                    i, j = moved
                    cards[i], cards[j] = cards[j], cards[i]
            for _ in range(100):          # a deal the cards pass and the replay does not: none seen
                rest = cards[self.opp_slots:]
                rng.shuffle(rest)
                found = self.build(cards[:self.opp_slots] + rest, rng, episode)
                if found is not None:
                    return found
                moved = self.swap(cards, rng)
                if moved is not None and self.misfit(cards, 1):
                    i, j = moved
                    cards[i], cards[j] = cards[j], cards[i]
        found = exact_world(self.view, rng, episode, LAST_TRIES)
        if found is None:
            raise ValueError(f"no deal consistent with seat {self.view.seat}'s view was found")
        return found


# What the other hand does, in ``_Frame.script``: a stock draw (its slot), a card added
# (from the pile) or dropped (put back), a discard (its bit) with what the rules then
# asked: gin, the knock question, nothing, or nothing to check (the deal of eleven's
# opening discard, which is not a turn).
_SLOT, _ADD, _DROP, _DISCARD = "slot", "add", "drop", "discard"
_GIN, _ASKED, _NOT_ASKED, _NO_KNOCK, _FREE = "gin", "asked", "not asked", "no knock", "free"
_ANSWERS = (Act.KNOCK, Act.PLAY_ON, Act.PLAY_TO_GIN)


def _asks(script: list[tuple[str, int, str]], opp_dealt: int) -> list[tuple[int, int, int]]:
    """For each knock question the other seat was asked: the places of its cards then
    (its deal and its stock draws so far: ``upto``), and the cards it had then dropped
    from them (discarded, put back) and added (from the pile)."""
    out = []
    slots = dropped = added = 0
    for kind, arg, want in script:
        if kind is _SLOT:
            slots += 1
        elif kind is _ADD:
            added |= arg
        else:                                       # a discard, or a card put back
            if added & arg:
                added &= ~arg
            else:
                dropped |= arg
            if want is _ASKED:
                out.append((opp_dealt + slots, dropped, added))
    return out


def _script(view: View) -> list[tuple[str, int, str]]:
    """The other seat's moves that change its cards, in order, and after each discard
    what the view says the rules asked of it."""
    opp = 1 - view.seat
    events = view.events
    out: list[tuple[str, int, str]] = []
    draws = 0
    opp_dealt = HAND_SIZE + (1 if view.options.deal_eleven and view.dealer != opp else 0)
    opening = view.options.deal_eleven
    gin_only = False
    for k, e in enumerate(events):
        if e.act is Act.DISCARD and opening:
            opening = False
            if e.seat == opp:
                out.append((_DISCARD, e.card.bit, _FREE))      # type: ignore[union-attr]
            continue
        if e.seat != opp:
            continue
        if e.act is Act.DRAW_STOCK:
            out.append((_SLOT, opp_dealt + draws, ""))
            draws += 1
        elif e.act is Act.DRAW_PILE and e.card is not None:
            out.append((_ADD, e.card.bit, ""))
        elif e.act is Act.UNDO and e.card is not None:
            out.append((_DROP, e.card.bit, ""))
        elif e.act is Act.PLAY_TO_GIN:
            gin_only = True
        elif e.act is Act.DISCARD and e.card is not None:
            nxt = events[k + 1] if k + 1 < len(events) else None
            if nxt is not None and nxt.seat == opp and nxt.act is Act.GIN:
                want = _GIN
            elif nxt is not None and nxt.seat == opp and nxt.act in _ANSWERS:
                want = _ASKED
            elif nxt is None and view.phase is Phase.KNOCK and view.to_move == opp:
                want = _ASKED
            elif gin_only or view.knock_value <= 0:
                want = _NO_KNOCK
            else:
                want = _NOT_ASKED
            out.append((_DISCARD, e.card.bit, want))
    return out


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


__all__ = ["DISCARD0", "DRAW_PILE", "DRAW_STOCK", "KNOCK", "MIX", "N_ACTIONS", "PLAY_ON", "PLAY_TO_GIN",
           "Position", "chained_world", "exact_world", "sample_world"]
