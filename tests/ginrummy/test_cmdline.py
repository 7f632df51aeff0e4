"""The command line, as the documentation gives it.

The words that print and exit (help, list, view, usage errors) are run through the
real console script in a subprocess; the words that only fill in the Launch are
checked on ``parse`` directly, which is what the console script calls.
"""
from __future__ import annotations

import datetime
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from port.ginrummy import files
from port.ginrummy.files import GameRecord, Result, Store
from port.ginrummy.main.words import GINRUMMY
from port.main import cmdline
from port.main.launch import Launch

BIN = Path(sys.executable).parent
SCRIPT = BIN / "ginrummy"


def run(*args: str, cwd: Path, module: bool = False) -> subprocess.CompletedProcess[str]:
    """The installed console script (or ``python -m port``) in a subprocess."""
    cmd = [sys.executable, "-m", "port", *args] if module or not SCRIPT.exists() else [str(SCRIPT), *args]
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy"}
    env.pop("GINRUMMY_DEBUG", None)
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=60, env=env)


def launch(*words: str) -> Launch:
    out, err = io.StringIO(), io.StringIO()
    got = cmdline.parse(list(words), out, err, game=GINRUMMY)
    assert isinstance(got, Launch), (got, out.getvalue(), err.getvalue())
    return got


def a_game(tmp: Path, name: str) -> None:
    Store.open(tmp).record_game(
        GameRecord(name, 110, 60, 5, 100, False, Result.WON, datetime.date(1994, 3, 5)))


# ---- help, list, view ----------------------------------------------------------------

