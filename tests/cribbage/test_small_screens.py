"""Cribbage on every screen size a player may have (issue 33, "Small screens"): on
EGA's 350 lines, CGA's 200 and HERC's 720x348, read from the screen as data:

- every label stands clear of the cards under it (DECK over the deck's layers, CRIB
  over the crib, COMPUTER over its cards);
- the boxes (the show's, the scores') leave the pegging board in sight, so the pegs
  are seen to move with the box that announces them;
- the replay viewer's RECORD LINE sits on neither YOUR CRIB nor the show box;
- at the game's end QUIT leaves without asking "QUIT THIS GAME?", and the boxes that
  no longer work (LAY AWAY, HINT) are gone.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from port.cribbage.main import layout as L
from port.cribbage.main.board import BOARD, draw_board
from port.cribbage.main.menus import CribTitle
from port.cribbage.main.table import Box, CribTable, show_lines
from port.cribbage.record import parse as parse_record
from port.main import replay
from port.main.driver import Driver
from port.screen.profiles import BLACK, LIGHTGRAY, WHITE
from tests.cribbage.helpers import box_up, in_game, open_cribbage
from tests.cribbage.scenes import _until as until
from tests.cribbage.seen import shows_box, shows_line
from tests.cribbage.test_records import played
from tests.cribbage.test_show_boxes import play_on

PROFILES = ["EGA", "CGA", "HERC"]


def labels_clear(d: Driver, t: CribTable) -> bool:
    """Every label of the table drawn whole: its glyphs lit, nothing else in its cells."""
    h = t.hand
    x, y = L.crib_slot(h.dealer)
    crib = "YOUR CRIB" if h.dealer == L.HUMAN else "CRIB"
    gap = L.LABEL_GAP
    return all(shows_line(d, lx, ly, text, colour) for lx, ly, text, colour in (
        (L.DECK_X + 8, L.ROW_Y - gap, "DECK", LIGHTGRAY),
        (L.STARTER_X - 4, L.ROW_Y - gap, "STARTER", LIGHTGRAY),
        (L.PLAY_X, L.ROW_Y - gap, f"COUNT {t.count}", WHITE),
        (L.CPU_X, L.CPU_LABEL_Y, "COMPUTER", LIGHTGRAY),
        (x, y - gap, crib, LIGHTGRAY)))


def board_in_sight(d: Driver, t: CribTable) -> bool:
    """The board's rows on the screen are what the board alone draws: no box on them."""
    s = d.screen
    w = s.profile.width
    rows = slice(s.py(BOARD.y) * w, (s.py(BOARD.y + BOARD.h) + 1) * w)
    seen = d.snapshot()[rows]
    s.clear(BLACK)
    draw_board(s, t.options.limit, t.options.skunking, t.front, t.previous)
    return seen == d.snapshot()[rows]


@pytest.mark.parametrize("profile", PROFILES)
def test_every_label_stands_clear_of_its_cards(tmp_path: Path, profile: str) -> None:
    d = open_cribbage(tmp_path, seed=3, noanimation=True, profile=profile)
    t = in_game(d).table
    for dealer in (L.COMPUTER, L.HUMAN):          # the crib at the top, then at the bottom
        until(d, lambda: t.hand.dealer == dealer and t.your_turn_to_play() and t.row and not t.beats)
        d.step()
        assert labels_clear(d, t), f"a label is hidden ({profile}, dealer {dealer})"


@pytest.mark.parametrize("profile", PROFILES)
def test_the_boxes_leave_the_pegging_board_in_sight(tmp_path: Path, profile: str) -> None:
    d = open_cribbage(tmp_path, seed=3, noanimation=True, profile=profile)
    t = in_game(d).table
    until(d, lambda: box_up(t) and t.beat.box.title.endswith("PEGS 2") and t.age > 2)
    d.step()
    assert board_in_sight(d, t), "a box that pegs"
    d.step()
    until(d, lambda: box_up(t) and t.beat.box.show is not None and t.age > 2)
    d.step()
    assert shows_box(d, t.box) and board_in_sight(d, t), "the show's box"
    d.step()
    until(d, lambda: box_up(t) and t.beat.box.title.startswith("AFTER HAND") and t.age > 2)
    d.step()
    assert shows_box(d, t.box) and board_in_sight(d, t), "the scores box"


@pytest.mark.parametrize("profile", PROFILES)
def test_the_replays_record_line_sits_on_neither_the_crib_nor_the_show_box(tmp_path: Path,
                                                                         profile: str) -> None:
    _, text, _ = played(1)
    log = parse_record(text)
    d = open_cribbage(tmp_path, replay=log, profile=profile)
    r = d.controller
    x, y = r.line_at
    assert (x, y) == (replay.STATUS_X, L.UNDER_Y)
    move = next(i for i, st in enumerate(log.steps) if st.kind == "move" and st.state.dealer == L.HUMAN)
    show = next(i for i, st in enumerate(log.steps) if st.kind == "show")
    for i in (move, show):
        r.at = i
        d.step()
        st = log.steps[i]
        assert shows_line(d, x, y, f"RECORD LINE {st.line}", LIGHTGRAY), profile
        assert shows_line(d, replay.STATUS_X, r.box_y + 6, f"HAND {st.hand}/{r.hands} STEP {i + 1}/{len(log.steps)}",
                          LIGHTGRAY)
    r.at = move
    d.step()
    cx, cy = L.crib_slot(L.HUMAN)
    assert shows_line(d, cx, cy - L.LABEL_GAP, "CRIB", LIGHTGRAY)     # a match's record: no "YOUR"
    r.at = show
    d.step()
    entry = log.steps[show].show
    role = "CRIB" if entry.what == "crib" else "HAND"
    assert shows_box(d, Box(f"{log.names[entry.seat]}'S {role}".upper(), show_lines(entry), show=entry))


@pytest.mark.parametrize("profile", PROFILES)
def test_quit_at_the_games_end_leaves_without_asking(tmp_path: Path, profile: str) -> None:
    d = open_cribbage(tmp_path, go=True, noanimation=True, score_limit=61, profile=profile)
    t = d.controller.table
    t.hand.board[:] = [55, 55]
    t.front[:] = [55, 55]
    play_on(d, t, lambda: t.over)
    d.step()
    for gone in (L.LAY_AWAY_BOX, L.HINT_BOX):      # nothing left to lay away or hint at
        assert shows_line(d, gone.x + 8, gone.y + 6, " " * ((gone.w - 16) // 8), WHITE)
    d.key("Q")
    assert isinstance(d.controller, CribTitle), "no QUIT THIS GAME? once the game is over"
