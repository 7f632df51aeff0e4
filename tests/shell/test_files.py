"""The Files unit: what GINRUMMY.CFG/.STA/.SCR keep, as the documentation says.

Real files in real temporary directories; nothing of the filesystem is mocked.
The recovery guarantees (damage, truncation, garbage, read-only disks, crashes) are
in tests/shell/test_files_recovery.py.
"""
from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

import pytest

from port.files import records
from port.ginrummy import files
from port.ginrummy.files import (
    CFG, SCR, STA, Config, GameRecord, HighScore, PlayerStats, Result, Store,
)
from port.ginrummy.rules.options import Options

DAY = datetime.date(1994, 3, 5)


def game(name: str = "Dave", me: int = 120, cpu: int = 80, hands: int = 6,
         result: Result = Result.WON, limit: int = 100, oklahoma: bool = False,
         date: datetime.date = DAY) -> GameRecord:
    return GameRecord(name, me, cpu, hands, limit, oklahoma, result, date)


# ---- the options file ----------------------------------------------------------------

def test_config_defaults_are_the_documented_ones() -> None:
    cfg = Config()
    assert cfg.name == "PLAYER"                         # "The default name is 'PLAYER'"
    assert (cfg.gin_bonus, cfg.undercut_bonus) == (25, 25)
    assert cfg.score_limit == 100
    assert (cfg.oklahoma, cfg.big_cards, cfg.easy, cfg.knocking) == (False, False, False, True)
    assert (cfg.pointer, cfg.sort, cfg.level) == (0, "RANK", "STANDARD")


def test_config_gives_the_rules_options() -> None:
    cfg = Config(gin_bonus=20, undercut_bonus=10, score_limit=250, oklahoma=True, knocking=False)
    assert cfg.options() == Options(gin_bonus=20, undercut_bonus=10, score_limit=250,
                                    oklahoma=True, knocking=False)


