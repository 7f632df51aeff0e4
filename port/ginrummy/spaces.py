"""GinRummy's actions and observations as arrays, built from a seat's ``View`` only.

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

import numpy as np

from port.cards import Card
from port.bots import PolicySeat
from port.ginrummy.rules.players import Draw, KnockChoice, Player, legal_discards
from port.ginrummy.rules.state import PILE_RUN_LIMIT, Act, IllegalMove, Phase, View

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
    and whether it chose to play to gin.
    """

    __slots__ = ("seen", "last", "pile", "bottom_taken", "known", "discarded", "passed", "opp_gin_only")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.seen = 0                       # events replayed
        self.last: object = None            # the last of them, to know the hand is the same
        self.pile: list[Card] = []          # the pile above the hand's first upcard, replayed
        self.bottom_taken = False           # the first upcard itself taken from the pile
        self.known: set[int] = set()
        self.discarded: set[int] = set()
        self.passed: set[int] = set()
        self.opp_gin_only = False

    def _replay(self, view: View) -> None:
        events = view.events
        n = self.seen
        if n > len(events) or (n and events[n - 1] is not self.last):
            self.reset()
            n = 0
        me = view.seat
        pile = self.pile
        for e in events[n:]:
            c = e.card
            act = e.act
            if act is Act.DISCARD and c is not None:
                pile.append(c)
                if e.seat != me:
                    self.known.discard(c)
                    self.discarded.add(c)
            elif act is Act.DRAW_PILE and c is not None:
                if pile:
                    pile.pop()
                else:
                    self.bottom_taken = True
                if e.seat != me:
                    self.known.add(c)
            elif act is Act.UNDO and c is not None:
                pile.append(c)
                if e.seat != me:
                    self.known.discard(c)
            elif act is Act.DRAW_STOCK and e.seat != me:
                # The pile's top as it was; the hand's first upcard is the bottom. (In
                # the deal of eleven it is the opening discard, known before any draw.)
                if pile:
                    self.passed.add(pile[-1])
                elif not self.bottom_taken:
                    self.passed.add(view.upcard)   # type: ignore[arg-type]
            elif act is Act.PLAY_TO_GIN and e.seat != me:
                self.opp_gin_only = True
        self.seen = len(events)
        self.last = events[-1] if events else None

    def observe(self, view: View) -> np.ndarray:
        """The observation vector of the module docstring for this view."""
        self._replay(view)
        o = np.zeros(N_OBS, dtype=np.float32)
        me = view.seat
        # The 1s of the card planes are gathered as indices and set at once (one numpy
        # call instead of one per card).
        ones = [HAND + c for c in view.hand]
        ones += [PILE + c for c in view.pile]
        if view.pile:
            ones.append(TOP + view.pile[-1])
        if view.drawn is not None:
            ones.append(DRAWN + view.drawn)
        if view.upcard is not None:            # none yet before the deal of eleven's opening discard
            ones.append(UPCARD + view.upcard)
        ones += [OPP_KNOWN + c for c in self.known]
        ones += [OPP_DISCARDED + c for c in self.discarded]
        ones += [OPP_PASSED + c for c in self.passed]
        o[ones] = 1
        opts = view.options
        tail = [view.stock_count / 31, view.knock_value / 10, 0, 0, 0, 0,
                view.drawn_from_pile, view.play_to_gin, self.opp_gin_only,
                view.scores[me] / 100, view.scores[1 - me] / 100, opts.score_limit / 100,
                opts.gin_bonus / 25, opts.undercut_bonus / 25, opts.oklahoma, opts.knocking,
                view.to_move == me, view.pile_run / PILE_RUN_LIMIT]
        tail[2 + _PHASES[view.phase]] = 1
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
