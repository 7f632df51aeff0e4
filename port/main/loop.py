"""The Main unit's pyxel start-up and frame loop: pyxel is initialised once with the
chosen display profile (a window, or headless), then one frame at a time the Mouse
unit's events pass the screen saver and reach the current screen controller, which draws.

Both runners use it: ``port.main.app.run`` hands the ``Loop`` to ``pyxel.run``, the
headless script driver (``port.main.driver``) steps it itself.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pyxel

from port.files.players import plain
from port.main.controller import Controller, Session
from port.main.launch import Launch
from port.mouse import Key, Mouse, Press
from port.screen import LOGICAL_WIDTH, Screen, profile
from port.screen.window import grow_window, window_scale

FPS = 30                  # logical frames per second: timings count these frames
# Headless frames should not wait: flip() costs about 1 ms whatever the fps, so
# 1000 is as fast as it goes. Not higher: at fps=1_000_000 pyxel 2.9's flip() was seen
# to spin for ever in its frame-pacing loop on a loaded machine (tests/shell/test_app.py).
HEADLESS_FPS = 1000
BOSS_CORNER = 3           # logical pixels from the upper-right corner that blank at once
ESC = 27

_initialised: tuple[bool, int, int] | None = None


def init_pyxel(launch: Launch, title: str = "") -> None:
    """Initialise pyxel once per process at the launch's profile size.

    pyxel.init can run only once per process, and it changes the working directory
    (kept as it was here). A later call only resizes the screen.
    """
    global _initialised
    screen_size = _profile_size(launch)
    if _initialised is not None:
        if (pyxel.width, pyxel.height) != screen_size:
            pyxel.resize(*screen_size)
        return
    if launch.headless:
        # No sound headless: the dummy driver spares SDL's "no audio device" noise. A
        # window (the desktop, a web page) keeps the real driver, for sound to come.
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    cwd = os.getcwd()
    try:
        # Headless, pyxel's screencast recorder (capture_sec seconds of frames) would keep
        # every frame at the unpaced headless rate, 220 KB each, until memory runs out.
        extra: dict[str, int] = {"capture_sec": 0} if launch.headless else {}
        scale = None if launch.headless else window_scale(*screen_size)
        if scale is not None:
            extra["display_scale"] = scale     # the largest whole scale the desktop holds
        with _plain_argv():
            pyxel.init(*screen_size, title=title, fps=HEADLESS_FPS if launch.headless else FPS,
                       quit_key=pyxel.KEY_NONE, headless=launch.headless, **extra)
    finally:
        os.chdir(cwd)
    if scale is not None:
        grow_window(*screen_size, scale)   # HERC's 720 pixels: not half EGA's window
    pyxel.mouse(False)        # the game draws its own pointer shapes
    _initialised = (launch.headless, *screen_size)


@contextmanager
def _plain_argv() -> Iterator[None]:
    """pyxel.init reads ``sys.orig_argv`` (to restart itself) and fails on a word that is
    not UTF-8 (``ginrummy $'\\xff'``: Python keeps its bytes as lone surrogates). It is
    given the words with such bytes as "?" while it starts; the program keeps its own."""
    kept = list(getattr(sys, "orig_argv", []))
    sys.orig_argv = [plain(word) for word in kept]
    try:
        yield
    finally:
        sys.orig_argv = kept


def _profile_size(launch: Launch) -> tuple[int, int]:
    p = profile(launch.profile)
    return p.width, p.height


def make_session(launch: Launch) -> Session:
    """The Screen and Mouse for a launch (pyxel must be initialised)."""
    screen = Screen(launch.profile, laptop=launch.laptop, noblank=launch.noblank, fps=FPS)
    screen.activate()
    mouse = Mouse(to_logical=screen.logical, size=(screen.profile.width, screen.profile.height),
                  fps=FPS, nokeyboard=launch.nokeyboard, long_press=launch.web)
    return Session(launch, screen, mouse)


class Loop:
    """One frame at a time: poll, saver, update, draw, present."""

    def __init__(self, session: Session, controller: Controller) -> None:
        self.session = session
        self.controller: Controller | None = controller
        self.frame = 0
        self.delivered: list[tuple[int, object]] = []   # (frame, event) the controllers got
        # Called at the start of each frame, before the Mouse polls (the recorder).
        self.before_poll: list[Callable[[], None]] = []

    @property
    def running(self) -> bool:
        return self.controller is not None

    def update(self) -> None:
        if self.controller is None:
            return
        self.frame += 1
        for hook in self.before_poll:
            hook()
        mouse, screen = self.session.mouse, self.session.screen
        events = mouse.poll()
        deliver = screen.saver.step(
            activity=bool(events),
            wake=any(isinstance(e, (Key, Press)) for e in events),
            boss=any(isinstance(e, Key) and e.ascii == ESC for e in events),
            in_corner=mouse.x >= LOGICAL_WIDTH - BOSS_CORNER and mouse.y < BOSS_CORNER)
        if not deliver:
            events = []
        self.delivered.extend((self.frame, e) for e in events)
        self.controller = self.controller.update(events)

    def draw(self) -> None:
        if self.controller is None:
            return
        self.controller.draw()
        self.session.screen.present(self.session.mouse.pixel if self.session.mouse.present else None)
