"""Both games as OpenSpiel Python games, on the port's own rules engines.

    import pyspiel
    import port.openspiel          # registers python_port_ginrummy and python_port_cribbage
    game = pyspiel.load_game("python_port_ginrummy", {"score_limit": 0})
    state = game.new_initial_state()

Chance nodes deal the cards one at a time (GinRummy: ten to each seat, the first
mover's first, then the upcard; Cribbage: the cut for the first deal, then six each),
draw each card taken from the stock, and cut Cribbage's starter; so the stock has no
order until a card is drawn from it, as in OpenSpiel's own card games. The players'
actions are the environments' action numbers (docs/envs.md); the moves are made by the
engine (``port.ginrummy.rules.search.Position``, ``port.cribbage.rules.search.Position``).

Parameters: GinRummy's ``gin_bonus``, ``undercut_bonus``, ``oklahoma``, ``knocking``
and ``score_limit`` (0, the default: one hand, the returns its points; otherwise a
game to that score, the returns +1 to the winner and -1 to the other; the first turn
alternates from hand to hand, as the match runner plays it). Cribbage's ``limit``
(121 or 61), ``skunking`` and ``deals`` (1, the default: one deal, the returns each
seat's points less the other's; 0: a whole game to the limit, +1 and -1).

Information states: the string is the seat's whole history as its ``View`` holds it
(its cards, every public event, its own stock draws' cards), so two states have the
same string exactly when the seat cannot tell them apart; ``resample_from_infostate``
draws a state of the same string with ``sample_world``, from the seat's view alone
(never from the true state). The tensors (information state and observation alike)
are the environments' observation arrays; with the parameter ``recall_tensor`` (both
games) the information state's is perfect recall: the observation array, then the
hand's (the deal's) events in order (docs/envs.md, "OpenSpiel").
"""
from __future__ import annotations

import random
from typing import Any

from port.extras import need

need("openspiel", "pyspiel", "numpy")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from port.cards import CARDS, Card, PascalRandom, text  # noqa: E402
from port.cribbage import spaces as cs  # noqa: E402
from port.cribbage.rules import search as crib  # noqa: E402
from port.cribbage.rules.options import Options as CribOptions  # noqa: E402
from port.cribbage.rules.state import Act as CribAct, GameState, HandState as CribHand, Phase as CribPhase  # noqa: E402
from port.ginrummy import spaces as gs  # noqa: E402
from port.ginrummy.rules import search as gin  # noqa: E402
from port.ginrummy.rules.options import FirstTurn, Options as GinOptions  # noqa: E402
from port.ginrummy.rules.state import DRAW_AT, HAND_SIZE, PILE_RUN_LIMIT, Act as GinAct, Game, HandState, Phase  # noqa: E402

