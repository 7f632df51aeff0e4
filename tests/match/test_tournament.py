"""The round robin (crosstable, intervals, Elo-style rating), progress bars only on a
terminal, and the plain line for a missing extra."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from port.match import ginrummy, tournament
from port.match.runner import Runner
from port.match.common import wilson
from port.match.tournament import Pairing, elo, round_robin
from port.ginrummy.rules.options import Options

REF = str(Path(__file__).resolve().parents[2] / "scripts" / "reference_bot.py") + ":ReferenceBot"


def test_a_round_robin_plays_every_pair_on_the_same_seed() -> None:
    players = ["easy", "standard", REF]
    t = round_robin(ginrummy, players, 6, 2, Options(score_limit=0), Runner(workers=1))
    assert [(p.a, p.b) for p in t.pairings] == [("easy", "standard"), ("easy", REF), ("standard", REF)]
    alone = ginrummy.run_match("standard", REF, 6, 2, Options(score_limit=0), workers=1)
    assert t.pairings[2].score_a == ginrummy.score_a(alone)
    for x in players:
        for y in players:
            if x != y:
                assert t.rate(x, y)[0] + t.rate(y, x)[0] == pytest.approx(1)
                lo, hi = t.rate(x, y)[1]
                assert lo <= t.rate(x, y)[0] <= hi
    assert sum(t.elo.values()) / 3 == pytest.approx(1500)
    d = json.loads(tournament.to_json(t))
    assert d["crosstable"]["standard"]["reference"] == t.rate("standard", REF)[0] and d["games"] == 6


def test_the_rating_is_elos_scale() -> None:
    # 75% against one player is 3 to 1 odds: 400 * log10(3) = 190.8 points apart.
    r = elo(["a", "b"], [Pairing("a", "b", 100_000, 75_000, 0.75, (0.7, 0.8))])
    assert r["a"] - r["b"] == pytest.approx(190.8, abs=0.1)
    # A player who lost every game still has a finite rating (one drawn game of prior).
    r = elo(["a", "b", "c"], [Pairing("a", "b", 10, 10, 1, (0, 1)), Pairing("a", "c", 10, 6, 0.6, (0, 1)),
                              Pairing("b", "c", 10, 0, 0, (0, 1))])
    assert r["a"] > r["c"] > r["b"] and all(abs(v) < 5000 for v in r.values())


def test_the_command_line_round_robin_in_both_games(capsys) -> None:
    from port.match import main

    main(["--players", f"easy,standard,{REF}", "--games", "4", "--limit", "0", "--workers", "1"])
    out = capsys.readouterr().out
    assert "round robin: 3 players, 4 games per pair" in out and "Elo" in out
    assert "\nreference " in out           # the bot's own name, not its path or class
    main(["--game", "cribbage", "--players", "standard,expert", "--games", "2", "--limit", "61",
          "--workers", "1", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["players"] == ["standard", "expert"] and len(d["pairings"]) == 1


def _on_a_terminal(args: list[str]) -> str:
    """What the runner writes when both its outputs are a terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))   # a terminal's size
    done = subprocess.run([sys.executable, "-m", "port.match", *args], stdout=slave, stderr=slave,
                          timeout=120)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert done.returncode == 0
    return out.decode(errors="replace")


def test_a_progress_bar_on_a_terminal_only() -> None:
    args = ["--games", "40", "--limit", "0", "--workers", "1"]
    assert "game/s]" in _on_a_terminal(args)
    assert "game/s" not in _on_a_terminal([*args, "--json"])
    piped = subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                           timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""


def test_a_missing_extra_is_one_plain_line() -> None:
    code = ("import sys; sys.modules['ray'] = None\n"
            "from port.match import main\n"
            "main(['--games', '2', '--limit', '0', '--ray'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("python -m port.match: this needs the optional extra 'cluster' "
                           "(ray is not installed): pip install 'ginrummy[cluster]'\n")


def test_a_gauntlet_plays_the_first_player_against_each_other_and_rates_by_name(tmp_path: Path) -> None:
    lines = tmp_path / "games.jsonl"
    done = subprocess.run([sys.executable, "-m", "port.match", "--gauntlet", "--players", f"{REF},easy,standard",
                           "--games", "4", "--limit", "0", "--json", "--games-out", str(lines)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    assert d["gauntlet"] is True
    # the pairings, the crosstable and the ratings all keyed by the bot's own name, its file beside it
    assert d["players"] == ["reference", "easy", "standard"]
    assert [(p["a"], p["b"]) for p in d["pairings"]] == [("reference", "easy"), ("reference", "standard")]
    assert [(p["a_file"], p["b_file"]) for p in d["pairings"]] == [(REF.rpartition(":")[0], None)] * 2
    assert d["files"]["reference"] == REF.rpartition(":")[0] and d["specs"]["reference"] == REF
    assert set(d["crosstable"]) == set(d["crosstable"]["easy"]) == set(d["elo"]) == set(d["ratings"])
    # every rating inside its interval
    assert set(d["ratings"]) == {"reference", "easy", "standard"}
    assert d["ratings"]["reference"]["file"] == REF.rpartition(":")[0]
    assert d["ratings"]["easy"]["file"] is None
    for r in d["ratings"].values():
        lo, hi = r["interval"]
        assert lo < r["elo"] < hi
    assert d["crosstable"]["easy"]["standard"] is None          # they did not meet
    rows = [json.loads(line) for line in lines.read_text().splitlines()]
    assert len(rows) == 8
    assert rows[0]["a"] == "reference" and rows[0]["a_file"] == REF.rpartition(":")[0]
    assert [r["game"] for r in rows] == [1, 2, 3, 4, 1, 2, 3, 4] and rows[4]["b"] == "standard"
    assert rows[1]["seats"] == ["easy", "reference"] and rows[1]["seed"] == 1
    assert sum(r["result"] == "A" for r in rows[:4]) + sum(r["result"] == "draw" for r in rows[:4]) / 2 \
        == d["pairings"][0]["score_a"]
    assert all(r["forfeit"] is None and len(r["scores"]) == 2 for r in rows)


def test_the_table_shows_each_rating_with_its_interval(capsys) -> None:
    from port.match import main

    main(["--players", "easy,standard", "--games", "4", "--limit", "0", "--workers", "1"])
    out = capsys.readouterr().out
    assert "Elo with its 95% interval" in out
    row = next(line for line in out.splitlines() if line.startswith("standard "))
    elo, interval = row.split()[-2:]
    lo, hi = (int(x) for x in interval.strip("()").split("-"))
    assert lo < int(elo) < hi


def test_the_crosstable_stays_aligned_when_a_cell_is_100() -> None:
    names = ["alpha", "bravo", "charlie"]
    t = tournament.RoundRobin(names, 10, 1, {}, pairings=[
        Pairing("alpha", "bravo", 10, 10.0, 1.0, wilson(10, 10)),
        Pairing("alpha", "charlie", 10, 0.0, 0.0, wilson(0, 10)),
        Pairing("bravo", "charlie", 10, 5.0, 0.5, wilson(5, 10))])
    rows = tournament.report(t).splitlines()[2:6]
    ends = [rows[0].index(f" {n}") + 1 + len(n) for n in names]      # each column's right edge
    assert "100.0 (72.2-100.0)" in rows[1]
    for row in rows[1:]:
        cells = list(re.finditer(r"--|\d+\.\d \( ?\d+\.\d-\d+\.\d\)", row))[:3]
        assert [m.end() for m in cells] == ends and all(row[m.start() - 1] == " " for m in cells), row
