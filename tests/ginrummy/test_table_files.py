"""The table rules in GINRUMMY.CFG and in the records (issue 12, the files half): every
rule is an added key, older files load whole, and only the original's TOTAL scoring
enters the high scores and the statistics' averages."""
from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from port.ginrummy import files
from port.ginrummy.files import CFG_FORMAT, TABLE_RULES
from port.files.records import FileError, pack
from port.ginrummy.rules.options import Options

CARD_ROOM_CFG = files.Config(name="Dave", knock_deck=True, scoring="BOXES", doublers=("SPADES", "HEARTS"),
                             shutout=True, deal_eleven=True, random_first=True, winner_deals=True,
                             box_bonus=20, arrange=True)


def test_every_table_rule_survives_save_and_load(tmp_path: Path) -> None:
    store = files.Store.open(tmp_path)
    assert store.save_config(CARD_ROOM_CFG)
    again = files.Store.open(tmp_path)
    assert again.config == CARD_ROOM_CFG and again.take_notices() == []
    text = (tmp_path / files.CFG).read_text()
    for line in ("knock_deck=Y", "scoring=BOXES", "doublers=SPADES,HEARTS", "shutout=Y",
                 "upcard_offer=N", "deal_eleven=Y", "random_first=Y", "winner_deals=Y", "box_bonus=20"):
        assert f" {line}\n" in text


@pytest.mark.parametrize("scoring", files.SCORINGS)
def test_each_scoring_method_round_trips(scoring: str) -> None:
    cfg = files.Config(scoring=scoring, upcard_offer=True)
    assert CFG_FORMAT.decode(files.config_lines(cfg)).value == cfg


def test_no_doublers_is_an_empty_value() -> None:
    assert "doublers=" in files.config_lines(files.Config())
    assert CFG_FORMAT.decode(["doublers="]).value.doublers == ()
    assert CFG_FORMAT.decode(["doublers=HEARTS,SPADES"]).value.doublers == ("SPADES", "HEARTS")


# GINRUMMY.CFG as the version with ARRANGE HAND (and no other table rule) wrote it.
ARRANGE_ERA_LINES = ["name=Ann", "gin_bonus=20", "undercut_bonus=10", "score_limit=150", "oklahoma=N",
                     "big_cards=N", "easy=N", "knocking=Y", "pointer=2", "sort=SUIT", "level=STANDARD",
                     "arrange=Y"]


def test_a_configuration_file_with_arrange_and_no_other_rule_loads_whole(tmp_path: Path) -> None:
    data = pack(files.CFG, ARRANGE_ERA_LINES)
    (tmp_path / files.CFG).write_bytes(data)
    store = files.Store.open(tmp_path)
    assert store.config == files.Config(name="Ann", gin_bonus=20, undercut_bonus=10, score_limit=150,
                                        pointer=2, sort="SUIT", arrange=True)
    assert store.config.scoring == "TOTAL" and store.config.doublers == ()
    assert store.take_notices() == []
    assert (tmp_path / files.CFG).read_bytes() == data          # left as it was


@pytest.mark.parametrize("line", ["scoring=POKER", "doublers=CLUBS", "doublers=SPADES,SPADES",
                                  "box_bonus=30", "shutout=MAYBE", "knock_deck=1"])
def test_a_bad_table_rule_takes_its_default_and_keeps_the_rest(tmp_path: Path, line: str) -> None:
    lines = [*files.config_lines(CARD_ROOM_CFG.with_(name="Keep")), line]
    # the bad line comes last: it replaces the good value of its key only if it is good
    (tmp_path / files.CFG).write_bytes(pack(files.CFG, [x for x in lines if not x.startswith(line.split("=")[0] + "=")] + [line]))
    store = files.Store.open(tmp_path)
    key = line.split("=")[0]
    assert getattr(store.config, key) == getattr(files.Config(), key)
    assert store.config.name == "Keep" and store.config.arrange
    assert store.take_notices()                                  # said once, not silent


def test_config_refuses_impossible_table_rules() -> None:
    for bad in ({"scoring": "FLOPPY"}, {"doublers": ["SPADES"]}, {"doublers": ("CLUBS",)},
                {"box_bonus": 26}, {"box_bonus": True}, {"upcard_offer": 1}):
        with pytest.raises(FileError):
            files.Config(**bad)


def test_the_knock_card_is_one_of_three_and_a_file_with_both_takes_the_deck() -> None:
    assert files.Config().knock_card == "FIXED"
    assert files.Config(oklahoma=True).knock_card == "OKLAHOMA"
    assert files.Config(knock_deck=True).knock_card == "DECK"
    both = files.Config(oklahoma=True, knock_deck=True)
    assert both.knock_card == "DECK" and not both.options().oklahoma


def test_config_passes_every_table_rule_to_the_engine() -> None:
    opts = CARD_ROOM_CFG.options()
    for name in TABLE_RULES:
        assert getattr(opts, name) == getattr(CARD_ROOM_CFG, name), name
    assert files.Config().options() == Options()               # the defaults are the original's
    assert files.Config(upcard_offer=True, scoring="FLOP").options().upcard_offer


@pytest.mark.parametrize(("mix", "plays"), [
    ({"oklahoma": True, "knock_deck": True}, {"oklahoma": False, "knock_deck": True}),
    ({"doublers": ("HEARTS",)}, {"doublers": ()}),
    ({"deal_eleven": True, "upcard_offer": True}, {"deal_eleven": False, "upcard_offer": True}),
    ({"deal_eleven": True, "oklahoma": True}, {"deal_eleven": False, "oklahoma": True}),
])
def test_a_hand_edited_mix_the_engine_refuses_still_plays(tmp_path: Path, mix: dict, plays: dict) -> None:
    lines = files.config_lines(files.Config(name="Ed", **mix))
    (tmp_path / files.CFG).write_bytes(pack(files.CFG, lines))
    store = files.Store.open(tmp_path)
    assert store.config == files.Config(name="Ed", **mix)        # the file is kept as it is
    opts = store.config.options()                                # and plays, as the screens would
    assert all(getattr(opts, k) == v for k, v in plays.items())


# ---- the records: other scoring methods -------------------------------------------------

def game(scoring: str, me: int = 130, cpu: int = 40, hands: int = 5) -> files.GameRecord:
    return files.GameRecord("Dave", me, cpu, hands, 100, False, files.result_of(me, cpu),
                            datetime.date(2026, 11, 23), scoring=scoring)


@pytest.mark.parametrize("scoring", [s for s in files.SCORINGS if s != "TOTAL"])
def test_only_total_scoring_enters_the_high_scores(tmp_path: Path, scoring: str) -> None:
    store = files.Store.open(tmp_path)
    done = store.record_game(game(scoring))
    assert done.rank is None and store.high_scores() == []
    assert store.record_game(game("TOTAL")).rank == 1


def test_another_scoring_counts_the_game_but_not_its_hands_and_points(tmp_path: Path) -> None:
    store = files.Store.open(tmp_path)
    store.record_game(game("TOTAL", 110, 40, 5))
    store.record_game(game("FLOP", 3, 1, 4))
    store.record_game(game("BOXES", 20, 180, 6))
    p = files.Store.open(tmp_path).player("Dave")
    assert (p.won, p.lost, p.games) == (2, 1, 3)
    assert (p.hands, p.points, p.against) == (5, 110, 40)       # the TOTAL game's only
    assert p.average == 22.0
