"""Cribbage's actions and observations as arrays, built from a seat's ``View`` only (or,
on the environments' hot path, from the same facts read from the deal:
``observation_from``, ``mask_from``).

Actions (one Discrete(53) space; a card is ``suit * 13 + rank``, suits S H D C, rank
0 = Ace .. 12 = King, as in ``port.cards``):

    c (0..51)  in the discard: lay card c away to the crib. Two steps: the seat lays
               away its first card, then (still its turn) its second; the engine's
               discard is made with both.
               in the play: play card c to the count
    52         GO (only when no card held fits the count)

The show is counted by the environment (no one chooses anything in it).

``PolicyPlayer(policy)`` makes a policy on these arrays a Cribbage ``Player``: in the
match runner, on screen as the computer (``cribbage --computer bot.py:MyPolicy``). Its
discard is asked in two steps, as in the environment.

Observation: a float32 vector of 378 = 7 planes of 52 cards, then 14 numbers.
Every entry is a public fact or this seat's own card; ``tests/env/test_cribbage.py``
proves that the arrays do not change when the hidden cards (the other hand, its crib
cards, the deck) do.

    plane 0  [  0, 52)  my hand: the cards I still hold (six, less any laid away)
    plane 1  [ 52,104)  my four kept cards (after the discard)
    plane 2  [104,156)  the cards I laid away to the crib (the first one too, mid-discard)
    plane 3  [156,208)  the starter (once cut)
    plane 4  [208,260)  the cards of the current count
    plane 5  [260,312)  cards I played this deal
    plane 6  [312,364)  cards the opponent played this deal
    364 the count / 31          365..368 phase: discard, play, show, done (one-hot)
    369 I am the dealer         370 cards the opponent holds / 6
    371 the opponent has laid away     372 I said GO        373 the opponent said GO
    374 my score / 121          375 the opponent's score / 121
    376 the limit / 121 (121 or 61)    377 my turn
(Skunking changes no move, only what a win counts for: see ``info``.)
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from port.cards import Card
from port.bots import PolicySeat
from port.cribbage.rules.players import Player
from port.cribbage.rules.scoring import RANK_VALUE
from port.cribbage.rules.state import LAST_COUNT, HandState, IllegalMove, Phase, View, fitting

from port.cribbage.rules.search import GO, N_ACTIONS  # noqa: E402  (the rules' own action numbers)

PLANES = 7
N_OBS = PLANES * 52 + 14
HAND, KEPT, MY_CRIB, STARTER, COUNT, MY_PLAYED, OPP_PLAYED = (p * 52 for p in range(PLANES))
_S = PLANES * 52
_PHASES = {Phase.DISCARD: 0, Phase.PLAY: 1, Phase.SHOW: 2, Phase.DONE: 3}
_PHASE_AT = {phase: _S + 1 + n for phase, n in _PHASES.items()}    # the phase's one-hot entry
_ZERO = np.zeros(N_OBS, dtype=np.float32)


def action_name(a: int, phase: Phase = Phase.PLAY) -> str:
    if a == GO:
        return "go"
    if 0 <= a < 52:
        return f"{'lay away' if phase is Phase.DISCARD else 'play'} {Card(a)}"
    raise ValueError(f"{a} is not a Cribbage action (0 to {N_ACTIONS - 1})")


def mask_of(view: View, pending: Card | None = None) -> np.ndarray:
    """1 for each action the rules allow this seat now; ``pending``: the card it laid
    away in the first step of its discard."""
    return mask_from(view.seat, view.to_act, view.phase, view.hand, view.count, pending)


def mask_from(seat: int, to_act: int | None, phase: Phase, hand: Sequence[Card], count: int,
              pending: Card | None = None) -> np.ndarray:
    """``mask_of`` from the facts it reads: the seat, whose turn it is, the phase, the
    seat's own cards and the count (what an environment has at hand without a view)."""
    # The 1s set in a bytearray the array is then made over (numpy's stores one by one
    # cost more than the bytearray's; no sort: the mask has no order).
    m = bytearray(N_ACTIONS)
    if to_act == seat:
        if phase is Phase.DISCARD:
            for c in hand:
                m[c] = 1
            if pending is not None:
                m[pending] = 0
        elif phase is Phase.PLAY:
            room, fits = LAST_COUNT - count, False
            for c in hand:
                if RANK_VALUE[c % 13] <= room:
                    m[c] = fits = True
            if not fits:
                m[GO] = 1
    return np.frombuffer(m, np.int8)


