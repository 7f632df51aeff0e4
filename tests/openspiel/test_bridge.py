"""Both games as OpenSpiel games (``port.openspiel``): OpenSpiel's own random-simulation
checks, resampling of information states, and its ISMCTS bot playing on our rules."""
from __future__ import annotations

import random
from typing import Any
import tracemalloc

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ginrummy[openspiel]')")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import port.openspiel  # noqa: E402,F401  (registers the games)
from port.openspiel import CRIB_NAME, GIN_NAME  # noqa: E402


@pytest.mark.parametrize("name,params", [(GIN_NAME, {"oklahoma": True, "gin_bonus": 20}),
                                         (CRIB_NAME, {}), (CRIB_NAME, {"deals": 0, "limit": 61})],
                         ids=["gin-hand", "crib-deal", "crib-game-61"])
def test_openspiels_random_simulation_checks_pass(name: str, params: dict) -> None:
    """(A random GinRummy hand is long: hundreds of moves, mostly ending drawn.)"""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def play_randomly(game: object, rng: random.Random, check: object = None) -> object:
    state = game.new_initial_state()                                        # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if check is not None:
            check(state)
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", [GIN_NAME, CRIB_NAME])
def test_a_resampled_state_has_the_same_information_state_and_legal_actions(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = []

    def check(state: object) -> None:
        if rng.random() < 0.3:
            p = state.current_player()                                      # type: ignore[attr-defined]
            other = state.resample_from_infostate(p, sampler)               # type: ignore[attr-defined]
            assert other.information_state_string(p) == state.information_state_string(p)  # type: ignore[attr-defined]
            assert other.legal_actions() == state.legal_actions()           # type: ignore[attr-defined]
            assert np.array_equal(other.information_state_tensor(p), state.information_state_tensor(p))  # type: ignore[attr-defined]
            checked.append(p)

    for _ in range(3):
        end = play_randomly(game, rng, check)
        assert sum(end.returns()) == 0                                      # type: ignore[attr-defined]
    assert len(checked) > 5


def test_the_tensors_are_the_environments_observations() -> None:
    from port.cribbage import spaces as cs
    from port.ginrummy import spaces as gs

    for name, size in ((GIN_NAME, gs.N_OBS), (CRIB_NAME, cs.N_OBS)):
        game = pyspiel.load_game(name)
        assert game.observation_tensor_size() == game.information_state_tensor_size() == size
        assert game.num_distinct_actions() == (gs.N_ACTIONS if name == GIN_NAME else cs.N_ACTIONS)


def test_openspiels_ismcts_bot_plays_a_cribbage_deal_on_our_rules() -> None:
    game = pyspiel.load_game(CRIB_NAME)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), uct_c=10.0,
                           max_simulations=20, random_state=np.random.RandomState(2))
    rng = random.Random(4)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert moves >= 4 and sum(state.returns()) == 0


def test_a_whole_game_returns_one_to_the_winner() -> None:
    game = pyspiel.load_game(CRIB_NAME, {"deals": 0, "limit": 61})
    end = play_randomly(game, random.Random(5))
    assert sorted(end.returns()) == [-1.0, 1.0]                             # type: ignore[attr-defined]
    assert max(end.pos.hand.scores) == 61                                   # type: ignore[attr-defined]


@pytest.mark.parametrize("name,params", [(GIN_NAME, {"score_limit": 1}), (CRIB_NAME, {"deals": 0, "limit": 61})],
                         ids=["gin-game", "crib-game"])
def test_the_tensors_and_whose_turn_match_the_views_at_every_move_and_in_copies(name: str, params: dict) -> None:
    """The bridge reads its tensors from the hand (GinRummy's observers keep their
    replay from move to move) and remembers whose turn it is between moves: both must
    say what the seat's view says, through several hands and in copies made mid-hand."""
    from port.cribbage import spaces as cs
    from port.ginrummy import spaces as gs

    game = pyspiel.load_game(name, params)
    rng = random.Random(7)          # GinRummy: nine hands to the first points (most are drawn)
    copies = []

    def expected(state: object, p: int) -> np.ndarray:
        view = state.pos.view(p)                                            # type: ignore[attr-defined]
        if name == GIN_NAME:
            return gs.observation_of(view)
        return cs.observation_of(view, state._pending(p))                   # type: ignore[attr-defined]

    def check(state: object) -> None:
        seat = state.pos.hand.to_move if name == GIN_NAME else state.pos.hand.to_act  # type: ignore[attr-defined]
        assert state.current_player() == seat and not state.is_chance_node()  # type: ignore[attr-defined]
        for p in (0, 1):
            assert np.array_equal(state.observation_tensor(p), expected(state, p))  # type: ignore[attr-defined]
        if taking and rng.random() < 0.1:
            copies.append(state.clone())                                    # type: ignore[attr-defined]

    taking = True
    end = play_randomly(game, rng, check)
    taking = False
    assert end.pos.game.hands_played >= 2 if name == GIN_NAME else end.pos.game.hands_dealt >= 2  # type: ignore[attr-defined]
    assert len(copies) > 3
    for state in copies[:4]:                                                # a copy goes on by itself
        play_randomly_from(state, rng, check, moves=60)


