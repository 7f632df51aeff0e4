"""Cribbage's game screen through the headless driver: whole games by keyboard only and
by mouse only, the statistics rules, hints, PAUSE, NOANIMATION, quitting, the saver."""
from __future__ import annotations

from pathlib import Path

import pyxel

from port.cards import PascalRandom
from port.cribbage.main import layout as L
from port.cribbage.main.menus import CribTitle
from port.cribbage.main.play import CribPlay
from port.cribbage.main.table import BOX_FRAMES
from port.cribbage.rules import GameState, Options, Phase
from port.cribbage import files as cf
from port.screen.profiles import YELLOW
from tests.cribbage.helpers import (box_up, card_index, click_at, in_game, open_cribbage,
                                    pixels_in, until_yours)


def keyboard_game(d, t) -> None:
    """Play to the end by keys alone: digits, Enter, Space for the boxes; the hint's
    choices (asked with H)."""
    for _ in range(400):
        until_yours(d, t, dismiss=lambda: d.key("SPACE"))
        if t.over:
            return
        d.key("H")
        hint = t.hint
        assert hint, "a hint is given when there is a move"
        if t.hand.phase is Phase.DISCARD:
            for c in hint:
                d.key(str(card_index(t, c) + 1))
            d.key("ENTER")
        else:
            d.key(str(card_index(t, hint[0]) + 1))
    raise AssertionError("the game did not end")


def mouse_game(d, t) -> None:
    """Play to the end by the mouse alone: the middle button for the hint, clicks on
    the hinted cards and on LAY AWAY, any click for the boxes."""
    for _ in range(400):
        until_yours(d, t, dismiss=lambda: d.click("left", 320, 20))
        if t.over:
            return
        d.click("middle", 600, 200)
        hint = t.hint
        assert hint
        if t.hand.phase is Phase.DISCARD:
            for c in hint:
                click_at(d, L.card_rect(card_index(t, c), raised=False))
            click_at(d, L.LAY_AWAY_BOX)
        else:
            click_at(d, L.card_rect(card_index(t, hint[0])))
    raise AssertionError("the game did not end")


def stats(tmp_path: Path, name: str = "PLAYER") -> cf.CribStats:
    return cf.CribStore.open(tmp_path).player(name)


def test_a_whole_game_to_61_by_keyboard_only(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, name="Keys")
    play = in_game(d)
    t = play.table
    keyboard_game(d, t)
    assert t.over and max(t.front) == 61 and t.game.winner is not None
    p = stats(tmp_path, "Keys")
    assert p.won + p.lost == (2 if t.game.skunk else 1)
    assert (p.hands, p.hand_points, p.cribs, p.crib_points) == (
        t.hands_counted, t.hand_points, t.cribs_counted, t.crib_points)
    assert p.hands >= 1
    d.key("M")                                   # MAIN MENU
    assert isinstance(d.controller, CribTitle)


def test_a_whole_game_to_61_by_mouse_only_with_nokeyboard(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, name="Mouse", nokeyboard=True, seed=11)
    click_at(d, (240, 130, 160, 20))             # BEGIN GAME
    play = d.controller
    assert isinstance(play, CribPlay)
    t = play.table
    until_yours(d, t, dismiss=lambda: d.click("left", 320, 20))
    before = list(t.hand.hands[L.HUMAN])
    d.key("1")                                   # NOKEYBOARD: keys do nothing
    assert t.selected == [] and t.hand.hands[L.HUMAN] == before
    mouse_game(d, t)
    assert t.over and max(t.front) == 61
    p = stats(tmp_path, "Mouse")
    assert p.won + p.lost >= 1
    click_at(d, L.AGAIN_BOX)                     # PLAY AGAIN
    assert isinstance(d.controller, CribPlay) and d.controller is not play


def test_quitting_before_the_end_does_not_update_the_statistics(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61)
    t = in_game(d).table
    keyboard_moves = 0
    while t.game.hands_dealt < 2 and keyboard_moves < 200:   # play a whole hand first
        until_yours(d, t, dismiss=lambda: d.key("SPACE"))
        d.key("H")
        if t.hand.phase is Phase.DISCARD:
            for c in t.hint:
                d.key(str(card_index(t, c) + 1))
            d.key("ENTER")
        else:
            d.key(str(card_index(t, t.hint[0]) + 1))
        keyboard_moves += 1
    until_yours(d, t, dismiss=lambda: d.key("SPACE"))
    d.key("Q")
    assert d.controller.quit_asked
    d.key("N")                                   # no: play on
    assert isinstance(d.controller, CribPlay) and not d.controller.quit_asked
    click_at(d, L.QUIT_BOX)
    click_at(d, L.YES_BOX)
    assert isinstance(d.controller, CribTitle)
    assert not (tmp_path / "CRIBBAGE.STA").exists()


