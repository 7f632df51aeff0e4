"""The match runner: same seed, same result; the tallies add up; the output formats."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from port import match
from port.ginrummy.rules.options import Options

REF = str(Path(__file__).resolve().parents[2] / "scripts" / "reference_bot.py") + ":ReferenceBot"


def test_the_same_seed_gives_the_same_result_however_the_games_are_split() -> None:
    one = match.run_match("standard", "easy", 12, 3, Options(), workers=1, chunk=5)
    two = match.run_match("standard", "easy", 12, 3, Options(), workers=2, chunk=3)
    for r in (one, two):
        r.seconds = 0.0
    assert one == two


def test_another_seed_gives_other_games() -> None:
    a = match.run_match("standard", "easy", 6, 1, Options(), workers=1)
    b = match.run_match("standard", "easy", 6, 2, Options(), workers=1)
    assert (a.a, a.b, a.hands) != (b.a, b.b, b.hands)


def test_the_tallies_add_up() -> None:
    r = match.run_match("standard", REF, 10, 5, Options(score_limit=50), workers=1)
    assert r.a.games_won + r.b.games_won + r.games_drawn == 10
    assert r.a.hands_won + r.b.hands_won + r.hands_drawn == r.hands
    for s in (r.a, r.b):
        assert s.gins + s.knocks_won + (s.undercuts) == s.hands_won
    assert r.interval_a[0] <= r.win_rate_a <= r.interval_a[1]


def test_pairs_of_games_share_a_deal_with_the_seats_swapped() -> None:
    assert match.game_seed(1, 0) == match.game_seed(1, 1) != match.game_seed(1, 2)


def test_the_command_line_prints_json_and_takes_every_option(capsys) -> None:
    match.main(["--a", "standard", "--b", REF, "--games", "4", "--seed", "2", "--limit", "50",
                "--gin-bonus", "20", "--undercut-bonus", "10", "--oklahoma", "--workers", "1",
                "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 4 and d["options"]["oklahoma"] is True
    assert d["options"]["gin_bonus"] == 20 and d["options"]["undercut_bonus"] == 10
    assert d["a"]["name"] == "standard" and len(d["interval_a"]) == 2


def test_gin_only_games_have_no_knocks(capsys) -> None:
    match.main(["--games", "4", "--limit", "0", "--no-knocking", "--workers", "1", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["hands"] == 4 and d["a"]["knocks"] == d["b"]["knocks"] == 0


def test_the_text_report(capsys) -> None:
    match.main(["--games", "2", "--limit", "0", "--workers", "1"])
    out = capsys.readouterr().out
    assert "2 games" in out and "95% interval" in out and "games/s" in out


def test_the_documented_command_runs_on_both_cores_without_a_word_on_stderr() -> None:
    # The real command line, as docs/players.md gives it: two worker processes from the
    # fork server, and nothing printed but the report (no runpy warning).
    done = subprocess.run([sys.executable, "-m", "port.match", "--a", "standard", "--b", "easy",
                           "--games", "4", "--seed", "1", "--limit", "0"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert done.stderr == ""
    assert "4 games, seed 1" in done.stdout and "A (standard) wins" in done.stdout


def test_the_wilson_interval() -> None:
    lo, hi = match.wilson(80, 100)
    assert 0.71 < lo < 0.72 and 0.86 < hi < 0.87
