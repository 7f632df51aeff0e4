"""reset's seeds and options line up with game records and the match runner, the first
turn alternates as the runner's, and the environments take whole-number actions only
(docs/envs.md, "Seeds" and "Actions")."""
from __future__ import annotations

import math
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from port.cards import text
from port.cribbage.rules.state import IllegalMove as CribIllegal
from port.env import cribbage_v0, ginrummy_v0
from port.env.single import CribbageSingle, GinRummySingle
from port.ginrummy.rules.state import IllegalMove as GinIllegal

TOP = Path(__file__).resolve().parents[2]


def match_records(tmp_path: Path, game: str) -> Path:
    """Two games of the real match runner, their records written; the first one's path."""
    out = tmp_path / game
    subprocess.run([sys.executable, "-m", "port.match", "--game", game, "--a", "easy", "--b", "standard",
                    "--games", "2", "--seed", "5", "--records", str(out)],
                   cwd=TOP, check=True, capture_output=True, timeout=120)
    return sorted(out.iterdir())[0]


def random_play_deals(env: object, rng: random.Random, hands: int) -> list[tuple[str, str, int]]:
    """Each hand's two dealt hands (seat 0's, seat 1's, as text) and its dealer, through
    random play of the raw environment."""
    seen: list[tuple[str, str, int]] = []
    dealt = -1
    while len(seen) < hands and not env.terminations["player_0"]:        # type: ignore[attr-defined]
        h = env.hand                                                     # type: ignore[attr-defined]
        if env.deals != dealt:                                           # type: ignore[attr-defined]
            dealt = env.deals                                            # type: ignore[attr-defined]
            cards = (h.hand(0), h.hand(1)) if hasattr(h, "deadwood") else (h.hands[0], h.hands[1])
            seen.append((text(cards[0]), text(cards[1]), h.dealer))
        env.step(int(rng.choice(np.flatnonzero(env.mask(env.agent_selection)))))   # type: ignore[attr-defined]
    return seen


def record_deals(record: str, hands: int) -> tuple[int, list[tuple[str, str, int]]]:
    """The record's Seed and its first hands: seat 0's and seat 1's cards, the dealer."""
    seed = int(re.search(r"^Seed: (\d+)$", record, re.M).group(1))              # type: ignore[union-attr]
    names = re.findall(r"^Seat (\d): (\S+)", record, re.M)
    seat_of = {name: int(seat) for seat, name in names}
    out = []
    for block in re.split(r"^Hand \d+: ", record, flags=re.M)[1:hands + 1]:
        dealer = seat_of[block.split(" deals")[0]]
        dealt = dict(re.findall(r"^(\S+) is dealt: (.*)\.$", block, re.M))
        by_seat = {seat_of[n]: cards for n, cards in dealt.items()}
        out.append((by_seat[0], by_seat[1], dealer))
    return seed, out


def test_a_ginrummy_records_seed_given_to_reset_deals_its_hands(tmp_path: Path) -> None:
    record = match_records(tmp_path, "ginrummy").read_text()
    seed, want = record_deals(record, 3)
    assert len(want) == 3 and [d for _, _, d in want] == [1, 0, 1]     # the dealer alternates
    env = ginrummy_v0.raw_env(episode="game", score_limit=100)          # the runner's default rules
    env.reset(seed=seed)
    got = random_play_deals(env, random.Random(1), 3)
    assert [(a, b, d) for a, b, d in got] == [(" ".join(a.split()), " ".join(b.split()), d) for a, b, d in want]
    again = ginrummy_v0.raw_env()
    again.reset(options={"match_seed": 5, "game": 0})        # the runner's --seed 5, its first game
    assert again.deal_seed == seed and text(again.hand.hand(0)) == want[0][0]


def test_a_cribbage_records_seed_given_to_reset_deals_its_hands(tmp_path: Path) -> None:
    record = match_records(tmp_path, "cribbage").read_text()
    seed, want = record_deals(record, 2)
    env = cribbage_v0.raw_env(episode="game")
    env.reset(seed=seed)
    assert random_play_deals(env, random.Random(1), 2) == want
    again = cribbage_v0.raw_env()
    again.reset(options={"match_seed": 5, "game": 0})
    assert again.deal_seed == seed