GIN_NAME, CRIB_NAME = "python_port_ginrummy", "python_port_cribbage"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
RESAMPLE_TRIES = 20000   # exact draws (cheap: the knock questions first) before a resample takes the chain
_TIGHT: set[str] = set()  # information states whose exact draws failed: the chain at once
RESAMPLED = {"exact": 0, "chain": 0}   # GinRummy worlds resampled so far, by how they were drawn
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def game_type(short: str, long: str, params: dict[str, Any]) -> pyspiel.GameType:
    """A two-player, zero-sum, imperfect-information game with explicit chance: all of ours."""
    return pyspiel.GameType(
        short_name=short, long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


GIN_PARAMS = {"gin_bonus": 25, "undercut_bonus": 25, "oklahoma": False, "knocking": True, "score_limit": 0,
              "recall_tensor": False}
CRIB_PARAMS = {"limit": 121, "skunking": False, "deals": 1, "recall_tensor": False}
GIN_TYPE = game_type(GIN_NAME, "GinRummy (the DOS game's rules, port.ginrummy)", GIN_PARAMS)
CRIB_TYPE = game_type(CRIB_NAME, "Cribbage (the DOS game's rules, port.cribbage)", CRIB_PARAMS)


# ---- what both games share ------------------------------------------------------------

class _Observer:
    """OpenSpiel's Python observer: the environment's observation array as the tensor;
    the string the seat's whole history (perfect recall) or what it sees now. With the
    game's ``recall_tensor``, the information state's tensor (perfect recall) is the
    observation array followed by the hand's history (``history_planes``)."""

    def __init__(self, size: int, perfect_recall: bool, recall_tensor: bool) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall
        self.recall_tensor = recall_tensor

    def set_from(self, state: Any, player: int) -> None:
        if self.recall_tensor:
            state.recall_tensor_of(player, self.tensor)
        elif state.pos is None:
            # Before the first deal, and the new state OpenSpiel makes at every
            # observation_tensor() call only to learn the tensor's shape: all zeros.
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.tensor_of(player)

    def string_from(self, state: Any, player: int) -> str:
        return state.history_of(player) if self.perfect_recall else state.seen_by(player)


class _Game(pyspiel.Game):
    size = 0                            # the observation tensor's floats
    actions = 0                         # the distinct actions
    acts: tuple[Any, ...] = ()          # the game's kinds of public event (its ``Act``)
    max_events = 0                      # the most events a hand (a deal) can have

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        history = recall and self.recall_tensor
        size = self.size + (1 + self.max_events * event_width(self.acts) if history else 0)
        return _Observer(size, recall, history)


def event_width(acts: tuple[Any, ...]) -> int:
    """The floats of one event in ``history_planes``: whose (1: the seat's own), which
    kind (one of ``acts``), which card (one of 52, none when hidden or cardless)."""
    return 1 + len(acts) + 52


def history_planes(out: np.ndarray, events: Any, seat: int, acts: tuple[Any, ...], number: float) -> None:
    """Write into ``out`` (zeros, one float and then room for a hand's most events) the
    hand's number (the hands before, over 100) and each public event as the seat saw
    it, in order: the perfect-recall part of the information-state tensor."""
    out[0] = number
    width = event_width(acts)
    kind = {a: 1 + i for i, a in enumerate(acts)}
    ones = []
    for k, e in enumerate(events):
        base = 1 + k * width
        if e.seat == seat:
            ones.append(base)
        ones.append(base + kind[e.act])
        if e.card is not None:
            ones.append(base + 1 + len(acts) + int(e.card))
    out[ones] = 1


# Chance's outcomes as OpenSpiel wants them, (card, probability), made once: the pairs
# for n cards alike (``_PAIRS[n][c]``), shared by every list of outcomes (a chance node
# comes about every other move, and making the pairs was most of its cost).
_PAIRS = [[(c, 1.0 / n) for c in range(52)] if n else [] for n in range(53)]


def _uniform(stock: list[Card] | None, dealt: list[Card]) -> list[tuple[int, float]]:
    """Chance's outcomes, each card alike: the stock's (in card order), or else the
    cards not dealt yet."""
    if stock is not None:
        pairs = _PAIRS[len(stock)]
        return [pairs[c] for c in sorted(stock)]
    taken = set(dealt)
    pairs = _PAIRS[52 - len(taken)]
    return [pairs[c] for c in range(52) if c not in taken]


def _redeal(dealt: list[Card], mine: list[Card], rng: random.Random) -> list[Card]:
    """The cards dealt so far with the other seat's drawn again from the cards the seat
    has not seen (its own, ``mine``, stay where they are): a deal it cannot tell apart."""
    seen = set(mine)
    unseen = [c for c in CARDS if c not in seen]
    rng.shuffle(unseen)
    return [c if c in seen else unseen.pop() for c in dealt]


def _sample_rng(sampler: Any) -> random.Random:
    """A generator for a resample, seeded from OpenSpiel's probability sampler."""
    try:
        return random.Random(int(sampler() * 2 ** 53))
    except TypeError:
        return random.Random()


# ---- OpenSpiel's questions answered in Python --------------------------------------------

class _Direct:
    """OpenSpiel's own ``State`` methods answered here for callers in Python.

    OpenSpiel's Python binding answers ``legal_actions``, ``legal_actions_mask``,
    ``observation_tensor``, ``is_chance_node`` and the strings in C++, which calls
    back into the Python game (``current_player``, ``_legal_actions``, the observer)
    several times for each: about a dozen crossings a step, which cost as much as a
    whole step of the AEC environment. Methods of the same name on the Python class
    come first for a caller in Python and give the same answers the same way (lists,
    the same errors: an unusual question goes to OpenSpiel's own method); OpenSpiel's
    C++ (its algorithms in C++, ``apply_action``'s bookkeeping, ``clone``) still calls
    the underscored methods and the observers, so both roads stay open and equal
    (tests/openspiel/test_bridge.py asks both at every state of random games)."""

    _game: _Shared                                        # the state's game (a Python object)
    _turn: int | None                                     # whose turn, None until worked out again

    # Whose turn: OpenSpiel asks (``current_player``, ``is_terminal``, ``is_chance_node``,
    # from C++ and from Python) about eight times a move; worked out once after each
    # move (``_whose``) and read after. The moves themselves ask ``_over`` afresh.

    def current_player(self) -> int:
        turn = self._turn
        if turn is None:
            turn = self._turn = self._whose()             # type: ignore[attr-defined]
        return turn

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == _CHANCE

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        now = self.current_player()
        if now == _TERMINAL:
            return []
        if now == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]  # type: ignore[attr-defined]
        if player is None or player == now:
            return self._legal_actions(now)               # type: ignore[attr-defined]  (a new list each call)
        if player < 0:                                    # OpenSpiel's own error
            return pyspiel.State.legal_actions(self, player)
        return []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        if player is None:
            player = self.current_player()
        mask = [0] * (52 if player == _CHANCE else self._game.value.actions)   # max_chance_outcomes: 52 in both
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def _seat(self, player: int | None) -> int | None:
        """The seat asked about, or None where OpenSpiel's own method must answer
        (a pseudo-player: its error)."""
        if player is None:
            player = self.current_player()
        return player if player in (0, 1) else None

    def observation_tensor(self, player: int | None = None) -> list[float]:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.observation_tensor(self, player if player is not None else self.current_player())
        if self.pos is None:                              # type: ignore[attr-defined]
            return [0.0] * self._game.value.size
        return self.tensor_of(seat).tolist()              # type: ignore[attr-defined]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.information_state_tensor(self, player if player is not None else self.current_player())
        game = self._game.value
        if not game.recall_tensor:
            return self.observation_tensor(seat)
        out = np.zeros(game.size + 1 + game.max_events * event_width(game.acts), np.float32)
        self.recall_tensor_of(seat, out)                  # type: ignore[attr-defined]
        return out.tolist()

    def observation_string(self, player: int | None = None) -> str:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.observation_string(self, player if player is not None else self.current_player())
        return self.seen_by(seat)                         # type: ignore[attr-defined]

    def information_state_string(self, player: int | None = None) -> str:
        seat = self._seat(player)
        if seat is None:
            return pyspiel.State.information_state_string(self, player if player is not None else self.current_player())
        return self.history_of(seat)                      # type: ignore[attr-defined]


