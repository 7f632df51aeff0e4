"""The match runner plays Cribbage: same seed, same result; the tallies add up; skunks
count twice; the command line."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from port import match
from port.cribbage.rules import Options
from port.match import cribbage

REF = str(Path(__file__).resolve().parents[2] / "scripts" / "reference_cribbage_bot.py") + ":ReferenceBot"


def test_the_same_seed_gives_the_same_result_however_the_games_are_split() -> None:
    one = cribbage.run_match("standard", REF, 8, 3, Options(limit=61), workers=1, chunk=5)
    two = cribbage.run_match("standard", REF, 8, 3, Options(limit=61), workers=2, chunk=3)
    for r in (one, two):
        r.seconds = 0.0
    assert one == two


def test_another_seed_gives_other_games() -> None:
    a = cribbage.run_match("standard", REF, 4, 1, Options(limit=61), workers=1)
    b = cribbage.run_match("standard", REF, 4, 2, Options(limit=61), workers=1)
    assert (a.a, a.b, a.deals) != (b.a, b.b, b.deals)


def test_the_tallies_add_up() -> None:
    r = cribbage.run_match("expert", "standard", 4, 5, Options(limit=61), workers=1)
    assert r.a.games + r.b.games == 4
    assert r.a.deals == r.b.deals == r.deals and r.a.cribs + r.b.cribs == r.deals
    for s in (r.a, r.b):
        # Every point on the board came from the play, heels, a hand or a crib.
        assert s.pegging + s.heels + s.hand + s.crib == s.points
        assert s.games_won == s.games                 # skunking off: a win is one
    assert r.interval_a[0] <= r.win_rate_a <= r.interval_a[1]


def test_a_skunk_counts_as_two_wins() -> None:
    # The documentation: failing to reach the skunk line "counts a[s] 2 wins". The
    # reference bot against itself, to 61: some games end below the line (30).
    r = cribbage.run_match(REF, REF, 40, 1, Options(limit=61, skunking=True), workers=1)
    skunks = r.a.skunks + r.b.skunks
    assert skunks > 0
    assert r.a.games_won + r.b.games_won == 40 + skunks


def test_the_command_line_prints_json_and_takes_every_option(capsys) -> None:
    match.main(["--game", "cribbage", "--a", "standard", "--b", REF, "--games", "2", "--seed", "2",
                "--limit", "61", "--skunking", "--workers", "1", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 2 and d["options"] == {"limit": 61, "skunking": True}
    assert d["a"]["name"] == "standard" and len(d["interval_a"]) == 2
    assert {"pegging_per_deal", "hand_per_deal", "crib_per_crib"} <= set(d["a"])


def test_the_text_report(capsys) -> None:
    match.main(["--game", "cribbage", "--games", "2", "--limit", "61", "--workers", "1",
                "--a", "standard", "--b", "standard"])
    out = capsys.readouterr().out
    assert "2 games of Cribbage" in out and "95% interval" in out and "pegging" in out


def test_the_documented_command_runs_on_both_cores_without_a_word_on_stderr() -> None:
    done = subprocess.run([sys.executable, "-m", "port.match", "--game", "cribbage",
                           "--a", "standard", "--b", REF, "--games", "4", "--seed", "1",
                           "--limit", "61"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert done.stderr == ""
    assert "4 games of Cribbage, seed 1" in done.stdout and "A (standard) wins" in done.stdout


def test_a_bad_limit_is_refused_in_one_sentence() -> None:
    done = subprocess.run([sys.executable, "-m", "port.match", "--game", "cribbage", "--limit", "100"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "invalid choice: 100" in done.stderr
