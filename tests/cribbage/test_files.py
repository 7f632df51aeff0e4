"""Cribbage's files, CRIBBAGE.CFG and CRIBBAGE.STA, through the shared Files mechanism,
on real temporary directories."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from port.cribbage import files as cf
from port.files.records import FileError


def a_game(name: str, won: bool = True, skunk: bool = False, hands: int = 5) -> cf.CribGame:
    return cf.CribGame(name, won, skunk, hands, hand_points=7 * hands, cribs=2, crib_points=9)


def test_the_options_file_round_trips_every_option_but_noblank(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    assert store.config == cf.CribConfig()          # "created with the default options"
    cfg = cf.CribConfig(name="Ann B.", score_limit=61, skunking=True, big_cards=True, pointer=6,
                        level="EXPERT")
    assert store.save_config(cfg)
    text = (tmp_path / "CRIBBAGE.CFG").read_text()
    assert text.startswith("CRIBBAGE.CFG 1\n") and "noblank" not in text.lower()
    assert cf.CribStore.open(tmp_path).config == cfg


@pytest.mark.parametrize("bad", [dict(score_limit=100), dict(pointer=7), dict(level="EASY"),
                                 dict(name=""), dict(name="NINECHARS")])
def test_a_bad_option_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(FileError):
        cf.CribConfig(**bad)  # type: ignore[arg-type]


def test_a_damaged_options_file_is_repaired_with_a_notice(tmp_path: Path) -> None:
    cf.CribStore.open(tmp_path).save_config(cf.CribConfig(name="Dave", score_limit=61))
    path = tmp_path / "CRIBBAGE.CFG"
    path.write_text(path.read_text().replace("score_limit=61", "score_limit=62"))
    store = cf.CribStore.open(tmp_path)
    assert store.config.name == "Dave" and store.config.score_limit == 121
    notes = store.take_notices()
    assert len(notes) == 1 and "CRIBBAGE.CFG was damaged" in notes[0]
    assert (tmp_path / "CRIBBAGE.CFG.bad1").exists()


def test_a_finished_game_adds_to_the_players_totals(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    store.record_game(a_game("Dave", won=True, hands=6))
    store.record_game(a_game("Dave", won=False, hands=4))
    p = cf.CribStore.open(tmp_path).player("Dave")
    assert (p.won, p.lost, p.hands, p.hand_points, p.cribs, p.crib_points) == (1, 1, 10, 70, 4, 18)
    assert p.hand_average == 7.0 and p.crib_average == 4.5


def test_a_skunk_counts_two_won_or_lost(tmp_path: Path) -> None:
    # "If a player fails to reach the skunk point ... this counts a 2 wins."
    store = cf.CribStore.open(tmp_path)
    store.record_game(a_game("Dave", won=True, skunk=True))
    store.record_game(a_game("Dave", won=False, skunk=True))
    p = cf.CribStore.open(tmp_path).player("Dave")
    assert (p.won, p.lost) == (2, 2)


def test_a_new_name_goes_on_top_and_the_oldest_is_dropped_past_20(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    for i in range(21):
        store.record_game(a_game(f"P{i}"))
    names = cf.CribStore.open(tmp_path).players()
    assert len(names) == 20 and names[0] == "P20" and "P0" not in names and names[-1] == "P1"


def test_a_name_of_the_list_is_updated_in_place_never_the_first(tmp_path: Path) -> None:
    # Version 2.0: "fixed a longtime bug ... if you changed your name to another name in
    # the list that was not the first, it would overwrite the first name with the new one."
    store = cf.CribStore.open(tmp_path)
    for name in ("Carol", "Bob", "Ann"):
        store.record_game(a_game(name))
    assert store.players() == ["Ann", "Bob", "Carol"]
    store.record_game(a_game("Carol", won=False))
    again = cf.CribStore.open(tmp_path)
    assert again.players() == ["Ann", "Bob", "Carol"]
    assert (again.player("Ann").won, again.player("Ann").lost) == (1, 0)
    assert (again.player("Carol").won, again.player("Carol").lost) == (1, 1)


def test_nodisk_reads_and_writes_nothing_but_keeps_the_session(tmp_path: Path) -> None:
    cf.CribStore.open(tmp_path).save_config(cf.CribConfig(name="Dave"))
    before = sorted(p.name for p in tmp_path.iterdir())
    store = cf.CribStore.open(tmp_path, nodisk=True)
    assert store.config == cf.CribConfig()
    store.record_game(a_game("PLAYER"))
    assert store.player("PLAYER").won == 1            # "the statistics will still work"
    assert not store.save_config(cf.CribConfig(name="X"))
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="needs a directory root cannot write")
def test_a_read_only_directory_keeps_the_statistics_for_the_session(tmp_path: Path) -> None:
    # "the stats will start from zero ...; they will be kept for when you are in the
    # program, but cannot be saved upon exit."
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        store = cf.CribStore.open(tmp_path)
        store.record_game(a_game("Dave"))
        assert store.player("Dave").won == 1
        assert any("CRIBBAGE.STA" in n for n in store.take_notices())
        assert list(tmp_path.iterdir()) == []
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_the_browser_keeps_cribbage_under_its_own_prefix() -> None:
    class Storage(dict):
        def getItem(self, k):  # noqa: N802 - the Web Storage API's names
            return self.get(k)

        def setItem(self, k, v):  # noqa: N802
            self[k] = v

        def removeItem(self, k):  # noqa: N802
            self.pop(k, None)

        @property
        def length(self):
            return len(self)

        def key(self, i):
            return list(self)[i]

    class JS:
        localStorage = Storage()

    js = JS()
    store = cf.CribStore.open(backend=cf.backend_for(None, "emscripten", js))
    store.save_config(cf.CribConfig(name="Web"))
    assert list(js.localStorage) == ["cribbage/CRIBBAGE.CFG"]


def test_list_lines_read_without_changing_anything(tmp_path: Path) -> None:
    assert cf.list_lines(tmp_path) == [f"There is no CRIBBAGE.STA in {tmp_path} yet."]
    cf.CribStore.open(tmp_path).record_game(a_game("Dave"))
    lines = cf.list_lines(tmp_path)
    assert lines[0] == f"Players in {tmp_path / 'CRIBBAGE.STA'}:" and "Dave" in lines[1]


def test_a_damaged_statistics_file_keeps_every_sound_player(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    for name in ("Ann", "Bob", "Carol"):
        store.record_game(a_game(name))
    path = tmp_path / "CRIBBAGE.STA"
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b" 1 0 ", b" 9 0 ")           # Bob's line no longer matches its CRC
    path.write_bytes(b"\n".join(lines))
    again = cf.CribStore.open(tmp_path)
    assert again.players() == ["Carol", "Ann"]
    notes = again.take_notices()
    assert len(notes) == 1 and "CRIBBAGE.STA was damaged" in notes[0] and "2 players recovered" in notes[0]
    assert (tmp_path / "CRIBBAGE.STA.bad1").exists()