# ---- GinRummy -------------------------------------------------------------------------

class GinRummyGame(_Game):
    """``python_port_ginrummy``: see the module."""

    size, actions = gs.N_OBS, gs.N_ACTIONS
    acts = tuple(GinAct)
    # A hand has at most 29 stock draws and PILE_RUN_LIMIT pile draws before, between
    # and after them (the engine's bound), a discard and a knock answer after each, and
    # its end (a gin, a knock, a draw hand).
    max_events = 3 * (29 + 30 * PILE_RUN_LIMIT) + 3

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**GIN_PARAMS, **(params or {})}
        self.options = GinOptions(gin_bonus=int(p["gin_bonus"]), undercut_bonus=int(p["undercut_bonus"]),
                                  oklahoma=bool(p["oklahoma"]), knocking=bool(p["knocking"]),
                                  score_limit=int(p["score_limit"]), first_turn=FirstTurn.ALTERNATE)
        self.recall_tensor = bool(p["recall_tensor"])
        one_hand = self.options.score_limit == 0
        bound = 1.0 if not one_hand else 500.0
        info = pyspiel.GameInfo(num_distinct_actions=gs.N_ACTIONS, max_chance_outcomes=52, num_players=2,
                                min_utility=-bound, max_utility=bound, utility_sum=0.0,
                                max_game_length=3000 if one_hand else 300000)
        super().__init__(GIN_TYPE, info, p)

    def new_initial_state(self) -> GinRummyState:
        return GinRummyState(self)


