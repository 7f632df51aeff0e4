"""GinRummy as a PettingZoo environment: the API and seed tests of PettingZoo itself,
observations that hold only what a seat may know, the real scores as rewards, every
rule option, and both render modes."""
from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from port.cards import Card, card, mask
from port.ginrummy import spaces as gs
from port.env import ginrummy_v0
from port.ginrummy.rules.melds import deadwood_mask
from port.ginrummy.rules.options import PRESETS
from port.ginrummy.rules.state import IllegalMove, Phase

# PettingZoo's api_test advises a plain Box observation; a dict with the action mask is
# its own classic games' convention (and the issue's).
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def greedy(obs, legal, rng: random.Random) -> int:
    """Knock when it may, else throw the card that leaves least deadwood, else draw at random."""
    if gs.KNOCK in legal:
        return gs.KNOCK
    if legal[0] >= gs.DISCARD0:
        held = mask(Card(c) for c in np.flatnonzero(obs["observation"][:52]))
        return min(legal, key=lambda a: deadwood_mask(held ^ Card(a - gs.DISCARD0).bit))
    return int(rng.choice(legal))


def play_random(e, seed: int, rng: random.Random, stop=lambda e: False, smart: bool = False) -> list[float]:
    """Play the episode with uniformly random legal actions (or ``greedy`` ones);
    return the seats' returns."""
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        if stop(e):
            break
        legal = np.flatnonzero(obs["action_mask"])
        e.step(greedy(obs, legal, rng) if smart else int(rng.choice(legal)))
    return [total[a] for a in e.possible_agents]


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_pettingzoos_api_test(episode: str) -> None:
    api_test(ginrummy_v0.env(episode=episode, score_limit=50), num_cycles=400)


def test_pettingzoos_seed_test() -> None:
    seed_test(lambda: ginrummy_v0.env(episode="game"), num_cycles=300)


def test_the_action_numbers_card_by_card() -> None:
    assert gs.action_name(0) == "draw stock" and gs.action_name(1) == "draw pile"
    assert gs.action_name(2) == "discard AS" and gs.action_name(14) == "discard KS"
    assert gs.action_name(15) == "discard AH" and gs.action_name(53) == "discard KC"
    assert [gs.action_name(a) for a in (54, 55, 56)] == ["knock", "play on", "play to gin"]
    assert gs.discard_of(2 + card("QD")) == card("QD")
    with pytest.raises(ValueError, match="not a GinRummy action"):
        gs.action_name(57)


def _hide_again(hand, seat: int, rng: random.Random) -> None:
    """Deal the cards ``seat`` cannot see anew: the opponent's unknown cards and the
    stock are shuffled together and dealt back in the same numbers."""
    opp = 1 - seat
    known = set()
    for e in hand.events:
        if e.seat == opp and e.card is not None:
            if e.act.value == "draw pile":
                known.add(e.card)
            elif e.act.value in ("discard", "undo"):
                known.discard(e.card)
    opp_cards = [c for c in hand.hand(opp) if c not in known]
    # The opponent's own stock draws are hidden from the seat: their cards are part of
    # what may differ, and the events keep them only for the seat that drew.
    pool = opp_cards + list(hand.stock)
    rng.shuffle(pool)
    new_opp, new_stock = pool[:len(opp_cards)], pool[len(opp_cards):]
    mask = 0
    for c in list(known) + new_opp:
        mask |= Card(c).bit
    hand.hands[opp] = mask
    hand.stock = [Card(c) for c in new_stock]
    hand.events = [ev if not (ev.seat == opp and ev.act.value == "draw stock")
                   else type(ev)(ev.seat, ev.act, Card(rng.choice(new_opp or [0])))
                   for ev in hand.events]


def test_observations_are_the_same_whatever_the_hidden_cards_are() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        e = ginrummy_v0.raw_env()
        stop_at = rng.randrange(2, 60)
        steps = [0]

        def stop(env, steps=steps, stop_at=stop_at):
            steps[0] += 1
            return steps[0] >= stop_at

        play_random(e, seed, rng, stop)
        if e.hand.phase is Phase.OVER:
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
    assert checked >= 50


