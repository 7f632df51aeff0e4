"""The replay viewer's machinery, both games (docs/records.md): a game record's steps
shown one at a time on the game's own table, forward and back by keys and by red
command boxes, the record's lines of each step in words beside the table.

    RIGHT  N  Space  Enter   the next step          LEFT  B  Backspace   the step before
    PAGEDOWN  H              the next hand          PAGEUP  P            this hand's start,
    HOME  END                the first, the last step                    or the hand before
    Q                        quit

Each game's viewer (``port.ginrummy.main.replay``, ``port.cribbage.main.replay``)
subclasses ``ReplayScreen``: it draws its table at a step (``draw_step``), says which of
the step's lines to show (``step_text``), and where its words and boxes go.
"""
from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from port.main.context import GameContext
from port.main.controller import Controller
from port.mouse import LEFT, RIGHT, Event, Key, Press
from port.screen import Rect
from port.screen.profiles import BLACK, LIGHTGRAY, WHITE

# Extended keys' scan codes (ReadKey's #0 then the code).
SCAN_LEFT, SCAN_RIGHT, SCAN_HOME, SCAN_END, SCAN_PAGEUP, SCAN_PAGEDOWN = 0x4B, 0x4D, 0x47, 0x4F, 0x49, 0x51
KEYS = {"N": "next", " ": "next", "\r": "next", "B": "back", "\x08": "back", "H": "next_hand",
        "P": "prev_hand", "Q": "quit"}
SCANS = {SCAN_RIGHT: "next", SCAN_LEFT: "back", SCAN_PAGEDOWN: "next_hand", SCAN_PAGEUP: "prev_hand",
         SCAN_HOME: "first", SCAN_END: "last"}
# The command boxes: (action, label, hot letter), and their x and width on the bottom row.
BOXES = (("back", "BACK", "B", 16, 56), ("next", "NEXT", "N", 80, 56), ("prev_hand", "PREV HAND", "P", 144, 96),
         ("next_hand", "NEXT HAND", 5, 248, 96), ("quit", "QUIT", "Q", 568, 56))
STATUS_X = 352          # "HAND 2/5 STEP 14/120" between NEXT HAND and QUIT
LINE = 14


class ReplayScreen:
    """A record's steps on the game's table. ``steps`` have ``hand`` (1 the first),
    ``lines`` (the record's lines) and ``line`` (the first's number in the file)."""

    text_x = 366                # where the step's words go, and how many fit (the record
    text_y = 92                 # line's number under them)
    columns = 34
    rows = 6
    box_y = 316                 # the command boxes' row

    @property
    def line_at(self) -> tuple[int, int]:
        """Where "RECORD LINE n" goes: over the status, just above the command boxes,
        under the cards (on CGA's 200 lines too), never on the table's words or boxes."""
        return STATUS_X, self.box_y - LINE

    def __init__(self, ctx: GameContext, steps: Sequence[Any], back: Controller | None = None) -> None:
        self.ctx = ctx
        self.back = back            # QUIT's screen (the room's HISTORY); None: the program ends
        self.steps = list(steps)
        self.at = 0
        self.hands = max((st.hand for st in self.steps), default=0)
        ctx.session.screen.set_page(0)

    @property
    def step(self) -> Any:
        return self.steps[self.at]

    # ---- moving --------------------------------------------------------------------

    def go(self, action: str) -> Controller | None:
        """Do a command: move through the steps, or quit (the program ends, or the
        screen that opened the viewer comes back)."""
        last = len(self.steps) - 1
        if action == "quit":
            return self.back
        if action == "next":
            self.at = min(self.at + 1, last)
        elif action == "back":
            self.at = max(self.at - 1, 0)
        elif action == "first":
            self.at = 0
        elif action == "last":
            self.at = last
        elif action == "next_hand":
            self.at = next((i for i in range(self.at + 1, last + 1)
                            if self.steps[i].hand != self.step.hand), last)
        elif action == "prev_hand":
            start = self._hand_start(self.at)
            self.at = start if start < self.at else self._hand_start(max(start - 1, 0))
        return self

    def _hand_start(self, i: int) -> int:
        hand = self.steps[i].hand
        while i > 0 and self.steps[i - 1].hand == hand:
            i -= 1
        return i

    def update(self, events: list[Event]) -> Controller | None:
        for e in events:
            action = None
            if isinstance(e, Key):
                action = SCANS.get(e.scan) if e.extended else KEYS.get(e.char)
            elif isinstance(e, Press) and e.button in (LEFT, RIGHT):
                action = next((a for a, _, _, x, w in BOXES
                               if Rect(x, self.box_y, w, 20).contains(e.x, e.y)), None)
            if action is not None:
                nxt = self.go(action)
                if nxt is not self:
                    return nxt          # QUIT: the program's end (None), or the screen before
        return self

    # ---- drawing -------------------------------------------------------------------

    def draw(self) -> None:
        s = self.ctx.session.screen
        s.set_page(0)
        s.clear(BLACK)
        step = self.step
        self.draw_step(step)
        for i, line in enumerate(self.wrapped(self.step_text(step))[:self.rows]):
            s.text(self.text_x, self.text_y + LINE * i, line, WHITE)
        if step.line is not None:        # where this step stands in the record file
            s.text(*self.line_at, f"RECORD LINE {step.line}", LIGHTGRAY)
        for action, label, hot, x, w in BOXES:
            s.button(x, self.box_y, w, 20, label, hot)
        status = f"HAND {self.step.hand}/{self.hands} STEP {self.at + 1}/{len(self.steps)}"
        s.text(STATUS_X, self.box_y + 6, status, LIGHTGRAY)

    @classmethod
    def wrapped(cls, lines: Sequence[str]) -> list[str]:
        """Lines as the text area shows them: wrapped at its width."""
        return [part for line in lines for part in textwrap.wrap(line, cls.columns)]

    def step_text(self, step: Any) -> list[str]:
        """The record's lines of the step shown beside the table (all, by default)."""
        return list(step.lines)

    def draw_step(self, step: Any) -> None:
        """The game's table at this step."""
        raise NotImplementedError


__all__ = ["BOXES", "KEYS", "ReplayScreen", "SCANS"]