class _Shared:
    """The game's options as a state's attribute: OpenSpiel copies a Python game's
    state attribute by attribute with ``deepcopy``, and frozen options need no copy."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class _Observers:
    """Each seat's observation kept up to date event by event (``Observer``, as the
    environment keeps it), not replayed from the hand's start at every step; made at
    the first tensor asked for, and a copy of the state starts afresh. The same for
    the events' part of each seat's information-state string (``texts``: the hand's
    events list it was made from, how many of them, the text): OpenSpiel's searches
    ask for that string at every step, and a hand's events are only ever appended."""

    __slots__ = ("seats", "texts")

    def __init__(self) -> None:
        self.seats: list[gs.Observer] | None = None
        self.texts: list[tuple[Any, int, str] | None] = [None, None]

    def events_text(self, events_list: Any, events: tuple[Any, ...], seat: int) -> str:
        """``events`` (the seat's view of ``events_list``) as text, extending the text
        kept for the same list with the events added since."""
        kept = self.texts[seat]
        if kept is not None and kept[0] is events_list and kept[1] <= len(events):
            if kept[1] == len(events):
                return kept[2]
            new = " ".join(map(_event_text, events[kept[1]:]))
            text = f"{kept[2]} {new}" if kept[1] else new
        else:
            text = " ".join(map(_event_text, events))
        self.texts[seat] = (events_list, len(events), text)
        return text

    def __deepcopy__(self, memo: dict) -> _Observers:
        return _Observers()

    def observe(self, view: Any) -> np.ndarray:
        if self.seats is None:
            self.seats = [gs.Observer(), gs.Observer()]
        return self.seats[view.seat].observe(view)

    def observe_hand(self, pos: gin.Position, seat: int) -> np.ndarray:
        """``observe(pos.view(seat))`` read from the hand without building the view,
        as the environment reads it."""
        if self.seats is None:
            self.seats = [gs.Observer(), gs.Observer()]
        scores = pos.game.scores
        return self.seats[seat].observe_hand(pos.game.hand, seat, (scores[0], scores[1]))


def _event_text(e: Any) -> str:
    return f"{e.seat}{e.act.value}" if e.card is None else f"{e.seat}{e.act.value} {e.card}"


