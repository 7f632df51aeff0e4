"""Cribbage's player interface, and the loops that play a deal or a game between two
players on the one state machine.

A player only ever receives a ``View`` (its own cards and the public facts, built fresh
from copies). It never holds the ``HandState``: that is how the documentation's promise
holds by construction, for every player: the computer "does not look at your crib when
discarding, it does not look at your hand".

    class Lowest(Player):
        def discard(self, view):
            return tuple(sorted(view.hand)[:2])
        def play(self, view):
            plays = view.legal_plays()
            return min(plays) if plays else None     # None: GO
"""
from __future__ import annotations

from dataclasses import dataclass, field

from port.cards import Card, Rng
from port.cribbage.rules.options import Options
from port.cribbage.rules.state import GameState, HandState, IllegalMove, Phase, View


class Player:
    """Base class of every Cribbage player. ``discard`` and ``play`` are the moves;
    ``begin_hand`` and ``end_hand`` are hooks with empty defaults."""

    name = "player"

    def begin_hand(self, view: View) -> None:
        """A new deal: ``view`` shows the six cards."""

    def discard(self, view: View) -> tuple[Card, Card]:
        """Two of ``view.hand`` to lay away to the crib (the dealer's: ``view.dealer``)."""
        raise NotImplementedError

    def play(self, view: View) -> Card | None:
        """One of ``view.legal_plays()``, or None to say GO (only when that list is empty)."""
        raise NotImplementedError

    def end_hand(self, view: View) -> None:
        """The deal is over (``view.shows`` holds the show, ``view.scores`` the board)."""


@dataclass
class HandRecord:
    """How one deal went, per seat: points pegged in the play (go points included),
    heels, the hand in the show and the crib. Points are those actually pegged: the
    limit ends the game, and nothing after it counts."""

    dealer: int
    starter: Card | None
    pegging: tuple[int, int]
    heels: tuple[int, int]
    hand: tuple[int, int]
    crib: tuple[int, int]
    scores: tuple[int, int]          # the board after the deal
    winner: int | None               # set when the game ended in this deal
    # With ``keep``: the deal as dealt (a copy) and as it ended, what a game record is
    # written from (``port.cribbage.record``).
    start: HandState | None = None
    end: HandState | None = None

    @property
    def total(self) -> tuple[int, int]:
        return (self.pegging[0] + self.heels[0] + self.hand[0] + self.crib[0],
                self.pegging[1] + self.heels[1] + self.hand[1] + self.crib[1])


@dataclass
class GameRecord:
    """A finished game between seat 0 and seat 1."""

    winner: int
    scores: tuple[int, int]
    skunk: bool
    first_dealer: int
    hands: list[HandRecord] = field(default_factory=list)

    @property
    def wins(self) -> int:
        """What the win counts for: two for a skunk (the documentation)."""
        return 2 if self.skunk else 1


def step(hand: HandState, players: tuple[Player, Player]) -> None:
    """Make the next move of the deal: ask the seat to act, or count the next box of
    the show. A player's illegal answer raises ``IllegalMove`` and changes nothing."""
    if hand.phase is Phase.SHOW:
        hand.show()
        return
    seat = hand.to_act
    if seat is None:
        raise IllegalMove("the deal is over")
    view = hand.view(seat)
    if hand.phase is Phase.DISCARD:
        hand.discard(seat, tuple(players[seat].discard(view)))
    else:
        choice = players[seat].play(view)
        if choice is None:
            hand.go(seat)
        else:
            hand.play(seat, choice)


def record_of(hand: HandState, start: HandState | None = None) -> HandRecord:
    """The deal's record; with ``start`` (a copy as dealt) it keeps both ends of it."""
    def pair(xs: list[int]) -> tuple[int, int]:
        return (xs[0], xs[1])
    return HandRecord(hand.dealer, hand.starter, pair(hand.pegging), pair(hand.heels),
                      pair(hand.hand_points), pair(hand.crib_points), hand.scores, hand.winner,
                      start, hand if start is not None else None)


def play_hand(hand: HandState, players: tuple[Player, Player], keep: bool = False) -> HandRecord:
    """Play one dealt hand to its end (or to the end of the game); ``keep``: the record
    holds the deal as dealt and as it ended."""
    start = hand.copy() if keep else None
    for seat, p in enumerate(players):
        p.begin_hand(hand.view(seat))
    while hand.phase is not Phase.DONE:
        step(hand, players)
    for seat, p in enumerate(players):
        p.end_hand(hand.view(seat))
    return record_of(hand, start)


def play_game(options: Options, rng: Rng, players: tuple[Player, Player],
              first_dealer: int | None = None, keep: bool = False) -> GameRecord:
    """Play a whole game to the limit. ``first_dealer`` None: cut for the deal.
    ``keep``: each deal's record holds the deal as dealt and as it ended (for a game
    record); the play is the same either way."""
    game = GameState.new(options, rng, first_dealer)
    hands = [play_hand(game.hand, players, keep)]
    while not game.over:
        hands.append(play_hand(game.next_hand(), players, keep))
    winner = game.winner
    assert winner is not None
    return GameRecord(winner, game.hand.scores, game.skunk, game.first_dealer, hands)


__all__ = ["GameRecord", "HandRecord", "Player", "play_game", "play_hand", "record_of", "step"]
