"""A bot file plays from a process of its own (the default; ``--isolate`` is kept and
changes nothing) and receives only its seat's view. The spy of
``tests/match/failing_bots.py`` looks up its call stack and among every object the
collector knows for the engine's hand state, and says what it saw by raising: in the
engine's process (``--in-process``) it finds the other hand in every game (the test
can fail), in its own process it finds nothing, and plays as the STANDARD it is
built on."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
BOTS = "tests/match/failing_bots.py"


def run_match(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    return subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                          timeout=120, cwd=TOP, env=env)


GAMES = ["--b", "easy", "--games", "4", "--limit", "0", "--seed", "5", "--json"]


def test_a_spy_reads_the_other_hand_in_the_engines_process() -> None:
    done = run_match("--a", f"{BOTS}:Spy", *GAMES, "--in-process")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    assert d["a"]["forfeits"] == 4
    assert done.stderr.count("RuntimeError: I saw the other hand: ") == 4


def test_an_isolated_spy_sees_nothing_and_plays_standards_games() -> None:
    done = run_match("--a", f"{BOTS}:Spy", *GAMES, "--isolate")
    assert done.returncode == 0, done.stderr
    assert "I saw" not in done.stderr and done.stderr == ""
    spy = json.loads(done.stdout)
    assert spy["a"]["forfeits"] == 0 and spy["a"]["name"] == "spy"
    standard = json.loads(run_match("--a", "standard", *GAMES).stdout)
    for d in (spy, standard):
        d.pop("seconds")
        d["a"].pop("name")
        d["a"].pop("spec")
    assert spy == standard             # the same games: isolation changes nothing of the play


def test_an_isolated_bot_that_fails_is_reported_as_in_the_engines_process() -> None:
    here = run_match("--a", f"{BOTS}:Illegal", *GAMES, "--in-process")
    apart = run_match("--a", f"{BOTS}:Illegal", *GAMES)          # its own process: the default
    assert apart.returncode == 0 and "Traceback" not in apart.stderr
    assert apart.stderr == here.stderr and "illegal move: choose_discard answered" in apart.stderr
    crash = run_match("--game", "cribbage", "--a", f"{BOTS}:CribRaises", "--b", "standard", "--games", "2",
                      "--limit", "61", "--isolate", "--json")
    assert json.loads(crash.stdout)["a"]["forfeits"] == 2
    assert "error: play: KeyError: 'no such card'" in crash.stderr


def test_an_isolated_bots_answer_cannot_run_code_in_the_engines_process() -> None:
    done = run_match("--a", f"{BOTS}:Smuggler", *GAMES, "--isolate")
    assert done.returncode == 0 and "ran the bot's code" not in done.stdout + done.stderr
    assert json.loads(done.stdout)["a"]["forfeits"] == 4
    assert "error: choose_draw: its answer cannot be read: an answer may not hold builtins.print" in done.stderr