def test_the_hidden_cards_change_but_not_the_observation() -> None:
    # The test above would pass for an observation of nothing: the other hand does
    # show in the other seat's observation, and the stock in neither.
    e = ginrummy_v0.raw_env()
    e.reset(seed=3)
    mine, theirs = e.observe("player_0")["observation"], e.observe("player_1")["observation"]
    assert mine[gs.HAND:gs.HAND + 52].sum() == 10 and theirs[gs.HAND:gs.HAND + 52].sum() == 10
    assert not np.any(mine[:52] * theirs[:52])


def test_a_hand_rewards_its_real_points_zero_sum() -> None:
    rng = random.Random(1)
    seen = set()
    for seed in range(80):
        e = ginrummy_v0.raw_env(oklahoma=seed % 2 == 1)
        returns = play_random(e, seed, rng, smart=True)
        r = e.hand.result
        assert r is not None
        seen.add(r.outcome.value)
        if r.winner is None:
            assert returns == [0, 0]
        else:
            assert returns[r.winner] == r.points and returns[1 - r.winner] == -r.points
    assert {"knock", "gin", "undercut"} <= seen


def test_a_game_to_the_limit_returns_the_final_score_difference() -> None:
    rng = random.Random(2)
    for seed in range(3):
        e = ginrummy_v0.raw_env(episode="game", score_limit=60, first_turn="alternate")
        returns = play_random(e, seed, rng, smart=True)
        s = e.game.scores
        assert e.game.over and max(s) >= 60
        assert returns == [s[0] - s[1], s[1] - s[0]]
        assert len(e.game.results) >= 1


def test_every_rule_option_reaches_the_engine() -> None:
    e = ginrummy_v0.raw_env(gin_bonus=10, undercut_bonus=15, score_limit=250, oklahoma=True,
                            knocking=True, first_turn="alternate")
    o = e.options
    assert (o.gin_bonus, o.undercut_bonus, o.score_limit, o.oklahoma, o.knocking, o.first_turn.value) == \
        (10, 15, 250, True, True, "alternate")
    e.reset(seed=4)
    obs = e.observe("player_0")["observation"]
    assert obs[427] == np.float32(250 / 100) and obs[430] == 1     # limit, Oklahoma (docstring table)
    assert obs[417] == np.float32(e.hand.knock_value / 10)                # the upcard's value
    # Gin only: no knock is ever offered.
    rng = random.Random(3)
    for seed in range(10):
        g = ginrummy_v0.raw_env(knocking=False)
        offered = [False]

        def watch(env, offered=offered):
            offered[0] |= env.hand.phase is Phase.KNOCK
            return False

        play_random(g, seed, rng, watch)
        assert not offered[0] and g.hand.result.outcome.value in ("gin", "draw")


def test_a_wrong_action_is_refused_in_a_plain_sentence() -> None:
    e = ginrummy_v0.raw_env()
    e.reset(seed=1)
    with pytest.raises(ValueError, match="must draw now"):
        e.step(gs.KNOCK)
    e.step(gs.DRAW_STOCK)
    with pytest.raises(IllegalMove, match="is not in seat"):
        not_mine = next(c for c in range(52) if Card(c) not in e.view(e.agent_selection).hand)
        e.step(gs.DISCARD0 + not_mine)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="episode must be"):
        ginrummy_v0.raw_env(episode="match")
    with pytest.raises(ValueError, match="score limit"):
        ginrummy_v0.raw_env(score_limit=5000)
    with pytest.raises(TypeError):
        ginrummy_v0.raw_env(boxes=True)


def test_ansi_render_shows_both_hands_the_pile_and_whose_turn() -> None:
    e = ginrummy_v0.env(render_mode="ansi")
    e.reset(seed=2)
    out = e.render()
    assert "player_0" in out and "player_1" in out and "player_0 to draw" in out
    assert f"pile {e.unwrapped.hand.pile_top}" in out


