"""The Screen unit's screen saver (the documentation's "Screen Saver" section).

"The time of waiting is two seconds per score limit point ... The minimum time is
one minute"; the pointer in the upper right-hand corner or ESC blanks at once (the
"Boss key"); "To get out of the blank screen, press any key or mouse button", and
that key or button is not acted on. NOBLANK disables both. Time is counted in
frames, never read from a clock, so a script replays it exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

MINIMUM_SECONDS = 60
SECONDS_PER_POINT = 2


@dataclass
class Saver:
    fps: int = 30
    enabled: bool = True
    score_limit: int = 100
    seconds: int | None = None   # a game's own wait (Cribbage: 5 or 10 minutes); None: GinRummy's rule
    idle: int = 0                # frames without input
    blank: bool = False
    _in_corner: bool = False

    @property
    def timeout_frames(self) -> int:
        if self.seconds is not None:
            return self.seconds * self.fps
        seconds = max(MINIMUM_SECONDS, SECONDS_PER_POINT * self.score_limit)
        return seconds * self.fps

    def step(self, *, activity: bool, wake: bool, boss: bool, in_corner: bool) -> bool:
        """Advance one frame; True if this frame's input reaches the game.

        activity: any input at all (a pointer move counts); wake: a key or button
        press; boss: ESC was pressed; in_corner: the pointer is in the upper-right
        corner (it blanks on arriving there, not on staying).
        """
        entered = in_corner and not self._in_corner
        self._in_corner = in_corner
        if not self.enabled:
            return True
        if self.blank:
            if wake:
                self.blank, self.idle = False, 0
            return False            # the waking press is swallowed; moves do not wake
        if boss or entered:
            self.blank, self.idle = True, 0
            return False
        self.idle = 0 if activity else self.idle + 1
        if self.idle >= self.timeout_frames:
            self.blank, self.idle = True, 0
        return True
