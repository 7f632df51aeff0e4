"""The card room's looking-back pages (HISTORY, TOP, PROFILE) in a fixed state, for the
stored reference images (tests/room/reference/{history,top,profile}_{ega,cga,herc}.png;
remade by ``python -m tests.room.lookscenes``).

The room's store is made before the room starts: four accounts (Ann, the program's;
Bob; Stan, a BOT account; Cleo) and five finished games, each played through the room's
own drivers by STANDARD from a fixed seed (so its record is a real one the replay
viewer and REVIEW read), stored with fixed ratings and fixed dates (a picture must not
change with the day it is made). Then ``python -m port.room`` serves that store.
"""
from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from port.files.gamerecord import Meta
from port.main.driver import Driver
from port.main.roomlooks import HistoryPage, ProfilePage, TopPage
from port.room import accounts
from port.room.games import DRIVERS
from port.room.seat import seat_for
from port.room.store import DB_NAME, Rating, SqliteStore, TableRow
from port.screen import png
from tests.room.helpers import RoomProcess
from tests.room.scenes import PROFILES, log_in, program, until

PAGES = ("history", "top", "profile")
SCENES = [f"{page}_{p}" for page in PAGES for p in PROFILES]
DAY = 1_777_000_000.0                 # 2026-04-24: every game finished on a fixed day, a day apart
GAMES: list[tuple[str, tuple[str, str], dict[str, Any], int, tuple[Rating, Rating]]] = [
    # game, players, rules, seed, the ratings after it (fixed: the pictures' numbers)
    # (Stan's 30 games before this evening were played before the room kept a rating history.)
    ("ginrummy", ("Ann", "Bob"), {"score_limit": 0}, 11, (Rating(1662.0, 290.0, games=1), Rating(1338.0, 290.0, games=1))),
    ("ginrummy", ("Stan", "Ann"), {"score_limit": 0, "oklahoma": True}, 12,
     (Rating(1712.0, 95.0, games=30), Rating(1610.0, 250.0, games=2))),
    ("cribbage", ("Ann", "Cleo"), {"limit": 61}, 13, (Rating(1560.0, 290.0, games=1), Rating(1440.0, 290.0, games=1))),
    ("ginrummy", ("Bob", "Stan"), {"score_limit": 0}, 14, (Rating(1301.0, 270.0, games=2), Rating(1730.0, 90.0, games=31))),
    ("ginrummy", ("Ann", "Cleo"), {"score_limit": 0}, 15, (Rating(1655.0, 230.0, games=3), Rating(1450.0, 290.0, games=1))),
]
STAN_BEFORE = Rating(1690.0, 99.0, games=29)     # Stan's rating when the history began


def play_out(game: str, rules: dict[str, Any], seed: int) -> Any:
    """A whole game between two STANDARD players through the room's own driver."""
    from port.cribbage.levels import load_player as crib_player
    from port.ginrummy.levels import load_player as gin_player

    load = gin_player if game == "ginrummy" else crib_player
    driver = DRIVERS[game](rules, seed)
    seats = [seat_for(game, load("standard", seed + i)) for i in (0, 1)]
    while not driver.over:
        out, driver.out = driver.out, []
        for seat, msg in out:
            move = seats[seat].feed(msg)
            if move is not None:
                driver.apply(seat, move)
    return driver


def make_store(folder: Path) -> None:
    """ROOM.DB in ``folder``: the accounts and the finished games, dated a day apart."""
    store = SqliteStore(folder / DB_NAME)
    try:
        for name, password, bot in (("Ann", "pw1", False), ("Bob", "pw2", False), ("Stan", "pw", True),
                                    ("Cleo", "pw", False)):
            secret, salt = accounts.hash_password(password)
            store.create_account(name, secret, salt, bot)
        for i, (game, players, rules, seed, after) in enumerate(GAMES):
            driver = play_out(game, rules, seed)
            roles = ("room bot" if p == "Stan" else "room player" for p in players)
            meta = Meta(players, tuple(roles), date="2026-04-24", seed=seed)   # type: ignore[arg-type]
            winner = driver.winner()
            result = {"how": "played", "winner": None if winner is None else players[winner], "loser": None,
                      "scores": list(driver.scores()), "hands": len(driver.played()), "seed": seed, "rules": rules}
            table_id = f"t{i}"
            store.open_table(TableRow(table_id, game, players, rules, seed, DAY))
            before = store.ratings(list(players), game)
            if game == "ginrummy" and before.get("Stan") == Rating():
                before["Stan"] = STAN_BEFORE
            store.finish_game(table_id, game, players, driver.record(meta), result, dict(zip(players, after)), before)
    finally:
        store.close()
    db = sqlite3.connect(folder / DB_NAME)
    with db:
        for table in ("games", "history"):
            db.execute(f"UPDATE {table} SET finished = ? + 86400 * number", (DAY,))
        db.execute("UPDATE accounts SET created = ?", (DAY,))
    db.close()


class Room:
    def __init__(self, folder: Path) -> None:
        data = folder / "room"
        data.mkdir(parents=True)
        make_store(data)
        self.process = RoomProcess(data, "--house-bots", "none").start()   # the pictures: the players alone
        self.url = self.process.url

    def close(self) -> None:
        self.process.stop()


def visit(room: Room, path: Path, profile: str) -> tuple[Driver, dict[str, png.Indexed]]:
    """Ann logs in; HISTORY (H), back; TOP (T), STAN's PROFILE (ENTER on rank 1): the
    three pages as pictures, the program left on the profile."""
    d = program(room, path, profile)   # type: ignore[arg-type]
    log_in(d, "pw1")
    shots: dict[str, png.Indexed] = {}

    def shot(name: str) -> None:
        d.step()
        p = d.screen.profile
        shots[name] = png.Indexed(p.width, p.height, d.snapshot(), p.palette)

    d.key("H")
    page = d.controller
    assert isinstance(page, HistoryPage)
    until(d, lambda: len(page.rows()) == 4, what="Ann's four games")
    shot("history")
    d.key("L")
    d.key("T")
    top = d.controller
    assert isinstance(top, TopPage)
    until(d, lambda: len(top.rows()) == 5, what="the leaderboard")
    shot("top")
    d.key("RETURN")
    prof = d.controller
    assert isinstance(prof, ProfilePage) and prof.name == "Stan"
    until(d, lambda: prof.got() is not None, what="Stan's profile")
    shot("profile")
    return d, shots


def images(names: list[str], room: Room | None = None, folder: Path | None = None) -> dict[str, png.Indexed]:
    """The scenes' pictures: one program a profile (EGA, CGA, HERC) visits the three pages."""
    if room is None or folder is None:
        with tempfile.TemporaryDirectory() as tmp:
            own = Room(Path(tmp))
            try:
                return images(names, own, Path(tmp))
            finally:
                own.close()
    out = {}
    wanted = {PROFILES[name.split("_")[1]] for name in names}
    for key, profile in PROFILES.items():
        if profile not in wanted:
            continue
        d, shots = visit(room, folder / f"shots_{key}", profile)
        d.controller.session.close()
        out.update({f"{page}_{key}": image for page, image in shots.items() if f"{page}_{key}" in names})
    return out


def main(names: list[str]) -> int:
    """Remake the references: ``python -m tests.room.lookscenes [SCENE ...]``."""
    from port.main import loop
    from port.main.launch import Launch

    loop.init_pyxel(Launch(headless=True))
    folder = Path(__file__).parent / "reference"
    for name, image in images(names or SCENES).items():
        png.write(folder / f"{name}.png", image)
        print(f"wrote {folder / name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