def test_rgb_array_frames_come_from_the_screen_unit(headless_pyxel) -> None:
    e = ginrummy_v0.env(render_mode="rgb_array")
    e.reset(seed=2)
    frame = e.render()
    assert frame.shape == (350, 640, 3) and frame.dtype == np.uint8
    colours = {tuple(c) for c in np.unique(frame.reshape(-1, 3), axis=0)}
    assert (0, 0, 0) in colours and (255, 255, 255) in colours and (0, 0, 170) in colours  # card backs
    e.step(gs.DRAW_STOCK)
    assert not np.array_equal(frame, e.render())


def test_a_missing_extra_is_one_plain_line() -> None:
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n import port.env.ginrummy_v0\nexcept ImportError as e:\n print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == ("this needs the optional extra 'rl' (pettingzoo is not installed): "
                                  "pip install 'ginrummy[rl]'")


def test_a_hand_where_both_only_take_the_pile_ends_as_a_draw() -> None:
    # The engine's pile-run rule: 20 pile draws in a row and the hand is a draw.
    e = ginrummy_v0.env()
    e.reset(seed=1)
    steps, returns = 0, {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        returns[agent] += reward
        if term or trunc:
            assert term and not trunc and info["hand"] == "draw"
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if gs.DRAW_PILE in legal:
            assert obs["observation"][433] == np.float32(e.unwrapped.hand.pile_run / 20)
        e.step(gs.DRAW_PILE if gs.DRAW_PILE in legal else int(legal[-1]))
        steps += 1
    assert steps == 40 and returns == {"player_0": 0, "player_1": 0}


# ---- the table rules (issue 12) in the environment -----------------------------------------

TABLES = {
    "card room": dict(PRESETS["CARD ROOM"]),
    "classic": dict(PRESETS["CLASSIC"]),
    "hollywood": {"scoring": "HOLLYWOOD", "knock_deck": True, "doublers": ["SPADES", "HEARTS"]},
    "game only, offer": {"scoring": "GAME_ONLY", "upcard_offer": True, "shutout": True},
    "flop, deal of eleven": {"scoring": "FLOP", "deal_eleven": True},
}


@pytest.mark.parametrize("table", list(TABLES))
def test_every_table_rule_is_an_argument_and_a_game_returns_the_sheets_difference(table: str) -> None:
    rng = random.Random(5)
    for seed in range(3):
        e = ginrummy_v0.raw_env(episode="game", score_limit=60, **TABLES[table])
        for k, v in TABLES[table].items():
            assert getattr(e.options, k) == (tuple(v) if isinstance(v, list) else v)
        returns = play_random(e, seed, rng, smart=True)
        sheet = e.game.sheet()
        assert e.game.over
        assert returns == [sheet.totals[0] - sheet.totals[1], sheet.totals[1] - sheet.totals[0]]


@pytest.mark.parametrize("table", ["classic", "card room"])
def test_pettingzoos_api_test_under_the_table_rules(table: str) -> None:
    api_test(ginrummy_v0.env(episode="hand", **TABLES[table]), num_cycles=300)


def test_the_upcard_offer_is_answered_with_the_draw_actions() -> None:
    e = ginrummy_v0.raw_env(upcard_offer=True)
    e.reset(seed=3)
    first = e.agent_selection
    assert e.hand.phase is Phase.UPCARD_OFFER
    assert list(np.flatnonzero(e.observe(first)["action_mask"])) == [gs.DRAW_STOCK, gs.DRAW_PILE]
    e.step(gs.DRAW_STOCK)                                   # declined: the other seat is asked
    second = e.agent_selection
    assert second != first and e.hand.phase is Phase.UPCARD_OFFER
    e.step(gs.DRAW_STOCK)                                   # both declined: the stock only
    mask_now = e.observe(e.agent_selection)["action_mask"]
    assert e.hand.phase is Phase.DRAW and mask_now[gs.DRAW_STOCK] == 1 and mask_now[gs.DRAW_PILE] == 0
    with pytest.raises(IllegalMove):
        e.step(gs.DRAW_PILE)


def test_an_unknown_rule_option_names_the_rule_options() -> None:
    with pytest.raises(TypeError, match="boxes: not a rule option"):
        ginrummy_v0.raw_env(boxes=True)
