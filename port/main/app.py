"""The Main unit's runner: ``run(launch, first)`` is what each game's ``main`` calls.

With a window (the desktop, a web page), pyxel's own frame loop (``pyxel.run``) drives
the ``Loop`` of ``port.main.loop``; headless or with a script, the driver
(``port.main.driver``) steps it.

An unexpected error inside ``pyxel.run`` would not reach ``port.main.main()``: pyxel
prints its traceback and exits. So the frames are guarded here: on the desktop the
error is the same one sentence on stderr and exit status 1; in a web page the sentence
stays on the game's screen (``port.main.errorscreen``). ``GINRUMMY_DEBUG=1`` lets
the traceback through, as main() does.
"""
from __future__ import annotations

import atexit
import os
from collections.abc import Callable

import pyxel

from port.main import recording
from port.main.controller import Controller, Session
from port.main.driver import Driver
from port.main.errors import DEBUG_ENV, OutputError, internal_error, tell
from port.main.errorscreen import ErrorScreen
from port.main.launch import Launch
from port.main.loop import Loop, init_pyxel, make_session
from port.main.recorder import Recorder, end_run
from port.main.recording import Desync


def run(launch: Launch, start: Callable[[Session], Controller], title: str | None = None) -> int:
    """Run the game for a parsed command line; the process's exit status.

    ``start`` makes the game's first screen from the session; ``title`` names the window
    (the launch's game title when None): the seams by which each game runs on the shell.
    """
    init_pyxel(launch, launch.title if title is None else title)
    recording.prepare_files(launch)    # a replay of a recording plays on its files
    session = make_session(launch)
    # Before the first screen: it reads the files and deals from the seed.
    recorder = Recorder.begin(launch, session.mouse) if launch.record is not None else None
    if launch.headless or launch.script is not None:
        return _drive(Driver(Loop(session, start(session)), recorder), launch)
    try:
        screen = start(session)
    except Exception as exc:
        if not launch.web:
            raise                      # main() tells it, before any frame
        screen = _stopped(session, exc)
    loop = Loop(session, screen)
    if recorder is not None:
        loop.before_poll.append(recorder.frame)
    atexit.register(end_run, loop, recorder)   # pyxel's quit and a window's close run atexit
    pyxel.run(*frame_callbacks(loop, draw_every_frame=recorder is not None))
    return 0                           # the desktop never gets here: pyxel.quit() exits


def _drive(driver: Driver, launch: Launch) -> int:
    """Headless or under a script: the driver steps the frames; the final screen is saved
    (with --shots or --script), even when a replay ends otherwise than its recording."""
    atexit.register(driver.finish)             # however the run ends
    if launch.shots is None and launch.script is None:
        driver.step()
        driver.finish()
        return 0
    desync = None
    try:
        if launch.script_steps is not None:       # checked by main() before anything started
            driver.run_steps(launch.script_steps, str(launch.script))
        elif launch.script is not None:
            driver.run_script(launch.script)
        else:
            driver.step()
    except Desync as exc:
        desync = exc                           # told after the final screen is saved
    driver.finish()
    _final_shot(driver)
    if desync is not None:
        raise desync
    return 0


def _final_shot(driver: Driver) -> None:
    try:
        driver.shot("final")
    except OSError as exc:
        raise OutputError(f"cannot save {driver.shots / 'final.png'} ({exc.strerror or exc}).") from None


def frame_callbacks(loop: Loop, draw_every_frame: bool = False) -> tuple[Callable[[], None], Callable[[], None]]:
    """The update and draw that ``pyxel.run`` calls: the loop's, guarded.

    pyxel skips draws when it runs behind. A recorded run draws every frame itself, at
    the end of its update (pyxel's draw then only shows it): its screen is, frame for
    frame, the one its replay draws, so their ends compare (``draw_every_frame``)."""

    def draw_now() -> None:
        try:
            loop.draw()
        except Exception as exc:
            loop.controller = _stopped(loop.session, exc, isinstance(loop.controller, ErrorScreen))

    def update() -> None:
        try:
            loop.update()
        except Exception as exc:
            loop.controller = _stopped(loop.session, exc, isinstance(loop.controller, ErrorScreen))
        if not loop.running:
            pyxel.quit()
        if draw_every_frame:
            draw_now()

    def draw() -> None:
        if not draw_every_frame:
            draw_now()

    return update, draw


def _stopped(session: Session, exc: Exception, again: bool = False) -> ErrorScreen:
    """Tell an unexpected error in one sentence; in a web page, the screen that shows it.

    On the desktop the frame ends with SystemExit(1), which pyxel's run turns into exit
    status 1 without a traceback. If the error screen itself fails (``again``), a web
    page gets the traceback: pyxel's loader shows that, and nothing else is left.
    """
    web = session.launch.web
    if os.environ.get(DEBUG_ENV) or (web and again):
        raise exc
    launch = session.launch
    sentence = internal_error(exc, program=launch.program, title=launch.title, web=web)
    tell(sentence, web=web)
    if not web:
        raise SystemExit(1) from None
    return ErrorScreen(session, sentence)
