"""The Main unit's runner: ``run(launch)`` is what ``python -m port`` calls.

With a window, pyxel's own frame loop (``pyxel.run``) drives the ``Loop`` of
``port.main.loop``; headless or with a script, the driver (``port.main.driver``) steps it.
"""
from __future__ import annotations

import pyxel

from port.main.driver import Driver
from port.main.launch import Launch
from port.main.loop import Loop, first_controller, init_pyxel, make_session


def run(launch: Launch) -> int:
    """Run the game for a parsed command line; the process's exit status."""
    init_pyxel(launch)
    session = make_session(launch)
    loop = Loop(session, first_controller(launch, session))
    if launch.headless or launch.script is not None:
        driver = Driver(loop)
        if launch.shots is None and launch.script is None:
            driver.step()
            return 0
        if launch.script is not None:
            driver.run_script(launch.script)
        else:
            driver.step()
        driver.shot("final")
        return 0

    def update() -> None:
        loop.update()
        if not loop.running:
            pyxel.quit()

    pyxel.run(update, loop.draw)
    return 0
