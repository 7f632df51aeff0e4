"""A small cut of Cribbage for tabular CFR: the pegging endgame, as an OpenSpiel game.

    import pyspiel
    import port.openspiel          # registers python_port_cribbage_pegging too
    game = pyspiel.load_game("python_port_cribbage_pegging", {"cards": 2})

A whole deal (six cards each from 52) is far beyond a tabular CFR; the end of its play
is not. The cut: the lay-away and the cut are behind, a count has just ended (or the
play is starting), each seat holds ``cards`` cards (1 to 4), and the pone (the seat
that is not ``dealer``) leads to a new count from zero. Chance deals the two hands,
each as one outcome, from a small ``deck`` (the pone's first, then the dealer's from
the rest), so the possible hands are a fixed small set. The play then goes to its
last card by the engine's rules: ``port.cribbage.rules.state.HandState``'s ``play``
and ``go`` make every move and peg every point (fifteens, pairs, runs, 31, the go and
the last card), and whose turn it is, when a seat must say GO and when a count ends
are the engine's too. The show is not counted: the returns are the points each seat
pegged in the cut less the other's.

With ``cards=4`` the cut is the whole play of a deal after the lay-away (the engine's
deal, the hands replaced by the dealt ones): the same moves and points as a real deal
played on ``port.cribbage.rules.search.Position``.

Actions are the environments' (``port.cribbage.spaces``): card c (0..51) plays it,
52 says GO. Information states: the seat's dealt cards and every move so far (perfect
recall); observations: what the seat sees now (its cards, the count, the cards
played). docs/envs.md, "CFR on a cut of Cribbage: the pegging endgame".
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from port.extras import need

need("openspiel", "pyspiel", "numpy")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from port.cards import CARDS, Card, parse, text  # noqa: E402
from port.cribbage.rules.options import Options  # noqa: E402
from port.cribbage.rules.scoring import JACK  # noqa: E402
from port.cribbage.rules.search import GO, N_ACTIONS  # noqa: E402
from port.cribbage.rules.state import HAND_SIZE, LAST_COUNT, Act, HandState, Phase  # noqa: E402
from port.openspiel.games import game_type  # noqa: E402

NAME = "python_port_cribbage_pegging"
MAX_CARDS = 4                      # the four kept cards: the whole play of a deal
# The default deck: small enough for a tabular CFR with two cards each (8 cards, 420
# deals), and with every way of pegging in it: fifteens (a 5 and a ten, A 4 and a
# ten), a pair (the 5s), runs (T J Q, J Q K), 31 (three tens and the ace), and the go
# (three tens, then a 4 or a 5 does not fit).
DECK = "AS 4H 5D 5C TS JH QD KC"
PARAMS = {"cards": 2, "deck": DECK, "dealer": 1}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

TYPE = game_type(NAME, "Cribbage's pegging endgame (the DOS game's rules, port.cribbage)", PARAMS)


def pegging_hand(dealer: int, pone_cards: list[Card], dealer_cards: list[Card],
                 options: Options = Options()) -> HandState:
    """The engine's deal at the start of the cut: a real deal (``HandState.from_cards``)
    whose lay-away and cut the engine makes, its hands then replaced by the cut's
    cards. The rest (the six-card hands' other cards, the crib and the starter) comes
    from cards outside the cut, none a jack (no heels): the play never sees them."""
    used = set(pone_cards) | set(dealer_cards)
    spare = [c for c in CARDS if c not in used and c.rank != JACK]
    fill = [spare[:HAND_SIZE - len(pone_cards)], spare[6:6 + HAND_SIZE - len(dealer_cards)]]
    hand = HandState.from_cards(dealer, list(pone_cards) + fill[0], list(dealer_cards) + fill[1],
                                spare[12], options=options)
    pone = 1 - dealer
    hand.discard(pone, fill[0][:2])
    hand.discard(dealer, fill[1][:2])
    for seat, cards in ((pone, pone_cards), (dealer, dealer_cards)):
        hand.hands[seat] = list(cards)
        hand.kept[seat] = tuple(cards)
    # The engine chose whose turn it is with four cards each; with these, the pone
    # still leads (it holds a card, and any card fits a count of zero).
    assert hand.phase is Phase.PLAY and hand.to_act == pone and hand.count == 0
    return hand


@dataclass(frozen=True)
class Cut:
    """What a game of the cut fixes: each seat's cards, the dealer, the deck, and the
    hands chance can deal (``combinations(deck, cards)``, by outcome number)."""

    cards: int
    dealer: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]

    def __deepcopy__(self, memo: dict) -> Cut:
        return self        # immutable: OpenSpiel's clone (a deepcopy of each attribute) shares it


class Play:
    """What changes as the cut is played: the hands dealt (the pone's, then the
    dealer's), the engine's deal, and every player move. Its deepcopy (which
    OpenSpiel's clone makes of each attribute) is the engine's own cheap copy."""

    __slots__ = ("dealt", "hand", "start", "moves")

    def __init__(self) -> None:
        self.dealt: list[tuple[Card, ...]] = []
        self.hand: HandState | None = None
        self.start = 0                              # the engine's events before the cut
        self.moves: list[tuple[int, int]] = []      # (seat, action)

    def __deepcopy__(self, memo: dict) -> Play:
        new = Play.__new__(Play)
        new.dealt, new.start, new.moves = list(self.dealt), self.start, list(self.moves)
        new.hand = self.hand.copy() if self.hand is not None else None
        return new

    def __getstate__(self) -> tuple:                # pickled for OpenSpiel's serialize
        return (self.dealt, self.hand, self.start, self.moves)

    def __setstate__(self, state: tuple) -> None:
        self.dealt, self.hand, self.start, self.moves = state


class PeggingGame(pyspiel.Game):
    """``python_port_cribbage_pegging``: see the module."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**PARAMS, **(params or {})}
        cards, dealer = int(p["cards"]), int(p["dealer"])
        try:
            deck = tuple(sorted(parse(str(p["deck"]))))
        except ValueError as e:
            raise ValueError(f"the deck is cards like {DECK!r}: {e}") from None
        if len(set(deck)) != len(deck):
            raise ValueError(f"a card is twice in the deck {p['deck']!r}")
        if not 1 <= cards <= MAX_CARDS:
            raise ValueError(f"cards is 1 to {MAX_CARDS} (each seat's cards), not {cards}")
        if len(deck) < 2 * cards:
            raise ValueError(f"the deck needs {2 * cards} cards or more for {cards} each, not {len(deck)}")
        if dealer not in (0, 1):
            raise ValueError(f"dealer is seat 0 or 1, not {dealer}")
        self.cut = Cut(cards, dealer, deck, tuple(combinations(deck, cards)))
        self.max_moves = 4 * cards      # each card once, and at most one GO a count
        bound = float(max_points(cards))
        info = pyspiel.GameInfo(num_distinct_actions=N_ACTIONS, max_chance_outcomes=len(self.cut.hands),
                                num_players=2, min_utility=-bound, max_utility=bound, utility_sum=0.0,
                                max_game_length=self.max_moves)
        super().__init__(TYPE, info, p)

    def new_initial_state(self) -> PeggingState:
        return PeggingState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PeggingObserver:
        # None is OpenSpiel's default observation (not perfect recall).
        return PeggingObserver(self, bool(iig_obs_type is not None and iig_obs_type.perfect_recall))

    def deals(self) -> int:
        """How many deals chance can make."""
        n, k = len(self.cut.deck), self.cut.cards
        return comb(n, k) * comb(n - k, k)


def max_points(cards: int) -> int:
    """A bound on a seat's pegging in the cut: no card pegs more than 12 for its pairs
    or one point a card for a run, 2 for 15 or 31, and 1 for a go."""
    return 2 * cards * (12 + 2 * cards + 2 + 1)


class PeggingState(pyspiel.State):
    """The cut being played: chance's two deals, then the engine's play. Its only
    attributes are ``cut`` (shared) and ``play`` (copied): OpenSpiel's clone deep-copies
    each attribute."""

    def __init__(self, game: PeggingGame) -> None:
        super().__init__(game)
        self.cut = game.cut
        self.play = Play()

    # -- whose turn

    def current_player(self) -> int:
        h = self.play.hand
        if h is None:
            return _CHANCE
        if h.phase is not Phase.PLAY:
            return _TERMINAL
        return h.to_act                              # type: ignore[return-value]

    def is_terminal(self) -> bool:
        h = self.play.hand
        return h is not None and h.phase is not Phase.PLAY

    def _legal_actions(self, player: int) -> list[int]:
        h = self.play.hand
        assert h is not None
        plays = h.legal_plays(player)
        return sorted(int(c) for c in plays) if plays else [GO]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = self.play.dealt
        taken = set(dealt[0]) if dealt else set()
        ids = [i for i, h in enumerate(self.cut.hands) if not taken.intersection(h)]
        p = 1.0 / len(ids)
        return [(i, p) for i in ids]

    # -- moves

    def _apply_action(self, action: int) -> None:
        action = int(action)
        play = self.play
        if play.hand is None:
            play.dealt.append(self.cut.hands[action])
            if len(play.dealt) == 2:
                pone, dealer = play.dealt
                play.hand = pegging_hand(self.cut.dealer, list(pone), list(dealer))
                play.start = len(play.hand.events)
            return
        h = play.hand
        seat = h.to_act
        assert seat is not None
        play.moves.append((seat, action))
        if action == GO:
            h.go(seat)              # the engine refuses a GO from a seat that can play
        else:
            h.play(seat, Card(action))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        peg = self.play.hand.pegging                 # type: ignore[union-attr]
        d = float(peg[0] - peg[1])
        return [d, -d]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            who = "pone" if not self.play.dealt else "dealer"
            return f"{who} dealt {text(self.cut.hands[action])}"
        return "go" if action == GO else str(Card(action))

    # -- what a seat knows

    def seat_cards(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` was dealt (none before its deal)."""
        index = 1 if player == self.cut.dealer else 0
        dealt = self.play.dealt
        return dealt[index] if len(dealt) > index else ()

    def history_of(self, player: int) -> str:
        """The seat's dealt cards and every move so far."""
        moves = " ".join(f"{s}:{'go' if a == GO else Card(a)}" for s, a in self.play.moves)
        return f"p{player} dealer {self.cut.dealer} | {text(self.seat_cards(player))} | {moves}"

    def seen_by(self, player: int) -> str:
        """What the seat sees now: its cards, the count, the cards played, the GOs."""
        h = self.play.hand
        if h is None:
            return f"p{player} dealer {self.cut.dealer} | {text(self.seat_cards(player))}"
        played = " ".join(f"{s}:{c}" for s, c in h.played)
        return (f"p{player} dealer {self.cut.dealer} | {text(h.hands[player])} | count {h.count} "
                f"{text(h.count_cards)} | played {played} | go {int(h.said_go[0])}{int(h.said_go[1])} | "
                f"pegged {h.pegging[0]} {h.pegging[1]}")

    def pegging_words(self) -> list[str]:
        """What the engine said each point was for, in order ("fifteen for 2", "go for 1")."""
        h = self.play.hand
        if h is None:
            return []
        return [e.words for e in h.events[self.play.start:] if e.points and e.act in (Act.PLAY, Act.GO_POINT)]

    def __str__(self) -> str:
        h = self.play.hand
        if h is None:
            return f"dealing: {' / '.join(text(d) for d in self.play.dealt)}"
        return (f"{text(h.hands[0])} / {text(h.hands[1])} | count {h.count} {text(h.count_cards)} | "
                f"to {h.to_act} | pegged {h.pegging[0]} {h.pegging[1]}")


class PeggingObserver:
    """OpenSpiel's Python observer for the cut. Perfect recall (the information state):
    the seat's dealt cards, then each move in turn as its seat and its action (one-hot).
    Otherwise (the observation): the cards the seat holds, the count's cards, the cards
    each seat played before this count, the count, and who said GO."""

    def __init__(self, game: PeggingGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        if perfect_recall:
            size = 52 + game.max_moves * (2 + N_ACTIONS)
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"dealt": self.tensor[:52],
                         "moves": self.tensor[52:].reshape(game.max_moves, 2 + N_ACTIONS)}
        else:
            self.tensor = np.zeros(4 * 52 + 3, np.float32)
            self.dict = {"hand": self.tensor[:52], "count_cards": self.tensor[52:104],
                         "mine_before": self.tensor[104:156], "theirs_before": self.tensor[156:208],
                         "count": self.tensor[208:209], "said_go": self.tensor[209:211]}

    def set_from(self, state: PeggingState, player: int) -> None:
        self.tensor.fill(0.0)
        if self.perfect_recall:
            for c in state.seat_cards(player):
                self.dict["dealt"][c] = 1.0
            rows = self.dict["moves"]
            for i, (seat, action) in enumerate(state.play.moves):
                rows[i, 0 if seat == player else 1] = 1.0
                rows[i, 2 + action] = 1.0
            return
        h = state.play.hand
        if h is None:
            for c in state.seat_cards(player):
                self.dict["hand"][c] = 1.0
            return
        for c in h.hands[player]:
            self.dict["hand"][c] = 1.0
        in_count = set(h.count_cards)
        for c in h.count_cards:
            self.dict["count_cards"][c] = 1.0
        for seat, c in h.played:
            if c not in in_count:
                self.dict["mine_before" if seat == player else "theirs_before"][c] = 1.0
        self.dict["count"][0] = h.count / LAST_COUNT
        self.dict["said_go"][0] = float(h.said_go[player])
        self.dict["said_go"][1] = float(h.said_go[1 - player])

    def string_from(self, state: PeggingState, player: int) -> str:
        return state.history_of(player) if self.perfect_recall else state.seen_by(player)


def register() -> None:
    """Register the cut with OpenSpiel (once; ``import port.openspiel`` does it)."""
    if NAME not in set(pyspiel.registered_names()):
        pyspiel.register_game(TYPE, PeggingGame)


__all__ = ["DECK", "NAME", "Cut", "PeggingGame", "PeggingState", "max_points", "pegging_hand", "register"]
