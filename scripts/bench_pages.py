"""What the room's HTTP pages and looks cost its event loop: the time to make each page
(``port.room.pages.Pages.make``, nothing kept) and to answer each look (``top``,
``profile``, ``games``), on an SQLite store of many finished games, medians of several
runs; and a kept page's cost, for comparison (docs/room.md, "Limits").

    .venv/bin/python scripts/bench_pages.py [--games 2000] [--runs 5]

The games are real: GinRummy to 100 between two STANDARD players through the room's own
driver, dealt from fixed seeds (a few distinct records, stored many times over).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))


def played(seed: int) -> tuple[str, dict]:
    from port.files.gamerecord import Meta
    from port.ginrummy.levels import load_player
    from port.room.games import GinDriver
    from port.room.seat import seat_for

    driver = GinDriver({}, seed)
    seats = [seat_for("ginrummy", load_player("standard", seed + i)) for i in (0, 1)]
    while not driver.over:
        out, driver.out = driver.out, []
        for seat, msg in out:
            move = seats[seat].feed(msg)
            if move is not None:
                driver.apply(seat, move)
    winner = driver.winner()
    result = {"how": "played", "winner": None if winner is None else f"P{winner}", "scores": list(driver.scores()),
              "hands": len(driver.played()), "rules": {}}
    return driver.record(Meta(("P0", "P1"), ("room player", "room player"), seed=seed)), result


def median_ms(f, runs: int) -> float:   # noqa: ANN001
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> int:
    from port.room import archive
    from port.room.pages import Pages
    from port.room.ratings import update
    from port.room.store import DB_NAME, SqliteStore, TableRow

    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    records = [played(seed) for seed in range(5)]
    names = [f"P{i}" for i in range(40)]
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / DB_NAME)
        for n in names:
            store.create_account(n, b"s", b"t", False)
        for g in range(args.games):
            a, b = names[g % 40], names[(g * 7 + 1) % 40]
            if a == b:
                b = names[(g + 1) % 40]
            text, result = records[g % len(records)]
            result = {**result, "winner": a if result["winner"] == "P0" else b}
            before = store.ratings([a, b], "ginrummy")
            after = update(before[a], before[b], 1.0 if result["winner"] == a else 0.0)
            store.open_table(TableRow(f"t{g}", "ginrummy", (a, b), {}, g, 0.0))
            store.finish_game(f"t{g}", "ginrummy", (a, b), text.replace("P0", a).replace("P1", b), result,
                              {a: after[0], b: after[1]}, before)
        pages = Pages(store, Path(tmp), lambda: [{"name": n, "ratings": {}} for n in names])
        now = time.monotonic()
        rows = [
            ("page /", lambda: pages.make("/", now)),
            ("page /top/ginrummy", lambda: pages.make("/top/ginrummy", now)),
            ("page /players/P3", lambda: pages.make("/players/P3", now)),
            ("page /games/N", lambda: pages.make(f"/games/{args.games // 2}", now)),
            ("page /games/N.rec", lambda: pages.make(f"/games/{args.games // 2}.rec", now)),
            ("page kept (any)", lambda: pages.page("/players/P3")),
            ("look top", lambda: archive.top(store, "ginrummy")),
            ("look profile", lambda: archive.profile(store, "P3")),
            ("look games", lambda: archive.game_list(store, "P3")),
        ]
        print(f"{args.games} games, 40 players; medians of {args.runs} runs")
        for name, f in rows:
            print(f"  {name:<20} {median_ms(f, args.runs):7.2f} ms")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
