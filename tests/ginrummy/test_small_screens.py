"""GinRummy on every screen size a player may have (issue 33, "Small screens"), read
from the screen as data on EGA, CGA and HERC: the deck's count on its black badge
(CGA's 200 lines drew the badge 6 pixels tall under 8 of text), the DECK label clear
of the deck's layers, and QUIT at the game's end leaving without asking "QUIT THIS
GAME?"."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.ginrummy.main import play
from port.ginrummy.main.menus import TitleScreen
from port.ginrummy.main.table import Mode
from port.screen.profiles import LIGHTGRAY, WHITE
from tests.cribbage.seen import shows_line
from tests.ginrummy.helpers import open_game, set_hand
from tests.ginrummy.test_records import CPU, ME, to_hand_end

PROFILES = ["EGA", "CGA", "HERC"]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_decks_count_stands_on_its_badge_and_its_label_clear(tmp_path: Path, profile: str) -> None:
    d = open_game(tmp_path, profile=profile)
    s = set_hand(d, ME, CPU, "KH", "QS")
    count = str(len(s.table.hand.stock))
    tx = play.DECK_X + (play.CARD_W - 8 * len(count)) // 2
    assert shows_line(d, tx, play.ROW_Y + 4, count, WHITE), f"the count on its badge ({profile})"
    assert shows_line(d, play.DECK_X + 8, play.ROW_Y - 16, "DECK", LIGHTGRAY)
    assert shows_line(d, play.PILE_X + 8, play.ROW_Y - 14, "PILE", LIGHTGRAY)


@pytest.mark.parametrize("profile", PROFILES)
def test_quit_at_the_games_end_leaves_without_asking(tmp_path: Path, profile: str) -> None:
    d = open_game(tmp_path, score_limit=0, profile=profile)
    s = to_hand_end(d)
    d.key("RETURN")
    assert s.table.mode is Mode.GAME_END
    d.key("Q")
    assert isinstance(d.controller, TitleScreen), "no QUIT THIS GAME? once the game is over"
    assert d.controller.ctx.store.player("PLAYER").games == 1, "the finished game counted once"
