"""Cribbage's command line, as its documentation gives it: the words that print and
exit through the real ``cribbage`` console script in a subprocess, the others on
``parse`` with Cribbage's words (what the console script calls)."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from port.cribbage.main import CRIBBAGE
from port.cribbage import files as cf
from port.main import cmdline
from port.main.launch import Launch

BIN = Path(sys.executable).parent
SCRIPT = BIN / "cribbage"
TOP = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path, module: bool = False) -> subprocess.CompletedProcess[str]:
    cmd = ([sys.executable, "-m", "port.cribbage", *args] if module or not SCRIPT.exists()
           else [str(SCRIPT), *args])
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy"}
    env.pop("GINRUMMY_DEBUG", None)
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=60, env=env)


def launch(*words: str) -> Launch:
    out, err = io.StringIO(), io.StringIO()
    got = cmdline.parse(list(words), out, err, game=CRIBBAGE)
    assert isinstance(got, Launch), (got, out.getvalue(), err.getvalue())
    return got


@pytest.mark.parametrize("word", ["/?", "?", "help", "HELP"])
def test_help_words_print_the_help_screen_first_only(tmp_path: Path, word: str) -> None:
    done = run(word, "Dave", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert "cribbage [61|121]" in done.stdout and "NOANIMATION" in done.stdout and "PAUSE" in done.stdout
    assert list(tmp_path.iterdir()) == []
    if word != "/?":                                    # (a later /? is a path)
        assert launch("Dave", word).name == word        # "must be the FIRST parameter"


def test_view_prints_the_ports_manual(tmp_path: Path) -> None:
    done = run("VIEW", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout == (TOP / "port" / "cribbage" / "CRIBBAGE.DOC").read_text(encoding="utf-8")
    assert "Cribbage" in done.stdout and "SKUNKING" in done.stdout


def test_list_prints_the_statistics_file(tmp_path: Path) -> None:
    done = run("list", cwd=tmp_path)
    assert done.returncode == 0 and "There is no CRIBBAGE.STA" in done.stdout
    cf.CribStore.open(tmp_path).record_game(cf.CribGame("Dave", True, False, 7, 50, 3, 20))
    done = run("List", cwd=tmp_path, module=True)
    assert done.returncode == 0 and "Dave" in done.stdout and "Avg crib" in done.stdout
    assert not (tmp_path / "CRIBBAGE.CFG").exists()


def test_a_bad_flag_is_one_plain_line(tmp_path: Path) -> None:
    done = run("--frobnicate", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("cribbage: unknown option")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_headless_start_runs_and_writes_nothing(tmp_path: Path) -> None:
    done = run("--headless", "Dave", "61", "GO", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_limit_words_are_61_and_121_only() -> None:
    assert launch("61").score_limit == 61 and launch("121").score_limit == 121
    assert launch("100").score_limit is None and launch("100").name == "100"
    # Leading zeros, as GinRummy's limits are typed: 061 plays to 61, never a name.
    assert launch("061").score_limit == 61 and launch("061").name is None
    assert launch("0121").score_limit == 121


def test_a_word_of_digits_taken_as_the_name_is_said() -> None:
    assert launch("100").notices == ("100 is not a score limit (61 or 121): it is taken as your name.",)
    assert launch("100", "Dave").notices == () and launch("Dave", "61").notices == ()


def test_the_notice_of_a_digits_name_is_on_the_title_page(tmp_path: Path, headless_pyxel) -> None:
    from port.main.menus import notice_lines
    from port.screen.profiles import LIGHTRED
    from tests.cribbage.helpers import open_cribbage
    from tests.ginrummy.helpers import shows_text

    got = launch("100")
    d = open_cribbage(tmp_path, name=got.name, notices=got.notices)
    d.step()
    lines = notice_lines(["100 is not a score limit (61 or 121): it is taken as your name."], rows=4)
    assert all(shows_text(d, 8, 290 + 14 * i, line, LIGHTRED) for i, line in enumerate(lines))


def test_the_name_is_the_last_unrecognised_word_cut_to_8_case_kept() -> None:
    assert launch("Mike", "ASDF").name == "ASDF"
    assert launch("Paul", "Schoenberger").name == "Schoenbe"
    assert launch("go", "Dave", "nodisk").name == "Dave"


def test_the_switches_case_insensitive() -> None:
    got = launch("nodisk", "NoBlank", "NOANIMATION", "laptop", "Pause", "nokeyboard", "go")
    assert (got.nodisk, got.noblank, got.noanimation, got.laptop, got.pause, got.nokeyboard, got.go) == (
        True,) * 7


def test_only_the_first_eight_words_are_read() -> None:
    # "CRIBBAGE 1 2 3 4 5 6 7 8 GO will NOT execute the GO command."
    assert launch(*"1 2 3 4 5 6 7 8 GO".split()).go is False
    assert launch(*"1 2 3 4 5 6 7 GO".split()).go is True


def test_a_path_word(tmp_path: Path) -> None:
    assert launch(str(tmp_path)).path == tmp_path.resolve()
    got = launch("/no/such/dir/here")
    assert got.path == Path.cwd() and any("not a usable directory" in n for n in got.notices)


def test_scripts_run_starts_either_game(tmp_path: Path) -> None:
    done = subprocess.run([str(TOP / "scripts" / "run"), "--game", "cribbage", "?"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "cribbage [61|121]" in done.stdout
    done = subprocess.run([str(TOP / "scripts" / "run"), "?"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "ginrummy [nnn]" in done.stdout
    done = subprocess.run([str(TOP / "scripts" / "run"), "--game", "chess"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "ginrummy or cribbage" in done.stderr