def finish_quickly(d, t, you: int, computer: int) -> None:
    """Put the pegs where a game nearly over has them, then play it out by keys."""
    t.hand.board[:] = [you, computer]
    t.front[:] = [you, computer]
    keyboard_game(d, t)


def test_a_skunk_counts_two_in_the_statistics(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61, name="Skunked")
    d.key("O")
    d.key("K")                                   # SKUNKING YES
    d.key("M")
    t = in_game(d).table
    assert t.options.skunking
    finish_quickly(d, t, 0, 60)                  # the computer pegs out, you short of 31
    assert t.game.winner == L.COMPUTER and t.game.skunk
    p = stats(tmp_path, "Skunked")
    assert (p.won, p.lost) == (0, 2)


def test_a_name_of_the_list_is_updated_in_place_through_the_program(tmp_path: Path) -> None:
    store = cf.CribStore.open(tmp_path)
    for name in ("Carol", "Bob", "Ann"):
        store.record_game(cf.CribGame(name, True, False, 1, 5, 0, 0))
    d = open_cribbage(tmp_path, score_limit=61, name="Carol")
    t = in_game(d).table
    finish_quickly(d, t, 60, 0)                  # your first point wins
    again = cf.CribStore.open(tmp_path)
    assert again.players() == ["Ann", "Bob", "Carol"]
    assert again.player("Ann").won == 1 and again.player("Carol").games == 2


def test_information_boxes_last_5_seconds_or_a_key_and_pause_keeps_them(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True)
    t = d.controller.table
    assert box_up(t) and t.beat.box.title == "NEW GAME"      # who deals, first
    d.step(BOX_FRAMES - 5)
    assert box_up(t)
    d.step(10)
    assert not box_up(t)
    d = open_cribbage(tmp_path, go=True, pause=True)
    t = d.controller.table
    d.step(BOX_FRAMES * 3)
    assert box_up(t) and t.beat.box.title == "NEW GAME"
    d.click("right", 320, 300)                   # any button clears it
    assert not box_up(t)


def test_the_pointer_is_moved_out_of_the_way_of_who_deals(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path)
    d.move(320, 175)
    d.key("B")
    d.step()
    assert not L.INFO.contains(d.mouse.x, d.mouse.y)


def test_cards_fly_unless_noanimation(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True)
    t = d.controller.table
    d.key("SPACE")
    d.step(4)
    assert t.flying(), "the deal moves the cards"
    d = open_cribbage(tmp_path, go=True, noanimation=True)
    t = d.controller.table
    for _ in range(300):
        assert not t.flying() and all(not b.flights for b in t.beats)
        d.step()


def test_hint_bars_by_h_middle_button_and_both_buttons_away_from_a_choice(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True)
    t = d.controller.table
    until_yours(d, t, dismiss=lambda: d.key("SPACE"))
    while t.beats:                               # the cards have landed
        d.step()
    assert t.your_turn_to_lay_away()

    def yellow_bars() -> int:
        d.step()
        return sum(pixels_in(d, x, L.HAND_Y - 8, L.CARD_W, 5, YELLOW) > L.CARD_W
                   for x in (L.HAND_X + i * L.HAND_STEP for i in range(6)))

    assert yellow_bars() == 0
    d.key("H")
    assert yellow_bars() == 2 and len(t.hint) == 2
    t.hint = None
    click_at(d, L.card_rect(0), "middle")
    assert yellow_bars() == 2 and t.selected == []   # the centre button works ANYWHERE
    t.hint = None
    click_at(d, L.HINT_BOX)
    assert yellow_bars() == 2
    t.hint = None

    def both_buttons(x: int, y: int) -> None:
        d.move(x, y)
        pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, True)
        pyxel.set_btn(pyxel.MOUSE_BUTTON_RIGHT, True)
        d.step()
        pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, False)
        pyxel.set_btn(pyxel.MOUSE_BUTTON_RIGHT, False)
        d.step(2)

    both_buttons(600, 200)                       # away from a choice area: a hint
    assert t.hint is not None and len(t.hint) == 2
    t.hint = None
    both_buttons(*L.card_rect(0)[:2])            # over a choice area: no hint
    assert t.hint is None


def test_heels_is_announced_when_the_starter_is_a_jack(tmp_path: Path) -> None:
    seed = next(s for s in range(500)
                if GameState.new(Options(121), PascalRandom(s)).hand.stock[-1].rank == 10)
    d = open_cribbage(tmp_path, go=True, seed=seed)
    t = d.controller.table
    until_yours(d, t, dismiss=lambda: d.key("SPACE"))
    d.key("1")
    d.key("2")
    d.key("ENTER")
    titles = []
    for _ in range(200):
        if box_up(t):
            titles.append(t.beat.box.title)
            d.key("SPACE")
        d.step()
    assert "HIS HEELS" in titles
    assert t.front[t.hand.dealer] >= 2


