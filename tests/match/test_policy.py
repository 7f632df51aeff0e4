"""The ``policy`` level (docs/envs.md, "A learned baseline"): the shipped networks play
both games through the real match runner, a missing numpy or a missing, damaged or
foreign weights file is one plain sentence, and the training script runs end to end."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    from port.cribbage.easy import Easy as CribbageEasy
    from port.cribbage.policy import Policy as CribbagePolicy
    from port.cribbage.rules import Options as CribbageOptions
    from port.cribbage.rules.players import play_game as play_cribbage
    from port.ginrummy.computer import Easy as GinEasy
    from port.ginrummy.policy import Policy as GinPolicy
    from port.ginrummy.rules import Options as GinOptions
    from port.ginrummy.rules.players import play_game as play_gin

    outs = []
    for n, workers in enumerate(("1", "2")):
        out = tmp_path / f"run{n}"
        done = run("scripts/train_policy.py", "--games", "2", "--epochs", "1", "--hidden", "16",
                   "--workers", workers, "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "wrote" in done.stdout and "agreement with STANDARD" in done.stdout
        outs.append(out)
    for game in ("ginrummy", "cribbage"):
        # The same command gives the same weights, whatever the number of workers.
        assert (outs[0] / f"{game}.npz").read_bytes() == (outs[1] / f"{game}.npz").read_bytes()
    gin = play_gin(GinOptions(score_limit=0), PascalRandom(3),
                   (GinPolicy(weights=outs[0] / "ginrummy.npz"), GinEasy()))
    assert len(gin.hands) == 1
    crib = play_cribbage(CribbageOptions(limit=61), PascalRandom(3),
                         (CribbagePolicy(weights=outs[0] / "cribbage.npz"), CribbageEasy()))
    assert crib.winner in (0, 1) and max(crib.scores) >= 61


def test_the_training_script_refuses_bad_sizes_in_one_line(tmp_path: Path) -> None:
    done = run("scripts/train_policy.py", "--hidden", "big", "--out", str(tmp_path))
    assert done.returncode == 2 and "--hidden takes sizes like 128,128, not 'big'" in done.stderr
    assert not list(tmp_path.iterdir())
