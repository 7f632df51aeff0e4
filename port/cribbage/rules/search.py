"""Tree search on Cribbage's exact rules: a position stepped by the environments'
action numbers, cheap to clone, and ``sample_world``: a full state consistent with
what one seat has seen, the hidden cards drawn uniformly (docs/envs.md, "Search").

    >>> import random
    >>> from port.cribbage.rules import Options
    >>> from port.cribbage.rules.search import Position, sample_world
    >>> p = Position.deal(Options(), seed=3)
    >>> len(p.legal_actions())                   # the pone lays away its first card
    6
    >>> w = sample_world(p.view(p.to_move()), random.Random(1))
    >>> w.view(p.to_move()) == p.view(p.to_move())
    True

The action numbers are the environments' (``port.cribbage.spaces``): card c (0..51)
lays c away in the discard (two steps of the same seat: its first card, then its
second) or plays it to the count; 52 says GO. The show is counted as soon as the play
ends. Plain Python, no numpy.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from port.cards import CARDS, Card, PascalRandom
from port.checks import IllegalMove
from port.cribbage.rules.options import Options
from port.cribbage.rules.state import HAND_SIZE, Act, GameState, HandState, Phase, View, fitting

GO = 52
N_ACTIONS = 53
EPISODES = ("hand", "game")
TRIES = 20000      # candidate worlds sample_world draws before it gives up on a view


class Position:
    """A game of Cribbage for search: ``legal_actions()``, ``step(action)``,
    ``clone()``, ``returns()``. ``episode="hand"`` ends with the deal (returns: the
    points each pegged in it less the other's); ``"game"`` deals on to the limit
    (returns: the final scores' difference). ``pending`` is the first card of a
    discard made in two steps."""

    __slots__ = ("game", "episode", "pending")

    def __init__(self, game: GameState, episode: str = "hand", pending: Card | None = None) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        self.game = game
        self.episode = episode
        self.pending = pending
        self.game.hand.finish_show()

    @classmethod
    def deal(cls, options: Options, seed: int, episode: str = "hand", first_dealer: int | None = None) -> Position:
        """A new game dealt by ``PascalRandom(seed)`` (the first dealer cut from it when
        None, as the game does): a game record's ``Seed:`` deals the same cards here."""
        return cls(GameState.new(options, PascalRandom(seed), first_dealer), episode)

    @property
    def hand(self) -> HandState:
        return self.game.hand

    def clone(self) -> Position:
        new = Position.__new__(Position)
        new.game, new.episode, new.pending = self.game.clone(), self.episode, self.pending
        return new

    def __deepcopy__(self, memo: dict) -> Position:
        # OpenSpiel copies a Python game's state attribute by attribute with deepcopy:
        # this makes that the cheap clone (an independent copy all the same).
        return self.clone()

    @property
    def terminal(self) -> bool:
        h = self.game.hand
        return h.winner is not None or (self.episode == "hand" and h.phase is Phase.DONE)

    def to_move(self) -> int | None:
        """The seat to move, None once the episode is over."""
        return None if self.terminal else self.game.hand.to_act

    def view(self, seat: int) -> View:
        return self.game.hand.view(seat)

    def legal_actions(self) -> list[int]:
        """The legal action numbers now, in increasing order (none once over)."""
        h = self.game.hand
        if h.winner is not None or h.to_act is None:
            return []
        if h.phase is Phase.DISCARD:
            return sorted(int(c) for c in h.hands[h.to_act] if c != self.pending)
        if h.phase is Phase.PLAY:
            plays = fitting(h.hands[h.to_act], h.count)
            return sorted(int(c) for c in plays) if plays else [GO]
        return []

    def step(self, action: int) -> None:
        """Make the move numbered ``action`` for the seat to move; an illegal one raises
        ``IllegalMove`` and changes nothing. The show is counted when the play ends; in
        a "game" episode the next deal follows."""
        if self.terminal:
            raise IllegalMove("the episode is over: there is no move to make")
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMove(f"an action is a whole number from 0 to {N_ACTIONS - 1}, not {action!r}")
        h = self.game.hand
        seat = h.to_act
        assert seat is not None
        if action not in self.legal_actions():
            raise IllegalMove(f"action {action} is not legal now (seat {seat} is to {h.phase.value}; "
                              f"legal: {self.legal_actions()})")
        if h.phase is Phase.DISCARD:
            if self.pending is None:
                self.pending = Card(action)
                return
            first, self.pending = self.pending, None
            h.discard(seat, (first, Card(action)))
        elif action == GO:
            h.go(seat)
        else:
            h.play(seat, action)
        h.count_show()          # the boxes' words written when read (a view)
        if self.episode == "game" and h.phase is Phase.DONE and h.winner is None:
            self.game.next_hand()

    def returns(self) -> tuple[float, float]:
        """Points, zero-sum: this deal's pegging less the other's (episode "hand"), or
        the scores' difference (episode "game")."""
        board = self.game.hand.scores
        if self.episode == "hand":
            start = self.game.scores
            d = float((board[0] - start[0]) - (board[1] - start[1]))
        else:
            d = float(board[0] - board[1])
        return (d, -d)


# ---- sample_world ------------------------------------------------------------------

def sample_world(view: View, rng: random.Random, episode: str = "hand", pending: Card | None = None) -> Position:
    """A full state consistent with everything ``view``'s seat has seen, the cards it
    has not seen drawn uniformly among the deals consistent with it: the other hand's
    unplayed cards, its two crib cards (until the show names them) and the deck (the
    starter too, until it is cut). The other seat's cards played and shown stay
    where they are; its GOs are kept true (no card it still held fitted the count
    then) by drawing again any deal on which the replay of the deal's events differs.
    Its ``view(seat)`` equals ``view``. ``pending``: the card the seat laid away in
    the first step of its discard (not in a view). ``rng`` is a ``random.Random``;
    it also seeds the game's generator for the next deals."""
    me, opp = view.seat, 1 - view.seat
    shown_crib: tuple[Card, ...] = ()
    shown_kept: tuple[Card, ...] = ()      # the other's four as shown, in its order
    for entry in view.shows:
        if entry.what == "crib":
            shown_crib = entry.cards
        elif entry.seat == opp:
            shown_kept = entry.cards
    opp_played = [c for s, c in view.played if s == opp]
    mine = list(view.kept) + list(view.my_crib) if view.my_crib else list(view.hand)
    opp_crib: list[Card] = []
    if shown_crib:      # the crib is the non-dealer's two, then the dealer's
        opp_crib = list(shown_crib[:2] if opp != view.dealer else shown_crib[2:])
    known = set(mine) | set(opp_played) | set(opp_crib) | ({view.starter} if view.starter is not None else set())
    unseen = [c for c in CARDS if c not in known]
    # Scores at the start of the deal: the view's less what this deal's events pegged.
    start = [view.scores[0], view.scores[1]]
    for e in view.events:
        start[e.seat] -= e.points
    for _ in range(TRIES):
        world = _candidate(view, rng, mine, list(shown_kept) or opp_played, opp_crib, unseen, (start[0], start[1]), episode, pending)
        if world is not None:
            return world
    raise ValueError(f"no deal consistent with seat {me}'s view was found in {TRIES} tries")


def _candidate(view: View, rng: random.Random, mine: list[Card], opp_played: list[Card], opp_crib: list[Card],
               unseen: list[Card], start: tuple[int, int], episode: str, pending: Card | None) -> Position | None:
    """One deal drawn uniformly among those holding the known cards where they are,
    replayed; None when the rules would not have played the view's events on it."""
    me, opp = view.seat, 1 - view.seat
    rest = list(unseen)
    rng.shuffle(rest)
    crib = opp_crib or [rest.pop(), rest.pop()]
    held = [rest.pop() for _ in range(HAND_SIZE - len(opp_played) - len(crib))]
    theirs = held + opp_played + crib      # kept cards first (a view shows no order of them)
    starter = view.starter if view.starter is not None else rest.pop()
    hands = {me: mine, opp: theirs}
    dealer = view.dealer
    deal = [hands[(1 - dealer + i) % 2][i // 2] for i in range(2 * HAND_SIZE)]
    deck = rest + [starter] + deal[::-1]
    hand = HandState(dealer, deck, start, view.options)
    try:
        _replay(hand, view.events, {me: tuple(view.my_crib), opp: tuple(crib)})
    except IllegalMove:
        return None
    if hand.view(me) != view:
        return None
    world = Position.__new__(Position)
    world.game = GameState.at(hand, PascalRandom(rng.getrandbits(32)))
    world.episode, world.pending = episode, pending
    return world


def _replay(hand: HandState, events: Sequence[object], cribs: dict[int, tuple[Card, ...]]) -> None:
    """Make the events' moves on a fresh deal (the cut, the go points and the show's
    boxes follow from them); ``IllegalMove`` when the rules would not allow one."""
    for e in events:
        act, seat, card = e.act, e.seat, e.card          # type: ignore[attr-defined]
        if act is Act.DISCARD:
            hand.discard(seat, cribs[seat])
        elif act is Act.PLAY:
            hand.play(seat, card)
        elif act is Act.GO:
            hand.go(seat)
        elif act is Act.SHOW:
            hand.show()


__all__ = ["GO", "N_ACTIONS", "Position", "sample_world"]
