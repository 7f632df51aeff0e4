"""``python -m port.match --records DIR``: one record file per game played, named by
the game's number, each a record that replays to that game's scores; the match's
result the same with and without records (docs/records.md)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from port.cribbage import record as crib_record
from port.cribbage.rules import Options as CribOptions
from port.ginrummy import record as gin_record
from port.ginrummy.rules.options import Options
from port.match import cribbage, ginrummy
from port.match.common import game_seed

TOP = Path(__file__).resolve().parents[2]


def _same(a, b) -> bool:
    a.seconds = b.seconds = 0.0
    return a == b


def test_ginrummy_records_one_file_a_game_and_the_result_is_unchanged(tmp_path: Path) -> None:
    options = Options(score_limit=50)
    plain = ginrummy.run_match("standard", "easy", 6, 4, options, workers=1, chunk=4)
    recorded = ginrummy.run_match("standard", "easy", 6, 4, options, workers=2, chunk=4, records=tmp_path)
    assert _same(plain, recorded)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"GR{n:06d}.REC" for n in range(1, 7)]
    points = {"standard": 0, "easy": 0}
    for n, name in enumerate(files):
        log = gin_record.read(tmp_path / name)
        # side A sits in seat 0 in even games and seat 1 in odd ones
        a_seat = n % 2
        assert log.names[a_seat] == "standard" and log.meta.roles[a_seat] == "side A"
        assert log.over and log.meta.seed == game_seed(4, n)
        for seat in (0, 1):
            points[log.names[seat]] += log.scores[seat]
    assert (points["standard"], points["easy"]) == (recorded.a.points, recorded.b.points)


def test_cribbage_records_one_file_a_game_and_the_result_is_unchanged(tmp_path: Path) -> None:
    options = CribOptions(61, True)
    plain = cribbage.run_match("standard", "expert", 4, 2, options, workers=1)
    recorded = cribbage.run_match("standard", "expert", 4, 2, options, workers=1, records=tmp_path / "new")
    assert _same(plain, recorded)
    files = sorted((tmp_path / "new").iterdir())
    assert [p.name for p in files] == [f"CR{n:06d}.REC" for n in range(1, 5)]
    wins = {"standard": 0, "expert": 0}
    for path in files:
        log = crib_record.read(path)
        wins[log.names[log.winner]] += 2 if log.skunk else 1
    assert (wins["standard"], wins["expert"]) == (recorded.a.games_won, recorded.b.games_won)


def test_the_command_line_writes_the_records_and_prints_the_same_result(tmp_path: Path) -> None:
    def run(*extra: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "port.match", "--game", "cribbage", "--games", "2",
                               "--seed", "9", "--limit", "61", "--json", *extra],
                              capture_output=True, text=True, timeout=300, cwd=TOP)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        out.pop("seconds")
        return out

    where = tmp_path / "made" / "here"
    assert run("--records", str(where)) == run()
    assert sorted(p.name for p in where.iterdir()) == ["CR000001.REC", "CR000002.REC"]
    assert (where / "CR000001.REC").read_text().startswith("Cribbage game record, version 1\n")


@pytest.mark.parametrize("args, sentence", [
    (["--records", "{file}/inside"], "python -m port.match: cannot make the records directory "),
    (["--players", "easy,standard", "--records", "{dir}"],
     "python -m port.match: --records writes the games of one match (--a and --b), not of a round robin"),
])
def test_a_records_directory_that_cannot_be_used_is_one_sentence(tmp_path: Path, args, sentence) -> None:
    (tmp_path / "afile").write_text("x")
    args = [a.format(file=tmp_path / "afile", dir=tmp_path / "d") for a in args]
    done = subprocess.run([sys.executable, "-m", "port.match", "--games", "2", *args],
                          capture_output=True, text=True, timeout=120, cwd=TOP)
    assert done.returncode == 2
    assert done.stderr.startswith(sentence) and done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == ""