def test_the_ginrummy_environments_first_turn_alternates_unless_told() -> None:
    for first_turn, movers in ((None, [0, 1, 0]), ("seat0", [0, 0, 0])):
        env = ginrummy_v0.raw_env(episode="game", **({} if first_turn is None else {"first_turn": first_turn}))
        env.reset(seed=3)
        seen: list[int] = []
        rng = random.Random(2)
        while len(seen) < 3:
            if env.deals > len(seen):
                seen.append(env.hand.first)
            env.step(int(rng.choice(np.flatnonzero(env.mask(env.agent_selection)))))
        assert seen == movers


def test_a_single_agent_deal_seed_option_plays_that_deal() -> None:
    env = GinRummySingle(seat=0, opponent="random")      # seat 0 moves first: nothing played yet
    _, info = env.reset(options={"deal_seed": 1234})
    assert info["deal_seed"] == 1234 and env.redeals == 0
    aec = ginrummy_v0.raw_env()
    aec.reset(seed=1234)
    assert (env.raw.hand.hand(0), env.raw.hand.hand(1)) == (aec.hand.hand(0), aec.hand.hand(1))


NOT_WHOLE = [0.5, 1.9, "3", True, np.float64(1.0), math.nan, math.inf, None, [1], np.array([1])]


@pytest.mark.parametrize("single", [GinRummySingle, CribbageSingle])
@pytest.mark.parametrize("action", NOT_WHOLE, ids=repr)
def test_a_single_agent_environment_refuses_what_is_not_a_whole_number(single: type, action: object) -> None:
    env = single(opponent="random")
    obs, info = env.reset(seed=1)
    before = env.action_masks().copy()
    obs2, reward, terminated, truncated, info2 = env.step(action)
    assert "is a whole number (an int), not" in info2["illegal"] and reward == 0 and not terminated
    assert np.array_equal(env.action_masks(), before) and np.array_equal(obs, obs2)
    strict = single(opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises((GinIllegal, CribIllegal), match="whole number"):
        strict.step(action)


@pytest.mark.parametrize("single", [GinRummySingle, CribbageSingle])
def test_numpy_integers_and_0d_integer_arrays_are_actions(single: type) -> None:
    for kind in (int, np.int64, np.int8, np.uint16, lambda a: np.array(a)):
        env = single(opponent="random")
        env.reset(seed=1)
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, _, _, info = env.step(kind(action))
        assert "illegal" not in info


@pytest.mark.parametrize("raw", [ginrummy_v0.raw_env, cribbage_v0.raw_env])
def test_an_aec_environment_refuses_what_is_not_a_whole_number(raw: type) -> None:
    env = raw()
    env.reset(seed=1)
    for action in NOT_WHOLE:
        with pytest.raises((GinIllegal, CribIllegal), match="whole number"):
            env.step(action)
    assert not env.hand.events if hasattr(env.hand, "deadwood") else env.hand.phase.value == "discard"


def test_an_unknown_cribbage_option_names_the_valid_ones() -> None:
    with pytest.raises(TypeError, match="limt: not an option of Cribbage's environment .*limit, skunking, first_dealer"):
        cribbage_v0.raw_env(limt=61)
    with pytest.raises(TypeError, match="limt: not an option"):
        CribbageSingle(limt=61)


@pytest.mark.parametrize("order", ["port.env first", "gymnasium first"])
def test_importing_port_env_registers_the_gymnasium_ids(order: str) -> None:
    first, second = ("port.env", "gymnasium") if order == "port.env first" else ("gymnasium", "port.env")
    code = (f"import sys\nimport {first}\nprint('gymnasium' in sys.modules)\nimport {second}\nimport gymnasium\n"
            "print(type(gymnasium.make('ginrummy/Cribbage-v0', opponent='random').unwrapped).__name__)\n"
            "print(type(gymnasium.make('ginrummy/GinRummy-v0', opponent='random').unwrapped).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=TOP, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == [str(order != "port.env first"), "CribbageSingle", "GinRummySingle"], done.stderr


def test_import_port_env_needs_no_gymnasium() -> None:
    code = "import sys\nsys.modules['gymnasium'] = None\nimport port.env\nprint('ok')\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=TOP, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
