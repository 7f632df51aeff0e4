"""Whole games under each scoring method, played to their end through the real program
by keyboard, the hint telling the script what to play (issue 12): the upcard question,
the deal of 11's opening discard, the knock deck, and the SCORE SHEET at the end, which
must say what the engine's sheet says; then the records (docs/files.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.ginrummy import files
from port.ginrummy.main import menus, play, tablerules
from port.ginrummy.main.table import Mode
from port.screen.profiles import LIGHTGRAY, RED, WHITE, YELLOW
from tests.ginrummy.helpers import open_game, pixels_in, position_of, shows_text
from tests.ginrummy.test_whole_game import keyboard_turn, play_whole_game


def turn(d, s: play.PlayScreen) -> None:
    """test_whole_game's keyboard player, plus the table rules' moments."""
    t = s.table
    if t.mode is Mode.UPCARD_OFFER:
        d.key("H")
        d.key("T" if t.hint_target == "take" else "D")
    elif t.mode is Mode.HUMAN_DRAW and t.hand.stock_only:
        d.key("D")                                  # both declined: the deck only
    elif t.opening:
        d.key("H")
        d.key(play.KEYS_HAND[position_of(s, t.hint_target)])
    else:
        keyboard_turn(d, s)


def play_to_the_end(d) -> play.PlayScreen:
    d.key("B")
    return play_whole_game(d, turn)


GAMES = {
    # scoring: (the other rules, the score limit)
    "TOTAL": ({"shutout": True, "upcard_offer": True}, 50),
    "BOXES": ({"preset": "CARD ROOM"}, 50),
    "GAME_ONLY": ({"preset": "CLASSIC"}, 25),
    "FLOP": ({"deal_eleven": True, "random_first": True}, 100),
    "HOLLYWOOD": ({"knock_deck": True, "doublers": ("HEARTS",)}, 25),
}


@pytest.mark.parametrize("scoring", list(GAMES))
def test_a_whole_game_under_each_scoring_method(headless_pyxel, tmp_path: Path, scoring: str) -> None:
    rules, limit = GAMES[scoring]
    d = open_game(tmp_path, name="Rules", seed=12)
    cfg = d.controller.ctx.config
    if "preset" in rules:
        cfg = tablerules.apply_preset(cfg, str(rules["preset"]))
    cfg = cfg.with_(**{k: v for k, v in rules.items() if k != "preset"}, scoring=scoring, score_limit=limit)
    d.controller.ctx.config = cfg
    s = play_to_the_end(d)
    t = s.table
    sheet = t.sheet()
    assert t.game.over and sheet.scoring == scoring and len(sheet.columns) == (3 if scoring == "HOLLYWOOD" else 1)
    if scoring == "FLOP":
        assert t.game.hands_played >= 1 and t.game.results[-1].winner is not None
        assert sum(c.points[0] + c.points[1] for c in sheet.columns) in (1, 2, 4)   # 1, a bonus 1, doubled
    # the SCORE SHEET page, saying what the engine's sheet says
    assert t.sheet_shown
    sub = play.SCORING_TITLES[scoring] + ("  (SHUTOUT DOUBLER)" if cfg.shutout else "")
    assert shows_text(d, (640 - 8 * len(sub)) // 2, 40, sub, LIGHTGRAY)
    lines = play.sheet_lines(sheet, t.options)
    y = play.sheet_lines_y(len(sheet.columns), len(play.sheet_rows(sheet, t.options)))
    assert shows_text(d, (640 - 8 * len(lines[0])) // 2, y, lines[0], YELLOW)
    result = lines[1] if scoring == "HOLLYWOOD" else lines[0]     # after the three games' sum
    assert shows_text(d, (640 - 8 * len(result)) // 2, y + play.LINE * lines.index(result), result,
                      YELLOW if result == lines[0] else WHITE)
    assert (("WIN" in result and f"BY {sheet.net}." in result) if sheet.winner is not None
            else "DRAW" in result)
    # the records: every game counts; only TOTAL enters the high scores and the averages
    d.key("M")
    assert isinstance(d.controller, menus.TitleScreen)
    store = files.Store.open(tmp_path)
    p = store.player("Rules")
    assert p.games == 1
    won = sheet.winner == 0
    assert (p.won, p.lost) == ((1, 0) if won else (0, 1) if sheet.winner == 1 else (0, 0))
    if scoring == "TOTAL":
        assert p.hands == t.game.hands_played and p.points == sheet.totals[0]
        assert [h.score for h in store.high_scores()] == ([sheet.totals[0]] if sheet.totals[0] else [])
    else:
        assert (p.hands, p.points) == (0, 0) and store.high_scores() == []


def test_play_again_from_the_score_sheet_by_mouse(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, seed=5)
    d.controller.ctx.config = d.controller.ctx.config.with_(scoring="FLOP")
    s = play_to_the_end(d)
    assert s.table.sheet_shown and pixels_in(d, *play.SHEET_AGAIN_BOX, RED) > 0
    d.click("left", play.SHEET_AGAIN_BOX.x + 50, play.SHEET_AGAIN_BOX.y + 10)
    again = d.controller
    assert isinstance(again, play.PlayScreen) and again is not s and again.table.game.hands_played == 0


def test_a_limit_0_game_puts_its_one_hand_on_the_score_sheet(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, seed=5)
    d.controller.ctx.config = d.controller.ctx.config.with_(scoring="BOXES", score_limit=0)
    s = play_to_the_end(d)
    r = s.table.game.results[-1]
    assert r.winner is not None and s.table.sheet().columns[0].points[r.winner] == r.points
