"""Looking back on the screens (``port.main.roomlooks``), in the real program against a
real room whose store holds five finished games (tests/room/lookscenes.py): HISTORY,
TOP and PROFILE from the lobby's keys, each page's picture at EGA, CGA and HERC as data,
and a game of HISTORY opened in the replay viewer and in REVIEW and back again.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from port.ginrummy.main.replay import GinReplay
from port.main.reviewscreen import ReviewScreen
from port.main.roomlooks import HistoryPage, ProfilePage, TopPage
from port.main.roompages import LobbyPage
from port.screen import png
from tests.images import match_reference
from tests.room.lookscenes import SCENES, Room, images
from tests.room.scenes import log_in, program, until

REFERENCE = Path(__file__).parent / "reference"


@pytest.fixture(autouse=True)
def collected_here() -> Iterator[None]:
    """The old screens' pyxel images freed on pyxel's thread (as test_room_pages.py)."""
    gc.collect()
    yield
    gc.collect()


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Room, Path]]:
    folder = tmp_path_factory.mktemp("looks")
    r = Room(folder)
    try:
        yield r, folder
    finally:
        r.close()


@pytest.fixture(scope="module")
def look_images(headless_pyxel, room: tuple[Room, Path]) -> dict[str, png.Indexed]:
    return images(SCENES, *room)


@pytest.mark.parametrize("name", SCENES)
def test_a_looking_back_page_matches_its_reference_image(look_images: dict[str, png.Indexed], tmp_path: Path,
                                                          name: str) -> None:
    match_reference(look_images[name], REFERENCE / f"{name}.png", tmp_path, "python -m tests.room.lookscenes")


def test_a_game_of_history_opens_in_the_replay_viewer_and_review_and_comes_back(
        headless_pyxel, room: tuple[Room, Path], tmp_path: Path) -> None:
    d = program(room[0], tmp_path / "ann", "EGA")   # type: ignore[arg-type]
    log_in(d, "pw1")
    d.key("H")
    history = d.controller
    assert isinstance(history, HistoryPage)
    until(d, lambda: len(history.rows()) == 4, what="Ann's games")
    assert [g["number"] for g in history.rows()] == [5, 4 - 1, 2, 1]        # newest first; not Bob v Stan
    d.key("END")                                       # game 1: Ann v Bob, one hand of GinRummy
    d.key("R")
    until(d, lambda: isinstance(d.controller, GinReplay), what="the replay viewer")
    viewer = d.controller
    assert viewer.log.names == ("Ann", "Bob") and viewer.steps[-1].hand == 1   # type: ignore[attr-defined]
    d.key("END")
    d.key("Q")                                         # QUIT: back to HISTORY, as it was
    assert d.controller is history and history.at == 3
    d.key("V")
    until(d, lambda: isinstance(d.controller, ReviewScreen), what="REVIEW")
    review = d.controller
    until(d, lambda: review.rows is not None, what="EXPERT's look")   # type: ignore[attr-defined]
    assert any("decisions: EXPERT agrees with" in row for row in review.rows)   # type: ignore[attr-defined]
    assert review.title.upper().startswith("REVIEW: ANN'S DECISIONS")   # type: ignore[attr-defined]
    d.key("B")
    assert d.controller is history
    d.key("UP")
    d.key("UP")                                        # game 3: Cribbage's, greyed here
    d.key("R")
    assert d.controller is history and history.line == "Game 3 is Cribbage's: its program opens it."
    d.key("P")                                         # the opponent's page, and back to HISTORY
    prof = d.controller
    assert isinstance(prof, ProfilePage) and prof.name == "Cleo"
    until(d, lambda: prof.got() is not None, what="Cleo's profile")
    assert [g["number"] for g in prof.got()["last"]] == [5, 3]   # type: ignore[index]
    d.key("B")
    assert d.controller is history
    d.key("L")
    assert isinstance(d.controller, LobbyPage)
    d.key("T")
    top = d.controller
    assert isinstance(top, TopPage)
    until(d, lambda: len(top.rows()) == 5, what="the leaderboard")
    assert [p.get("name") for p in top.rows()] == ["Stan", None, "Ann", "Cleo", "Bob"]   # provisional apart
    d.key("N")
    assert top.line == "That is the last page."
    d.key("L")
    d.key("P")                                         # the lobby's pick (nobody else is in): Ann's own page
    own = d.controller
    assert isinstance(own, ProfilePage) and own.name == "Ann"
    until(d, lambda: own.got() is not None, what="Ann's profile")
    history_points = own.got()["games"]["ginrummy"]["history"]   # type: ignore[index]
    assert [(h["number"], h["after"]) for h in history_points] == [(5, "1655?"), (2, "1610?"), (1, "1662?")]
    own.session.close()
