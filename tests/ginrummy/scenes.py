"""Every screen of the Main unit in a fixed state, for the stored reference images
(tests/ginrummy/reference/*.png; remade by scripts/make_main_references.py)."""
from __future__ import annotations

import datetime
import tempfile
from collections.abc import Callable
from pathlib import Path

from port.ginrummy import files
from port.ginrummy.main import play
from port.main.driver import Driver
from port.screen import png
from port.cards import parse
from tests.ginrummy.helpers import center, click_at, open_game, set_hand, to_play
from tests.ginrummy.test_rules import deck_for

ME = "AS 2S 3S 4H 5H 6H 7D 7C 7S 2D"
CPU = "KS QD JC 9H 8C 6S 5D 3C TD 4C"


def _with_records(path: Path) -> None:
    store = files.Store.open(path)
    for name, score, hands, ok in (("Dave", 130, 5, False), ("Ron-Hill", 104, 8, True), ("PLAYER", 101, 6, False)):
        store.record_game(files.GameRecord(name, score, 40, hands, 100, ok, files.Result.WON,
                                           datetime.date(1993, 4, 1)))


def title(d: Driver) -> None:
    pass


def options(d: Driver) -> None:
    d.key("O")


def statistics(d: Driver) -> None:
    d.key("S")


def high_scores(d: Driver) -> None:
    d.key("H")


def players(d: Driver) -> None:
    d.key("O")
    d.click("left", 500, 26)


def rules(d: Driver) -> None:
    d.key("O")
    d.key("T")
    d.key("A")                        # ARRANGE HAND: YES


def rules_card_room(d: Driver) -> None:
    d.key("O")
    d.key("T")
    d.key("C")                        # the CARD ROOM preset
    d.key("B")                        # then a box bonus of 10: a mix of our own


def arranged(d: Driver) -> None:
    d.controller.ctx.config = d.controller.ctx.config.with_(arrange=True)
    set_hand(d, ME, CPU, "KD", "8D")
    d.key("S")                        # by suit, then a set's 7S moved away: its bar splits
    d.key("A")
    d.key("7")
    d.key("0")
    d.key("2")                        # a card picked, waiting for its place


# ---- the table rules (issue 12) ----------------------------------------------------------

GIN_ME = "6H 7H 8H 2C 3C 4C 9S 9D 9C KD"        # draws 9H: gin, throwing KD
GIN_CPU = "KS QD JC 5S 8C 6S 5D 3D TD 4S"       # deadwood 56


def with_rules(d: Driver, **rules: object) -> None:
    d.controller.ctx.config = d.controller.ctx.config.with_(**rules)


def gin_hand(d: Driver) -> None:
    """You draw 9H and go gin (81 points), then the hand's end is left."""
    set_hand(d, GIN_ME, GIN_CPU, "QH", "9H")
    d.key("D")
    d.key("0")
    d.key("RETURN")


def upcard_offer(d: Driver) -> None:
    with_rules(d, upcard_offer=True)
    s = set_hand(d, ME, CPU, "KD", "8D")
    s.table.redeal(deck_for(CPU, ME, "KD", "8D"), first=1)    # the computer is asked first
    for _ in range(40):
        d.step()                                                # it declines; your turn
    d.key("H")


def knock_deck_table(d: Driver) -> None:
    d.key("O")
    d.key("T")
    d.key("C")                        # CARD ROOM: knock deck, boxes, spades doubler, deal 11
    d.key("RETURN")
    d.key("M")
    s = to_play(d)                    # the deal of 11: 9C is your eleventh card
    s.table.redeal(deck_for(ME, CPU, "9C"), knock_card=parse("7S")[0])


def score_sheet(d: Driver) -> None:
    with_rules(d, scoring="BOXES", shutout=True, score_limit=50)
    gin_hand(d)


def score_sheet_hollywood(d: Driver) -> None:
    with_rules(d, scoring="HOLLYWOOD", score_limit=50)
    for _ in range(3):
        gin_hand(d)


def table(d: Driver) -> None:
    set_hand(d, ME, CPU, "KD", "8D")


def drawn_with_hint(d: Driver) -> None:
    set_hand(d, "KH QC JD 9S 8H 6C 5C 3H TC 4D", CPU, "KD", "8D")
    d.key("D")
    d.key("H")


def knock_prompt(d: Driver) -> None:
    set_hand(d, ME, CPU, "KD", "8D")
    d.key("D")
    d.key("D")


def hand_end(d: Driver) -> None:
    set_hand(d, "6H 7H 8H 2C 3C 4C 9S 9D 9C 5D", "5H 4H KS KD QC JC TC 2D 3S 9H", "KH", "QS")
    d.key("D")
    d.key("D")
    d.key("Y")


def game_end(d: Driver) -> None:
    hand_end(d)
    d.key("RETURN")


def quit_question(d: Driver) -> None:
    table(d)
    d.key("Q")


def oklahoma_spade(d: Driver) -> None:
    d.controller.ctx.config = d.controller.ctx.config.with_(oklahoma=True, big_cards=True)
    set_hand(d, ME, CPU, "5S", "8D")


SCENES: dict[str, tuple[Callable[[Driver], None], dict[str, object]]] = {
    "title": (title, {}),
    "options": (options, {}),
    "statistics": (statistics, {"name": "Dave"}),
    "high_scores": (high_scores, {}),
    "players": (players, {}),
    "rules": (rules, {}),
    "rules_card_room": (rules_card_room, {}),
    "arranged": (arranged, {}),
    "upcard_offer": (upcard_offer, {}),
    "knock_deck_table": (knock_deck_table, {}),
    "score_sheet": (score_sheet, {}),
    "score_sheet_hollywood": (score_sheet_hollywood, {}),
    "table": (table, {}),
    "drawn_with_hint": (drawn_with_hint, {}),
    "knock_prompt": (knock_prompt, {}),
    "hand_end": (hand_end, {}),
    "game_end": (game_end, {"score_limit": 0}),
    "quit_question": (quit_question, {}),
    "oklahoma_spade_big_cards": (oklahoma_spade, {}),
    # The layout is defined once in 640x350 and adapts: the squeezed CGA, the wide Hercules.
    "cga_drawn_with_hint": (drawn_with_hint, {"profile": "CGA"}),
    "cga_hand_end": (hand_end, {"profile": "CGA"}),
    "cga_high_scores": (high_scores, {"profile": "CGA"}),
    "herc_knock_prompt": (knock_prompt, {"profile": "HERC"}),
    "att400_title": (title, {"profile": "ATT400"}),
}


def scene_image(name: str) -> png.Indexed:
    """Play a scene from a fresh start in a fresh directory and return the screen (a
    room game's scenes too: ``room_scenes.ROOM_SCENES``, compared by test_room_game.py)."""
    if name in SCENES:
        act, fields = SCENES[name]
    else:
        from tests.ginrummy.room_scenes import ROOM_SCENES
        act, fields = ROOM_SCENES[name]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp)
        _with_records(path)
        d = open_game(path, **fields)
        d.move(630, 340)                  # the pointer parked out of the way
        d.step()
        act(d)
        d.step()
        p = d.screen.profile
        return png.Indexed(p.width, p.height, d.snapshot(), p.palette)


__all__ = ["SCENES", "scene_image", "center", "click_at", "play"]
