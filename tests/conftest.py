"""Shared fixtures: one headless pyxel per test process.

pyxel.init can run only once per process, so the first test that needs pyxel
initialises it headless (at EGA's 640x350, with a huge fps so flip() does not wait)
and every later one reuses it: a Driver for another profile resizes the screen.
Tests run on the real pyxel, never a mock; a real window is tested in a subprocess
(tests/shell/test_window.py).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Property tests draw the same examples on every run and machine (the project's rule of
# determinism): a failure CI finds is one anyone can replay, never a passing flake.
settings.register_profile("port", derandomize=True)
settings.load_profile("port")


@pytest.fixture(scope="session")
def headless_pyxel():
    """pyxel, initialised headless once for the whole session."""
    from port.main import loop
    from port.main.launch import Launch

    loop.init_pyxel(Launch(headless=True))
    import pyxel

    return pyxel


@pytest.fixture
def start(headless_pyxel, tmp_path):
    """A factory of Drivers on the Screen/Mouse test screen (or a given controller):
    start(profile="HERC", nokeyboard=True, ...)."""
    from port.main.driver import Driver
    from port.main.launch import Launch
    from port.main.testscreen import TestScreen

    def make(controller=TestScreen, **fields):
        fields.setdefault("shots", tmp_path / "shots")
        return Driver.start(Launch(headless=True, **fields), controller)

    return make


@pytest.fixture
def screen_of(headless_pyxel):
    """A factory of Screens drawn off-screen: screen_of("CGA", laptop=True)."""
    from port.screen import Screen

    def make(profile="EGA", **kw):
        return Screen(profile, **kw)

    return make
