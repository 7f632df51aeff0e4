"""scripts/bench_room.py, the room's load benchmark: it runs end to end in a tiny
configuration (a real room process, real clients in another process), and its check of
a game against the replay of the moves catches a game that went wrong."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from port.cribbage.levels import load_player
from port.files.gamerecord import Meta
from port.protocol import dumps
from port.room.games import DRIVERS
from port.room.seat import seat_for

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_room.py"
LAST = re.compile(r"^tables (\d+), moves (\d+)/s, p50 ([\d.]+) ms, p99 ([\d.]+) ms, lost (\d+), diverged (\d+)$")


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_room", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_room"] = module          # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_ends_with_its_figures_and_loses_nothing(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--tables", "4", "--seconds", "3", "--mean", "0.3",
                          "--json", str(tmp_path / "runs.json")],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    last = out.stdout.strip().splitlines()[-1]
    found = LAST.match(last)
    assert found is not None, last
    tables, moves, p50, p99, lost, diverged = found.groups()
    assert (tables, lost, diverged) == ("4", "0", "0")
    assert int(moves) > 0 and 0 < float(p50) <= float(p99)
    run = json.loads((tmp_path / "runs.json").read_text())[0]["each"][0]
    assert run["games"] >= 4 and run["samples"] > 0 and run["room_rss_mb"] > 0


def _played(bench: ModuleType, seed: int) -> tuple[object, dict[str, object]]:
    """A Cribbage game to 61 played as the bench's clients see it (both seats' frames,
    the moves sent), and the record the room would keep of it."""
    rules = DRIVERS["cribbage"].check_rules({"limit": 61})
    driver = DRIVERS["cribbage"](rules, seed)
    game = bench.Game("t1", "cribbage", rules, ("Ann", "Bob"))
    seats = [seat_for("cribbage", load_player("easy", seed + s)) for s in (0, 1)]
    seqs = [0, 0]
    while True:
        out, driver.out = driver.out, []
        move = None
        for seat, msg in out:
            seqs[seat] += 1
            text = dumps({**msg, "table": "t1", "seq": seqs[seat]})
            game.streams[seat] = hash((game.streams[seat], text))
            answer = seats[seat].feed(json.loads(text))
            if answer is not None:
                move = (seat, answer)
        if driver.over:
            break
        assert move is not None
        driver.apply(*move)
        game.moves.append(move)
    game.ended = [{"scores": list(driver.scores())}] * 2
    meta = Meta(("Ann", "Bob"), ("room guest", "room guest"), date="2026-11-27", seed=seed)
    return game, {"result": {"seed": seed}, "text": driver.record(meta)}


def test_the_check_passes_a_faithful_game_and_catches_one_that_went_wrong() -> None:
    bench = _bench()
    game, record = _played(bench, 7)
    assert bench.same(game, record)

    other, _ = _played(bench, 7)
    other.streams[1] = hash((other.streams[1], "a frame more"))       # a seat told something else
    assert not bench.same(other, record)

    other, _ = _played(bench, 7)
    seat, move = other.moves[0]
    other.moves[0] = (seat, {"act": "lay_away", "cards": list(reversed(move["cards"]))[:1] * 2})
    assert not bench.same(other, record)                                # a move the room did not get

    changed = {**record, "text": record["text"].replace("Bob", "Bobby", 1)}
    assert not bench.same(game, changed)                                # a record that differs