@pytest.mark.parametrize("word", ["/?", "?", "help", "HELP", "Help", "--help", "-h"])
def test_help_words_print_the_help_screen_and_exit(tmp_path: Path, word: str) -> None:
    # "type GINRUMMY followed by /? or ? or help or HELP. This must be the first parameter."
    done = run(word, "Dave", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert "Usage:" in done.stdout and "NODISK" in done.stdout and "nnn" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_python_dash_m_port_is_the_same_program(tmp_path: Path) -> None:
    assert run("/?", cwd=tmp_path, module=True).stdout == run("/?", cwd=tmp_path).stdout


def test_help_later_on_the_line_is_a_name() -> None:
    # "must be the FIRST parameter"; otherwise it is an unrecognised word: the name
    assert launch("Dave", "help").name == "help"
    assert launch("Dave", "view").name == "view"


def test_list_prints_the_statistics_file(tmp_path: Path) -> None:
    a_game(tmp_path, "Ann")
    a_game(tmp_path, "Bob")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    done = run("LIST", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert "GINRUMMY.STA" in lines[0]
    assert [ln.split()[0] for ln in lines[3:]] == ["Bob", "Ann"]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_list_reads_the_path_given(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    a_game(saves, "Far")
    done = run("list", "..\\saves", cwd=here)
    assert "Far" in done.stdout and done.returncode == 0


def test_list_of_a_damaged_file_shows_what_it_can_and_changes_nothing(tmp_path: Path) -> None:
    a_game(tmp_path, "Ann")
    a_game(tmp_path, "Bob")
    sta = tmp_path / files.STA
    damaged = sta.read_bytes().replace(b" Bob\n", b" B\x00b\n")
    sta.write_bytes(damaged)
    done = run("list", cwd=tmp_path)
    assert "damaged" in done.stdout and "Ann" in done.stdout and "Bob" not in done.stdout
    assert sta.read_bytes() == damaged and not (tmp_path / "GINRUMMY.STA.bad1").exists()


def test_list_without_a_file_says_so(tmp_path: Path) -> None:
    done = run("list", cwd=tmp_path)
    assert done.returncode == 0 and "no GINRUMMY.STA" in done.stdout


def test_view_prints_the_documentation(tmp_path: Path) -> None:
    done = run("VIEW", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == cmdline.documentation(GINRUMMY)
    for heading in ("The Options Menu", "Rules of the Game", "Command Line Options", "Files"):
        assert heading in done.stdout


def test_view_into_a_pipe_that_closes_early_is_quiet(tmp_path: Path) -> None:
    cmd = f"'{SCRIPT if SCRIPT.exists() else sys.executable}' " + ("view" if SCRIPT.exists() else "-m port view")
    done = subprocess.run(f"{cmd} | head -n 1", shell=True, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().startswith("=====") and "Traceback" not in done.stderr


# ---- usage errors --------------------------------------------------------------------

@pytest.mark.parametrize("args, says", [
    (["--seed", "abc"], "--seed needs a whole number"),
    (["--seed", "-1"], "--seed needs a whole number"),
    (["--seed", "99999999999"], "--seed needs a whole number"),
    (["--seed"], "--seed needs a value"),
    (["--script", "no-such-file.txt"], "--script: no such file"),
    (["--frobnicate"], "unknown option"),
    (["--headless=yes"], "takes no value"),
])
def test_bad_input_gets_one_plain_line_and_code_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and says in done.stderr
    assert "Traceback" not in done.stderr


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.text(max_size=12),
    st.sampled_from(["/?", "list", "view", "GO", "nodisk", "--seed", "--script", "--shots",
                     "--headless", "..", "\\", "C:", "025", "1000", "--", "-h", "--seed=7"])),
    max_size=10))
def test_no_command_line_raises(words: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    got = cmdline.parse(words, out, err, game=GINRUMMY)
    assert isinstance(got, (Launch, int))
    if isinstance(got, Launch):
        assert got.path is not None and got.path.is_absolute()
        assert got.name is None or 0 < len(got.name) <= 8


def test_an_unexpected_error_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    code = ("import sys, port.main.cmdline as c\n"
            "def boom(*args, **kw): raise {exc}\n"
            "c.parse = boom\n"
            "from port.ginrummy.main import main\n"
            "sys.exit(main(['Dave']))\n")
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    for exc, rc, says in (("RuntimeError('oops')", 1, "internal error (RuntimeError: oops)"),
                          ("KeyboardInterrupt()", 130, "interrupted")):
        done = subprocess.run([sys.executable, "-c", code.format(exc=exc)], cwd=tmp_path,
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == rc and done.stderr.splitlines() == [done.stderr.strip()]
        assert says in done.stderr and "Traceback" not in done.stderr


# ---- the words that fill in the Launch -----------------------------------------------

def test_no_words_is_a_plain_start_in_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    got = launch()
    assert got == Launch(path=tmp_path, program="ginrummy", title="GinRummy", game_files=GINRUMMY.files)


@pytest.mark.parametrize("word, limit", [("234", 234), ("025", 25), ("000", 0), ("999", 999)])
def test_three_digits_set_the_score_limit(word: str, limit: int) -> None:
    # "GINRUMMY nnn (where "nnn" is a number from 000 to 999) ... you MUST use leading zeros"
    got = launch(word)
    assert got.score_limit == limit and got.name is None


@pytest.mark.parametrize("word", ["25", "1000", "2a4"])
def test_other_numbers_are_not_a_limit_but_a_name(word: str) -> None:
    got = launch(word)
    assert got.score_limit is None and got.name == word


def test_the_name_is_the_last_unrecognised_word() -> None:
    # "GINRUMMY Mike ASDF will make your name ASDF not Mike."
    assert launch("Mike", "ASDF").name == "ASDF"
    assert launch("Dave").name == "Dave"
    assert launch("dave").name == "dave"              # the name keeps its case


def test_the_name_is_one_word_of_eight_characters() -> None:
    # "typing Paul Schoenberger will give you Schoenbe for your name"
    assert launch("Paul", "Schoenberger").name == "Schoenbe"
    assert launch("Paul Schoenberger").name == "Schoenbe"   # even when quoted
    assert launch("BobSmith").name == "BobSmith" and launch("Ron-Hill").name == "Ron-Hill"


@pytest.mark.parametrize("word", ["NODISK", "NOBLANK", "NOKEYBOARD", "LAPTOP", "GO"])
def test_switches_in_any_case(word: str) -> None:
    for spelled in (word, word.lower(), word.capitalize()):
        got = launch(spelled)
        assert getattr(got, word.lower()) is True and got.name is None


def test_profiles_in_any_case() -> None:
    for word in cmdline.PROFILES:
        assert launch(word.lower()).profile == word
    assert launch().profile == "EGA"


def test_the_words_go_in_any_order() -> None:
    # "GINRUMMY John B:\ go" -- and the rest in any order
    a = launch("John", "250", "go", "nodisk", "vga")
    b = launch("VGA", "NODISK", "GO", "250", "John")
    assert a == b and (a.name, a.score_limit, a.go, a.nodisk, a.profile) == ("John", 250, True, True, "VGA")


def test_only_the_first_seven_words_are_read() -> None:
    # "GINRUMMY 1 2 3 4 5 6 7 GO will NOT execute the GO command."
    got = launch(*"1 2 3 4 5 6 7 GO".split())
    assert not got.go and got.name == "7"
    assert any("ignored GO" in n for n in got.notices)
    assert launch(*"1 2 3 4 5 6 GO".split()).go


def test_port_flags_do_not_count_among_the_seven(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("")
    got = launch("--seed", "7", "1", "2", "--headless", "3", "4", "5", "6",
                 "--script", str(script), "--shots", str(tmp_path / "shots"), "GO")
    assert got.go and got.seed == 7 and got.headless
    assert got.script == script and got.shots == tmp_path / "shots"
    assert launch("--seed=12").seed == 12


def test_words_after_a_double_dash_are_all_dos_words() -> None:
    assert launch("--", "--headless").name == "--headle"


# ---- the path ------------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "games" / "mysave").mkdir(parents=True)
    (tmp_path / "games" / "stuff").mkdir()
    monkeypatch.chdir(tmp_path / "games" / "mysave")
    return tmp_path


def test_parent_dots_are_a_path(tree: Path) -> None:
    games = tree / "games"
    assert launch("..").path == games
    assert launch("..\\stuff").path == games / "stuff"     # DOS backslashes
    assert launch("../stuff").path == games / "stuff"


def test_a_rooted_path(tree: Path) -> None:
    assert launch(str(tree / "games" / "stuff")).path == tree / "games" / "stuff"
    assert launch("/").path == Path("/")
    assert launch("\\").path == Path("/")


def test_an_invalid_path_falls_back_to_the_current_directory(tree: Path) -> None:
    # "if it is invalid for any reason, the current directory will be made the default path"
    here = tree / "games" / "mysave"
    for word in ("..\\nowhere", "/no/such/dir", "B:" if os.name != "nt" else "\\no\\such"):
        got = launch("Dave", word)
        assert got.path == here and got.name == "Dave"
        assert any(word in n and "current directory" in n for n in got.notices)


def test_a_path_to_a_file_is_invalid(tree: Path) -> None:
    (tree / "games" / "afile").write_text("x")
    assert launch("../afile").path == tree / "games" / "mysave"


def test_the_path_is_absolute_so_a_later_chdir_cannot_move_the_files(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    got = launch("Dave")
    monkeypatch.chdir(tree)
    assert got.path == tree / "games" / "mysave"


# ---- the whole program ---------------------------------------------------------------

def test_the_console_script_starts_the_game_with_documented_words(tmp_path: Path) -> None:
    if not (Path(cmdline.__file__).parent / "app.py").exists():
        pytest.skip("port/main/app.py (the game's frame loop) is not there yet")
    script = tmp_path / "wait.txt"
    script.write_text("wait 60\n")
    done = run("Dave", "025", "NODISK", "nokeyboard", "laptop", "GO", "CGA", "..\\nowhere",
               "--headless", "--seed", "7", "--script", str(script),
               "--shots", str(tmp_path / "shots"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    # NODISK: "disable all disk access": nothing but the driver's screenshots appears
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shots", "wait.txt"]


# ---- issue 14: hostile command lines end in one plain sentence -------------------------------

def test_defect_7_a_path_with_a_component_over_255_characters_falls_back_to_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "if it is invalid for any reason, the current directory will be made the default path"
    monkeypatch.chdir(tmp_path)
    long_word = "/" + "a" * 300 + "/saves"
    got = launch("Dave", long_word)
    assert got.path == tmp_path and got.name == "Dave"
    assert any("current directory" in n for n in got.notices)
    a_game(tmp_path, "Here")
    done = run("list", "..\\" + "b" * 300, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert "current directory" in done.stdout and "Here" in done.stdout
    done = run("--script", "/" + "c" * 300, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "File name too long" in done.stderr


@pytest.mark.parametrize("content", [b"wait abc\n", b"wait 99999999999\n", b"move 10 99999999999999999999999\n",
                                     b"shot\n", b"key \"unclosed\n", b"wait 1\n\xff\xfe not utf-8\n"])
def test_defect_7_a_bad_script_line_is_one_plain_sentence(tmp_path: Path, content: bytes) -> None:
    script = tmp_path / "s.txt"
    script.write_bytes(content)
    done = run("--headless", "--script", str(script), "NODISK", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "s.txt" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("words", [["help"], ["view"], ["list"], ["--version"]])
def test_defect_7_output_to_a_full_device_is_one_plain_sentence(tmp_path: Path, words: list[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    a_game(tmp_path, "Ann")
    cmd = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "port"]
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    with open("/dev/full", "w") as full:
        done = subprocess.run([*cmd, *words], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, env=env)
    assert done.returncode == 1
    assert done.stderr == "ginrummy: cannot write the output (No space left on device).\n"


@pytest.mark.parametrize("word", ["nodısk", "NODıSK", "nodiſk"])   # "ı".upper() == "I", "ſ".upper() == "S"
def test_defect_11_unicode_look_alikes_are_not_commands(word: str) -> None:
    got = launch(word)
    assert got.nodisk is False and got.name == word


def test_defect_11_a_look_alike_of_list_or_help_is_a_name_not_an_action() -> None:
    for word in ("lıst", "LıST", "vıew", "lıſt"):
        got = launch(word)
        assert isinstance(got, Launch) and got.name == word


def test_defect_11_a_look_alike_flag_is_an_unknown_option(tmp_path: Path) -> None:
    done = run("--headleſs", cwd=tmp_path)
    assert done.returncode == 2 and "unknown option" in done.stderr


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=10).filter(lambda w: not w.isascii() and w.split() == [w]))
def test_no_word_that_is_not_plain_ascii_is_a_command(word: str) -> None:
    got = launch(word)
    assert not (got.nodisk or got.noblank or got.nokeyboard or got.laptop or got.go)
    assert got.profile == "EGA" and got.score_limit is None


def test_a_game_brings_its_own_words(tmp_path: Path) -> None:
    """The seam for Cribbage: its limits (61, 121), its own switch and eight words read;
    the common words stay as they are."""
    import dataclasses

    crib = dataclasses.replace(
        GINRUMMY, program="cribbage", max_words=8,
        limit=lambda w: int(w) if w in ("61", "121") else None,
        list_players=lambda path: [f"cribbage players in {path.name}"])
    out = io.StringIO()
    got = cmdline.parse("Mike 121 1 2 3 4 5 GO".split(), out, io.StringIO(), game=crib)
    assert isinstance(got, Launch) and got.go and got.score_limit == 121 and got.name == "5"
    assert cmdline.parse("1 2 3 4 5 6 7 GO".split(), out, io.StringIO(), game=crib).go is True
    assert launch(*"1 2 3 4 5 6 7 GO".split()).go is False   # GinRummy reads seven
    assert cmdline.parse(["61"], out, io.StringIO(), game=crib).score_limit == 61
    assert launch("61").name == "61"                          # not a limit for GinRummy
    assert cmdline.parse(["list", str(tmp_path)], out, io.StringIO(), game=crib) == 0
    assert out.getvalue().endswith(f"cribbage players in {tmp_path.name}\n")
