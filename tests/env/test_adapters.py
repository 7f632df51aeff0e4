"""Adapters both ways: a PettingZoo-style policy plays in the match runner and on
screen as the computer; our levels play as policies inside the environment."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from port import match
from port.cards import PascalRandom
from port.ginrummy import spaces as gs
from port.env import ginrummy_v0
from port.env.adapters import LevelPolicy, PolicyPlayer
from port.ginrummy.main.table import Mode
from port.ginrummy.computer import Standard
from port.ginrummy.rules.options import FirstTurn, Options
from port.ginrummy.rules.players import play_game
from tests.ginrummy.helpers import open_game, to_play, wait_for_turn

BOT = '''
import numpy as np

def first_legal(observation, action_mask):
    """The lowest legal action: stock, then the lowest card, then knock."""
    return int(np.flatnonzero(action_mask)[0])

class Greedy:
    """Knocks when it may, throws the highest card it holds, draws from the stock."""
    name = "greedy"

    def __init__(self, seed=0):
        self.seed = seed

    def act(self, observation, action_mask):
        legal = np.flatnonzero(action_mask)
        if 54 in legal:
            return 54
        return int(legal[-1]) if legal[0] >= 2 else 0

def always_knock(observation, action_mask):
    return 54
'''


@pytest.fixture
def bot(tmp_path: Path) -> Path:
    path = tmp_path / "policies.py"
    path.write_text(BOT)
    return path


def test_a_policy_function_and_a_policy_class_play_in_the_match_runner(bot: Path, capsys) -> None:
    match.main(["--a", f"{bot}:Greedy", "--b", f"{bot}:first_legal", "--games", "4", "--limit", "0",
                "--workers", "1", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["hands"] == 4 and d["a"]["games_won"] + d["b"]["games_won"] + d["games_drawn"] == 4


def test_a_policy_plays_expert_through_the_real_command_line(bot: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "port.match", "--a", f"{bot}:Greedy", "--b", "expert",
                           "--games", "2", "--limit", "0", "--workers", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    side = json.loads(done.stdout)["a"]
    assert side["name"] == "greedy" and side["spec"].endswith(":Greedy")     # its own name


def test_an_illegal_policy_move_is_reported_not_replaced(bot: Path, capsys) -> None:
    # The match runner's forfeit (docs/players.md): the policy loses the game, in one line.
    r = match.run_match(f"{bot}:always_knock", "standard", 1, 1, Options(score_limit=0), workers=1)
    assert r.a.forfeits == 1 and r.b.games_won == 1 and r.hands == 0
    assert ("illegal move: choose_draw: the policy always_knock chose action 54 (knock), "
            "which the rules do not allow now") in capsys.readouterr().err


def _recording(policy):
    seen = []

    def wrapped(observation, action_mask):
        seen.append((observation.copy(), action_mask.copy()))
        return policy(observation, action_mask)

    return wrapped, seen


def _middle(observation, action_mask) -> int:
    """Draws from the stock, throws the middle legal card, plays on once then knocks."""
    legal = np.flatnonzero(action_mask)
    if legal[0] == gs.DRAW_STOCK:
        return gs.DRAW_STOCK
    if legal[0] == gs.KNOCK:
        return gs.KNOCK if observation[gs.OPP_DISCARDED:gs.OPP_DISCARDED + 52].sum() > 4 else gs.PLAY_ON
    return int(legal[len(legal) // 2])


def test_a_policy_sees_in_a_match_exactly_what_the_environment_shows_it() -> None:
    # The same deal and the same policy for both seats: through PolicyPlayer in the
    # engine's play_game, and as a loop over the environment. Every observation and
    # mask is the same, in the same order.
    in_env, env_seen = _recording(_middle)
    e = ginrummy_v0.env(episode="game", score_limit=30)
    e.reset(seed=9)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else in_env(obs["observation"], obs["action_mask"]))
    scores = tuple(e.unwrapped.game.scores)

    in_match, match_seen = _recording(_middle)
    p = PolicyPlayer(in_match)
    # reset(seed=9) deals PascalRandom(9), the first turn alternating, as the match runner plays
    record = play_game(Options(score_limit=30, first_turn=FirstTurn.ALTERNATE), PascalRandom(9), (p, p))
    assert record.scores == scores
    assert len(match_seen) == len(env_seen) > 20
    for (o1, m1), (o2, m2) in zip(env_seen, match_seen):
        assert np.array_equal(o1, o2) and np.array_equal(m1, m2)


def test_standard_as_a_policy_in_the_environment_plays_standards_own_games() -> None:
    for seed in (1, 2):
        e = ginrummy_v0.env(episode="game", score_limit=100)
        policy = LevelPolicy("standard", e, seed=0)
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else policy(obs["observation"], obs["action_mask"]))
        g = e.unwrapped.game
        record = play_game(Options(first_turn=FirstTurn.ALTERNATE), PascalRandom(seed),
                           (Standard(seed=0), Standard(seed=1)))
        assert tuple(g.scores) == record.scores
        assert [r.points for r in g.results] == [h.result.points for h in record.hands]


def test_every_level_and_a_bot_file_play_inside_the_environment() -> None:
    ref = str(Path(__file__).resolve().parents[2] / "scripts" / "reference_bot.py") + ":ReferenceBot"
    for spec in ("easy", "expert", ref):
        e = ginrummy_v0.env()
        policy = LevelPolicy(spec, e, seed=3)
        e.reset(seed=4)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            a = None if term or trunc else policy(obs["observation"], obs["action_mask"])
            assert a is None or obs["action_mask"][a]
            e.step(a)
        assert e.unwrapped.hand.result is not None


def test_a_policy_is_the_computer_on_screen(headless_pyxel, tmp_path: Path, bot: Path) -> None:
    d = open_game(tmp_path, computer=f"{bot}:Greedy", go=True)
    s = to_play(d)
    assert isinstance(s.table.computer, PolicyPlayer) and s.table.computer.name == "greedy"
    d.key("D")          # draw from the deck
    d.key("D")          # discard the drawn card
    assert s.table.mode is Mode.COMPUTER
    wait_for_turn(d, s)
    moves = [e for e in s.table.hand.events if e.seat == 1]
    assert s.table.mode in (Mode.HUMAN_DRAW, Mode.HAND_END) and moves
    assert moves[0].act.value == "draw stock"           # Greedy draws from the stock


def test_the_computer_flag_is_checked_on_the_command_line(tmp_path: Path) -> None:
    from port.ginrummy.main.words import GINRUMMY
    from port.main import cmdline

    out = subprocess.run([sys.executable, "-m", "port", "--computer", str(tmp_path / "none.py:X")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no such file" in out.stderr
    launch = cmdline.parse(["--computer", f"{tmp_path}/x.py:Bot"], game=GINRUMMY)
    assert isinstance(launch, int)
    (tmp_path / "x.py").write_text("class Bot: pass\n")
    launch = cmdline.parse(["--computer", f"{tmp_path}/x.py:Bot"], game=GINRUMMY)
    assert launch.computer == f"{tmp_path}/x.py:Bot"
    assert gs.N_ACTIONS == 57


def test_a_name_missing_from_the_bot_file_is_one_plain_sentence(bot: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        match.main(["--a", f"{bot}:nothing_here", "--games", "2", "--workers", "1"])
    assert capsys.readouterr().err.strip().endswith("has no 'nothing_here': name a class, a function or an object in it")
