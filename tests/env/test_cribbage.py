"""Cribbage as a PettingZoo environment: PettingZoo's own tests, observations that
hold only what a seat may know, the points pegged as rewards, the options, render,
and the adapters both ways."""
from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from port.cards import PascalRandom, card
from port.cribbage.rules import Options, Player, play_game
from port.cribbage.rules.state import IllegalMove, Phase
from port.cribbage import spaces as cs
from port.env import cribbage_v0
from port.env.crib_adapters import LevelPolicy, PolicyPlayer

pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def play(e, seed: int, choose, stop=lambda e: False, infos: dict | None = None) -> list[float]:
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            if infos is not None:
                infos[agent] = info
            e.step(None)
            continue
        if stop(e):
            break
        e.step(choose(obs["observation"], obs["action_mask"]))
    return [total[a] for a in e.possible_agents]


def random_policy(seed: int):
    rng = random.Random(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_pettingzoos_api_test(episode: str) -> None:
    api_test(cribbage_v0.env(episode=episode, limit=61), num_cycles=400)


def test_pettingzoos_seed_test() -> None:
    seed_test(lambda: cribbage_v0.env(episode="game"), num_cycles=300)


def test_the_action_numbers() -> None:
    assert cs.action_name(0, Phase.DISCARD) == "lay away AS" and cs.action_name(51) == "play KC"
    assert cs.action_name(cs.GO) == "go" and cs.N_ACTIONS == 53


def test_a_discard_is_two_steps_and_go_only_when_nothing_fits() -> None:
    e = cribbage_v0.raw_env(first_dealer=0)
    e.reset(seed=1)
    assert e.agent_selection == "player_1"               # the pone lays away first
    mask = e.observe("player_1")["action_mask"]
    assert mask.sum() == 6 and not mask[cs.GO]
    first = int(np.flatnonzero(mask)[0])
    e.step(first)
    assert e.agent_selection == "player_1"
    obs = e.observe("player_1")
    assert obs["observation"][cs.MY_CRIB + first] == 1 and obs["action_mask"].sum() == 5
    with pytest.raises(IllegalMove):
        e.step(first)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agent_selection == "player_0" and e.hand.discarded(1)
    with pytest.raises(IllegalMove, match="not GO"):
        e.step(cs.GO)


def _hide_again(hand, seat: int, rng: random.Random) -> None:
    """Deal anew what ``seat`` cannot see: the opponent's unplayed cards, its crib
    cards and the undealt deck (not the starter), in the same numbers."""
    opp = 1 - seat
    held, crib = list(hand.hands[opp]), list(hand.cribs[opp])
    pool = held + crib + list(hand.stock)
    rng.shuffle(pool)
    hand.hands[opp] = pool[:len(held)]
    hand.cribs[opp] = tuple(pool[len(held):len(held) + len(crib)])
    hand.stock = pool[len(held) + len(crib):]
    played = [c for s, c in hand.played if s == opp]
    if hand.kept[opp]:
        hand.kept[opp] = tuple(played + hand.hands[opp])


def test_observations_are_the_same_whatever_the_hidden_cards_are() -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(16):
        e = cribbage_v0.raw_env()
        steps = [0]
        stop_at = rng.randrange(1, 14)

        def stop(env, steps=steps, stop_at=stop_at):
            steps[0] += 1
            return steps[0] > stop_at

        play(e, seed, random_policy(seed), stop)
        if e.hand.phase is Phase.DONE:
            continue
        for agent in e.possible_agents:
            seat = e.possible_agents.index(agent)
            before = e.observe(agent)
            for _ in range(5):
                _hide_again(e.hand, seat, rng)
                after = e.observe(agent)
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                checked += 1
    assert checked >= 100


def test_a_deal_returns_the_points_pegged_zero_sum() -> None:
    for seed in range(20):
        e = cribbage_v0.raw_env()
        returns = play(e, seed, random_policy(seed))
        h = e.hand
        gained = [h.pegging[s] + h.heels[s] + h.hand_points[s] + h.crib_points[s] for s in (0, 1)]
        assert returns == [gained[0] - gained[1], gained[1] - gained[0]]
        assert h.phase is Phase.DONE and len(h.shows) == 3 and sum(gained) > 0


def test_a_game_returns_the_final_score_difference_and_names_the_winner() -> None:
    for seed in range(3):
        e = cribbage_v0.raw_env(episode="game", limit=61, skunking=True)
        infos: dict = {}
        returns = play(e, seed, random_policy(seed), infos=infos)
        s = e.hand.scores
        assert max(s) == 61 and returns == [s[0] - s[1], s[1] - s[0]]
        info = infos["player_0"]
        assert info["winner"] == ("player_0" if s[0] == 61 else "player_1")
        assert info["skunk"] == (min(s) < 31)


def test_the_options_reach_the_engine() -> None:
    e = cribbage_v0.raw_env(limit=61, skunking=True, first_dealer=1)
    assert e.options == Options(limit=61, skunking=True)
    e.reset(seed=2)
    assert e.hand.dealer == 1
    obs = e.observe("player_1")["observation"]
    assert obs[cs.N_OBS - 2] == pytest.approx(61 / 121) and obs[369] == 1     # limit, dealer
    with pytest.raises(ValueError, match="121 or 61"):
        cribbage_v0.raw_env(limit=100)
    with pytest.raises(ValueError, match="first_dealer"):
        cribbage_v0.raw_env(first_dealer=2)


def test_render_ansi_and_frames(headless_pyxel) -> None:
    e = cribbage_v0.env(render_mode="ansi", first_dealer=0)
    e.reset(seed=2)
    out = e.render()
    assert "player_1 (pone" in out and "player_1 to lay away" in out
    f = cribbage_v0.env(render_mode="rgb_array")
    f.reset(seed=2)
    frame = f.render()
    assert frame.shape == (350, 640, 3) and frame.dtype == np.uint8
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 4


class Lowest(Player):
    """Lays away its two lowest cards, plays its lowest card that fits."""

    name = "lowest"

    def discard(self, view):
        return tuple(sorted(view.hand, key=lambda c: (c % 13, c))[:2])

    def play(self, view):
        plays = view.legal_plays()
        return min(plays, key=lambda c: (c % 13, c)) if plays else None


def test_a_player_as_a_policy_plays_its_own_games_in_the_environment() -> None:
    for seed in (1, 2):
        e = cribbage_v0.env(episode="game", first_dealer=0)
        policy = LevelPolicy(Lowest(), e)
        play(e, seed, policy)
        record = play_game(Options(), PascalRandom(seed),
                           (Lowest(), Lowest()), first_dealer=0)
        assert e.unwrapped.hand.scores == record.scores


def test_a_policy_as_a_player_sees_what_the_environment_shows_it() -> None:
    seen_env, seen_match = [], []

    def lowest_legal(into):
        def policy(obs, mask):
            into.append((obs.copy(), mask.copy()))
            return int(np.flatnonzero(mask)[0])
        return policy

    e = cribbage_v0.env(episode="game", first_dealer=1, limit=61)
    play(e, 4, lowest_legal(seen_env))
    p = PolicyPlayer(lowest_legal(seen_match))
    record = play_game(Options(limit=61), PascalRandom(4), (p, p),
                       first_dealer=1)
    assert record.scores == e.unwrapped.hand.scores
    assert len(seen_env) == len(seen_match) > 30
    for (o1, m1), (o2, m2) in zip(seen_env, seen_match):
        assert np.array_equal(o1, o2) and np.array_equal(m1, m2)


def test_an_illegal_policy_move_is_reported() -> None:
    p = PolicyPlayer(lambda obs, mask: cs.GO, name="stubborn")
    with pytest.raises(IllegalMove, match="stubborn chose action 52"):
        play_game(Options(), PascalRandom(1), (p, p), first_dealer=0)
    assert card("AS") == 0


def test_standard_as_a_policy_and_a_policy_in_the_match_runner(tmp_path, capsys) -> None:
    from port import match

    e = cribbage_v0.env(limit=61)
    policy = LevelPolicy("standard", e, seed=1)
    play(e, 3, policy)
    assert e.unwrapped.hand.phase is Phase.DONE
    bot = tmp_path / "crib_policy.py"
    bot.write_text("import numpy as np\n"
                   "def last_legal(observation, action_mask):\n"
                   "    return int(np.flatnonzero(action_mask)[-1])\n")
    match.main(["--game", "cribbage", "--a", f"{bot}:last_legal", "--b", "standard", "--games", "2",
                "--limit", "61", "--workers", "1", "--json"])
    import json
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 2 and d["a"]["games"] + d["b"]["games"] == 2


def test_a_policy_is_cribbages_computer_on_screen(headless_pyxel, tmp_path) -> None:
    from tests.cribbage.helpers import in_game, open_cribbage, until_yours
    from tests.cribbage.test_game import keyboard_game

    bot = tmp_path / "crib_policy.py"
    bot.write_text("import numpy as np\n"
                   "class FirstLegal:\n"
                   "    name = 'first legal'\n"
                   "    def act(self, observation, action_mask):\n"
                   "        return int(np.flatnonzero(action_mask)[0])\n")
    d = open_cribbage(tmp_path, computer=f"{bot}:FirstLegal", score_limit=61)
    t = in_game(d).table
    assert isinstance(t.computer, PolicyPlayer) and t.computer.name == "first legal"
    keyboard_game(d, t)
    assert t.over
