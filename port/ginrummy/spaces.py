"""GinRummy's actions and observations as arrays, built from a seat's ``View`` only (or,
on the environments' hot path, from the same facts read from the hand: ``mask_from``,
``Observer.observe_hand``).

Actions (one Discrete(57) space; a card is ``suit * 13 + rank``, suits S H D C,
rank 0 = Ace .. 12 = King, as in ``port.cards``):

    0        draw from the stock (with two cards left it ends the hand as a draw);
             under the upcard offer (a table rule): decline the upcard
    1        draw the top of the discard pile; under the upcard offer: take the upcard
    2 + c    discard card c (2 = AS .. 14 = KS, 15 = AH, .. 53 = KC)
    54       knock
    55       play on (decline this knock offer)
    56       play to gin (decline, and no more knock offers this hand)

``PolicyPlayer(policy)`` makes a policy on these arrays a ``Player`` of the player
interface: it plays in ``python -m port.match`` (``--a bot.py:my_policy``), on screen as
the computer (``ginrummy --computer bot.py:MyPolicy``), and anywhere a level does. It sees
exactly the observation the environment would give its seat.

The engine's "undo a pile draw" is a screen convenience and is not an action here:
it would let an episode cycle for ever.

Observation: a float32 vector of 434 = 8 planes of 52 cards, then 18 numbers.
Every entry is a public fact or this seat's own card; ``tests/env/test_ginrummy.py`` proves
that the arrays do not change when the hidden cards (the other hand, the stock) do.

    plane 0  [  0, 52)  my hand (11 cards while I discard)
    plane 1  [ 52,104)  the discard pile, every card in it
    plane 2  [104,156)  the top of the discard pile
    plane 3  [156,208)  the card I just drew (while I discard)
    plane 4  [208,260)  cards the opponent took from the pile and still holds
    plane 5  [260,312)  cards the opponent discarded this hand
    plane 6  [312,364)  cards the opponent passed over (on the pile when it drew from the stock)
    plane 7  [364,416)  the hand's first upcard (the Oklahoma knock card)
    416 stock count / 31        417 knock value / 10
    418..421 phase: draw, discard, knock, over (one-hot)
    422 I drew from the pile    423 I chose play to gin    424 the opponent chose play to gin
    425 my score / 100          426 the opponent's score / 100   427 score limit / 100
    428 gin bonus / 25          429 undercut bonus / 25
    430 Oklahoma                431 knocking enabled       432 my turn
    433 pile draws in a row / 20 (at 20 the hand is a draw: ``PILE_RUN_LIMIT``)
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from port.cards import Card, cards_of
from port.bots import PolicySeat
from port.ginrummy.rules.players import Draw, KnockChoice, Player, legal_discards
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.state import PILE_RUN_LIMIT, Act, Event, HandState, IllegalMove, Phase, View

# The action numbers are the rules' own (tree search steps by them too).
from port.ginrummy.rules.search import (  # noqa: E402
    DISCARD0, DRAW_PILE, DRAW_STOCK, KNOCK, N_ACTIONS, PLAY_ON, PLAY_TO_GIN,
)

PLANES = 8
N_OBS = PLANES * 52 + 18

HAND, PILE, TOP, DRAWN, OPP_KNOWN, OPP_DISCARDED, OPP_PASSED, UPCARD = (p * 52 for p in range(PLANES))
_S = PLANES * 52
# The upcard offer (a table rule) is answered with the draw actions: 1 takes the upcard,
# 0 declines it; so it shows as the draw phase.
_PHASES = {Phase.DRAW: 0, Phase.UPCARD_OFFER: 0, Phase.DISCARD: 1, Phase.KNOCK: 2, Phase.OVER: 3}
_KNOCKS = {KNOCK: KnockChoice.KNOCK, PLAY_ON: KnockChoice.PLAY_ON, PLAY_TO_GIN: KnockChoice.PLAY_TO_GIN}
# Card sets as ints with card c at bit c (not the hand masks' 16-bit lanes): a card's
# bit, and a hand mask packed so.
_ONE = [1 << c for c in range(52)]


def packed(m: int) -> int:
    """A hand mask (``port.cards``: 16-bit lanes) as a card set with card c at bit c."""
    return m & 0x1FFF | m >> 3 & 0x1FFF << 13 | m >> 6 & 0x1FFF << 26 | m >> 9 & 0x1FFF << 39


def bits(x: int, n: int) -> np.ndarray:
    """The low ``n`` bits of ``x`` (a multiple of 8) as an array of 0s and 1s, bit 0
    first: numpy's own bit order read backwards (``bitorder="little"`` costs more
    than the reversed view)."""
    return np.unpackbits(np.frombuffer(x.to_bytes(n // 8, "big"), np.uint8))[::-1]


def action_name(a: int) -> str:
    """The action in words: "draw stock", "discard QS", "knock", ..."""
    if a == DRAW_STOCK:
        return "draw stock"
    if a == DRAW_PILE:
        return "draw pile"
    if DISCARD0 <= a < DISCARD0 + 52:
        return f"discard {Card(a - DISCARD0)}"
    names = {KNOCK: "knock", PLAY_ON: "play on", PLAY_TO_GIN: "play to gin"}
    if a in names:
        return names[a]
    raise ValueError(f"{a} is not a GinRummy action (0 to {N_ACTIONS - 1})")


def mask_of(view: View) -> np.ndarray:
    """1 for each action the rules allow this seat now (all 0 when it is not to move)."""
    m = np.zeros(N_ACTIONS, dtype=np.int8)
    if view.to_move != view.seat:
        return m
    if view.phase is Phase.DRAW:
        m[DRAW_STOCK] = 1
        # both players declined the offered upcard: "the first player draws from the stock"
        m[DRAW_PILE] = 1 if view.pile and not view.stock_only else 0
    elif view.phase is Phase.UPCARD_OFFER:
        m[DRAW_STOCK] = m[DRAW_PILE] = 1          # decline, take
    elif view.phase is Phase.DISCARD:
        for c in legal_discards(view):
            m[DISCARD0 + c] = 1
    elif view.phase is Phase.KNOCK:
        m[KNOCK] = m[PLAY_ON] = m[PLAY_TO_GIN] = 1
    return m


def mask_from(h: HandState, seat: int) -> np.ndarray:
    """``mask_of(h.view(seat))`` read from the hand itself, without building the view
    (the environments' hot path; tests/env/test_observer.py holds the two equal)."""
    m = np.zeros(N_ACTIONS, dtype=np.int8)
    for a in legal_from(h, seat):
        m[a] = 1        # one by one: for eleven or fewer, cheaper than a fancy-indexed store
    return m


def legal_from(h: HandState, seat: int) -> list[int]:
    """The 1s of ``mask_from``, in increasing order (what ``np.flatnonzero`` of the
    mask gives), without the array."""
    if h.to_move != seat:
        return []
    phase = h.phase
    if phase is Phase.DRAW:
        return [DRAW_STOCK, DRAW_PILE] if h.pile and not h.stock_only else [DRAW_STOCK]
    if phase is Phase.UPCARD_OFFER:
        return [DRAW_STOCK, DRAW_PILE]          # decline, take
    if phase is Phase.DISCARD:
        held = h.hands[seat]
        if h.drawn_from_pile and h.drawn is not None:
            held &= ~h.drawn.bit
        return [DISCARD0 + c for c in cards_of(held)]
    if phase is Phase.KNOCK:
        return [KNOCK, PLAY_ON, PLAY_TO_GIN]
    return []


def observation_of(view: View) -> np.ndarray:
    """The observation vector of the module docstring, from the seat's view alone."""
    return Observer().observe(view)


class Observer:
    """``observation_of`` for one seat through one hand, step after step: the public
    events are replayed once each, as they come, instead of from the hand's start at
    every step (the environments' hot path). Give it each view of the same seat in the
    same hand; ``reset()`` (or a new ``Observer``) for the next hand. A view with fewer
    events than already replayed, or whose last replayed event is another, is taken
    as a new hand and replayed from its start.

    The replay keeps what the opponent took from the pile and still holds, what it
    discarded, what it passed over (the top of the pile when it drew from the stock),
    as card sets written as ints (card c is bit c), and whether it chose to play to gin.
    """

    __slots__ = ("seen", "last", "pile", "bottom_taken", "known", "discarded", "passed", "opp_gin_only")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.seen = 0                       # events replayed
        self.last: object = None            # the last of them, to know the hand is the same
        self.pile: list[Card] = []          # the pile above the hand's first upcard, replayed
        self.bottom_taken = False           # the first upcard itself taken from the pile
        self.known = 0                      # cards as bits: 1 << card
        self.discarded = 0
        self.passed = 0
        self.opp_gin_only = False

    def _replay(self, events: Sequence[Event], me: int, upcard: Card | None) -> None:
        n = self.seen
        if n > len(events) or (n and events[n - 1] is not self.last):
            self.reset()
            n = 0
        pile = self.pile
        for e in events[n:]:
            c = e.card
            act = e.act
            if act is Act.DISCARD and c is not None:
                pile.append(c)
                if e.seat != me:
                    self.known &= ~(1 << c)
                    self.discarded |= 1 << c
            elif act is Act.DRAW_PILE and c is not None:
                if pile:
                    pile.pop()
                else:
                    self.bottom_taken = True
                if e.seat != me:
                    self.known |= 1 << c
            elif act is Act.UNDO and c is not None:
                pile.append(c)
                if e.seat != me:
                    self.known &= ~(1 << c)
            elif act is Act.DRAW_STOCK and e.seat != me:
                # The pile's top as it was; the hand's first upcard is the bottom. (In
                # the deal of eleven it is the opening discard, known before any draw.)
                if pile:
                    self.passed |= 1 << pile[-1]
                elif not self.bottom_taken:
                    self.passed |= 1 << upcard   # type: ignore[operator]
            elif act is Act.PLAY_TO_GIN and e.seat != me:
                self.opp_gin_only = True
        self.seen = len(events)
        self.last = events[-1] if events else None

    def observe(self, view: View) -> np.ndarray:
        """The observation vector of the module docstring for this view."""
        me = view.seat
        self._replay(view.events, me, view.upcard)
        return self._array(me, sum(map(_ONE.__getitem__, view.hand)), view.pile, view.drawn, view.upcard,
                           view.stock_count, view.knock_value, view.drawn_from_pile, view.play_to_gin,
                           view.scores, view.options, view.to_move, view.pile_run, view.phase)

    def observe_hand(self, h: HandState, seat: int, scores: tuple[int, int]) -> np.ndarray:
        """``observe(h.view(seat, scores))`` read from the hand itself, without building
        the view: the same public facts, the seat's own cards and its public events
        (the other seat's stock draws without their cards), nothing else (the
        environments' hot path; tests/env/test_observer.py holds the two equal)."""
        mine = h.to_move == seat
        # The hand's own events, not the view's copy with the other seat's stock draws
        # made anonymous: the replay reads a card only from discards, pile draws and
        # undos (public), never from a stock draw, so it sees the same; the copy cost a
        # tenth of an observation.
        self._replay(h.events, seat, h.upcard)
        return self._array(seat, packed(h.hands[seat]), h.pile, h.drawn if mine else None, h.upcard,
                           len(h.stock), h.knock_value, h.drawn_from_pile and mine, h.gin_only[seat],
                           scores, h.options, h.to_move, h.pile_run, h.phase)

    def _array(self, me: int, hand: int, pile: Sequence[Card], drawn: Card | None,
               upcard: Card | None, stock_count: int, knock_value: int, drawn_from_pile: bool,
               play_to_gin: bool, scores: tuple[int, int], opts: Options, to_move: int,
               pile_run: int, phase: Phase) -> np.ndarray:
        """The array, its eight card planes written as one int (card c of plane p is bit
        52 p + c) and unpacked by numpy at once: a numpy call per plane, or a list of
        the 1s' indices, cost twice as much."""
        planes = (hand | sum(map(_ONE.__getitem__, pile)) << PILE | self.known << OPP_KNOWN
                  | self.discarded << OPP_DISCARDED | self.passed << OPP_PASSED)
        if pile:
            planes |= 1 << (TOP + pile[-1])
        if drawn is not None:
            planes |= 1 << (DRAWN + drawn)
        if upcard is not None:            # none yet before the deal of eleven's opening discard
            planes |= 1 << (UPCARD + upcard)
        o = np.empty(N_OBS, dtype=np.float32)
        o[:_S] = bits(planes, _S)
        tail = [stock_count / 31, knock_value / 10, 0, 0, 0, 0,
                drawn_from_pile, play_to_gin, self.opp_gin_only,
                scores[me] / 100, scores[1 - me] / 100, opts.score_limit / 100,
                opts.gin_bonus / 25, opts.undercut_bonus / 25, opts.oklahoma, opts.knocking,
                to_move == me, pile_run / PILE_RUN_LIMIT]
        tail[2 + _PHASES[phase]] = 1
        o[_S:] = tail
        return o


def action_of_draw(d: Draw) -> int:
    return DRAW_PILE if Draw(d) is Draw.PILE else DRAW_STOCK


def action_of_knock(k: KnockChoice) -> int:
    return {v: a for a, v in _KNOCKS.items()}[KnockChoice(k)]


def draw_of(a: int) -> Draw:
    if a == DRAW_STOCK:
        return Draw.STOCK
    if a == DRAW_PILE:
        return Draw.PILE
    raise ValueError(f"the seat must draw now (action 0 or 1), not {action_name(a)}")


def discard_of(a: int) -> Card:
    if DISCARD0 <= a < DISCARD0 + 52:
        return Card(a - DISCARD0)
    raise ValueError(f"the seat must discard now (action 2 to 53), not {action_name(a)}")


def knock_of(a: int) -> KnockChoice:
    if a in _KNOCKS:
        return _KNOCKS[a]
    raise ValueError(f"the seat must answer the knock question now (action 54, 55 or 56), not {action_name(a)}")


def action_from_view(view: View, player: object) -> int:
    """Ask a ``Player`` (any of our levels or bots) for its move as an action number."""
    if view.phase is Phase.DRAW:
        return action_of_draw(player.choose_draw(view))          # type: ignore[attr-defined]
    if view.phase is Phase.UPCARD_OFFER:
        return DRAW_PILE if player.offer(view) else DRAW_STOCK   # type: ignore[attr-defined]
    if view.phase is Phase.DISCARD:
        return DISCARD0 + int(player.choose_discard(view))       # type: ignore[attr-defined]
    if view.phase is Phase.KNOCK:
        return action_of_knock(player.choose_knock(view))        # type: ignore[attr-defined]
    raise ValueError("the hand is over: there is no move to make")


class PolicyPlayer(Player):
    """A policy on the arrays, playing as a ``Player`` of the player interface."""

    def __init__(self, policy: object, name: str | None = None) -> None:
        self.seat = PolicySeat(policy, name)
        self.policy = self.seat.act
        self.name = self.seat.name

    def _ask(self, view: View) -> int:
        return self.seat.ask(observation_of(view), mask_of(view), action_name, IllegalMove)

    def choose_draw(self, view: View) -> Draw:
        return draw_of(self._ask(view))

    def choose_discard(self, view: View) -> Card:
        return discard_of(self._ask(view))

    def choose_knock(self, view: View) -> KnockChoice:
        return knock_of(self._ask(view))
