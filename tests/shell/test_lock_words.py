"""What a player is told when another copy of the game holds the files' lock
(docs/files.md, "Two copies at once"): at start-up, before the wait for the lock, why
the window waits; on the options page, at once, that the options are not saved yet.
Real files, a real lock held by a thread of this process (flock treats another open of
the directory as another holder), the real program headless."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from port.files.lock import locked
from port.cribbage.main.start import first_screen
from port.cribbage.main.words import CRIBBAGE
from port.files.storage import DiskBackend
from port.main.driver import Driver
from port.main.launch import Launch
from tests.cribbage.helpers import open_cribbage
from tests.cribbage.seen import shows_line
from tests.ginrummy.helpers import open_game, shows_text

WAIT = 0.05          # the options' save waits this long for the lock (the game's: 10 s)


@contextmanager
def held_for(directory: Path, lock_name: str, seconds: float) -> Iterator[None]:
    """Another copy holds the directory's lock for ``seconds`` from now."""
    got, release = threading.Event(), threading.Event()

    def holder() -> None:
        with locked(directory, lock_name) as other:
            assert other is True
            got.set()
            release.wait(seconds)

    thread = threading.Thread(target=holder)
    thread.start()
    got.wait(5)
    try:
        yield
    finally:
        release.set()
        thread.join()


def test_start_up_under_a_held_lock_says_why_the_window_waits(tmp_path: Path, headless_pyxel, capsys) -> None:
    with held_for(tmp_path, "CRIBBAGE.LCK", 0.5):
        launch = Launch(headless=True, program=CRIBBAGE.program, title=CRIBBAGE.title, path=tmp_path)
        d = Driver.start(launch, first_screen)
    said = (f"Another copy of the game holds the files in {tmp_path}: waiting up to 10 seconds "
            "for it to let go.")
    assert f"cribbage: {said}" in capsys.readouterr().err
    # What the window showed while it waited (no frame has been drawn since).
    assert shows_line(d, 16, 16, "Another copy of the game holds the files in")
    d.step()
    assert d.controller.notices == [], "the lock was had in the end: nothing held back"


def test_start_up_with_the_lock_free_says_nothing(tmp_path: Path, headless_pyxel, capsys) -> None:
    open_cribbage(tmp_path)
    assert "Another copy" not in capsys.readouterr().err


@pytest.mark.parametrize("game", ["ginrummy", "cribbage"])
def test_options_saved_under_a_held_lock_say_they_are_not_saved_yet(tmp_path: Path, headless_pyxel,
                                                                     game: str) -> None:
    d = open_game(tmp_path) if game == "ginrummy" else open_cribbage(tmp_path)
    d.key("O")
    options = d.controller
    backend = options.ctx.store.files.backend
    assert isinstance(backend, DiskBackend)
    backend.wait = WAIT                           # the wait for the lock, shortened for the test
    lock_name = backend.lock_name
    with held_for(tmp_path, lock_name, 5):
        d.key("S")
    note = "Not saved yet: another copy holds the files."
    at = (264, 56 + 26 * 10 + 6 + 6) if game == "ginrummy" else (48, 300)
    assert shows_text(d, *at, note, 12)          # LIGHTRED
    assert not list(tmp_path.glob("*.CFG")), "nothing was written"
    d.key("S")                                    # the lock is free: saved, and said so
    assert shows_text(d, *at, "Options saved.", 12)
    assert list(tmp_path.glob("*.CFG"))
