"""Nothing is saved without the lock (docs/files.md, "Two copies at once").

When another copy of the game keeps the directory's lock past the wait (it is stopped
in a debugger, its disk hangs), a save is not made without it: the change is kept for
the session, held back with one notice, and made on the files, in order and read again
under the lock, at the next save or at exit. Real files in a real temporary directory;
the other copy is a real lock on the directory (another process, or another open
description of it in this one, which flock treats as another holder).
"""
from __future__ import annotations

import datetime
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from port.cribbage.files import CribConfig, CribGame, CribStore
from port.files.lock import locked
from port.files.storage import DiskBackend
from port.ginrummy.files import STA, Config, GameRecord, Result, Store
from port.ginrummy.main.start import first_screen
from port.main.driver import Driver
from port.main.launch import Launch

DAY = datetime.date(1994, 3, 5)
REPO = Path(__file__).resolve().parents[2]
WAIT = 0.05          # the tests' lock wait (the game's is 10 s)


def game(name: str = "Dave", me: int = 120) -> GameRecord:
    return GameRecord(name, me, 80, 6, 100, False, Result.WON, DAY)


def gin_store(d: Path, use_flock: bool = True) -> Store:
    return Store.open(d, backend=DiskBackend(d, "GINRUMMY.LCK", use_flock=use_flock, wait=WAIT))


def on_disk(d: Path) -> dict[str, int]:
    return {p.name: p.games for p in Store.open(d).stats()}


@pytest.mark.parametrize("use_flock", [True, False], ids=["flock", "lock-file"])
def test_a_save_while_another_copy_holds_the_lock_is_held_back_then_made(tmp_path: Path, use_flock: bool) -> None:
    store = gin_store(tmp_path, use_flock)
    store.record_game(game("Ann"))
    with locked(tmp_path, "GINRUMMY.LCK", use_flock=use_flock) as other:
        assert other is True                       # the other copy has the lock
        before = (tmp_path / STA).read_bytes()
        recorded = store.record_game(game("Bob", me=150))
        assert recorded.stats is not None and recorded.stats.games == 1    # the session counts it
        assert store.player("Bob").games == 1 and store.files.pending == 1
        assert (tmp_path / STA).read_bytes() == before                     # nothing written without it
        [notice] = store.take_notices()
        assert "Another copy of the game holds the files" in notice and "saved as soon as it lets go" in notice
        store.record_game(game("Bob"))                                     # still held: one notice only
        assert store.take_notices() == [] and store.files.pending == 2
    store.record_game(game("Cy"))                  # the lock is free: held-back games first, in order
    assert store.files.pending == 0 and store.take_notices() == []
    assert on_disk(tmp_path) == {"Ann": 1, "Bob": 2, "Cy": 1}
    assert [p.name for p in Store.open(tmp_path).stats()] == ["Cy", "Bob", "Ann"]
    assert {s.name for s in Store.open(tmp_path).high_scores()} == {"Ann", "Bob", "Cy"}


def test_the_other_copys_games_are_kept_too(tmp_path: Path) -> None:
    """While one copy holds its save back, the other records games; when the first
    saves, it reads the files again under the lock: no game of either is lost."""
    mine, theirs = gin_store(tmp_path), gin_store(tmp_path)
    with locked(tmp_path, "GINRUMMY.LCK"):
        mine.record_game(game("Mine"))
    theirs.record_game(game("Theirs"))
    theirs.record_game(game("Theirs"))
    assert on_disk(tmp_path) == {"Theirs": 2}
    assert mine.files.flush()                       # at exit
    assert on_disk(tmp_path) == {"Mine": 1, "Theirs": 2}
    assert mine.player("Theirs").games == 2        # the session now sees what is on disk


def test_options_saved_while_the_lock_is_held_are_written_when_it_is_free(tmp_path: Path) -> None:
    store = gin_store(tmp_path)
    with locked(tmp_path, "GINRUMMY.LCK"):
        assert store.save_config(Config(name="Held", score_limit=250))
        assert not (tmp_path / "GINRUMMY.CFG").exists()
    assert store.files.flush()
    assert Store.open(tmp_path).config == Config(name="Held", score_limit=250)


def test_cribbage_holds_back_its_games_and_options_the_same_way(tmp_path: Path) -> None:
    store = CribStore.open(tmp_path, backend=DiskBackend(tmp_path, "CRIBBAGE.LCK", wait=WAIT))
    with locked(tmp_path, "CRIBBAGE.LCK"):
        store.record_game(CribGame("Dave", True, False, 8, 60, 4, 20))
        store.save_config(CribConfig(name="Dave"))
        assert store.player("Dave").won == 1 and not list(tmp_path.iterdir())
        assert len(store.take_notices()) == 1
    assert store.files.flush()
    again = CribStore.open(tmp_path)
    assert again.player("Dave").won == 1 and again.config.name == "Dave"


