"""``--record FILE``: a session written as a driver script that ``--script FILE``
replays to the identical end (docs/script.md, "Recording"): the same frames, the same
final screen, the same files; in a real window too, from a person's real input.

The real program runs in subprocesses where the command line matters; the Python API
(``Driver.start`` with ``launch.record``, ``driver.replay``) elsewhere.
"""
from __future__ import annotations

import base64
import datetime
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from port.ginrummy.files import Config, GameRecord, Result, Store
from port.ginrummy.main.start import first_screen
from port.ginrummy.main.words import GINRUMMY
from port.main import cmdline
from port.main.driver import Driver, ScriptError, run_recording
from port.main.launch import Launch
from port.main.recording import REPLAY_FILES, Desync, read_header
from port.screen import png
from tests.window_helpers import in_xvfb, needs_xvfb

TOP = Path(__file__).resolve().parents[2]
# Options by keys: a name typed as text, SAVE (GINRUMMY.CFG is written), back to the title.
OPTIONS = "key o\nkey n\nkey backspace backspace backspace backspace backspace\ntype Rec\nkey enter\nkey s\nkey m\nwait 5\n"


def program(*args: str, cwd: Path, window: bool = False, module: str = "port") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(TOP)}
    env.pop("GINRUMMY_DEBUG", None)
    if window:
        env["SDL_VIDEODRIVER"] = "x11"
        return in_xvfb([sys.executable, "-m", module, *args], cwd=cwd, env=env, timeout=120)
    return subprocess.run([sys.executable, "-m", module, "--headless", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def saved_files(d: Path) -> None:
    store = Store.open(d)
    store.save_config(Config(name="Saved", score_limit=250))
    store.record_game(GameRecord("Ann", 90, 60, 3, 100, False, Result.WON, datetime.date(1994, 3, 5)))


def files_of(d: Path) -> dict[str, bytes]:
    return {name: (d / name).read_bytes() for name in GINRUMMY.files if (d / name).exists()}


def test_a_recorded_run_replays_to_the_same_screen_and_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    saved_files(home)
    (tmp_path / "s.txt").write_text(OPTIONS)
    done = program("--script", "../s.txt", "--record", "../rec.txt", "--shots", "../one", "Dave", "050", cwd=home)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    recorded = files_of(home)
    assert b"name=Rec" in recorded["GINRUMMY.CFG"]            # the run changed a file
    text = (tmp_path / "rec.txt").read_text()
    header = read_header(tmp_path / "rec.txt", "ginrummy", GINRUMMY.files)
    assert header.program == "ginrummy" and header.fields == {"name": "Dave", "score_limit": 50}
    assert header.files == files_of(home) | {"GINRUMMY.CFG": header.files["GINRUMMY.CFG"]}
    assert b"name=Saved" in header.files["GINRUMMY.CFG"]                 # as the run found it
    assert header.seed is not None and header.date is not None           # from the clock, pinned
    assert 'text "R"' in text and "down SHIFT" in text and text.rstrip().splitlines()[-1].startswith("end frames=")

    again = program("--script", "../rec.txt", "--shots", "../two", cwd=home)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert files_of(tmp_path / "two" / REPLAY_FILES) == recorded         # the same files written
    assert files_of(home) == recorded                                    # the player's own untouched
    assert png.read(tmp_path / "two" / "final.png").pixels == png.read(tmp_path / "one" / "final.png").pixels


def test_a_replay_recorded_again_is_the_same_file(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("key b\nwait 40\nkey h\nwait 3\nclick left 300 330\nwait 20\n" + OPTIONS)
    assert program("--script", "s.txt", "--record", "one.txt", "--shots", "a", "GO", cwd=tmp_path).returncode == 0
    done = program("--script", "one.txt", "--record", "two.txt", "--shots", "b", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "two.txt").read_bytes() == (tmp_path / "one.txt").read_bytes()


def test_cribbage_records_and_replays_the_same_way(tmp_path: Path) -> None:
    """``cribbage --record``: SKUNKING turned on and SAVEd, a game begun, a box cleared."""
    (tmp_path / "s.txt").write_text("key o\nkey k\nkey s\nkey m\nkey b\nwait 60\nkey space\nwait 30\n")
    done = program("--script", "s.txt", "--record", "rec.txt", "--shots", "a", "61", "Crib", cwd=tmp_path,
                   module="port.cribbage")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "skunking=Y" in (tmp_path / "CRIBBAGE.CFG").read_text()
    header = read_header(tmp_path / "rec.txt", "cribbage", ("CRIBBAGE.CFG", "CRIBBAGE.STA"))
    assert header.fields == {"name": "Crib", "score_limit": 61} and set(header.files) == {"CRIBBAGE.CFG", "CRIBBAGE.STA"}
    again = program("--script", "rec.txt", "--shots", "b", cwd=tmp_path, module="port.cribbage")
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert (tmp_path / "b" / REPLAY_FILES / "CRIBBAGE.CFG").read_bytes() == (tmp_path / "CRIBBAGE.CFG").read_bytes()
    assert png.read(tmp_path / "b" / "final.png").pixels == png.read(tmp_path / "a" / "final.png").pixels
    refused = program("--script", "rec.txt", cwd=tmp_path)             # GinRummy's program
    assert refused.returncode == 2 and "is a recording of cribbage: replay it with cribbage" in refused.stderr


def test_a_replay_that_ends_otherwise_says_what_differs(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text(OPTIONS)
    assert program("--script", "s.txt", "--record", "rec.txt", "--shots", "a", cwd=tmp_path).returncode == 0
    lines = (tmp_path / "rec.txt").read_text().splitlines()
    lines.remove('text "R"')                                          # the name typed loses its R
    (tmp_path / "tampered.txt").write_text("\n".join(lines) + "\n")
    done = program("--script", "tampered.txt", "--shots", "b", cwd=tmp_path)
    assert done.returncode == 1
    assert re.fullmatch(r"ginrummy: \S*tampered\.txt:\d+: the replay did not end as its recording did: "
                        r"the final screen differs; GINRUMMY\.CFG differs\n", done.stderr), done.stderr
    assert (tmp_path / "b" / "final.png").exists()            # the screen it ended on, to look at


def test_the_clock_seed_a_run_used_is_recorded(tmp_path: Path) -> None:
    """GO deals at once from the clock (no --seed): the recording says which seed, and
    the replay deals the same cards (its screen, cards shown, ends the same)."""
    (tmp_path / "s.txt").write_text("wait 30\nkey h\nwait 5\n")
    assert program("--script", "s.txt", "--record", "rec.txt", "--shots", "a", "GO", "NODISK",
                   cwd=tmp_path).returncode == 0
    header = read_header(tmp_path / "rec.txt", "ginrummy", GINRUMMY.files)
    assert header.seed is not None and header.fields == {"go": True, "nodisk": True} and header.files == {}
    done = program("--script", "rec.txt", "--shots", "b", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    wrong = (tmp_path / "rec.txt").read_text().replace(f"seed {header.seed}\n", f"seed {header.seed ^ 1}\n")
    (tmp_path / "wrong.txt").write_text(wrong)
    desynced = program("--script", "wrong.txt", "--shots", "c", cwd=tmp_path)
    assert desynced.returncode == 1 and "the final screen differs" in desynced.stderr


@pytest.mark.parametrize("line, says", [
    ("set nodisk maybe", "the value of nodisk is not JSON"),
    ('set path "/"', "a script cannot set 'path'"),
    ('set profile "XGA"', "'XGA' is not a display"),
    ("set score_limit 1000", "1000 is not a score limit of GinRummy"),
    ("set noblank 1", "noblank cannot be 1"),
    ("seed 99999999999", "expected a seed from 0 to 4294967295"),
    ("date 1994-13-01", "month must be in 1..12"),
    ("file GINRUMMY.STA !!!", "the file's bytes are not base64"),
    ("file OTHER.TXT AAAA", "'OTHER.TXT' is not one of this game's files"),
    ("program cribbage", "is a recording of cribbage: replay it with cribbage"),
])
def test_a_bad_header_line_is_one_plain_sentence(tmp_path: Path, line: str, says: str) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"# a header\n{line}\nwait 1\n")
    err = io.StringIO()
    assert cmdline.parse(["--script", str(script)], io.StringIO(), err, game=GINRUMMY) == 2
    assert says in err.getvalue() and len(err.getvalue().splitlines()) == 1
    if not line.startswith(("program", "set profile", "set score")):
        assert f"{script}:2: {line!r}" in err.getvalue()


def test_a_recording_takes_no_words_that_change_the_game(tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text("program ginrummy\nseed 5\nwait 1\n")
    for extra in (["Bob"], ["--seed", "3"], ["HERC"]):
        err = io.StringIO()
        assert cmdline.parse(["--script", str(tmp_path / "r.txt"), *extra], io.StringIO(), err, game=GINRUMMY) == 2
        assert "is a recording and holds its own command line" in err.getvalue()


def test_a_header_line_after_the_first_input_is_refused(start) -> None:
    d = start()
    with pytest.raises(ScriptError, match=r"<script>:2: 'seed 5': a header line comes before"):
        d.run_text("wait 1\nseed 5\n")


def test_a_hand_written_script_may_fix_its_name_seed_and_date(headless_pyxel, tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    # NODISK in the script too: the run in this process below saves nothing in the checkout.
    script.write_text('set name "Scripted"\nset nodisk true\nseed 42\ndate 1994-03-05\nkey o\nkey s\nkey m\n')
    got = cmdline.parse(["--script", str(script), "--headless", "NODISK"], io.StringIO(), io.StringIO(), game=GINRUMMY)
    assert isinstance(got, Launch)
    assert (got.name, got.seed, str(got.today), got.nodisk) == ("Scripted", 42, "1994-03-05", True)
    d = run_recording(script, GINRUMMY, tmp_path)
    assert d.controller.ctx.config.name == "Scripted" and str(d.controller.ctx.today()) == "1994-03-05"


def test_on_hercules_the_pointer_is_recorded_by_the_pixel(headless_pyxel, tmp_path: Path) -> None:
    """Logical points and pixels differ on a 720-pixel screen: the pixel is what is kept."""
    rec = tmp_path / "r.txt"
    d = Driver.start(Launch(headless=True, program="ginrummy", title="GinRummy", profile="HERC", nodisk=True,
                            record=rec, game_files=GINRUMMY.files, shots=tmp_path / "a"), first_screen)
    for x, y in ((0, 0), (333, 201), (639, 349), (1, 1)):
        d.move(x, y)
        d.wait(3)
    d.click("left", 320, 186)                     # OPTIONS
    d.wait(3)
    d.finish()
    text = rec.read_text()
    # HERC's 720x348 pixels: 40 columns of margin, 350 logical rows on 348.
    assert "pixel 373 199" in text and "pixel 679 347" in text and "pixel 41 0" in text and "bdown left" in text
    replayed = run_recording(rec, GINRUMMY, tmp_path / "b")
    assert replayed.snapshot() == d.snapshot()


def test_a_recording_that_cannot_be_written_stops_not_the_game(headless_pyxel, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    d = Driver.start(Launch(headless=True, program="ginrummy", title="GinRummy", nodisk=True,
                            record=Path("/dev/full"), shots=tmp_path), first_screen)
    d.key("o")
    d.wait(5)
    d.finish()
    assert type(d.controller).__name__ == "OptionsScreen"
    assert capsys.readouterr().err == ("ginrummy: cannot write /dev/full (No space left on device): "
                                      "the recording stops here; the game goes on.\n")


def test_the_files_a_recording_began_with_are_laid_out_for_its_replay(headless_pyxel, tmp_path: Path) -> None:
    """In SHOTS/files: as recorded, what an earlier replay left there replaced."""
    home = tmp_path / "home"
    home.mkdir()
    saved_files(home)
    (home / "GINRUMMY.SCR").unlink()              # the recording begins without high scores
    rec = tmp_path / "r.txt"
    d = Driver.start(Launch(headless=True, program="ginrummy", title="GinRummy", path=home, record=rec,
                            game_files=GINRUMMY.files, shots=tmp_path / "a"), first_screen)
    d.wait(3)
    d.finish()
    shots = tmp_path / "b"
    (shots / REPLAY_FILES).mkdir(parents=True)
    (shots / REPLAY_FILES / "GINRUMMY.SCR").write_text("left by an earlier replay")
    (shots / REPLAY_FILES / "GINRUMMY.STA.bad1").write_text("kept aside by an earlier replay")
    run_recording(rec, GINRUMMY, shots)
    assert files_of(shots / REPLAY_FILES) == files_of(home)
    assert sorted(p.name for p in (shots / REPLAY_FILES).iterdir()) == sorted(files_of(home))


def test_a_recordings_files_are_its_own_bytes(tmp_path: Path) -> None:
    saved_files(tmp_path)
    (tmp_path / "s.txt").write_text("wait 2\n")
    assert program("--script", "s.txt", "--record", "r.txt", "--shots", "a", cwd=tmp_path).returncode == 0
    lines = dict(line.split(" ", 2)[1:] for line in (tmp_path / "r.txt").read_text().splitlines()
                 if line.startswith("file "))
    assert {name: base64.b64decode(data) for name, data in lines.items()} == files_of(tmp_path)


with_a_window = needs_xvfb


@with_a_window
def test_a_person_playing_in_a_real_window_is_replayed_to_the_same_end(tmp_path: Path) -> None:
    """The game in a real window (pyxel.run) gets real X input (XTEST: pointer, buttons,
    keys, as a person's): options saved, a game begun, a hint, a card, quit. Its
    recording, replayed headless, ends in the same frame, screen and files."""
    xinput = (f"{sys.executable} -m tests.shell.xinput window 'move 320 175' 'sleep 1' 'key o' 'key s' 'key m' "
              "'key b' 'sleep 0.5' 'key h' 'key d' 'sleep 0.3' 'key d' 'sleep 0.5' 'move 100 100' 'click 1' "
              "'key q' 'key y' 'sleep 0.3' 'key q'")
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "x11", "PYTHONPATH": str(TOP)}
    env.pop("GINRUMMY_DEBUG", None)
    # The game quits itself (Q on the title); should a key go astray, SIGTERM closes it
    # as a window's close box would (pyxel quits, Python's atexit ends the recording).
    shell = (f"cd {tmp_path} && {sys.executable} -m port --record rec.txt Wendy 050 & GAME=$!; "
             f"cd {TOP} && {xinput}; sleep 2; kill $GAME 2>/dev/null; wait $GAME")
    done = in_xvfb(["sh", "-c", shell], "1366x768", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "rec.txt").read_text()
    assert 'text "o"' in text and "bdown left" in text and text.rstrip().splitlines()[-1].startswith("end frames=")
    assert b"name=Wendy" in (tmp_path / "GINRUMMY.CFG").read_bytes()
    again = program("--script", "rec.txt", "--shots", "out", cwd=tmp_path)
    assert again.returncode == 0, again.stderr                 # in sync: frames, screen, GINRUMMY.CFG
    assert files_of(tmp_path / "out" / REPLAY_FILES) == files_of(tmp_path)


@with_a_window
def test_a_window_closed_from_outside_still_ends_its_recording(tmp_path: Path) -> None:
    """SIGTERM reaches SDL as a quit, as a window's close box does: pyxel quits, Python's
    atexit writes the end, and the replay ends in the same frame and screen."""
    xinput = f"{sys.executable} -m tests.shell.xinput window 'move 200 120' 'sleep 0.5' 'key o' 'move 300 200'"
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "x11", "PYTHONPATH": str(TOP)}
    shell = (f"cd {tmp_path} && {sys.executable} -m port --record rec.txt NODISK & GAME=$!; "
             f"cd {TOP} && {xinput}; sleep 1; kill -TERM $GAME; wait $GAME")
    done = in_xvfb(["sh", "-c", shell], "1366x768", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "rec.txt").read_text().rstrip().splitlines()[-1].startswith("end frames=")
    again = program("--script", "rec.txt", "--shots", "out", cwd=tmp_path)
    assert again.returncode == 0, again.stderr


@with_a_window
def test_a_headless_recording_replays_in_a_real_window(tmp_path: Path) -> None:
    (tmp_path / "s.txt").write_text("key b\nwait 20\nkey h\nwait 5\nmove 200 300\nwait 5\n")
    assert program("--script", "s.txt", "--record", "rec.txt", "--shots", "a", "NODISK", cwd=tmp_path).returncode == 0
    done = program("--script", "rec.txt", "--shots", "b", cwd=tmp_path, window=True)
    assert done.returncode == 0, done.stderr
    assert png.read(tmp_path / "b" / "final.png").pixels == png.read(tmp_path / "a" / "final.png").pixels


def test_desync_is_a_plain_error_with_exit_status_1() -> None:
    assert Desync("x").status == 1 and ScriptError("x").status == 2


def test_a_game_record_saved_during_the_run_is_saved_the_same_in_its_replay(headless_pyxel, tmp_path: Path) -> None:
    """SAVE RECORD takes the first free name: the records already there are in the
    header (``taken``), so the replay saves the same record under the same name."""
    from tests.ginrummy.test_whole_game import keyboard_turn, play_whole_game

    home = tmp_path / "home"
    home.mkdir()
    (home / "GR0001.REC").write_text("an earlier game's record")
    rec = tmp_path / "r.txt"
    d = Driver.start(Launch(headless=True, program="ginrummy", title="GinRummy", path=home, record=rec, seed=5,
                            score_limit=0, game_files=GINRUMMY.files, shots=tmp_path / "a"), first_screen)
    d.wait(3)
    d.key("B")
    play_whole_game(d, keyboard_turn)
    d.key("R")                                    # SAVE RECORD at the game's end
    d.wait(5)
    d.finish()
    assert (home / "GR0002.REC").is_file()
    text = rec.read_text()
    assert "taken GR0001.REC" in text and " GR0002.REC=" in text.rstrip().splitlines()[-1]
    shots = tmp_path / "b"
    run_recording(rec, GINRUMMY, shots)           # in sync: GR0002.REC's digest included
    assert (shots / REPLAY_FILES / "GR0002.REC").read_bytes() == (home / "GR0002.REC").read_bytes()
    assert (shots / REPLAY_FILES / "GR0001.REC").read_bytes() == b""      # only its name mattered


def test_the_replay_viewer_is_not_recorded(tmp_path: Path) -> None:
    """``replay FILE`` only shows a game record: --record with it is one sentence."""
    got = Launch(program="ginrummy", record=tmp_path / "r.txt", replay=object())
    err = io.StringIO()
    assert cmdline.make_outputs(got, err) == 2
    assert "the replay viewer (replay FILE) changes nothing to record" in err.getvalue()
    assert not (tmp_path / "r.txt").exists()
