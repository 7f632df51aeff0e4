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
    (["--records", ""], "python -m port.match: --records needs a directory's name"),
    (["--records", "{full}"], "python -m port.match: the records directory '{full}' already holds records "
                              "(GR000001.REC and 0 more): give another directory, or --overwrite to replace them"),
])
def test_a_records_directory_that_cannot_be_used_is_one_sentence(tmp_path: Path, args, sentence) -> None:
    (tmp_path / "afile").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "GR000001.REC").write_text("an earlier run's game")
    args = [a.format(file=tmp_path / "afile", full=tmp_path / "full") for a in args]
    done = subprocess.run([sys.executable, "-m", "port.match", "--games", "2", *args],
                          capture_output=True, text=True, timeout=120, cwd=TOP)
    assert done.returncode == 2
    assert done.stderr.startswith(sentence.format(full=tmp_path / "full")) and done.stderr.count("\n") == 1, \
        done.stderr
    assert done.stdout == ""
    assert (tmp_path / "full" / "GR000001.REC").read_text() == "an earlier run's game"


def _match(*args: str, preexec=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "port.match", "--games", "2", "--limit", "0", "--seed", "3",
                           "--json", *args], capture_output=True, text=True, timeout=120, cwd=TOP,
                          preexec_fn=preexec)


def test_overwrite_lets_a_second_run_replace_the_first_runs_records(tmp_path: Path) -> None:
    first = _match("--records", str(tmp_path))
    assert first.returncode == 0
    (tmp_path / "GR000001.REC").write_text("changed")
    assert _match("--records", str(tmp_path)).returncode == 2
    again = _match("--records", str(tmp_path), "--overwrite")
    assert again.returncode == 0 and (tmp_path / "GR000001.REC").read_text().startswith("GinRummy game record")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["GR000001.REC", "GR000002.REC"]


def _small_files() -> None:
    """The child may write no file beyond 200 bytes, as on a disk that fills: a write
    past it fails with EFBIG (its signal ignored, as a full disk's ENOSPC raises none)."""
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))


def test_records_that_cannot_be_written_are_named_after_the_result_and_none_is_cut(tmp_path: Path) -> None:
    plain = json.loads(_match().stdout)
    done = _match("--records", str(tmp_path), preexec=_small_files)
    assert done.returncode == 1
    recorded = json.loads(done.stdout)            # the result first, whole
    plain["seconds"] = recorded["seconds"] = 0
    assert recorded == plain
    assert done.stderr.startswith("python -m port.match: 2 record(s) could not be written (File too large): ")
    assert str(tmp_path / "GR000001.REC") in done.stderr and str(tmp_path / "GR000002.REC") in done.stderr
    assert list(tmp_path.iterdir()) == []          # no record cut short, no temporary file left


def test_a_record_that_cannot_take_its_name_is_missing_and_the_others_are_written(tmp_path: Path) -> None:
    (tmp_path / "GR000002.REC").mkdir()            # game 2's name is taken by a folder
    done = _match("--records", str(tmp_path), "--overwrite")
    assert done.returncode == 1 and json.loads(done.stdout)["games"] == 2
    assert done.stderr.startswith("python -m port.match: 1 record(s) could not be written (Is a directory): ")
    assert (tmp_path / "GR000001.REC").read_text().startswith("GinRummy game record")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["GR000001.REC", "GR000002.REC"]


def test_a_round_robin_writes_each_pairings_records_in_its_own_folder(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "port.match", "--game", "cribbage", "--players",
                           "easy,standard,expert", "--games", "2", "--limit", "61", "--records", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=TOP)
    assert done.returncode == 0, done.stderr
    folders = sorted(p.name for p in tmp_path.iterdir())
    assert folders == ["01-easy-standard", "02-easy-expert", "03-standard-expert"]
    for folder in folders:
        files = sorted((tmp_path / folder).iterdir())
        assert [p.name for p in files] == ["CR000001.REC", "CR000002.REC"]
        log = crib_record.read(files[0])
        a, b = folder.split("-")[1:]
        assert log.names == (a, b)                 # game 1: side A in seat 0
