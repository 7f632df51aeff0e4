#!/usr/bin/env python3
"""What watching costs the room (docs/room.md, "Watching"), measured, not timed in tests.

For whole games of each game (EASY at both seats, a fixed seed), per move and per game:

* ``step``: the table's own step (the driver applying the move and saying its messages);
* ``watched``: what a watched table adds to each step (the public messages made of the
  seats' pairs, and their frames written); a table nobody watches adds a dict lookup;
* ``made``: a table's public stream made from its start when first watched (both seats'
  frames read, paired, the public frames written), off the event loop;
* the public stream's frames, their bytes, and the bytes kept (a ``tables.Stream``,
  older hands compressed).

Medians of ``--runs`` runs (3). The machine may be shared: compare the rows of one run.

    .venv/bin/python scripts/bench_watch.py [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.cribbage.levels import load_player as crib_player  # noqa: E402
from port.ginrummy.levels import load_player as gin_player  # noqa: E402
from port.room.games import DRIVERS  # noqa: E402
from port.room.seat import seat_for  # noqa: E402
from port.room.tables import Stream  # noqa: E402
from port.room.tables import _json as frame_text  # noqa: E402
from port.room.watch import public_frames, public_messages  # noqa: E402

GAMES = {"ginrummy (to 250)": ("ginrummy", {"score_limit": 250}, gin_player),
         "cribbage (to 121)": ("cribbage", {"limit": 121}, crib_player)}


def one_run(game: str, rules: dict[str, Any], load: Any, seed: int = 5) -> dict[str, float]:
    cls = DRIVERS[game]
    driver = cls(cls.check_rules(rules), seed)
    seats = [seat_for(game, load("easy", 1)), seat_for(game, load("easy", 2))]
    step = watched = 0.0
    seat_frames: list[tuple[int, str]] = []
    seqs = [0, 0]
    while True:
        out, driver.out = driver.out, []
        for s, m in out:
            seqs[s] += 1
            seat_frames.append((s, frame_text({"v": 1, **m, "table": "t", "seq": seqs[s]})))
        t0 = time.perf_counter()
        frames = [frame_text({"v": 1, **m, "table": "t", "seq": 0}) for m in public_messages(game, out)]
        watched += time.perf_counter() - t0
        made = [(s, move) for s, m in out if (move := seats[s].feed(m)) is not None]
        if not made:
            break
        t0 = time.perf_counter()
        driver.apply(*made[0])
        step += time.perf_counter() - t0
    moves = len(driver.moves)
    t0 = time.perf_counter()
    frames = public_frames(game, seat_frames, "t")
    built = time.perf_counter() - t0
    kept = Stream()
    for frame, deal in frames:
        kept.add(frame, deal)
    return {"kept": kept.size(), "moves": moves, "step": step / moves * 1e3, "watched": watched / moves * 1e3, "made": built * 1e3,
            "frames": len(frames), "bytes": sum(len(f) for f, _ in frames)}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{'game':<20}{'moves':>6}{'step ms/move':>14}{'watched +ms/move':>18}{'made ms':>9}"
          f"{'frames':>8}{'KB':>7}{'kept KB':>9}")
    for name, (game, rules, load) in GAMES.items():
        runs = [one_run(game, rules, load) for _ in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{name:<20}{med['moves']:>6.0f}{med['step']:>14.3f}{med['watched']:>18.3f}{med['made']:>9.1f}"
              f"{med['frames']:>8.0f}{med['bytes'] / 1024:>7.0f}{med['kept'] / 1024:>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