@pytest.mark.parametrize("name,params", [(GIN_NAME, {"score_limit": 1}), (GIN_NAME, {"recall_tensor": True}),
                                         (CRIB_NAME, {"deals": 0, "limit": 61, "recall_tensor": True})],
                         ids=["gin-game", "gin-recall", "crib-game"])
def test_the_answers_in_python_are_openspiels_own_at_every_state(name: str, params: dict) -> None:
    """The bridge answers OpenSpiel's questions in Python for callers in Python
    (``_Direct``); OpenSpiel's own methods (``pyspiel.State.x(state, ...)``, through
    C++ and back) must give the same at every state: chance, player and terminal
    nodes, every seat asked, and OpenSpiel's errors for a pseudo-player."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(11)
    kinds = set()
    cpp = pyspiel.State
    steps = [0]

    def same(state: object) -> None:
        s: Any = state
        assert s.current_player() == s._whose() == cpp.current_player(s)
        assert s.is_terminal() == s._over() and s.is_chance_node() == cpp.is_chance_node(s)
        assert s.is_player_node() == cpp.is_player_node(s)
        kinds.add(s.current_player())
        assert s.legal_actions() == cpp.legal_actions(s)
        assert s.legal_actions_mask() == cpp.legal_actions_mask(s)
        for p in (0, 1):
            assert s.legal_actions(p) == cpp.legal_actions(s, p)
            assert s.legal_actions_mask(p) == cpp.legal_actions_mask(s, p)
            assert s.observation_tensor(p) == cpp.observation_tensor(s, p)
            if steps[0] % 40 == 0 or name == CRIB_NAME:        # GinRummy's recall tensor: 119,505 floats
                assert s.information_state_tensor(p) == cpp.information_state_tensor(s, p)
            assert s.observation_string(p) == cpp.observation_string(s, p)
            assert s.information_state_string(p) == cpp.information_state_string(s, p)
        if s.is_chance_node():
            assert s.legal_actions_mask(-1) == cpp.legal_actions_mask(s, -1)
        if s.is_player_node():
            assert s.observation_tensor() == cpp.observation_tensor(s)
            assert s.information_state_string() == cpp.information_state_string(s)
            assert type(s.observation_tensor()) is list and type(s.legal_actions_mask()) is list
        else:
            for ask in ("observation_tensor", "information_state_string"):
                with pytest.raises(pyspiel.SpielError):
                    getattr(cpp, ask)(s)
                with pytest.raises(pyspiel.SpielError):
                    getattr(s, ask)()

    while not state.is_terminal():
        same(state)
        steps[0] += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            if rng.random() < 0.05:
                state = state.clone()                 # a copy answers alike
    same(state)
    assert {int(pyspiel.PlayerId.CHANCE), 0, 1, int(pyspiel.PlayerId.TERMINAL)} <= kinds


def play_randomly_from(state: object, rng: random.Random, check: object, moves: int) -> None:
    while moves and not state.is_terminal():                                # type: ignore[attr-defined]
        if state.is_chance_node():                                          # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()                              # type: ignore[attr-defined]
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])   # type: ignore[attr-defined]
            continue
        check(state)                                                        # type: ignore[operator]
        state.apply_action(rng.choice(state.legal_actions()))               # type: ignore[attr-defined]
        moves -= 1


# ---- worlds after a play on: sampled from the view, never from the true state ---------

def _greedy(state: object, rng: random.Random) -> int:
    """A quick GinRummy seat that melds: takes the pile card when it lowers its
    deadwood, discards what leaves the least, and plays on two knock questions in three."""
    from port.cards import CARDS
    from port.ginrummy.computer import _bits
    from port.ginrummy.rules.melds import deadwood_mask
    from port.ginrummy.rules.search import DISCARD0, DRAW_PILE, DRAW_STOCK, KNOCK, PLAY_ON

    h = state.pos.hand                                                      # type: ignore[attr-defined]
    acts = state.legal_actions()                                            # type: ignore[attr-defined]
    mine = h.hands[h.to_move]
    if KNOCK in acts:
        return PLAY_ON if rng.random() < 2 / 3 else KNOCK
    if acts[0] >= DISCARD0:
        return min(acts, key=lambda a: deadwood_mask(mine & ~CARDS[a - DISCARD0].bit))
    if DRAW_PILE in acts:
        top = h.pile[-1].bit
        if min(deadwood_mask(mine | top & ~b) for b in _bits(mine)) < deadwood_mask(mine):
            return DRAW_PILE
    return DRAW_STOCK


def play_on_states(count: int, seed: int) -> list[object]:
    """GinRummy states of the bridge at a seat's draw after the other seat played on
    (once: each play on makes consistent deals rarer, and the test slower)."""
    from port.ginrummy.rules.state import Act, Phase

    game = pyspiel.load_game(GIN_NAME)
    rng = random.Random(seed)
    found: list[object] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            h = state.pos.hand                                              # type: ignore[attr-defined]
            seat = state.current_player()
            if h.phase is Phase.DRAW and sum(e.seat != seat and e.act is Act.PLAY_ON for e in h.events) == 1:
                found.append(state.clone())
                break
            state.apply_action(_greedy(state, rng))
    return found


def real_share(world: object, state: object, seat: int) -> float:
    """The share of the other seat's cards that the seat has not seen (not taken from
    the pile) that the world gives it too."""
    from port.ginrummy.rules.state import Act

    opp = 1 - seat
    h = state.pos.hand                                                      # type: ignore[attr-defined]
    seen = {e.card for e in h.events if e.seat == opp and e.act is Act.DRAW_PILE}
    real = {c for c in h.hand(opp) if c not in seen}
    return len(real & set(world.pos.hand.hand(opp))) / len(real)            # type: ignore[attr-defined]


def honest_world(state: object, seat: int, rng: random.Random) -> object:
    """The definition of honest: deals drawn uniformly from the seat's view alone,
    replayed, the first whose replay shows the view kept (no early rejection)."""
    from port.ginrummy.rules.search import _Frame

    frame = _Frame(state.pos.view(seat))                                    # type: ignore[attr-defined]
    while True:
        cards = frame.draw(rng)
        if not frame.misfit(cards, 1):          # the replay's verdict, cheaply (test_search checks it agrees)
            world = frame.build(cards, rng, "hand")
            if world is not None:
                return type("World", (), {"pos": world})()


def test_worlds_after_a_play_on_hold_the_real_cards_as_often_as_honest_sampling_and_a_peek_is_caught() -> None:
    """After a play on few random deals are consistent. The bridge's worlds hold the
    other seat's real unseen cards as often as honest sampling's (the mean share within
    3.5 standard errors); a sampler that returns the true state in three draws of ten
    (as the old chain from the true state came to) fails the same check."""
    from port.ginrummy.rules.search import _Frame

    def consistent(state: object) -> int:       # of 1,000 deals: the test's seconds go as 1 / this
        frame, rng = _Frame(state.pos.view(state.current_player())), random.Random(1)       # type: ignore[attr-defined]
        return sum(1 for _ in range(1000) if (c := frame.draw(rng, asked=True)) is not None and not frame.misfit(c, 1))

    states = sorted(play_on_states(12, seed=11), key=consistent)[-3:]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(12)
    n = 40
    bridge, honest, peek = [], [], []
    for state in states:
        seat = state.current_player()                                      # type: ignore[attr-defined]
        for _ in range(n):
            bridge.append(real_share(state.resample_from_infostate(seat, sampler), state, seat))  # type: ignore[attr-defined]
            honest.append(real_share(honest_world(state, seat, rng), state, seat))
            peek.append(1.0 if rng.random() < 0.3 else honest[-1])      # the true state: all its cards

    def agrees(sample: list[float]) -> bool:
        se = (np.var(sample) / len(sample) + np.var(honest) / len(honest)) ** 0.5
        return abs(np.mean(sample) - np.mean(honest)) < 3.5 * se

    assert 0.2 < np.mean(honest) < 0.7
    assert agrees(bridge)
    assert not agrees(peek)


@pytest.mark.parametrize("name", [GIN_NAME, CRIB_NAME])
def test_the_recall_tensor_is_the_observation_then_the_hands_events_in_order(name: str) -> None:
    """``recall_tensor``: the information-state tensor is perfect recall (the events as
    the seat saw them, in order, after the observation); the observation tensor stays
    the environment's array; a resampled state has the same tensor."""
    from port.openspiel.games import event_width

    game = pyspiel.load_game(name, {"recall_tensor": True})
    plain = pyspiel.load_game(name)
    size = plain.observation_tensor_size()
    assert game.observation_tensor_size() == size
    assert game.information_state_tensor_size() > size
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0

    def check(state: object) -> None:
        nonlocal checked
        if rng.random() > 0.2:                  # a GinRummy tensor is 119,505 floats: a sample of the states
            return
        p = state.current_player()                                          # type: ignore[attr-defined]
        tensor = np.asarray(state.information_state_tensor(p))              # type: ignore[attr-defined]
        assert np.array_equal(tensor[:size], state.observation_tensor(p))   # type: ignore[attr-defined]
        events = state.pos.view(p).events                                   # type: ignore[attr-defined]
        kinds = list(type(events[0].act)) if events else []
        width = event_width(tuple(kinds)) if kinds else 0
        for k, e in enumerate(events):
            slot = tensor[size + 1 + k * width:size + 1 + (k + 1) * width]
            card = np.flatnonzero(slot[1 + len(kinds):])
            assert slot[0] == (e.seat == p) and np.flatnonzero(slot[1:1 + len(kinds)]).tolist() == [kinds.index(e.act)]
            assert card.tolist() == ([] if e.card is None else [int(e.card)])
        assert not tensor[size + 1 + len(events) * width:].any()
        if rng.random() < 0.3:
            other = state.resample_from_infostate(p, sampler)               # type: ignore[attr-defined]
            assert np.array_equal(other.information_state_tensor(p), tensor)
        checked += 1

    while checked < 6:
        play_randomly(game, rng, check)


