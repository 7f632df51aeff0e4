"""The Mouse unit through the driver: key events as DOS saw them, chords, double
clicks, auto-repeat, text entry and NOKEYBOARD, on the real (headless) pyxel."""
from __future__ import annotations

import pytest

from port.mouse import LEFT, MIDDLE, RIGHT, Key, Move, Press, Release, key_event


def got(driver, kind=None):
    """The events the controller received (optionally of one kind)."""
    return [e for _, e in driver.loop.delivered if kind is None or isinstance(e, kind)]


@pytest.mark.parametrize("name, ascii_, scan", [
    ("b", ord("b"), 0x30), ("ENTER", 13, 0x1C), ("ESC", 27, 0x01), ("BACKSPACE", 8, 0x0E),
    ("1", ord("1"), 0x02), ("0", ord("0"), 0x0B), ("-", 45, 0x0C), ("KP_PLUS", 43, 0x4E),
    ("KP_MINUS", 45, 0x4A), ("F1", 0, 0x3B), ("F10", 0, 0x44), ("UP", 0, 0x48), ("LEFT", 0, 0x4B),
    ("RIGHT", 0, 0x4D), ("DOWN", 0, 0x50)])
def test_keys_arrive_with_ascii_and_scan_code(start, name, ascii_, scan):
    d = start(noblank=True)          # ESC is the boss key otherwise
    d.key(name)
    assert got(d, Key) == [Key(ascii_, scan)]
    assert got(d, Key)[0].extended == (ascii_ == 0)


def test_shift_gives_capitals_and_the_shifted_symbols(start):
    d = start()
    d.key("shift+b")
    d.key("shift+=")
    assert got(d, Key) == [Key(ord("B"), 0x30), Key(ord("+"), 0x0D)]
    assert got(d, Key)[0].char == "B" and key_event("b").char == "B"


def test_ctrl_letter_is_a_control_code(start):
    d = start()
    d.key("ctrl+c")
    assert got(d, Key) == [Key(3, 0x2E)]


def test_a_held_key_repeats_at_the_typematic_rate(start):
    d = start()
    d.down("DOWN")
    d.step(30)                       # 1 s: the first press, then repeats after 0.5 s
    d.up("DOWN")
    d.step()
    n = len(got(d, Key))
    assert 5 <= n <= 7, n            # 1 + about 10 a second for the last half second


def test_mouse_buttons_press_and_release_at_the_pointer(start):
    d = start()
    d.move(100, 200)
    d.press("left")
    d.release("left")
    d.click("right", 300, 40)
    d.click("middle")
    buttons = [e for e in got(d) if not isinstance(e, Move)]
    assert buttons == [Press(LEFT, 100, 200), Release(LEFT, 100, 200), Press(RIGHT, 300, 40),
                       Release(RIGHT, 300, 40), Press(MIDDLE, 300, 40), Release(MIDDLE, 300, 40)]


def test_chord_in_one_frame_is_only_the_middle_button(start, headless_pyxel):
    pyxel = headless_pyxel
    d = start()
    d.move(50, 60)
    pyxel.set_btn(pyxel.MOUSE_BUTTON_LEFT, True)
    pyxel.set_btn(pyxel.MOUSE_BUTTON_RIGHT, True)
    d.step()
    d.release("left")
    d.release("right")
    assert got(d, Press) == [Press(MIDDLE, 50, 60, chord=True)]


def test_second_button_while_first_is_held_makes_the_chord(start):
    """The first press was already acted on ("the game will usually think that you
    made a normal choice with a single button"); the second makes the hint chord."""
    d = start()
    d.move(50, 60)
    d.press("left")
    d.step(2)
    d.press("right")
    d.release("right")
    d.release("left")
    assert got(d, Press) == [Press(LEFT, 50, 60), Press(MIDDLE, 50, 60, chord=True)]


def test_double_click_is_two_presses_in_one_spot_within_13_frames(start):
    d = start()
    d.click("left", 200, 100)        # press on frame 1, release on frame 2
    d.step(11)
    d.click("left", 202, 101)        # press 13 frames later (0.43 s), same 8-pixel cell
    d.step(5)
    d.click("left", 202, 101)        # a third click starts afresh
    presses = got(d, Press)
    assert [p.double for p in presses] == [False, True, False]


def test_too_slow_or_elsewhere_is_not_a_double_click(start):
    d = start()
    d.click("left", 200, 100)
    d.step(12)                       # 14 frames between the presses (0.47 s): too slow
    d.click("left", 200, 100)
    d.click("left", 220, 100)        # quick, but in another cell
    d.click("right", 220, 100)       # quick, but another button
    assert [p.double for p in got(d, Press)] == [False, False, False, False]


def test_typed_text_during_name_entry_arrives_as_characters(start):
    d = start()
    d.mouse.text_entry = True
    d.type('Bob-1 ?"')
    d.key("BACKSPACE")
    d.key("ENTER")
    assert "".join(chr(k.ascii) for k in got(d, Key)) == 'Bob-1 ?"\b\r'


def test_nokeyboard_ignores_keys_except_while_typing_the_name(start):
    d = start(nokeyboard=True)
    d.key("b")
    d.key("ENTER")
    d.key("ESC")
    assert got(d, Key) == [] and not d.screen.saver.blank
    d.mouse.text_entry = True
    d.type("Al")
    d.key("ENTER")
    assert [k.ascii for k in got(d, Key)] == [ord("A"), ord("l"), 13]
    d.click("left", 10, 10)
    assert got(d, Press)             # the mouse still works


def test_without_a_mouse_buttons_are_not_reported(start):
    d = start()
    d.mouse.present = False
    d.click("left", 10, 10)
    d.key("b")
    assert got(d, Press) == [] and got(d, Key) == [Key(ord("b"), 0x30)]


def test_pointer_position_is_logical_on_every_profile(start):
    for name in ("HERC", "CGA", "ATT400"):
        d = start(profile=name)
        d.move(320, 175)
        d.step()
        assert (d.mouse.x, abs(d.mouse.y - 175) <= 1) == (320, True), name
