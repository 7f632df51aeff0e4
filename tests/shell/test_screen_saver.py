"""The screen saver, through the driver: timing from the score limit, the boss
corner and ESC, waking without acting, and NOBLANK."""
from __future__ import annotations

import pytest

from port.mouse import Key, Press
from port.screen import Saver


def got(driver, kind):
    return [e for _, e in driver.loop.delivered if isinstance(e, kind)]


def all_black(driver) -> bool:
    return set(driver.snapshot()) == {0}


@pytest.mark.parametrize("limit, seconds", [(100, 200), (600, 1200), (30, 60), (0, 60), (500, 1000)])
def test_wait_is_two_seconds_a_point_and_at_least_a_minute(limit, seconds):
    """"a limit of 100 will blank the screen in 200 seconds ... The minimum time is one minute." """
    assert Saver(fps=30, score_limit=limit).timeout_frames == seconds * 30


def test_screen_blanks_after_the_wait_without_input(start):
    d = start()
    d.screen.saver.score_limit = 0          # the one-minute minimum: 1800 frames
    d.step(1799)
    assert not d.screen.saver.blank and not all_black(d)
    d.step()
    assert d.screen.saver.blank and all_black(d)


def test_input_restarts_the_wait(start):
    d = start()
    d.screen.saver.score_limit = 0
    d.screen.saver.fps = 3                  # a one-minute wait of 180 frames, to be quick
    d.step(170)
    d.move(10, 10)                          # a pointer move is mouse input
    d.step(170)
    assert not d.screen.saver.blank
    d.step(11)                              # 180 frames after the move
    assert d.screen.saver.blank


def test_any_key_brings_it_back_and_is_not_acted_on(start):
    d = start()
    d.key("ESC")                            # "In keyboard mode, the ESCAPE key is the activation key."
    assert d.screen.saver.blank and all_black(d) and got(d, Key) == []
    d.move(300, 300)
    d.step(3)
    assert d.screen.saver.blank             # moving does not wake it
    d.key("q")                              # would quit the test screen if acted on
    assert not d.screen.saver.blank and d.controller is not None and got(d, Key) == []
    assert not all_black(d)
    d.key("p")
    assert got(d, Key) == [Key(ord("p"), 0x19)]


def test_pointer_in_the_upper_right_corner_blanks_at_once(start):
    d = start(profile="HERC")
    d.move(639, 0)
    d.step()
    assert d.screen.saver.blank
    d.click("left", 639, 0)                 # wakes; the press is not acted on
    assert not d.screen.saver.blank and got(d, Press) == []
    d.step(5)
    assert not d.screen.saver.blank         # staying in the corner does not blank again


def test_noblank_disables_the_saver_and_the_boss_key(start):
    d = start(noblank=True)
    d.screen.saver.score_limit = 0
    d.screen.saver.fps = 3                  # a one-minute wait of 180 frames, to be quick
    d.key("ESC")
    d.move(639, 0)
    d.step(200)
    assert not d.screen.saver.blank and got(d, Key) == [Key(27, 1)]
