"""``--sprt ELO0,ELO1``: the match stops when the pentanomial GSPRT on game pairs
decides; two levels whose difference is known (STANDARD wins about 80% of games
against EASY, some 240 Elo: docs/players.md) decide H1 for 0,50 quickly, and H0 the
other way round."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from port.match.sprt import Sprt, bounds, expected_score, llr

TOP = Path(__file__).resolve().parents[2]


def run_match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                          timeout=300, cwd=TOP)


def test_the_llr_leans_to_the_hypothesis_the_pairs_fit() -> None:
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
    assert bounds(0.05, 0.05) == pytest.approx((-2.944, 2.944), abs=1e-3)
    even = [10, 20, 40, 20, 10]                  # mean 1/2: A is no stronger
    strong = [2, 8, 30, 30, 30]                  # mean 0.69
    assert llr(even, 0, 50) < 0 < llr(strong, 0, 50)
    # Mirrored pairs and mirrored hypotheses give the mirrored answer.
    assert llr(strong[::-1], -50, 0) == pytest.approx(-llr(strong, 0, 50), rel=1e-6)
    assert llr([0] * 5, 0, 50) == 0.0
    # Three pairs all won cannot decide alone (the regularized cells).
    assert 0 < llr([0, 0, 0, 0, 3], 0, 50) < 1


def test_the_test_takes_games_in_pairs_and_holds_its_decision() -> None:
    s = Sprt(0, 50)
    s.add(1.0)
    assert s.counts == [0] * 5 and s.llr == 0.0          # half a pair: nothing yet
    s.add(0.5)
    assert s.counts == [0, 0, 0, 1, 0] and s.games == 2
    while s.decision is None:
        s.add(1.0)
    assert s.decision == "H1" and s.llr >= bounds(0.05, 0.05)[1]


def test_standard_against_easy_decides_h1_for_0_50_within_a_bounded_number_of_games() -> None:
    done = run_match("--a", "standard", "--b", "easy", "--sprt", "0,50", "--games", "400", "--seed", "1",
                     "--json")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    sprt = d["sprt"]
    assert sprt["decision"] == "H1" and sprt["llr"] >= sprt["upper"] == pytest.approx(2.944, abs=1e-3)
    # 46 games on seed 1 (46 to 54 on seeds 1-5); 400 is the most it may take.
    assert d["games"] == sprt["games"] < 120 and d["games"] % 2 == 0
    assert d["a"]["games_won"] + d["b"]["games_won"] + d["games_drawn"] == d["games"]
    assert sum(sprt["pairs"]) == d["games"] // 2


def test_easy_against_standard_decides_h0_and_the_report_says_so() -> None:
    done = run_match("--a", "easy", "--b", "standard", "--sprt", "0,50", "--games", "400", "--seed", "1")
    assert done.returncode == 0, done.stderr
    line = next(row for row in done.stdout.splitlines() if row.startswith("SPRT(0, 50): LLR "))
    assert "(bounds -2.94, 2.94)" in line and "H0 accepted" in line


def test_games_running_out_is_no_decision() -> None:
    done = run_match("--game", "cribbage", "--a", "standard", "--b", "standard", "--sprt=-10,10",
                     "--games", "4", "--limit", "61", "--json")
    d = json.loads(done.stdout)
    assert d["games"] == 4 and d["sprt"]["decision"] is None


@pytest.mark.parametrize("args, sentence", [
    (["--sprt", "50"], "--sprt takes two Elo differences, ELO0,ELO1 (as 0,50), not '50'"),
    (["--sprt", "50,0"], "--sprt 50,0: ELO0 must be below ELO1"),
    (["--sprt", "0,50", "--players", "easy,standard"], "--sprt decides one match (--a and --b), not a round robin"),
])
def test_a_bad_sprt_is_one_sentence(args: list[str], sentence: str) -> None:
    done = run_match("--games", "2", *args)
    assert done.returncode == 2 and done.stderr == f"python -m port.match: {sentence}\n"
