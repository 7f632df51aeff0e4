"""The browser build's storage: the three files in localStorage, through Pyodide's ``js``.

A stand-in for ``js.localStorage`` behaves as the Web Storage API does as Pyodide shows
it: ``getItem`` gives None for a missing key (JS null), values are strings, ``setItem``
throws when the quota is full, and every call throws when storage is disabled.
"""
from __future__ import annotations

import datetime
import sys
import types
from pathlib import Path

import pytest

from port.ginrummy import files
from port.files import DiskBackend, LocalStorageBackend
from port.ginrummy.files import CFG, SCR, STA, Config, GameRecord, Result, Store

DAY = datetime.date(2024, 1, 2)


class JsException(Exception):
    """What Pyodide raises for a JavaScript error (pyodide.ffi.JsException)."""


class JsNull:
    """Newer Pyodide gives ``pyodide.ffi.jsnull`` for JS null, not None."""


class FakeLocalStorage:
    def __init__(self, quota: int = 5_000_000, disabled: bool = False,
                 missing: object = None) -> None:
        self.items: dict[str, str] = {}
        self.quota = quota
        self.disabled = disabled
        self.missing = missing     # what getItem gives for a missing key

    def _check(self) -> None:
        if self.disabled:
            raise JsException("SecurityError: The operation is insecure.")

    def getItem(self, key: str) -> str | None:  # noqa: N802 (the Web Storage names)
        self._check()
        return self.items.get(key, self.missing)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self._check()
        used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if used + len(key) + len(str(value)) > self.quota:
            raise JsException("QuotaExceededError: The quota has been exceeded.")
        self.items[key] = str(value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self._check()
        self.items.pop(key, None)


def a_game(name: str = "Web") -> GameRecord:
    return GameRecord(name, 130, 70, 5, 100, True, Result.WON, DAY)


def web_store(storage: FakeLocalStorage) -> Store:
    js = types.SimpleNamespace(localStorage=storage)
    return Store.open(backend=files.backend_for(None, platform="emscripten", js=js))


def test_the_browser_gets_local_storage_and_the_desktop_a_directory(tmp_path: Path) -> None:
    js = types.SimpleNamespace(localStorage=FakeLocalStorage())
    assert isinstance(files.backend_for(None, platform="emscripten", js=js), LocalStorageBackend)
    disk = files.backend_for(tmp_path, platform="linux")
    assert isinstance(disk, DiskBackend) and disk.directory == tmp_path


def test_in_a_browser_the_store_uses_the_js_bridge_and_no_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in Pyodide: sys.platform is "emscripten" and ``import js`` gives the bridge."""
    storage = FakeLocalStorage()
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(localStorage=storage))
    monkeypatch.chdir(tmp_path)
    store = Store.open()
    store.save_config(Config(name="Browser"))
    store.record_game(a_game())
    assert sorted(storage.items) == [f"ginrummy/{n}" for n in (CFG, SCR, STA)]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("missing", [None, JsNull()])
def test_everything_survives_a_page_reload(missing: object) -> None:
    storage = FakeLocalStorage(missing=missing)
    first = web_store(storage)
    first.save_config(Config(name="Web", oklahoma=True, pointer=5))
    first.record_game(a_game())
    again = web_store(storage)                 # a reload: new Python, same storage
    assert again.config == Config(name="Web", oklahoma=True, pointer=5)
    assert again.player("Web").won == 1
    assert again.high_scores()[0].score == 130
    assert again.take_notices() == []


def test_items_hold_the_same_bytes_as_the_files(tmp_path: Path) -> None:
    storage = FakeLocalStorage()
    web_store(storage).record_game(a_game())
    Store.open(tmp_path).record_game(a_game())
    backend = LocalStorageBackend(storage, "ginrummy/")
    assert backend.read(STA) == (tmp_path / STA).read_bytes()


@pytest.mark.parametrize("missing", [None, JsNull()])
def test_a_damaged_item_is_kept_aside_and_a_fresh_one_started(missing: object) -> None:
    storage = FakeLocalStorage(missing=missing)
    web_store(storage).record_game(a_game())
    storage.items["ginrummy/GINRUMMY.STA"] = "not base64 at all {}"
    storage.items["ginrummy/GINRUMMY.STA.bad1"] = "an older damaged one"
    store = web_store(storage)
    [notice] = store.take_notices()
    assert "GINRUMMY.STA.bad2" in notice
    assert storage.items["ginrummy/GINRUMMY.STA.bad2"] == "not base64 at all {}"
    assert storage.items["ginrummy/GINRUMMY.STA.bad1"] == "an older damaged one"
    assert store.stats() == []
    store.record_game(a_game())
    assert web_store(storage).player("Web").games == 1


def test_a_full_quota_keeps_statistics_for_the_session_with_one_notice() -> None:
    storage = FakeLocalStorage(quota=100)
    store = web_store(storage)
    store.record_game(a_game())
    [notice] = store.take_notices()
    assert "local storage" in notice and "this session only" in notice
    store.record_game(a_game())
    assert store.player("Web").games == 2 and store.take_notices() == []


def test_disabled_storage_still_lets_the_game_start() -> None:
    storage = FakeLocalStorage(disabled=True)
    store = web_store(storage)
    assert store.config == Config()
    assert len(store.take_notices()) == 1
    store.record_game(a_game())
    assert store.player("Web").games == 1 and store.take_notices() == []
