"""A bot that fails loses its game, not the run (issue 32): an illegal move, an
exception or a hang is one line naming the bot, its file, the game, the seed and the
move; the match goes on and counts the forfeits (``--on-error forfeit``), or stops
there (``--on-error stop``); ``--move-time`` ends a bot that thinks too long. The bots
are ``tests/match/failing_bots.py``'s, through the real command line."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
BOTS = "tests/match/failing_bots.py"


def run_match(*args: str, env: dict[str, str] | None = None, timeout: float = 120
              ) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    return subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=TOP, env={**environ, **(env or {})})


def forfeit_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("forfeit: ")]


def test_an_illegal_move_is_one_line_and_the_match_goes_on_counting_it() -> None:
    done = run_match("--a", f"{BOTS}:Illegal", "--b", "easy", "--games", "4", "--seed", "3", "--limit", "0",
                     "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    d = json.loads(done.stdout)
    lines = forfeit_lines(done.stderr)
    assert len(lines) == d["a"]["forfeits"] > 0 and d["b"]["forfeits"] == 0
    assert d["b"]["games_won"] >= d["a"]["forfeits"] and d["games"] == 4
    first = lines[0]
    assert first.startswith(f"forfeit: illegal ({BOTS}:Illegal), side A, seat ")
    assert "lost game " in first and "(--seed 3, deal seed " in first
    # the move and the rules' own reason
    assert ": illegal move: choose_discard answered " in first and "was just taken from the discard pile" in first


def test_an_exception_forfeits_only_its_games_and_the_rest_are_played() -> None:
    done = run_match("--a", f"{BOTS}:FailsOnce", "--b", "standard", "--games", "10", "--limit", "0", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    d = json.loads(done.stdout)
    forfeits = d["a"]["forfeits"]
    assert 0 < forfeits < 10 and len(forfeit_lines(done.stderr)) == forfeits
    assert d["hands"] == 10 - forfeits               # every other game was played out
    assert d["a"]["games_won"] + d["b"]["games_won"] + d["games_drawn"] == 10
    assert "error: begin_hand: RuntimeError: no clubs today" in done.stderr


def test_the_debug_variable_shows_the_bots_traceback() -> None:
    plain = run_match("--a", f"{BOTS}:Raises", "--b", "easy", "--games", "2", "--limit", "0")
    debug = run_match("--a", f"{BOTS}:Raises", "--b", "easy", "--games", "2", "--limit", "0",
                      env={"GINRUMMY_DEBUG": "1"})
    assert "Traceback" not in plain.stderr
    assert "error: choose_knock: ZeroDivisionError: my own bug" in plain.stderr
    assert "Traceback" in debug.stderr and 'raise ZeroDivisionError("my own bug")' in debug.stderr


def test_on_error_stop_stops_at_the_first_failure_with_one_line() -> None:
    done = run_match("--a", "easy", "--b", f"{BOTS}:Raises", "--games", "20", "--limit", "0",
                     "--on-error", "stop")
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"forfeit: raiser ({BOTS}:Raises), side B, seat 1, lost game 1 "
        f"(--seed 1, deal seed {_deal_seed(1, 0)}): error: choose_knock: ZeroDivisionError: my own bug",
        "python -m port.match: the match stopped at that game (--on-error stop)"]


def _deal_seed(seed: int, game: int) -> int:
    from port.match.common import game_seed
    return game_seed(seed, game)


def test_a_hung_bot_forfeits_by_move_time_on_both_workers() -> None:
    # 12 games: two jobs of 10 and 2, in two worker processes, each game 0.2 s of waiting.
    t0 = time.perf_counter()
    done = run_match("--a", f"{BOTS}:Sleeps", "--b", "easy", "--games", "12", "--limit", "0",
                     "--move-time", "0.2", "--workers", "2", "--json", "--in-process")
    assert time.perf_counter() - t0 < 60
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["a"]["forfeits"] == 12
    assert forfeit_lines(done.stderr)[0].endswith("timeout: choose_draw: took longer than 0.2 s")


def test_a_bot_that_swallows_the_alarm_is_killed_when_isolated() -> None:
    done = run_match("--a", f"{BOTS}:Swallows", "--b", "easy", "--games", "2", "--limit", "0",
                     "--move-time", "0.2", "--isolate", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["a"]["forfeits"] == 2
    assert forfeit_lines(done.stderr)[0].endswith(
        "timeout: choose_draw: took longer than 0.2 s (its process was killed)")


def test_cribbage_bots_forfeit_the_same_way() -> None:
    done = run_match("--game", "cribbage", "--a", f"{BOTS}:CribIllegal", "--b", f"{BOTS}:CribRaises",
                     "--games", "2", "--limit", "61", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    d = json.loads(done.stdout)
    assert d["a"]["forfeits"] == 2 and d["b"]["games_won"] == 2
    assert f"forfeit: crib-illegal ({BOTS}:CribIllegal), side A" in done.stderr
    assert "illegal move: discard answered " in done.stderr and "lay away exactly two cards" in done.stderr


def test_a_round_robin_goes_on_past_a_failing_bot_and_stop_keeps_the_finished_pairings() -> None:
    players = f"easy,standard,{BOTS}:Raises"
    done = run_match("--players", players, "--games", "2", "--limit", "0", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    d = json.loads(done.stdout)
    assert [len(d["pairings"]), d["stopped"]] == [3, None]
    forfeits = d["ratings"]["raiser"]["forfeits"]
    assert forfeits == sum(p["forfeits_b"] for p in d["pairings"]) == len(forfeit_lines(done.stderr)) > 0
    stopped = run_match("--players", players, "--games", "2", "--limit", "0", "--on-error", "stop", "--json")
    assert stopped.returncode == 1 and "Traceback" not in stopped.stderr
    d = json.loads(stopped.stdout)
    # easy against standard was finished before the bot's first failure: it is kept, and rated.
    assert [(p["a"], p["b"]) for p in d["pairings"]] == [("easy", "standard")]
    assert set(d["ratings"]) == {"easy", "standard"}
    assert d["stopped"].startswith(f"forfeit: raiser ({BOTS}:Raises), side B")
    assert d["stopped"].endswith("(pairing easy against raiser)")


@pytest.mark.parametrize("args, sentence", [
    (["--move-time", "0"], "argument --move-time: a number of seconds above 0 (or none), not '0'"),
    (["--isolate", "--in-process"], "argument --in-process: not allowed with argument --isolate"),
    (["--on-error", "retry"], "argument --on-error: invalid choice: 'retry'"),
    (["--gauntlet"], "--gauntlet needs --players"),
])
def test_bad_flags_are_one_sentence(args: list[str], sentence: str) -> None:
    done = run_match("--games", "2", *args)
    assert done.returncode == 2 and "Traceback" not in done.stderr and sentence in done.stderr


def test_a_round_robin_interrupted_keeps_its_finished_pairings(tmp_path: Path) -> None:
    # The second pairing meets a bot that never answers (no --move-time): Ctrl-C there
    # stops the run, and the first pairing is still reported.
    lines = tmp_path / "games.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    proc = subprocess.Popen([sys.executable, "-m", "port.match", "--players", f"easy,standard,{BOTS}:Sleeps",
                             "--games", "4", "--limit", "0", "--workers", "1", "--json",
                             "--games-out", str(lines)], cwd=TOP, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (lines.exists() and len(lines.read_text().splitlines()) == 4):
        time.sleep(0.05)
    time.sleep(1.0)                              # the second pairing's first game, waiting on the bot
    proc.send_signal(2)                          # Ctrl-C
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "Traceback" not in err
    d = json.loads(out)
    assert [(p["a"], p["b"]) for p in d["pairings"]] == [("easy", "standard")]
    assert d["stopped"] == "interrupted (pairing easy against sleeper)"
    assert len(lines.read_text().splitlines()) == 4      # the first pairing's games stay in the file
