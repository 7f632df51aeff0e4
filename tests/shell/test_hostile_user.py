"""Both programs against a hostile user (issue 33): a FIFO where a record should be, a
record saved by Notepad (a byte-order mark, UTF-16) or holding a NUL byte, a script's
shot written outside ``--shots``, a bad script line far down, a 5,000-character word.

Each failed before its fix. The real command line runs in a subprocess (with a
timeout: a hang fails the test), on real files in tmp_path.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from port.cribbage.record import PREFIX as CRIB_PREFIX, read as crib_read, write_game as crib_write
from port.cribbage.rules import Options as CribOptions, play_game as crib_play
from port.cribbage.levels import load_player as crib_player
from port.cribbage.main.words import CRIBBAGE
from port.cards import PascalRandom
from port.files.gamerecord import BOM, Meta, RecordError
from port.ginrummy.levels import load_player as gin_player
from port.ginrummy.main.words import GINRUMMY
from port.ginrummy.record import PREFIX as GIN_PREFIX, read as gin_read, write_game as gin_write
from port.ginrummy.rules import Options as GinOptions, play_game as gin_play
from port.main import cmdline
from port.main.driver import ScriptError, check_text

TOP = Path(__file__).resolve().parents[2]
GAMES = ("ginrummy", "cribbage")
ENV = {**os.environ, "PYTHONPATH": str(TOP), "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"}


def run(cwd: Path, program: str, *words: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m port.PROGRAM WORDS`` in ``cwd``; a hang past ``timeout`` fails the test."""
    return subprocess.run([sys.executable, "-m", f"port.{program}", *words], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=ENV)


def record_text(program: str) -> str:
    """A short real game's record: one GinRummy hand, or a Cribbage game to 61."""
    meta = Meta(("standard", "easy"), ("side A", "side B"), seed=7, date="2025-01-31")
    if program == "ginrummy":
        options = GinOptions(score_limit=0)
        game = gin_play(options, PascalRandom(7), (gin_player("standard", seed=1), gin_player("easy", seed=2)),
                        keep=True)
        return gin_write(game, options, meta)
    crib_options = CribOptions(61)
    game = crib_play(crib_options, PascalRandom(7), (crib_player("standard", seed=1), crib_player("easy", seed=2)),
                     keep=True)
    return crib_write(game, crib_options, meta)


def one_sentence(done: subprocess.CompletedProcess[str], program: str) -> str:
    """A refusal: exit status 2, nothing on stdout, one line on stderr (no traceback)."""
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{program}: ")
    return done.stderr


# ---- item 7: a FIFO in place of a record --------------------------------------------

@pytest.mark.parametrize("program", GAMES)
@pytest.mark.parametrize("doing", ["replay", "review"])
def test_a_fifo_in_place_of_a_record_is_refused_at_once(tmp_path: Path, program: str, doing: str) -> None:
    os.mkfifo(tmp_path / "GR0001.REC")          # nobody ever writes to it: a blocking open hangs
    said = one_sentence(run(tmp_path, program, doing, "GR0001.REC", timeout=30), program)
    assert said.startswith(f"{program}: GR0001.REC: cannot read it (not a regular file)")


# ---- item 11: Notepad's byte-order mark, UTF-16, a NUL byte ------------------------------

@pytest.mark.parametrize("program", GAMES)
def test_a_record_beginning_with_a_byte_order_mark_reads_as_without_it(tmp_path: Path, program: str) -> None:
    text = record_text(program)
    (tmp_path / "plain.rec").write_text(text, encoding="utf-8")
    (tmp_path / "notepad.rec").write_bytes(BOM + text.replace("\n", "\r\n").encode("utf-8"))
    read = gin_read if program == "ginrummy" else crib_read
    notepad_log, plain_log = read(tmp_path / "notepad.rec"), read(tmp_path / "plain.rec")
    assert [(st.kind, st.lines, st.line) for st in notepad_log.steps] == [
        (st.kind, st.lines, st.line) for st in plain_log.steps]
    plain, notepad = (run(tmp_path, program, "review", name) for name in ("plain.rec", "notepad.rec"))
    assert notepad.returncode == 0 and notepad.stdout == plain.stdout and "EXPERT" in plain.stdout
    # The replay viewer reads it too (headless: one frame, then out).
    shown = run(tmp_path, program, "replay", "notepad.rec", "--headless")
    assert (shown.returncode, shown.stderr) == (0, "")


@pytest.mark.parametrize("program", GAMES)
def test_a_record_in_utf16_is_told_as_such(tmp_path: Path, program: str) -> None:
    text = record_text(program)
    (tmp_path / "unicode.rec").write_bytes(text.encode("utf-16"))       # Notepad's "Unicode": a BOM
    said = one_sentence(run(tmp_path, program, "review", "unicode.rec"), program)
    assert said.startswith(f"{program}: unicode.rec: it is UTF-16 text, and a game record is UTF-8")
    read = gin_read if program == "ginrummy" else crib_read
    for encoding in ("utf-16-le", "utf-16-be"):                         # no BOM: told all the same
        (tmp_path / "unicode.rec").write_bytes(text.encode(encoding))
        with pytest.raises(RecordError, match="^it is UTF-16 text, and a game record is UTF-8"):
            read(tmp_path / "unicode.rec")


