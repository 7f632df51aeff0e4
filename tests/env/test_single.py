"""Both games as single-agent Gymnasium environments (port.env.single): Gymnasium's own
checker, the learner always to move after reset (the deal played again when the
opponent ends it first), rewards from the learner's seat, the masks the AEC
environment gives for the same state, the vector form, and seeds."""
from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import port.env
from port.cards import mask
from port.cribbage.rules.state import IllegalMove as CribIllegal
from port.env import cribbage_v0, ginrummy_v0
from port.env.single import CribbageSingle, GinRummySingle, action_masks, make_vec
from port.ginrummy import spaces as gs
from port.ginrummy.rules.melds import deadwood_mask
from port.ginrummy.rules.players import Player, legal_discards
from port.ginrummy.rules.state import IllegalMove

pytestmark = pytest.mark.filterwarnings("ignore:.*render modes:UserWarning")

SINGLES = {"ginrummy": GinRummySingle, "cribbage": CribbageSingle}
AECS = {"ginrummy": ginrummy_v0, "cribbage": cribbage_v0}
MY_TURN = {"ginrummy": 432, "cribbage": 377}          # the observation's "my turn" entry


def greedy(obs: np.ndarray, legal: np.ndarray, rng: random.Random) -> int:
    """GinRummy: knock when it may, else throw the card leaving least deadwood, else
    draw at random."""
    if gs.KNOCK in legal:
        return gs.KNOCK
    if legal[0] >= gs.DISCARD0:
        held = mask(int(c) for c in np.flatnonzero(obs[:52]))
        return int(min(legal, key=lambda a: deadwood_mask(held ^ (1 << ((a - 2) // 13 * 16 + (a - 2) % 13)))))
    return int(rng.choice(legal))


def play(env, seed: int, rng: random.Random, smart: bool = False) -> tuple[float, dict, int]:
    """An episode with uniformly random legal actions (or ``greedy`` ones): the
    return, the last info and the steps."""
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        a = greedy(obs, legal, rng) if smart else int(rng.choice(legal))
        obs, reward, done, truncated, info = env.step(a)
        assert not truncated
        total += reward
        steps += 1
    return total, info, steps


class Knocker(Player):
    """Throws the card leaving least deadwood and knocks at once (the default answer)."""

    name = "knocker"

    def __init__(self) -> None:
        self.hands = 0

    def begin_hand(self, view) -> None:
        self.hands += 1

    def choose_discard(self, view):
        held = mask(view.hand)
        return min(legal_discards(view), key=lambda c: deadwood_mask(held ^ c.bit))


@pytest.mark.parametrize("game", list(SINGLES))
@pytest.mark.parametrize("opponent,seat", [("random", 0), ("standard", "random")])
def test_gymnasiums_env_checker(game: str, opponent: str, seat) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a warning of the checker is a failure here...
        warnings.filterwarnings("ignore", message=".*render modes")   # ...but this one: no spec
        check_env(SINGLES[game](opponent=opponent, seat=seat))


@pytest.mark.parametrize("game", list(SINGLES))
def test_the_registered_ids_and_port_env_constructors(game: str) -> None:
    name = {"ginrummy": "GinRummy", "cribbage": "Cribbage"}[game]
    env = gymnasium.make(f"ginrummy/{name}-v0", opponent="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    made = getattr(port.env, f"{game}_single")(seat=1, opponent="random")
    assert isinstance(made, SINGLES[game]) and made.seat == 1


@pytest.mark.parametrize("game", list(SINGLES))
@pytest.mark.parametrize("seat", [0, 1])
def test_the_learner_moves_at_step_zero(game: str, seat: int) -> None:
    env = SINGLES[game](seat=seat, opponent="random")
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        m = env.action_masks()
        assert m.any() and np.array_equal(m, info["action_mask"].astype(bool))
        assert obs[MY_TURN[game]] == 1
        env.step(int(np.flatnonzero(m)[0]))                          # accepted


def test_a_deal_the_opponent_ends_before_the_learner_moves_is_dealt_again() -> None:
    # Seat 0 moves first in a game's first hand; with seed 867 the opponent there knocks
    # on its first turn, before the learner (seat 1) has moved: reset deals again.
    knocker = Knocker()
    env = GinRummySingle(seat=1, opponent=knocker)
    obs, info = env.reset(seed=867)
    assert env.redeals == 1 and knocker.hands == 2        # the first hand ended at once
    assert env.raw.hand.phase.value == "draw" and env.raw.agent_selection == "player_1"
    assert obs[432] == 1 and obs[418] == 1                  # my turn, the draw phase
    # The deal reset kept is a new one, and the first was really over before seat 1 moved.
    first = ginrummy_v0.raw_env()
    first_seed = int(np.random.default_rng(867).integers(2 ** 32))   # reset(seed=867)'s first draw
    assert first_seed != info["deal_seed"]
    first.reset(seed=first_seed)
    policy = port.env.adapters.LevelPolicy(Knocker(), first)
    while first.agent_selection == "player_0" and not first.terminations["player_0"]:
        first.step(policy())
    assert first.terminations["player_1"] and first.hand.result.outcome.value in ("knock", "gin", "undercut")
    # Without the knocker the same seed needs no second deal.
    plain = GinRummySingle(seat=1, opponent="random")
    plain.reset(seed=867)
    assert plain.redeals == 0


@pytest.mark.parametrize("game", list(SINGLES))
@pytest.mark.parametrize("seat", [0, 1])
def test_the_reward_is_the_learners_points_less_the_opponents(game: str, seat: int) -> None:
    rng = random.Random(seat)
    signs = set()
    gin = game == "ginrummy"
    for seed in range(12):
        env = SINGLES[game](seat=seat, opponent=Knocker() if gin else "random")
        ret, info, _ = play(env, seed, rng, smart=gin)
        scores = info["scores"]
        assert ret == scores[seat] - scores[1 - seat]
        signs.add(np.sign(ret))
    assert {-1, 1} <= signs                 # both won and lost: the sign is the learner's


def test_a_game_episode_returns_the_final_score_difference_whoever_scored_first() -> None:
    rng = random.Random(4)
    for seed in range(3):
        env = GinRummySingle(seat=1, opponent=Knocker(), episode="game", score_limit=40)
        ret, info, _ = play(env, seed, rng, smart=True)
        s = env.raw.game.scores
        assert env.raw.game.over and ret == s[1] - s[0]


@pytest.mark.parametrize("game", list(SINGLES))
@pytest.mark.parametrize("seat", [0, 1])
def test_the_masks_and_observations_are_the_aec_environments_for_the_same_state(game: str, seat: int) -> None:
    rng = random.Random(7)
    log: list[int] = []

    def opponent(obs, mask):                  # a random policy that writes its moves down
        a = int(rng.choice(np.flatnonzero(mask)))
        log.append(a)
        return a

    checked = 0
    for seed in range(10):
        env = SINGLES[game](seat=seat, opponent=opponent)
        log.clear()
        obs, info = env.reset(seed=seed)
        if env.redeals:
            continue
        seen = [(len(log), obs, env.action_masks())]
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            log.append(a)
            obs, _, done, _, _ = env.step(a)
            if not done:
                seen.append((len(log), obs, env.action_masks()))
        # The same deal and the same moves in the AEC environment, through its wrappers.
        aec = AECS[game].env()
        aec.reset(seed=info["deal_seed"])
        me = f"player_{seat}"
        for i, a in enumerate(log):
            if seen and seen[0][0] == i:
                _, o, m = seen.pop(0)
                assert aec.agent_selection == me
                got = aec.observe(me)
                assert np.array_equal(got["observation"], o)
                assert np.array_equal(got["action_mask"].astype(bool), m)
                checked += 1
            aec.step(a)
        assert not seen and all(aec.unwrapped.terminations.values())
    assert checked > 60


def test_an_illegal_action_is_refused_in_one_sentence_and_changes_nothing() -> None:
    env = GinRummySingle(opponent="random")
    obs, _ = env.reset(seed=2)
    before = env.raw.hand.copy()
    again, reward, done, truncated, info = env.step(gs.KNOCK)
    assert info["illegal"].startswith("GinRummy: action 54 (knock) is not legal now; legal: draw stock, draw pile")
    assert (reward, done, truncated) == (0.0, False, False) and np.array_equal(obs, again)
    assert env.raw.hand.events == before.events and env.raw.hand.hands == before.hands
    strict = CribbageSingle(opponent="random", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(CribIllegal, match="Cribbage: action 52 \\(go\\) is not legal now"):
        strict.step(52)
    penalised = GinRummySingle(opponent="random", illegal_reward=-1)
    penalised.reset(seed=2)
    assert penalised.step(99)[1] == -1.0


def test_bad_options_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="seat must be 0, 1, 'random' or 'alternate'"):
        GinRummySingle(seat=2)
    with pytest.raises(ValueError, match="name a level"):
        CribbageSingle(opponent="grandmaster")
    with pytest.raises(TypeError, match="opponent: name a level"):
        GinRummySingle(opponent=42)
    with pytest.raises(ValueError, match="illegal must be"):
        GinRummySingle(illegal="ignore")
    with pytest.raises(ValueError, match="score limit"):
        GinRummySingle(score_limit=5000)
    env = GinRummySingle(opponent="random")
    play(env, 1, random.Random(1))
    assert not env.action_masks().any()
    with pytest.raises(IllegalMove, match="the GinRummy episode is over: call reset"):
        env.step(gs.DRAW_STOCK)


@pytest.mark.parametrize("game", list(SINGLES))
def test_the_same_seed_plays_the_same_episode(game: str) -> None:
    def trace(seed: int) -> list:
        env = SINGLES[game](seat="random", opponent="standard")
        env.reset(seed=99)              # what came before does not matter
        play(env, 5, random.Random(0))
        obs, info = env.reset(seed=seed)
        out, rng, done = [obs.tobytes(), info["seat"]], random.Random(1), False
        while not done:
            obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out += [obs.tobytes(), r]
        return out

    assert trace(3) == trace(3)
    assert trace(3) != trace(4)


def test_seats_alternate_and_random_change_per_episode() -> None:
    env = CribbageSingle(seat="alternate", opponent="random")
    seats = [env.reset(seed=1)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(3)]
    assert seats == [0, 1, 0, 1]
    env = GinRummySingle(seat="random", opponent="random")
    assert {env.reset(seed=s)[1]["seat"] for s in range(20)} == {0, 1}


@pytest.mark.parametrize("game", list(SINGLES))
def test_the_vector_form_steps_with_a_mask_for_every_sub_environment(game: str) -> None:
    vec = make_vec(game, 3, opponent="random")
    obs, infos = vec.reset(seed=1)
    assert obs.shape == (3, vec.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = action_masks(vec)
        assert masks.shape == (3, vec.single_action_space.n) and masks.any(axis=1).all()
        assert np.array_equal(masks, infos["action_mask"].astype(bool))
        obs, rewards, terms, truncs, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += int(terms.sum())
        assert not truncs.any()
    assert ended >= 1                   # sub-environments ended and were reset in the same step
    vec.close()


def test_the_vector_form_in_processes() -> None:
    vec = make_vec("cribbage", 2, vectorization="async", opponent="random")
    vec.reset(seed=3)
    masks = action_masks(vec)
    _, rewards, _, _, _ = vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert rewards.shape == (2,)
    vec.close()