def test_the_saver_waits_5_minutes_for_61_and_10_for_121(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, score_limit=61)
    assert d.screen.saver.timeout_frames == 5 * 60 * 30
    d.key("O")
    d.key("+")
    assert d.screen.saver.timeout_frames == 10 * 60 * 30
    d.key("M")
    in_game(d)
    d.key("ESC")                                 # the boss key blanks at once
    assert d.screen.saver.blank
    d.key("SPACE")                               # any key comes back
    assert not d.screen.saver.blank


def test_the_expert_level_plays_when_chosen(tmp_path: Path) -> None:
    cf.CribStore.open(tmp_path).save_config(cf.CribConfig(level="EXPERT", score_limit=61))
    d = open_cribbage(tmp_path, go=True)
    t = d.controller.table
    assert type(t.computer).__name__ == "Expert"
    until_yours(d, t, dismiss=lambda: d.key("SPACE"))
    for _ in range(200):                         # the deal lands, then it lays away
        if t.hand.discarded(L.COMPUTER):
            break
        d.step()
    assert t.hand.discarded(L.COMPUTER) and len(t.hand.hands[L.COMPUTER]) == 4


def test_every_kind_of_box_comes_in_a_game(tmp_path: Path) -> None:
    """Who deals, GO, what a card pegs, the three counts of the show, the scores after
    each hand; and each box is cleared by any key."""
    d = open_cribbage(tmp_path, score_limit=121, seed=2)
    t = in_game(d).table
    titles: list[str] = []

    def clear() -> None:
        titles.append(t.beat.box.title)
        d.key("SPACE")

    for _ in range(400):
        until_yours(d, t, dismiss=clear)
        if t.over or t.game.hands_dealt > 3:
            break
        d.key("H")
        if t.hand.phase is Phase.DISCARD:
            for c in t.hint:
                d.key(str(card_index(t, c) + 1))
            d.key("ENTER")
        else:
            d.key(str(card_index(t, t.hint[0]) + 1))
    assert titles[0] == "NEW GAME"
    assert "GO" in titles and any(x.endswith(("PEGS 1", "PEGS 2")) for x in titles)
    for whose in ("YOUR HAND", "THE COMPUTER'S HAND", "CRIB"):
        assert any(whose in x for x in titles), whose
    assert "AFTER HAND 1" in titles and "AFTER HAND 2" in titles
    assert any("(NON-DEALER)" in x for x in titles) and any("(DEALER)" in x for x in titles)


def test_laying_away_needs_two_cards_and_a_third_is_refused(tmp_path: Path) -> None:
    d = open_cribbage(tmp_path, go=True)
    t = d.controller.table
    until_yours(d, t, dismiss=lambda: d.key("SPACE"))
    d.key("ENTER")
    assert "two cards" in t.message and t.hand.phase is Phase.DISCARD
    d.key("1")
    d.key("2")
    d.key("3")
    assert len(t.selected) == 2 and "take one back" in t.message
    d.key("2")                                   # put one back
    assert t.selected == [t.hand.hands[L.HUMAN][0]]
    click_at(d, L.card_rect(5))                  # pick by click
    first, sixth = t.hand.hands[L.HUMAN][0], t.hand.hands[L.HUMAN][5]
    click_at(d, L.LAY_AWAY_BOX)
    assert t.hand.discarded(L.HUMAN) and set(t.hand.cribs[L.HUMAN]) == {first, sixth}
    assert len(t.hand.hands[L.HUMAN]) == 4


def test_a_card_past_31_is_refused_with_a_message(tmp_path: Path) -> None:
    for seed in range(1, 40):
        d = open_cribbage(tmp_path, score_limit=61, seed=seed, noanimation=True)
        t = in_game(d).table
        for _ in range(200):
            until_yours(d, t, dismiss=lambda: d.key("SPACE"))
            if t.over:
                break
            if t.hand.phase is Phase.PLAY:
                legal = t.hand.legal_plays(L.HUMAN)
                over = [c for c in t.hand.hands[L.HUMAN] if c not in legal]
                if over:
                    before = list(t.hand.hands[L.HUMAN])
                    d.key(str(card_index(t, over[0]) + 1))
                    assert "past 31" in t.message and t.hand.hands[L.HUMAN] == before
                    return
            d.key("H")
            if t.hand.phase is Phase.DISCARD:
                for c in t.hint:
                    d.key(str(card_index(t, c) + 1))
                d.key("ENTER")
            else:
                d.key(str(card_index(t, t.hint[0]) + 1))
    raise AssertionError("no game held a card past 31")