def legal_from(seat: int, to_act: int | None, phase: Phase, hand: Sequence[Card], count: int,
               pending: Card | None = None) -> list[int]:
    """The 1s of ``mask_from``, in increasing order (what ``np.flatnonzero`` of the
    mask gives), without the array."""
    if to_act != seat:
        return []
    if phase is Phase.PLAY:
        plays = fitting(hand, count)
        if not plays:
            return [GO]
        plays.sort()
        return plays
    if phase is Phase.DISCARD:
        cards = sorted(hand)
        if pending is not None and pending in cards:
            cards.remove(pending)
        return cards
    return []


def observation_of(view: View, pending: Card | None = None) -> np.ndarray:
    me = view.seat
    return _array(me, view.hand, view.kept, view.my_crib, pending, view.starter, view.count_cards,
                  view.played, view.count, view.phase, view.is_dealer, view.opponent_left,
                  view.opponent_discarded, view.said_go, view.scores, view.options.limit, view.to_act)


def observation_from(h: HandState, seat: int, pending: Card | None = None) -> np.ndarray:
    """``observation_of(h.view(seat), pending)`` read from the deal itself, without
    building the view: the seat's own cards and the public facts, nothing else (the
    environments' hot path; tests/env/test_observer.py holds the two equal)."""
    other = 1 - seat
    return _array(seat, h.hands[seat], h.kept[seat], h.cribs[seat], pending, h.starter, h.count_cards,
                  h.played, h.count, h.phase, h.dealer == seat, len(h.hands[other]),
                  bool(h.cribs[other]), h.said_go, h.board, h.options.limit, h.to_act)


def _array(me: int, hand: Sequence[Card], kept: Sequence[Card], my_crib: Sequence[Card],
           pending: Card | None, starter: Card | None, count_cards: Sequence[Card],
           played: Sequence[tuple[int, Card]], count: int, phase: Phase, is_dealer: bool,
           opponent_left: int, opponent_discarded: bool, said_go: Sequence[bool],
           scores: Sequence[int], limit: int, to_act: int | None) -> np.ndarray:
    o = _ZERO.copy()
    # The card planes' 1s and the phase's are set at once (one numpy call, not one per
    # card), then the numbers after the planes.
    # Loops, not comprehensions: each comprehension is a call of its own, and the
    # lists are short. The hand's plane is at 0: its cards are their own places.
    ones = list(hand) if pending is None else [c for c in hand if c != pending]
    ones.append(_PHASE_AT[phase])
    for c in kept:
        ones.append(KEPT + c)
    for c in my_crib:
        ones.append(MY_CRIB + c)
    if pending is not None:
        ones.append(MY_CRIB + pending)
    if starter is not None:
        ones.append(STARTER + starter)
    for c in count_cards:
        ones.append(COUNT + c)
    for seat, c in played:
        ones.append((MY_PLAYED if seat == me else OPP_PLAYED) + c)
    o.put(ones, 1)
    o[_S] = count / 31
    o[_S + 5:] = (is_dealer, opponent_left / 6, opponent_discarded, said_go[me], said_go[1 - me],
                  scores[me] / 121, scores[1 - me] / 121, limit / 121, to_act == me)
    return o


class PolicyPlayer(Player):
    """A policy on the arrays, playing as a Cribbage ``Player``."""

    def __init__(self, policy: object, name: str | None = None) -> None:
        self.seat = PolicySeat(policy, name)
        self.policy = self.seat.act
        self.name = self.seat.name

    def _ask(self, view: View, pending: Card | None = None) -> int:
        return self.seat.ask(observation_of(view, pending), mask_of(view, pending),
                             lambda a: action_name(a, view.phase), IllegalMove)

    def discard(self, view: View) -> tuple[Card, Card]:
        first = Card(self._ask(view))
        return first, Card(self._ask(view, first))

    def play(self, view: View) -> Card | None:
        a = self._ask(view)
        return None if a == GO else Card(a)