@pytest.mark.parametrize("program", GAMES)
def test_a_nul_byte_or_a_byte_not_utf8_says_where_it_is(tmp_path: Path, program: str) -> None:
    data = (BOM + record_text(program).encode("utf-8"))
    at = data.index(b"\n", data.index(b"\n") + 1) + 3          # the third line's third byte
    (tmp_path / "nul.rec").write_bytes(data[:at] + b"\0" + data[at:])
    (tmp_path / "latin.rec").write_bytes(data[:at] + b"\xe9" + data[at:])
    said = one_sentence(run(tmp_path, program, "replay", "nul.rec"), program)
    assert said.startswith(f"{program}: nul.rec: line 3: a NUL byte at offset {at} of the file: it is not a text file")
    said = one_sentence(run(tmp_path, program, "review", "latin.rec"), program)
    assert said.startswith(f"{program}: latin.rec: line 3: a byte that is not UTF-8 text (0xe9 at offset {at} ")


# ---- item 13: each game's own example; a long word is cut -------------------------------

@pytest.mark.parametrize("program, example", [("ginrummy", "GR0001.REC"), ("cribbage", "CR0001.REC")])
def test_review_and_replay_without_a_file_show_the_games_own_record_name(tmp_path: Path, program: str,
                                                                         example: str) -> None:
    for doing in ("review", "replay"):
        said = one_sentence(run(tmp_path, program, doing), program)
        assert said.startswith(f"{program}: {doing} needs a game record file ({program} {doing} {example})")


def test_each_game_names_its_records_with_its_own_prefix() -> None:
    assert (GINRUMMY.record_prefix, CRIBBAGE.record_prefix) == (GIN_PREFIX, CRIB_PREFIX) == ("GR", "CR")


@pytest.mark.parametrize("program", GAMES)
def test_a_5000_character_name_is_cut_in_review(tmp_path: Path, program: str) -> None:
    (tmp_path / "game.rec").write_text(record_text(program))
    said = one_sentence(run(tmp_path, program, "review", "game.rec", "N" * 5000), program)
    assert said.startswith(f"{program}: no seat of this record is named {'N' * 57!r}... (5,000 characters, cut) "
                           "(the seats: standard, easy)")


def test_a_5000_character_word_is_cut_in_every_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The command line's own parser, in this process (each refusal above is the same code
    # in a subprocess): every word it quotes is cut, and says so.
    monkeypatch.chdir(tmp_path)
    long = "N" * 5000
    for words in (["review", long], ["replay", long], ["--seed", long], ["--script", long], ["--shots", long],
                  ["--computer", f"{long}.py:X"], ["--nosuch" + long], ["--record", f"{long}/x", "--headless"]):
        err = io.StringIO()
        launch = cmdline.parse(words, io.StringIO(), err, game=CRIBBAGE)
        if not isinstance(launch, int):
            assert cmdline.make_outputs(launch, err) == 2, words
        said = err.getvalue()
        assert "N" * 61 not in said and re.search(r"\(5,0\d\d characters, cut\)", said) and len(said) < 300, said


# ---- items 9 and 10: a script's shots, and every line checked first ----------------------

@pytest.mark.parametrize("program", GAMES)
@pytest.mark.parametrize("name", ["../../x", "/abs/x"])
def test_a_shot_is_a_plain_file_name_in_shots(tmp_path: Path, program: str, name: str) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"wait 1\nshot {name}\n")
    home = tmp_path / "deep" / "er"
    home.mkdir(parents=True)
    said = one_sentence(run(home, program, "--headless", "--script", str(script), "--shots", "shots"), program)
    assert f"s.txt:2: 'shot {name}': a shot's name is a plain file name" in said
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["deep", "er", "s.txt"]   # nothing written


@pytest.mark.parametrize("name", ["sub/x", "..", ".hidden", "'a\\b'", "C:x", "x" * 65, "'a b'"])
def test_a_shot_name_that_is_not_a_plain_file_name_is_a_bad_line(name: str) -> None:
    with pytest.raises(ScriptError, match=r"^<script>:2: .*: a shot's name is a plain file name"):
        check_text(f"wait 1\nshot {name}\n")
    assert [step.args for step in check_text("shot s0\nshot hand_2.png\nshot Final-1\n")] == [
        ("s0",), ("hand_2.png",), ("Final-1",)]


def test_the_driver_refuses_a_shot_outside_its_directory(start, tmp_path: Path) -> None:
    d = start(shots=tmp_path / "shots")
    with pytest.raises(ScriptError, match="a shot's name is a plain file name"):
        d.shot("../outside")
    assert d.shot("kept.png") == tmp_path / "shots" / "kept.png" and not (tmp_path / "outside.png").exists()


def test_a_bad_line_is_found_before_the_first_frame(start) -> None:
    d = start()
    with pytest.raises(ScriptError, match=r"<script>:3: 'jump 3': unknown command 'jump'"):
        d.run_text("wait 100\nkey b\njump 3\n")
    assert d.loop.frame == 0                              # nothing was played


@pytest.mark.parametrize("program", GAMES)
def test_a_bad_line_100000_lines_down_is_told_at_once(tmp_path: Path, program: str) -> None:
    script = tmp_path / "long.txt"
    script.write_text("key b\nwait 30\n" * 50_000 + "shot ../escape\n")     # 193 s of play before the fix
    began = time.monotonic()
    done = run(tmp_path, program, "--headless", "--script", str(script), "--shots", "out", timeout=60)
    said = one_sentence(done, program)
    assert said.startswith(f"{program}: {script}:100001: 'shot ../escape': a shot's name is a plain file name")
    assert time.monotonic() - began < 30
    assert not (tmp_path / "out").exists()                # nothing made, nothing shown