@pytest.mark.parametrize("name", [GIN_NAME, CRIB_NAME])
def test_at_chance_nodes_too_a_resampled_state_keeps_the_seats_information_and_redraws_the_others_cards(name: str) -> None:
    """While cards are dealt (and while a stock draw or the cut waits for chance) a
    resampled state shows the seat what it saw, and the other seat's cards are drawn
    again: across resamples they differ."""
    game = pyspiel.load_game(name)
    rng = random.Random(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for _ in range(1 if name == GIN_NAME else 3):          # a random GinRummy hand is long
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                for p in (0, 1):
                    worlds = [state.resample_from_infostate(p, sampler) for _ in range(4)]
                    assert all(w.information_state_string(p) == state.information_state_string(p) for w in worlds)
                    if state._dealing() and len(state._mine_dealt(1 - p)) >= 3:     # type: ignore[attr-defined]
                        theirs = {tuple(w._mine_dealt(1 - p)) for w in worlds}
                        assert all(w._mine_dealt(p) == state._mine_dealt(p) for w in worlds)  # type: ignore[attr-defined]
                        checked += len(theirs) > 1
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def clone_bytes(state: object) -> int:
    """What one clone of ``state`` allocates on the Python side, by tracemalloc."""
    tracemalloc.start()
    try:
        copy = state.clone()                                                # type: ignore[attr-defined]
        size = tracemalloc.get_traced_memory()[0]
        del copy
    finally:
        tracemalloc.stop()
    return size


def test_a_clone_of_a_long_game_is_no_bigger_than_one_of_its_second_hand() -> None:
    """OpenSpiel's searches and its random test clone a state at every step (the test
    keeps every clone): a clone must not grow with the hands played before it."""
    game = pyspiel.load_game(GIN_NAME, {"score_limit": 999})   # random seats score little: no end here
    rng = random.Random(5)
    state = game.new_initial_state()
    sizes: dict[int, list[int]] = {}
    seen = -1
    while True:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        hands = state.pos.game.hands_played                                  # type: ignore[attr-defined]
        if hands != seen:                                                    # a hand's first move
            seen = hands
            if 1 <= hands <= 4 or hands >= 146:
                sizes[hands] = [clone_bytes(state) for _ in range(3)]
            if hands == 150:
                break
        state.apply_action(rng.choice(state.legal_actions()))
    early = max(max(v) for k, v in sizes.items() if k <= 4)
    late = min(min(v) for k, v in sizes.items() if k >= 146)
    assert 1000 < early < 8000
    assert late <= early + 200, (early, late, sizes)


def test_the_information_state_string_kept_event_by_event_is_the_one_made_afresh() -> None:
    """The bridge extends each seat's string as events come; a clone makes it afresh."""
    game = pyspiel.load_game(GIN_NAME, {"score_limit": 10})
    rng = random.Random(8)
    state = game.new_initial_state()
    compared = 0
    while not state.is_terminal() and compared < 3000:
        for p in (0, 1):
            assert state.information_state_string(p) == state.clone().information_state_string(p)
            compared += 1
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared == 3000 and state.pos.game.hands_played >= 2          # across hands too
