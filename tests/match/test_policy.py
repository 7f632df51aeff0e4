"""The ``policy`` level (docs/envs.md, "A learned baseline"): the shipped networks play
both games through the real match runner, a missing numpy or a missing, damaged or
foreign weights file is one plain sentence, the training script runs end to end (its
reinforcement learning alone teaches a random network to beat EASY), and it replaces
weights only when told."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from port.cards import PascalRandom

TOP = Path(__file__).resolve().parents[2]


def run(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=TOP)


@pytest.mark.parametrize("game", ["ginrummy", "cribbage"])
def test_the_shipped_policy_plays_whole_games_through_the_match_runner(game: str) -> None:
    # Every move is checked against the rules by the engine; an illegal one stops the match.
    done = run("-m", "port.match", "--game", game, "--a", "policy", "--b", "easy", "--games", "4",
               "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 4
    assert (result["a"]["name"], result["b"]["name"]) == ("policy", "easy")
    assert result["a"]["games_won"] + result["b"]["games_won"] + result.get("games_drawn", 0) == 4


def test_the_policy_level_plays_with_numpy_alone_and_never_imports_torch() -> None:
    # torch is only the trainer's (the extra 'train'): with it made unimportable, both
    # games' policy level still plays whole games through the match runner, and nothing
    # at play time has imported it.
    code = ("import sys; sys.modules['torch'] = None\n"
            "from port.match import main\n"
            "for game in ('ginrummy', 'cribbage'):\n"
            "    assert main(['--game', game, '--a', 'policy', '--b', 'easy', '--games', '2', '--workers', '1',\n"
            "                 '--json']) == 0\n"
            "import port.netpolicy, port.ginrummy.policy, port.cribbage.policy\n"
            "assert sys.modules['torch'] is None\n"
            "print('played:', sorted(m for m in sys.modules if m.endswith('policy')))\n")
    done = run(code=code)
    assert done.returncode == 0, done.stderr
    assert "'port.cribbage.policy', 'port.ginrummy.policy'" in done.stdout
    assert "torch" not in (TOP / "port" / "netpolicy.py").read_text()


@pytest.mark.parametrize("game", ["ginrummy", "cribbage"])
def test_without_numpy_the_policy_level_is_one_line_naming_the_extra(game: str) -> None:
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from port.match import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    done = run("--game", game, "--a", "policy", "--b", "easy", "--games", "2", "--workers", "1", code=code)
    assert done.returncode == 2
    assert done.stderr == ("python -m port.match: this needs the optional extra 'rl' (numpy is not installed): "
                           "pip install 'ginrummy[rl]'\n")


def test_a_missing_damaged_or_foreign_weights_file_is_one_plain_sentence(tmp_path: Path) -> None:
    from port.cribbage.policy import Policy as CribbagePolicy
    from port.ginrummy.policy import WEIGHTS as GIN_WEIGHTS
    from port.ginrummy.policy import Policy as GinPolicy

    missing = tmp_path / "none.npz"
    with pytest.raises(ValueError, match=r"^the policy's weights file .*none\.npz is missing: train it with "
                                         r"scripts/train_policy\.py or reinstall the game$"):
        GinPolicy(weights=missing)
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(b"not a weights file")
    with pytest.raises(ValueError, match=r"damaged\.npz cannot be read"):
        CribbagePolicy(weights=damaged)
    with pytest.raises(ValueError, match=r"is for 434 observations and 57 actions, not this game's 378 and 53$"):
        CribbagePolicy(weights=GIN_WEIGHTS)


def test_the_training_script_runs_end_to_end_and_its_weights_play(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the extra 'train' is not installed")
    from port.cribbage.easy import Easy as CribbageEasy
    from port.cribbage.policy import Policy as CribbagePolicy
    from port.cribbage.rules import Options as CribbageOptions
    from port.cribbage.rules.players import play_game as play_cribbage
    from port.ginrummy.computer import Easy as GinEasy
    from port.ginrummy.policy import Policy as GinPolicy
    from port.ginrummy.rules import Options as GinOptions
    from port.ginrummy.rules.players import play_game as play_gin

    shipped = {g: TOP / "port" / g / "policy.npz" for g in ("ginrummy", "cribbage")}
    assert all(path.is_file() for path in shipped.values())
    before = {g: (path.read_bytes(), path.stat().st_mtime_ns) for g, path in shipped.items()}
    tiny = ["--teacher", "standard", "--games", "2", "--dagger", "1", "--dagger-games", "2", "--epochs", "1",
            "--hidden", "16", "--head", "4", "--rl-iters", "1", "--rl-games", "2", "--eval-games", "2"]
    outs = []
    for n, (game, workers) in enumerate((("both", "1"), ("cribbage", "2"))):
        out = tmp_path / f"run{n}"
        done = run("scripts/train_policy.py", "--game", game, *tiny, "--workers", workers, "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "wrote" in done.stdout and "imitation of STANDARD: held-out agreement" in done.stdout
        assert "RL round 1" in done.stdout and "saved: the best of these" in done.stdout
        outs.append(out)
    # Trained into the temporary folder, the shipped weights untouched (no --overwrite).
    assert sorted(p.name for p in outs[0].iterdir()) == ["cribbage.npz", "ginrummy.npz"]
    assert {g: (path.read_bytes(), path.stat().st_mtime_ns) for g, path in shipped.items()} == before
    # The same command gives the same weights, whatever the number of workers.
    assert (outs[0] / "cribbage.npz").read_bytes() == (outs[1] / "cribbage.npz").read_bytes()
    gin = play_gin(GinOptions(score_limit=0), PascalRandom(3),
                   (GinPolicy(weights=outs[0] / "ginrummy.npz"), GinEasy()))
    assert len(gin.hands) == 1
    crib = play_cribbage(CribbageOptions(limit=61), PascalRandom(3),
                         (CribbagePolicy(weights=outs[0] / "cribbage.npz"), CribbageEasy()))
    assert crib.winner in (0, 1) and max(crib.scores) >= 61


def test_a_ppo_round_makes_the_moves_that_paid_more_likely_and_the_helper_scores_fixed_deals(
        tmp_path: Path) -> None:
    # One round of the trainer's own reinforcement learning, in process: real games of
    # Cribbage against EASY, the moves drawn from the network, the hands' points as
    # rewards. After the update the moves with an advantage above the value network's
    # estimate are more likely, those below it less (a sign error would fail this).
    torch = pytest.importorskip("torch", reason="the extra 'train' is not installed")
    sys.path.insert(0, str(TOP / "scripts"))
    import policy_games as G
    import train_policy as T

    args = T.arguments(["--out", str(tmp_path), "--rl-lr", "0.003", "--ppo-epochs", "2"])
    game = G.game_of("cribbage")
    net, value = T.make_nets(torch, game, [32], 8, seed=1)
    data = G.run_jobs(G.play_job, G.jobs_of("cribbage", T.params_of(net), 5, ["easy"] * 6, nets={}, explore=True,
                                            teacher=None, rewards=G.Rewards()), 1)
    assert data["done"].sum() >= 6 * 5          # each deal an episode: five deals or more a game

    def taken() -> np.ndarray:
        b = T.Batches(torch, data, game).get(np.arange(len(data["action"])))
        with torch.no_grad():
            logp = torch.log_softmax(net(b["x"], b["per"], b["mask"]), dim=1)
        return logp.gather(1, b["action"][:, None])[:, 0].numpy()

    assert np.allclose(taken(), data["logp"], atol=1e-2)     # torch's network is the one that played
    T.advantages(torch, value, data, 0.95)
    before = taken()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    vopt = torch.optim.Adam(value.parameters(), lr=1e-3)
    T.ppo(torch, net, value, net, opt, vopt, data, game, args, np.random.default_rng(1))
    moved = (taken() - before) * np.sign(data["adv"])
    assert moved.mean() > 0 and (moved > 0).mean() > 0.6

    # The evaluation helper plays the match runner's games: the same deals, seats swapped.
    from port.cribbage.policy import WEIGHTS

    score = G.evaluate("cribbage", WEIGHTS, "standard", games=6, seed=3, workers=1)
    done = run("-m", "port.match", "--game", "cribbage", "--a", "policy", "--b", "standard", "--games", "6",
               "--seed", "3", "--workers", "1", "--json")
    assert score.games == 6 and score.won == json.loads(done.stdout)["a"]["games"]     # each game once
    assert str(score).startswith(f"{score.won / 6:.1%} of 6 (")


def test_the_training_script_never_replaces_weights_unless_told(tmp_path: Path) -> None:
    shipped = {g: (TOP / "port" / g / "policy.npz").read_bytes() for g in ("ginrummy", "cribbage")}
    done = run("scripts/train_policy.py", "--game", "cribbage", "--games", "2")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"train_policy.py: error: {TOP / 'port' / 'cribbage' / 'policy.npz'} "
                                            "exists (the shipped weights): give --out DIR, or --overwrite to replace it")
    (tmp_path / "cribbage.npz").write_bytes(b"earlier weights")
    done = run("scripts/train_policy.py", "--game", "both", "--out", str(tmp_path))
    assert done.returncode == 2 and "cribbage.npz exists: give --out DIR, or --overwrite" in done.stderr
    assert (tmp_path / "cribbage.npz").read_bytes() == b"earlier weights"
    assert {g: (TOP / "port" / g / "policy.npz").read_bytes() for g in shipped} == shipped


def test_the_training_script_refuses_bad_sizes_in_one_line(tmp_path: Path) -> None:
    done = run("scripts/train_policy.py", "--hidden", "big", "--out", str(tmp_path))
    assert done.returncode == 2 and "--hidden takes sizes like 128,128, not 'big'" in done.stderr
    done = run("scripts/train_policy.py", "--reward", "hand=1,luck=2", "--out", str(tmp_path))
    assert done.returncode == 2 and "--reward takes hand=X and game=Y, not 'luck=2'" in done.stderr
    assert not list(tmp_path.iterdir())