class GinRummyState(_Direct, pyspiel.State):
    """A GinRummy game for OpenSpiel: chance deals each hand and draws from the stock."""

    def __init__(self, game: GinRummyGame) -> None:
        super().__init__(game)
        options = game.options
        self._options = _Shared(options)
        self._game = _Shared(game)
        self._one_hand = options.score_limit == 0
        self.pos: gin.Position | None = None   # None until the first hand is dealt
        self.dealt: list[Card] = []            # the hand being dealt, in the order dealt
        self.first = 0                          # who moves first in the hand being dealt
        self.drawing = False                    # a stock draw waits for chance's card
        self._seen = _Observers()
        self._turn: int | None = None           # whose turn (``_Direct``), None: not worked out

    @property
    def options(self) -> GinOptions:
        return self._options.value

    def __deepcopy__(self, memo: dict) -> GinRummyState:
        new = GinRummyState(self.get_game())
        new.pos = self.pos.clone() if self.pos is not None else None
        new.dealt, new.first, new.drawing = list(self.dealt), self.first, self.drawing
        return new

    # -- whose turn

    def _dealing(self) -> bool:
        return self.pos is None or self.pos.hand.phase is Phase.OVER

    def _whose(self) -> int:
        pos = self.pos
        if pos is None:
            return _CHANCE
        h = pos.hand
        if h.phase is Phase.OVER:
            return _TERMINAL if self._over() else _CHANCE
        return _CHANCE if self.drawing else h.to_move

    def _over(self) -> bool:
        pos = self.pos
        if pos is None or pos.hand.phase is not Phase.OVER:
            return False
        return self._one_hand or pos.game.over

    def _legal_actions(self, player: int) -> list[int]:
        return self.pos.legal_actions()         # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _uniform(self.pos.hand.stock if self.drawing else None, self.dealt)   # type: ignore[union-attr]

    # -- moves

    def _apply_action(self, action: int) -> None:
        try:
            self._move(int(action))
        finally:
            self._turn = None                   # whose turn: worked out again when asked

    def _move(self, action: int) -> None:
        if self.drawing:                        # chance's card goes on top, then it is drawn
            stock = self.pos.hand.stock         # type: ignore[union-attr]
            i = stock.index(Card(action))
            stock[i], stock[-1] = stock[-1], stock[i]
            self.drawing = False
            self.pos.step(gin.DRAW_STOCK)       # type: ignore[union-attr]
        elif self._dealing():
            self.dealt.append(Card(action))
            if len(self.dealt) == 2 * HAND_SIZE + 1:
                self._start_hand()
        else:
            h = self.pos.hand                   # type: ignore[union-attr]
            if action == gin.DRAW_STOCK and h.phase is Phase.DRAW and len(h.stock) > DRAW_AT:
                self.drawing = True
            else:
                self.pos.step(action)           # type: ignore[union-attr]
            if self.pos.hand.phase is Phase.OVER and not self._over():   # type: ignore[union-attr]
                self.first = self.pos.game.next_first()                         # type: ignore[union-attr]
                self.dealt = []

    def _start_hand(self) -> None:
        """The dealt cards as a hand: the first mover's ten, the other's, the upcard."""
        d = self.dealt
        taken = set(d)
        rest = [c for c in CARDS if c not in taken]          # the stock, in no order yet
        deck = rest + [d[20]] + d[:20][::-1]
        hand = HandState(self.options, deck, self.first)
        if self.pos is None:
            self.pos = gin.Position(Game(self.options, PascalRandom(0), self.first, hand=hand), "hand")
        else:
            self.pos.game.next_hand(hand)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        pos = self.pos
        assert pos is not None
        if self.options.score_limit == 0:
            return list(pos.returns())
        w = pos.game.winner
        return [0.0, 0.0] if w is None else [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {Card(action)}" if not self.drawing else f"stock gives {Card(action)}"
        return gs.action_name(action)

    # -- what a seat knows

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GinRummyState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn
        uniformly (``sample_world``, from the seat's view alone: never this state)."""
        rng = _sample_rng(probability_sampler)
        if self._dealing():
            return self._redealt(player_id, rng)
        new = GinRummyState(self.get_game())
        # A view after a play on may pass few exact draws: one found so once goes to
        # sample_world's chain at once (a search resamples the same view often).
        view = self.pos.view(player_id)      # type: ignore[union-attr]
        key = self.history_of(player_id)
        world = None if key in _TIGHT else gin.exact_world(view, rng, tries=RESAMPLE_TRIES)
        if world is None:
            if len(_TIGHT) > 10000:
                _TIGHT.clear()
            _TIGHT.add(key)
            world = gin.chained_world(view, rng)
            RESAMPLED["chain"] += 1
        else:
            RESAMPLED["exact"] += 1
        world.game.results = self.pos.game.results      # type: ignore[union-attr]
        new.pos, new.first, new.drawing = world, self.first, self.drawing
        return new

    def _redealt(self, player: int, rng: random.Random) -> GinRummyState:
        """While a hand is dealt: the other seat's cards dealt so far drawn again from
        the cards ``player`` has not seen (the hand before is over and shown)."""
        new = self.__deepcopy__({})
        new.dealt = _redeal(self.dealt, self._mine_dealt(player), rng)
        return new

    def history_of(self, player: int) -> str:
        if self.pos is None:
            return f"p{player} dealt {text(self._mine_dealt(player))}"
        v = self.pos.view(player)
        events = self._seen.events_text(self.pos.hand.events, v.events, player)
        return (f"p{player} hand {self.pos.game.hands_played + 1} scores {v.scores} | {text(v.hand)} | "
                f"up {v.upcard} | {v.phase.value} {v.to_move} | {events}"
                + (" | dealing" if self._dealing() else ""))

    def seen_by(self, player: int) -> str:
        if self.pos is None:
            return f"p{player} dealt {text(self._mine_dealt(player))}"
        v = self.pos.view(player)
        return (f"p{player} scores {v.scores} | {text(v.hand)} | pile {text(v.pile)} | stock {v.stock_count} | "
                f"{v.phase.value} {v.to_move}")

    def _mine_dealt(self, player: int) -> list[Card]:
        return self.dealt[(player - self.first) % 2:2 * HAND_SIZE:2]

    def tensor_of(self, player: int) -> np.ndarray:
        if self.pos is None:
            return np.zeros(gs.N_OBS, np.float32)
        return self._seen.observe_hand(self.pos, player)

    def recall_tensor_of(self, player: int, out: np.ndarray) -> None:
        """The perfect-recall information-state tensor into ``out``: the observation,
        then the hand's number and its events as ``player`` saw them."""
        out[:] = 0
        if self.pos is None:
            return
        view = self.pos.view(player)
        out[:gs.N_OBS] = self._seen.observe(view)
        history_planes(out[gs.N_OBS:], view.events, player, GinRummyGame.acts, self.pos.game.hands_played / 100)

    def __str__(self) -> str:
        if self.pos is None:
            return f"dealing {text(self.dealt)}"
        h = self.pos.hand
        return (f"{text(h.hand(0))} / {text(h.hand(1))} | pile {text(h.pile)} | stock {len(h.stock)} | "
                f"{h.phase.value} {h.to_move} | scores {self.pos.game.scores}")


# ---- Cribbage -------------------------------------------------------------------------

class CribbageGame(_Game):
    """``python_port_cribbage``: see the module."""

    size, actions = cs.N_OBS, cs.N_ACTIONS
    acts = tuple(CribAct)
    # A deal: two lay-aways, the starter, eight cards played, a GO or a go point after
    # each at most twice over, three shows.
    max_events = 2 + 1 + 8 * 3 + 3

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**CRIB_PARAMS, **(params or {})}
        self.options = CribOptions(limit=int(p["limit"]), skunking=bool(p["skunking"]))
        self.recall_tensor = bool(p["recall_tensor"])
        self.deals = int(p["deals"])
        if self.deals not in (0, 1):
            raise ValueError(f"deals is 1 (one deal) or 0 (a whole game), not {self.deals}")
        bound = 200.0 if self.deals else 1.0
        info = pyspiel.GameInfo(num_distinct_actions=cs.N_ACTIONS, max_chance_outcomes=52, num_players=2,
                                min_utility=-bound, max_utility=bound, utility_sum=0.0,
                                max_game_length=60 if self.deals else 2000)
        super().__init__(CRIB_TYPE, info, p)

    def new_initial_state(self) -> CribbageState:
        return CribbageState(self)


class CribbageState(_Direct, pyspiel.State):
    """A Cribbage game for OpenSpiel: chance cuts for the deal, deals, and cuts the starter."""

    def __init__(self, game: CribbageGame) -> None:
        super().__init__(game)
        self._options = _Shared(game.options)
        self._game = _Shared(game)
        self.whole = game.deals == 0
        self.pos: crib.Position | None = None
        self.dealer: int | None = None          # cut for the first deal by chance
        self.dealt: list[Card] = []
        self.cutting: int | None = None         # the last lay-away, waiting for the cut
        self._turn: int | None = None           # whose turn (``_Direct``), None: not worked out

    @property
    def options(self) -> CribOptions:
        return self._options.value

    def __deepcopy__(self, memo: dict) -> CribbageState:
        new = CribbageState(self.get_game())
        new.pos = self.pos.clone() if self.pos is not None else None
        new.dealer, new.dealt, new.cutting = self.dealer, list(self.dealt), self.cutting
        return new

    def _dealing(self) -> bool:
        return self.pos is None or (self.pos.hand.phase is CribPhase.DONE and not self._over())

    def _whose(self) -> int:
        pos = self.pos
        if pos is None or self.cutting is not None:
            return _CHANCE
        h = pos.hand
        if h.winner is not None:
            return _TERMINAL
        if h.phase is CribPhase.DONE:
            return _CHANCE if self.whole else _TERMINAL
        return pos.to_move()                    # type: ignore[return-value]

    def _over(self) -> bool:
        pos = self.pos
        if pos is None:
            return False
        h = pos.hand
        return h.winner is not None or (not self.whole and h.phase is CribPhase.DONE)

    def _legal_actions(self, player: int) -> list[int]:
        return self.pos.legal_actions()         # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            return [(0, 0.5), (1, 0.5)]         # the cut for the first deal: either seat alike
        return _uniform(self.pos.hand.stock if self.cutting is not None else None, self.dealt)   # type: ignore[union-attr]

    def _apply_action(self, action: int) -> None:
        try:
            self._move(int(action))
        finally:
            self._turn = None                   # whose turn: worked out again when asked

    def _move(self, action: int) -> None:
        if self.dealer is None:
            self.dealer = action
        elif self.cutting is not None:          # chance's card is the starter
            stock = self.pos.hand.stock         # type: ignore[union-attr]
            i = stock.index(Card(action))
            stock[i], stock[-1] = stock[-1], stock[i]
            last, self.cutting = self.cutting, None
            self.pos.step(last)                 # type: ignore[union-attr]
        elif self._dealing():
            self.dealt.append(Card(action))
            if len(self.dealt) == 12:
                self._start_deal()
        else:
            pos = self.pos
            assert pos is not None
            h = pos.hand
            if h.phase is CribPhase.DISCARD and pos.pending is not None and h.cribs[1 - h.to_act]:
                if action not in pos.legal_actions():
                    pos.step(action)            # refused, in the engine's words
                self.cutting = action           # both have laid away: the cut comes first
            else:
                pos.step(action)
            if pos.hand.phase is CribPhase.DONE and not self._over():
                self.dealt = []

    def _start_deal(self) -> None:
        d = self.dealt
        taken = set(d)
        rest = [c for c in CARDS if c not in taken]
        pos = self.pos
        if pos is None:
            hand = CribHand(self.dealer, rest + d[::-1], (0, 0), self.options)   # type: ignore[arg-type]
            self.pos = crib.Position(GameState.at(hand, PascalRandom(0)), "hand")
            return
        game = pos.game
        scores = game.hand.scores
        game.hand = CribHand(1 - game.hand.dealer, rest + d[::-1], scores, self.options)
        game.scores = scores
        game.hands_dealt += 1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        pos = self.pos
        assert pos is not None
        if not self.whole:
            return list(pos.returns())
        return [1.0, -1.0] if pos.hand.winner == 0 else [-1.0, 1.0]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self.dealer is None:
                return f"seat {action} deals"
            return f"cut {Card(action)}" if self.cutting is not None else f"deal {Card(action)}"
        return cs.action_name(action, self.pos.hand.phase if self.pos else CribPhase.PLAY)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CribbageState:
        """A state ``player_id`` cannot tell from this one, the hidden cards drawn
        uniformly (``sample_world``, from the seat's view alone: never this state)."""
        rng = _sample_rng(probability_sampler)
        if self.dealer is None:
            return self.__deepcopy__({})            # the cut for the first deal: nothing hidden yet
        if self._dealing():
            new = self.__deepcopy__({})
            new.dealt = _redeal(self.dealt, self._mine_dealt(player_id), rng)
            return new
        pos = self.pos
        assert pos is not None
        mover = pos.to_move()
        world = crib.sample_world(pos.view(player_id), rng, pending=pos.pending if mover == player_id else None)
        world.game.hands_dealt = pos.game.hands_dealt
        new = CribbageState(self.get_game())
        new.pos, new.dealer = world, self.dealer
        if self.cutting is not None:                # both have laid away; the cut waits
            if mover == player_id:
                new.cutting = self.cutting          # the seat's own two cards
            else:                                   # the other's two: any two of its six alike
                world.pending, new.cutting = (Card(c) for c in rng.sample(world.legal_actions(), 2))
        return new

    def _pending(self, player: int) -> Card | None:
        pos = self.pos
        return pos.pending if pos is not None and pos.hand.to_act == player else None

    def history_of(self, player: int) -> str:
        if self.pos is None:
            return f"p{player} dealer {self.dealer} dealt {text(self._mine_dealt(player))}"
        v = self.pos.view(player)
        events = " ".join(f"{e.seat}{e.act.value}{'' if e.card is None else ' ' + str(e.card)}" for e in v.events)
        return (f"p{player} deal {self.pos.game.hands_dealt} dealer {v.dealer} scores {v.scores} | "
                f"{text(v.hand)} | crib {text(v.my_crib)} | pending {self._pending(player)} | {events}"
                + (" | dealing" if self._dealing() else ""))

    def _mine_dealt(self, player: int) -> list[Card]:
        if self.dealer is None:
            return []
        first = 1 - self.dealer
        return self.dealt[(player - first) % 2::2]

    def seen_by(self, player: int) -> str:
        if self.pos is None:
            return self.history_of(player)
        v = self.pos.view(player)
        return (f"p{player} dealer {v.dealer} scores {v.scores} | {text(v.hand)} | pending {self._pending(player)} "
                f"| count {v.count} {text(v.count_cards)} | starter {v.starter} | {v.phase.value} {v.to_act}")

    def tensor_of(self, player: int) -> np.ndarray:
        if self.pos is None:
            return np.zeros(cs.N_OBS, np.float32)
        # The deal read without building a view, as the environment reads it.
        return cs.observation_from(self.pos.game.hand, player, self._pending(player))

    def recall_tensor_of(self, player: int, out: np.ndarray) -> None:
        """The perfect-recall information-state tensor into ``out``: the observation,
        then the deal's number and its events as ``player`` saw them."""
        out[:] = 0
        if self.pos is None:
            return
        out[:cs.N_OBS] = self.tensor_of(player)
        history_planes(out[cs.N_OBS:], self.pos.view(player).events, player, CribbageGame.acts,
                       self.pos.game.hands_dealt / 100)

    def __str__(self) -> str:
        if self.pos is None:
            return f"dealer {self.dealer} dealing {text(self.dealt)}"
        return repr(self.pos.hand)


def register() -> None:
    """Register both games with OpenSpiel (once; ``import port.openspiel`` does it)."""
    known = set(pyspiel.registered_names())
    if GIN_NAME not in known:
        pyspiel.register_game(GIN_TYPE, GinRummyGame)
    if CRIB_NAME not in known:
        pyspiel.register_game(CRIB_TYPE, CribbageGame)


__all__ = ["CRIB_NAME", "CribbageGame", "CribbageState", "GIN_NAME", "GinRummyGame", "GinRummyState", "register"]
