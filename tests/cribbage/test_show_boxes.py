"""The boxes of the show on the real game screen: the count said aloud as it is drawn
(EGA and CGA's 200 lines), "it will stay on the screen for 5 seconds" and PAUSE, and
LAST COUNT, the port's way to see the last show again after its boxes have gone
(docs/choices.md, "Cribbage")."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from port.cards import parse, text
from port.cribbage.main import layout as L
from port.cribbage.main.table import BOX_FRAMES, Box, CribTable
from port.cribbage.rules import Phase
from port.main.driver import Driver
from port.screen.profiles import LIGHTGRAY
from tests.cribbage.helpers import click_at, open_cribbage
from tests.cribbage.seen import deal, lay_away, play_hinted, shows_box, shows_line

DOC_HAND = "8S 7H 7D 6C KH QD"          # the documentation's 8,7,7,6 (and 2 the starter)
HAND_29 = "5S 5H 5D JC KH QD"
COMPUTERS = "AC 3C 4H 9D TS QS"


def play_on(d: Driver, t: CribTable, done: Callable[[], bool], away: str = "KH QD",
            limit: int = 20000) -> None:
    """Play until ``done``: these two cards laid away when you hold them (else the
    hint's), the hint's card played, every box cleared by a key."""
    for _ in range(limit):
        if done():
            return
        if t.box is not None:
            d.key("SPACE")
        elif t.your_turn_to_lay_away():
            if not set(parse(away)) <= set(t.hand.hands[L.HUMAN]):
                d.key("H")
                away = text(t.hint)
            lay_away(d, t, away)
        elif t.your_turn_to_play():
            play_hinted(d, t)
        else:
            d.step()
    raise AssertionError("it did not come")


def until_box(d: Driver, t: CribTable, want: Callable[[Box], bool]) -> Box:
    """Play on until a box ``want`` is up (every other box cleared by a key)."""
    play_on(d, t, lambda: t.box is not None and want(t.box))
    assert t.box is not None
    return t.box


def your_hand(box: Box) -> bool:
    return box.show is not None and box.show.seat == L.HUMAN and box.show.what == "hand"


def test_the_show_box_says_the_documentations_example_aloud(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True, noanimation=True)
    t = d.controller.table
    deal(t, DOC_HAND, COMPUTERS, "2S")
    box = until_box(d, t, your_hand)
    assert box.lines[-2:] == ["AND A DOUBLE RUN OF THREE IS 16.  6C 7H 7D 8S", "TOTAL 16."]
    assert [line.split()[:2] for line in box.lines[:4]] == [["FIFTEEN", f"{n}{',' if n < 8 else ''}"]
                                                            for n in (2, 4, 6, 8)]
    assert shows_box(d, box)


def test_the_29_hand_is_said_in_the_box_on_cgas_200_lines(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True, noanimation=True, profile="CGA")
    t = d.controller.table
    deal(t, HAND_29, "AC 2C 3H 4D 6S 7S", "5C")
    box = until_box(d, t, your_hand)
    said = " ".join(box.lines[:-1])
    assert said.startswith("FIFTEEN 2, FIFTEEN 4,") and said.endswith(
        "FIFTEEN 16, FOUR OF A KIND IS 28 AND HIS NOBS IS 29.")
    assert box.lines[-1] == "TOTAL 29."
    assert d.screen.profile.height == 200 and shows_box(d, box)


def test_a_show_box_goes_after_5_seconds_and_pause_keeps_it(tmp_path: Path) -> None:
    """"it will stay on the screen for 5 seconds"; PAUSE: "the dialogue boxes not to
    dissappear after the 5 second wait so that you can look at the point counting"."""
    for pause in (False, True):
        d = open_cribbage(tmp_path, go=True, noanimation=True, pause=pause)
        t = d.controller.table
        deal(t, DOC_HAND, COMPUTERS, "2S")
        box = until_box(d, t, lambda b: b.show is not None)
        d.step(BOX_FRAMES - 2)
        assert t.box is box and shows_box(d, box)
        d.step(2)
        if not pause:
            assert t.box is not box, "gone after 5 seconds"
            continue
        d.step(BOX_FRAMES * 3)
        assert t.box is box and shows_box(d, box)
        r = L.SHOW
        more = "PRESS A KEY OR BUTTON"
        assert shows_line(d, r.x + (r.w - d.screen.text_width(more)) // 2, r.y + r.h - 12, more, LIGHTGRAY)
        d.click("left", 320, 20)                  # any button clears it
        assert t.box is not box


# ---- LAST COUNT ---------------------------------------------------------------------------

def shows_last_count_box(d: Driver) -> bool:
    r = L.LAST_COUNT_BOX
    label = "LAST COUNT"
    return shows_line(d, r.x + (r.w - d.screen.text_width(label)) // 2, r.y + 6, "LAST ")


def note_shown(d: Driver, note: str) -> bool:
    r = L.SHOW
    return shows_line(d, r.x + (r.w - d.screen.text_width(note)) // 2, r.y + r.h - 12, note, LIGHTGRAY)


def test_last_count_brings_the_last_show_back_box_by_box_until_a_key(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True, noanimation=True)
    t = d.controller.table
    deal(t, DOC_HAND, COMPUTERS, "2S")
    d.key("SPACE")                                # who deals
    assert t.your_turn_to_lay_away()
    assert not t.last_count and not shows_last_count_box(d)
    d.key("C")                                    # nothing to bring back yet
    assert t.box is None
    shows: list[Box] = []

    def collect(box: Box) -> bool:
        if box.show is not None and all(box is not b for b in shows):
            shows.append(box)
        return box.title.startswith("AFTER HAND")

    until_box(d, t, collect)
    dealer = t.hand.dealer
    assert [(b.show.seat, b.show.what) for b in shows] == [(1 - dealer, "hand"), (dealer, "hand"),
                                                           (dealer, "crib")]
    d.key("SPACE")
    play_on(d, t, t.your_turn_to_lay_away)        # the next deal: your cards again
    assert shows_last_count_box(d)
    before = (list(t.front), len(t.hand.events), list(t.hand.hands[L.HUMAN]))
    d.key("C")
    for i, box in enumerate(shows, 1):
        assert t.box is box
        d.step(BOX_FRAMES * 2)                    # no 5-second limit: you asked for it
        assert t.box is box and shows_box(d, box)
        assert note_shown(d, f"LAST COUNT {i} OF 3: PRESS A KEY")
        assert (list(t.front), len(t.hand.events), list(t.hand.hands[L.HUMAN])) == before
        d.key("SPACE")
    assert t.box is None and t.your_turn_to_lay_away()
    click_at(d, L.LAST_COUNT_BOX)                 # by the mouse: the red box
    assert t.box is shows[0]
    for _ in shows:
        d.click("right", 320, 20)
    assert t.box is None


def test_last_count_holds_the_computers_move_and_shows_the_winning_count(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True, noanimation=True, score_limit=61)
    t = d.controller.table
    deal(t, DOC_HAND, COMPUTERS, "2S")
    until_box(d, t, lambda b: b.title.startswith("AFTER HAND"))
    d.key("SPACE")
    # In the next play, the moment the computer is to move, LAST COUNT holds it.
    play_on(d, t, lambda: t.hand.phase is Phase.PLAY and t.hand.to_act == L.COMPUTER and not t.beats)
    seen = len(t.hand.events)
    d.key("C")
    d.step(BOX_FRAMES)
    assert len(t.hand.events) == seen, "the computer waits while you look back"
    for _ in range(3):
        d.key("SPACE")
    d.step(30)
    assert len(t.hand.events) > seen, "and moves once the boxes are cleared"
    # The game played out from near its end: LAST COUNT still brings back the last show.
    t.hand.board[:] = [55, 55]
    t.front[:] = [55, 55]
    play_on(d, t, lambda: t.over)
    assert t.last_count and shows_last_count_box(d)
    d.key("C")
    assert t.box is t.last_count[0] and shows_box(d, t.box)
    for _ in t.last_count:
        d.key("SPACE")
    assert t.box is None and t.over
    you, cpu = t.front
    end = f"PLAYER {you}, COMPUTER {cpu}."      # the game's end is back
    r = L.SHOW
    assert shows_line(d, r.x + (r.w - d.screen.text_width(end)) // 2, r.y + 70, end)


# ---- the scores box: it offers commands, so it waits for you ------------------------------

def test_the_scores_box_offers_last_count_from_hand_1_and_waits_for_a_key(tmp_path: Path) -> None:
    """From the first hand's scores box on, C (or a click on LAST COUNT) shows the show
    just counted, and the box comes back after it; the box offers LAST COUNT, REVIEW and
    SAVE RECORD, so it stays until a key, also after a look at REVIEW (docs/choices.md)."""
    from port.main.reviewscreen import ReviewScreen
    from tests.cribbage.test_records import records_in

    d = open_cribbage(tmp_path, go=True, noanimation=True)
    t = d.controller.table
    shows: list[Box] = []

    def collect(box: Box) -> bool:
        if box.show is not None and all(box is not b for b in shows):
            shows.append(box)
        return box.title.startswith("AFTER HAND")

    scores = until_box(d, t, collect)
    d.step()
    assert scores.title == "AFTER HAND 1" and len(shows) == 3
    assert shows_last_count_box(d), "offered in the first hand's scores box"
    r = L.INFO
    more = "PRESS A KEY OR BUTTON"
    d.step(BOX_FRAMES * 2)
    assert t.box is scores and shows_box(d, scores), "no 5 seconds: it offers commands"
    assert shows_line(d, r.x + (r.w - d.screen.text_width(more)) // 2, r.y + r.h - 12, more, LIGHTGRAY)
    d.key("C")
    for i, box in enumerate(shows, 1):
        assert t.box is box and shows_box(d, box) and note_shown(d, f"LAST COUNT {i} OF 3: PRESS A KEY")
        d.key("SPACE")
    assert t.box is scores and shows_box(d, scores), "the scores box is back after the counts"
    click_at(d, L.LAST_COUNT_BOX)                 # by the mouse
    assert t.box is shows[0]
    for _ in shows:
        d.click("right", 320, 20)
    assert t.box is scores
    d.key("V")                                    # REVIEW, then BACK, then SAVE RECORD
    assert isinstance(d.controller, ReviewScreen)
    d.step(40)
    d.key("B")
    d.step(BOX_FRAMES * 2)
    assert t.box is scores and shows_box(d, scores), "still there after REVIEW"
    d.key("R")
    assert records_in(tmp_path) == ["CR0001.REC"] and t.box is scores
    d.key("SPACE")                                # a key closes it: the next deal
    assert t.box is not scores and not t.can_save
