"""Both games as OpenSpiel games (``port.openspiel``): OpenSpiel's own random-simulation
checks, resampling of information states, and its ISMCTS bot playing on our rules."""
from __future__ import annotations

import random

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


def play_randomly_from(state: object, rng: random.Random, check: object, moves: int) -> None:
    while moves and not state.is_terminal():                                # type: ignore[attr-defined]
        if state.is_chance_node():                                          # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()                              # type: ignore[attr-defined]
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])   # type: ignore[attr-defined]
            continue
        check(state)                                                        # type: ignore[operator]
        state.apply_action(rng.choice(state.legal_actions()))               # type: ignore[attr-defined]
        moves -= 1
