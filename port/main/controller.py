"""The Main unit's screen-controller protocol and the things all controllers share.

A controller is one screen of the game (title, options, statistics, high scores,
play, ...). Each frame the loop gives it the Mouse unit's events; ``update`` returns
the controller to show next (itself to stay, None to quit the program), and
``draw`` paints the current state through the Screen unit without changing it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from port.main.launch import Launch
from port.mouse import Event, Mouse
from port.screen import Screen


class Controller(Protocol):
    def update(self, events: list[Event]) -> Controller | None: ...

    def draw(self) -> None: ...


@dataclass
class Session:
    """What every controller is given: the command line, the display and the input."""

    launch: Launch
    screen: Screen
    mouse: Mouse
    # What must be done when the run ends, however it ends (the files' held-back saves).
    on_exit: list[Callable[[], None]] = field(default_factory=list)

    def exit(self) -> None:
        """Run the ``on_exit`` hooks, once."""
        hooks, self.on_exit = self.on_exit, []
        for hook in hooks:
            hook()