def test_a_file_left_alone_is_not_counted_twice_when_a_change_is_made_again(tmp_path: Path) -> None:
    """A statistics file that cannot be read is kept in memory only; a change held back
    and made again must not add its game to that memory a second time."""
    (tmp_path / STA).mkdir()                       # not a file: left alone, in memory
    store = gin_store(tmp_path)
    assert "Cannot read GINRUMMY.STA" in store.take_notices()[0]
    with locked(tmp_path, "GINRUMMY.LCK"):
        store.record_game(game("Dave"))
    store.record_game(game("Dave"))                # made again, then this one
    assert store.player("Dave").games == 2
    assert {h.name for h in Store.open(tmp_path).high_scores()} == {"Dave"}   # SCR was written


def test_a_damaged_file_is_not_repaired_without_the_lock(tmp_path: Path) -> None:
    gin_store(tmp_path).record_game(game("Ann"))
    data = (tmp_path / STA).read_bytes()
    (tmp_path / STA).write_bytes(data[:-3])        # cut short: damaged
    with locked(tmp_path, "GINRUMMY.LCK"):
        store = gin_store(tmp_path)                # starts: reads, but repairs nothing
        assert not (tmp_path / f"{STA}.bad1").exists() and store.take_notices() == []
    store.record_game(game("Bob"))                 # under the lock: repaired, then saved
    assert (tmp_path / f"{STA}.bad1").read_bytes() == data[:-3]
    assert "was damaged" in store.take_notices()[0]
    assert on_disk(tmp_path) == {"Ann": 1, "Bob": 1}


_STOPPED_COPY = """
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)          # a copy that takes the lock and stops
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_copy_stopped_with_the_lock_costs_no_game(tmp_path: Path) -> None:
    """Another process holds the lock for a while (a copy stopped in a debugger): the
    games recorded meanwhile are held back, then saved when it lets go (at exit)."""
    other = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_STOPPED_COPY), str(tmp_path), "1.0"],
                             stdout=subprocess.PIPE, text=True)
    assert other.stdout is not None and other.stdout.readline() == "held\n"
    store = gin_store(tmp_path)
    started = time.monotonic()
    for i in range(3):
        store.record_game(game("Dave", me=100 + i))
    assert time.monotonic() - started < 0.9        # each save waited WAIT, not for ever
    assert store.files.pending == 3 and not (tmp_path / STA).exists()
    store.files.backend.wait = 10.0                # at exit the whole wait, as the game does
    assert store.files.flush()
    other.wait(timeout=30)
    assert on_disk(tmp_path) == {"Dave": 3}


def game_on(d: Path) -> tuple[Driver, Store]:
    """The real program (its first screen, its context) on a directory; its store."""
    driver = Driver.start(Launch(headless=True, program="ginrummy", title="GinRummy", path=d,
                                 shots=d / "shots"), first_screen)
    driver.step()
    store = driver.controller.ctx.store
    store.files.backend.wait = WAIT
    return driver, store


def test_at_exit_what_is_still_held_back_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shell flushes the store at exit (GameContext.flush); if the other copy still
    holds the lock, one plain line says what was not saved."""
    d, store = game_on(tmp_path)
    with locked(tmp_path, "GINRUMMY.LCK"):
        store.record_game(game("Dave"))
        d.session.exit()
    err = capsys.readouterr().err
    assert err.startswith("ginrummy: another copy of the game held the lock of ") and err.count("\n") == 1
    assert "1 change(s) of this session could not be saved" in err
    assert not (tmp_path / STA).exists()


def test_at_exit_what_was_held_back_is_saved_once_the_lock_is_free(tmp_path: Path) -> None:
    d, store = game_on(tmp_path)
    with locked(tmp_path, "GINRUMMY.LCK"):
        store.record_game(game("Dave"))
    assert not (tmp_path / STA).exists()
    d.session.exit()
    assert on_disk(tmp_path) == {"Dave": 1}


def test_a_game_record_is_not_saved_without_the_lock(tmp_path: Path) -> None:
    """SAVE RECORD takes the first free name under the lock; without it (another copy
    keeps it) it is not saved, the note says why, and R can be pressed again."""
    d, store = game_on(tmp_path)
    ctx = d.controller.ctx
    with locked(tmp_path, "GINRUMMY.LCK"):
        assert ctx.save_record("GR", lambda: "a record\n") == "Not saved: another copy holds the lock."
    assert not (tmp_path / "GR0001.REC").exists()
    assert ctx.save_record("GR", lambda: "a record\n") == "Record saved as GR0001.REC."
