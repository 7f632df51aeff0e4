"""Cribbage's screens in a fixed state, for the stored reference images
(tests/cribbage/reference/*.png; remade by scripts/make_main_references.py --cribbage)."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from port.cribbage.rules import Phase
from port.cribbage import files as cf
from port.main.driver import Driver
from port.screen import png
from tests.cribbage.helpers import box_up, card_index, in_game, open_cribbage


def _records(path: Path) -> None:
    store = cf.CribStore.open(path)
    store.record_game(cf.CribGame("PLAYER", True, True, 9, 71, 5, 23))
    store.record_game(cf.CribGame("PLAYER", False, False, 7, 50, 3, 11))


def _move(d: Driver) -> None:
    t = d.controller.table
    d.key("H")
    if t.hand.phase is Phase.DISCARD:
        for c in t.hint:
            d.key(str(card_index(t, c) + 1))
        d.key("ENTER")
    else:
        d.key(str(card_index(t, t.hint[0]) + 1))


def _until(d: Driver, done: Callable[[], bool], moves: bool = True) -> None:
    t = d.controller.table
    for _ in range(3000):
        if done():
            return
        if box_up(t) and t.age > 2:
            d.key("SPACE")
        elif moves and (t.your_turn_to_lay_away() or t.your_turn_to_play()):
            _move(d)
        else:
            d.step()
    raise AssertionError("the scene did not come")


def board(d: Driver) -> None:
    """Mid-play of a 121 game with skunking on: the board, the count, your cards."""
    d.key("O")
    d.key("K")
    d.key("M")
    t = in_game(d).table
    _until(d, lambda: t.game.hands_dealt == 2 and t.hand.phase is Phase.PLAY and len(t.row) >= 2
           and t.your_turn_to_play() and not t.beats)


def show(d: Driver) -> None:
    """The first box of the show: the non-dealer's hand, counted."""
    t = in_game(d).table
    _until(d, lambda: box_up(t) and t.beat.box.show is not None and t.age > 2)


def crib(d: Driver) -> None:
    """The last box of the show: the dealer's crib, counted."""
    t = in_game(d).table
    _until(d, lambda: box_up(t) and t.beat.box.show is not None and t.beat.box.show.what == "crib"
           and t.age > 2)


def options(d: Driver) -> None:
    d.key("O")


def statistics(d: Driver) -> None:
    d.key("S")


SCENES: dict[str, tuple[Callable[[Driver], None], dict[str, object]]] = {
    "board": (board, {"seed": 3, "noanimation": True}),
    "show": (show, {"seed": 3, "noanimation": True}),
    "options": (options, {}),
    "statistics": (statistics, {}),
    "cga_board": (board, {"seed": 3, "noanimation": True, "profile": "CGA"}),
    "cga_show": (show, {"seed": 3, "noanimation": True, "profile": "CGA"}),
    "crib": (crib, {"seed": 3, "noanimation": True}),
    "cga_options": (options, {"profile": "CGA"}),
    "cga_statistics": (statistics, {"profile": "CGA"}),
}


def scene_image(name: str) -> png.Indexed:
    act, fields = SCENES[name]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp)
        _records(path)
        d = open_cribbage(path, **fields)
        d.move(630, 340)                  # the pointer parked out of the way
        d.step()
        act(d)
        d.step()
        p = d.screen.profile
        return png.Indexed(p.width, p.height, d.snapshot(), p.palette)


__all__ = ["SCENES", "scene_image"]
