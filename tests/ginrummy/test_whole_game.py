"""Whole games played to their end through the real program: one by keyboard only,
one by mouse only. The hint tells the script what to play (as a lazy player would)."""
from __future__ import annotations

from pathlib import Path

from port.ginrummy import files
from port.ginrummy.main import menus, play
from port.ginrummy.main.table import Mode
from port.ginrummy.rules.players import KnockChoice
from tests.ginrummy.helpers import center, open_game, position_of

MAX_FRAMES = 40_000


def keyboard_turn(d, s) -> None:
    t = s.table
    if t.mode is Mode.HUMAN_DRAW:
        d.key("H")
        d.key("P" if t.hint_target == "pile" else "D")
    elif t.mode is Mode.HUMAN_DISCARD:
        d.key("H")
        target = t.hint_target
        d.key("D" if target == t.drawn else "1234567890"[position_of(s, target)])
    elif t.mode is Mode.KNOCK_PROMPT:
        d.key("H")
        d.key({KnockChoice.KNOCK: "Y", KnockChoice.PLAY_ON: "N"}.get(t.hint_target, "P"))
    elif t.mode is Mode.HAND_END:
        d.key("RETURN")
    else:
        d.step()


def mouse_turn(d, s) -> None:
    t = s.table
    click = lambda rect: d.click("left", *center(rect))  # noqa: E731
    if t.mode is Mode.HUMAN_DRAW:
        d.click("middle", 600, 250)
        click(play.PILE_RECT if t.hint_target == "pile" else play.DECK_RECT)
    elif t.mode is Mode.HUMAN_DISCARD:
        d.click("middle", 600, 250)
        target = t.hint_target
        click(play.PILE_RECT if target == t.drawn else play.card_rect(position_of(s, target)))
    elif t.mode is Mode.KNOCK_PROMPT:
        d.click("middle", 600, 250)
        click({KnockChoice.KNOCK: play.KNOCK_RECT, KnockChoice.PLAY_ON: play.PILE_RECT}
              .get(t.hint_target, play.GIN_BOX))
    elif t.mode is Mode.HAND_END:
        click(play.CONTINUE_BOX)
    else:
        d.step()


def progress(s: play.PlayScreen) -> tuple[object, ...]:
    t = s.table
    return (t.mode, t.game.hands_played, len(t.hand.events), len(t.hand.stock))


def play_whole_game(d, turn) -> play.PlayScreen:
    s = d.controller
    assert isinstance(s, play.PlayScreen)
    last, still = None, 0
    for _ in range(MAX_FRAMES):
        if s.table.mode is Mode.GAME_END:
            return s
        turn(d, s)
        now = progress(s)
        still = still + 1 if now == last else 0
        last = now
        if still > 300:   # the computer moves every 12 frames: nothing for 300 steps is stuck
            t = s.table
            raise AssertionError(f"the game is stuck: {now}, hint {t.hint_target}, drawn {t.drawn} "
                                 f"from pile {t.drawn_from_pile}, saver blank {d.screen.saver.blank}, "
                                 f"controller {type(d.controller).__name__}")
    raise AssertionError("the game did not end")


def test_a_whole_game_by_keyboard_only(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Keys", seed=1991)
    d.mouse.present = False               # no mouse: everything by keyboard
    d.key("B")
    s = play_whole_game(d, keyboard_turn)
    assert max(s.table.scores) >= 100 and s.table.game.hands_played >= 1
    d.key("M")
    assert isinstance(d.controller, menus.TitleScreen)
    stats = files.Store.open(tmp_path).player("Keys")
    assert stats.games == 1 and stats.hands == s.table.game.hands_played


def test_a_whole_game_by_mouse_only(headless_pyxel, tmp_path: Path) -> None:
    d = open_game(tmp_path, name="Mouse", seed=2004, nokeyboard=True)
    d.click("left", *center(d.controller.items[0][0]))   # BEGIN GAME
    s = play_whole_game(d, mouse_turn)
    d.click("left", *center(play.MENU_BOX))
    assert isinstance(d.controller, menus.TitleScreen)
    assert files.Store.open(tmp_path).player("Mouse").games == 1
    assert max(s.table.scores) >= 100