def test_missing_config_gives_defaults_and_no_notice(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    assert store.config == Config()
    assert store.take_notices() == []
    assert list(tmp_path.iterdir()) == []      # nothing is written until SAVE


def test_save_writes_every_option_and_start_loads_them(tmp_path: Path) -> None:
    cfg = Config(name="Ron-Hill", gin_bonus=15, undercut_bonus=20, score_limit=350,
                 oklahoma=True, big_cards=True, easy=True, knocking=False, pointer=6,
                 sort="SUIT", level="EXPERT")
    assert Store.open(tmp_path).save_config(cfg)
    again = Store.open(tmp_path)
    assert again.config == cfg
    assert again.take_notices() == []


@pytest.mark.parametrize("name", ["a b c", 'x"!-:/?', "12345678", " lead", "Jürgen"])
def test_any_menu_name_survives_the_file(tmp_path: Path, name: str) -> None:
    Store.open(tmp_path).save_config(Config(name=name))
    assert Store.open(tmp_path).config.name == name


def test_noblank_is_not_an_option_of_the_file() -> None:
    # "At present, the NOBLANK option is not saved in this configuration file."
    assert "noblank" not in {f.lower() for f in Config.__dataclass_fields__}


def test_config_refuses_impossible_values() -> None:
    for bad in ({"gin_bonus": 30}, {"score_limit": 1000}, {"pointer": 7},
                {"sort": "COLOR"}, {"level": "EASY"}, {"name": "NINECHARS"}, {"name": ""}):
        with pytest.raises(records.FileError):
            Config(**bad)


# ---- the statistics file -------------------------------------------------------------

def test_first_game_creates_the_statistics_file(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    done = store.record_game(game())
    assert done.stats == PlayerStats("Dave", won=1, hands=6, points=120, against=80)
    assert (tmp_path / STA).exists()
    assert Store.open(tmp_path).player("Dave") == done.stats


def test_an_unknown_name_goes_on_top_and_known_names_keep_their_place(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for name in ("Ann", "Bob", "Cy"):
        store.record_game(game(name))
    assert store.players() == ["Cy", "Bob", "Ann"]
    store.record_game(game("Ann"))
    assert store.players() == ["Cy", "Bob", "Ann"]
    assert store.player("Ann").won == 2


def test_the_twenty_first_name_drops_the_bottom_one(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    names = [f"P{i}" for i in range(21)]
    for name in names:
        store.record_game(game(name))
    kept = Store.open(tmp_path).players()
    assert len(kept) == 20
    assert kept == names[::-1][:20]
    assert "P0" not in kept                      # the oldest was truncated


def test_an_unknown_player_has_zero_totals(tmp_path: Path) -> None:
    p = Store.open(tmp_path).player("Nobody")
    assert (p.games, p.won, p.lost, p.drawn, p.hands, p.average) == (0, 0, 0, 0, 0, 0.0)


def test_totals_and_average_per_hand(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_game(game(me=110, cpu=40, hands=5, result=Result.WON))
    store.record_game(game(me=60, cpu=105, hands=7, result=Result.LOST))
    p = Store.open(tmp_path).player("Dave")
    assert (p.won, p.lost, p.games, p.hands) == (1, 1, 2, 12)
    assert p.average == pytest.approx(170 / 12)
    assert p.average_against == pytest.approx(145 / 12)


def test_draws_count_as_hands_and_games(tmp_path: Path) -> None:
    # "Hands played to a draw ARE counted ... Games played to a draw (only possible if
    # zero score limit ...) are also counted."
    store = Store.open(tmp_path)
    store.record_game(game(me=0, cpu=0, hands=1, limit=0, result=Result.DRAW))
    p = store.player("Dave")
    assert (p.drawn, p.games, p.hands) == (1, 1, 1)


def test_quit_after_a_finished_hand_updates_the_statistics(tmp_path: Path) -> None:
    # "If you quit a hand before the END of the game, the stats file WILL be updated
    # if there was at least one hand played to a finish."
    store = Store.open(tmp_path)
    done = store.record_quit("Dave", 30, 12, 2, 100, False, DAY)
    assert done.stats is not None and done.stats.won == 1 and done.stats.hands == 2
    assert Store.open(tmp_path).player("Dave").hands == 2


def test_quit_before_any_finished_hand_changes_nothing(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    done = store.record_quit("Dave", 0, 0, 0, 100, False, DAY)
    assert done == files.Recorded(None, None)
    assert list(tmp_path.iterdir()) == []


def test_quit_after_one_draw_is_a_drawn_game(tmp_path: Path) -> None:
    # "... or when quitting a game after one draw"
    store = Store.open(tmp_path)
    store.record_quit("Dave", 0, 0, 1, 100, False, DAY)
    p = store.player("Dave")
    assert (p.drawn, p.games, p.hands) == (1, 1, 1)


def test_name_is_cut_to_eight_characters(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_game(game("Schoenberger"))
    assert store.players() == ["Schoenbe"]


# ---- the high scores -----------------------------------------------------------------

def test_a_high_score_keeps_what_the_documentation_lists(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    done = store.record_game(game(me=132, hands=6, limit=125, oklahoma=True))
    assert done.rank == 1
    [h] = Store.open(tmp_path).high_scores()
    assert h == HighScore("Dave", 132, 125, 6, True, DAY)
    assert h.average == 22.0                     # the final score / hands played


def test_scores_are_best_average_first_and_only_twenty(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for i in range(25):
        store.record_game(game(me=100 + i, hands=5))
    scores = Store.open(tmp_path).high_scores()
    assert len(scores) == 20
    assert [h.score for h in scores] == list(range(124, 104, -1))
    assert store.record_game(game(me=101, hands=5)).rank is None


def test_an_equal_average_goes_below_the_older_one(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_game(game("Old", me=100, hands=5))
    assert store.record_game(game("New", me=120, hands=6)).rank == 2
    assert [h.name for h in store.high_scores()] == ["Old", "New"]


def test_zero_averages_are_not_saved(tmp_path: Path) -> None:
    # "Zero average scores (lose or draw) are not saved."
    store = Store.open(tmp_path)
    assert store.record_game(game(me=0, cpu=100, result=Result.LOST)).rank is None
    assert store.record_game(game(me=0, cpu=0, hands=1, limit=0, result=Result.DRAW)).rank is None
    assert store.high_scores() == []
    assert not (tmp_path / SCR).exists()


def test_a_losing_game_with_points_has_a_nonzero_average_and_counts(tmp_path: Path) -> None:
    # Our reading (docs/files.md): the rule is the average, not who won.
    store = Store.open(tmp_path)
    assert store.record_game(game(me=40, cpu=110, result=Result.LOST)).rank == 1


def test_quit_records_a_score_only_above_zero(tmp_path: Path) -> None:
    # "... the score file WILL be updated for the hands that were played only if the
    # score of the human player is greater than zero."
    store = Store.open(tmp_path)
    assert store.record_quit("Dave", 0, 40, 3, 100, False, DAY).rank is None
    assert store.record_quit("Dave", 45, 10, 3, 100, False, DAY).rank == 1
    assert Store.open(tmp_path).high_scores()[0].score == 45


def test_the_computers_score_is_never_a_high_score(tmp_path: Path) -> None:
    # "Scores are not saved for the Computer player."
    store = Store.open(tmp_path)
    store.record_game(game(me=20, cpu=150, result=Result.LOST))
    assert [h.score for h in store.high_scores()] == [20]


# ---- where the files are -------------------------------------------------------------

def test_the_path_given_is_used_and_the_current_directory_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    there = tmp_path / "saves"
    there.mkdir()
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    Store.open(there).save_config(Config(name="There"))
    Store.open().save_config(Config(name="Here"))
    assert Store.open(there).config.name == "There"
    assert (here / CFG).exists() and (there / CFG).exists()


def test_nodisk_reads_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "This option will disable all disk access ... The high scores box will do
    # nothing, but the statistics will still work for the current session"
    Store.open(tmp_path).save_config(Config(name="OnDisk"))
    Store.open(tmp_path).record_game(game())
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.chdir(tmp_path)
    store = Store.open(tmp_path, nodisk=True)
    assert store.nodisk and store.config == Config()
    assert store.player("Dave").games == 0          # starting at zero
    store.record_game(game())
    assert store.player("Dave").games == 1
    assert not store.save_config(Config(name="Other"))
    assert not store.high_scores_enabled and store.high_scores() == []
    assert store.take_notices() == []
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_files_unit_never_imports_pyxel() -> None:
    code = "import sys; sys.modules['pyxel'] = None; import port.files; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


# ---- for the command line -----------------------------------------------------------

def test_read_stats_lists_without_touching_anything(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_game(game("Ann"))
    store.record_game(game("Bob", me=50, cpu=100, result=Result.LOST))
    players, warnings = files.read_stats(tmp_path)
    assert [p.name for p in players] == ["Bob", "Ann"] and warnings == []
    table = files.format_stats(players)
    assert "Bob" in table and "Ann" in table and "Avg/hand" in table


def test_read_stats_of_a_missing_file_says_so(tmp_path: Path) -> None:
    players, warnings = files.read_stats(tmp_path)
    assert players == [] and "no GINRUMMY.STA" in warnings[0]


# ---- the seam for another game (Cribbage's files plug in the same way) ----------------------

def test_another_games_files_get_the_same_mechanism(tmp_path: Path) -> None:
    """A stand-in for Cribbage: its own options and players through the shared mechanism,
    with its own file names, the same recovery and the same players list."""
    from dataclasses import dataclass

    from port.files import players
    from port.files.formats import ListFormat, OptionsFormat
    from port.files.records import FileError, check_count, fields, number
    from port.files.session import Files
    from port.files.storage import backend_for

    @dataclass(frozen=True)
    class CribConfig:
        name: str = "PLAYER"
        score_limit: int = 121

        def __post_init__(self) -> None:
            players.check_name(self.name)
            if self.score_limit not in (61, 121):
                raise FileError("61 or 121")

    @dataclass(frozen=True)
    class CribStats:
        name: str
        won: int = 0

        def __post_init__(self) -> None:
            players.check_name(self.name)
            check_count(self.won, "won")

    def stats_from(line: str) -> CribStats:
        won, name = fields(line, 2, "statistics")
        return CribStats(name, number(won))

    config = OptionsFormat("CRIBBAGE.CFG", CribConfig, {"name": (str, str), "score_limit": (str, number)})
    stats = ListFormat("CRIBBAGE.STA", "players", lambda s: f"{s.won} {s.name}", stats_from, players.unique)
    crib = Files(backend_for(tmp_path, "CRIBBAGE"))
    with crib.locked(["CRIBBAGE.CFG", "CRIBBAGE.STA"]):
        assert crib.read(config, CribConfig()) == CribConfig()
        assert crib.write(config, CribConfig("Dave", 61))
    for i in range(21):
        with crib.locked():
            crib.write(stats, players.put(crib.read(stats, []), CribStats(f"P{i}", i)))
    again = Files(backend_for(tmp_path, "CRIBBAGE"))
    assert again.read(config, CribConfig()) == CribConfig("Dave", 61)
    assert [s.name for s in again.read(stats, [])] == [f"P{i}" for i in range(20, 0, -1)]
    (tmp_path / "CRIBBAGE.STA").write_bytes((tmp_path / "CRIBBAGE.STA").read_bytes()[:-5])
    damaged = Files(backend_for(tmp_path, "CRIBBAGE"))
    assert len(damaged.read(stats, [])) == 20
    assert damaged.take_notices() == ["CRIBBAGE.STA was damaged: kept as CRIBBAGE.STA.bad1, 20 players recovered."]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CRIBBAGE.CFG", "CRIBBAGE.STA", "CRIBBAGE.STA.bad1"]
