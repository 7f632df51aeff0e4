"""The Main unit's recorder (``--record FILE``): a session written as a driver script.

Each frame, before the Mouse unit polls, the recorder reads what pyxel reports (the
pointer's pixel, the three buttons, every key of ``port.mouse.KEYS`` and the Shift and
Ctrl modifiers, the typed text) and writes what changed since the frame before as the
script's 0-frame commands, the frames between as ``wait N``. ``--script FILE`` feeds
them back through pyxel's own input simulation, so the Mouse unit reads in the replay
exactly what it read in the run: the same events, the same pointer, the same held
buttons for chords and double clicks, the same auto-repeat (docs/script.md, "Recording").

Why pyxel's reports and not the events the loop delivers: the driver can only feed
pyxel, and the game reads more than events (where the pointer is while the saver
swallows input, a name typed as text, keys that repeat while held).

The file is written as the run goes (a line each change), so a run that is killed
keeps what it played; the header comes first (``port.main.recording``), the ``end``
line when the run ends (``close``, also at exit: pyxel's quit runs Python's atexit).
A file that cannot be written stops the recording with one sentence, never the game.
"""
from __future__ import annotations

import json
from typing import TextIO

import pyxel

from port.main import recording
from port.main.errors import UsageError, tell
from port.main.launch import Launch
from port.main.loop import Loop
from port.main.recording import MAX_WAIT
from port.mouse import KEYS, Mouse
from port.screen.resources import indices_of

_BUTTONS = (("left", pyxel.MOUSE_BUTTON_LEFT), ("right", pyxel.MOUSE_BUTTON_RIGHT),
            ("middle", pyxel.MOUSE_BUTTON_MIDDLE))
# Read as levels, as the Mouse unit reads them (any of the three pyxel codes).
_MODIFIERS = (("SHIFT", (pyxel.KEY_SHIFT, pyxel.KEY_LSHIFT, pyxel.KEY_RSHIFT)),
              ("CTRL", (pyxel.KEY_CTRL, pyxel.KEY_LCTRL, pyxel.KEY_RCTRL)))
_KEYS = tuple((name, getattr(pyxel, attr)) for name, (attr, *_) in KEYS.items())


class Recorder:
    """Writes one session's inputs to ``out``; ``frame()`` once a frame, before the poll."""

    def __init__(self, out: TextIO, mouse: Mouse, launch: Launch, name: str = "the recording") -> None:
        self.out: TextIO | None = out
        self.mouse = mouse
        self.launch = launch
        self.name = name
        self.pixel: tuple[int, int] | None = None      # None: the first frame says where it is
        # The buttons as the Mouse found them when it was made: one held already is no press.
        self.buttons = [pyxel.btn(code) for _, code in _BUTTONS]
        self.modifiers = [False] * len(_MODIFIERS)
        self.keys: set[str] = set()                    # keys whose press was recorded, still down
        self.pending = 0                               # frames run since the last line
        self.closed = False

    @classmethod
    def begin(cls, launch: Launch, mouse: Mouse) -> Recorder:
        """Pin the run's seed and date, note its files as found, write the header.

        Call it before the first screen is made: the game reads (and may repair) its
        files then, and deals from the seed."""
        assert launch.record is not None
        recording.pin(launch)
        launch.found = found = recording.capture(launch)
        try:
            out = open(launch.record, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise UsageError(f"--record: cannot write {launch.record} ({exc.strerror or exc})") from None
        recorder = cls(out, mouse, launch, str(launch.record))
        recorder._write(recording.header_lines(launch, found))
        return recorder

    # ---- each frame -------------------------------------------------------------------

    def frame(self) -> None:
        """Note this frame's input (call before the Mouse polls)."""
        if self.out is None:
            return
        lines = [*self._pointer(), *self._buttons(), *self._modifiers(), *self._keys()]
        if pyxel.input_text:
            lines.append(f"text {json.dumps(pyxel.input_text)}")
        if lines:
            self._write([*self._waited(), *lines])
        self.pending += 1

    def _pointer(self) -> list[str]:
        # Clamped to the screen as the Mouse clamps it: what the game can see.
        w, h = self.mouse.size
        now = (min(max(pyxel.mouse_x, 0), w - 1), min(max(pyxel.mouse_y, 0), h - 1))
        if now == self.pixel:
            return []
        self.pixel = now
        return [f"pixel {now[0]} {now[1]}"]

    def _buttons(self) -> list[str]:
        out = []
        for i, (name, code) in enumerate(_BUTTONS):
            now = pyxel.btn(code)
            if now != self.buttons[i]:
                self.buttons[i] = now
                out.append(f"{'bdown' if now else 'bup'} {name}")
        return out

    def _modifiers(self) -> list[str]:
        out = []
        for i, (name, codes) in enumerate(_MODIFIERS):
            now = any(pyxel.btn(code) for code in codes)
            if now != self.modifiers[i]:
                self.modifiers[i] = now
                out.append(f"{'down' if now else 'up'} {name}")
        return out

    def _keys(self) -> list[str]:
        """Presses as pyxel reports them (a key held from before the run is none), and
        releases; a key let go and pressed again within one frame is both."""
        out = []
        for name, code in _KEYS:
            pressed = pyxel.btnp(code)
            if name in self.keys:
                if not pyxel.btn(code):
                    self.keys.discard(name)
                    out.append(f"up {name}")
                elif pressed:
                    out += [f"up {name}", f"down {name}"]
            elif pressed:
                self.keys.add(name)
                out.append(f"down {name}")
        return out

    def _waited(self) -> list[str]:
        lines = []
        while self.pending > 0:
            step = min(self.pending, MAX_WAIT)
            lines.append(f"wait {step}")
            self.pending -= step
        return lines

    # ---- the end ----------------------------------------------------------------------

    def close(self, frames: int) -> None:
        """Write the frames not yet written and the ``end`` line; close the file. Once."""
        if self.closed:
            return
        self.closed = True
        if self.out is None:
            return
        try:
            screen: bytes | None = indices_of(pyxel.screen)
        except Exception:  # pyxel already gone (a window closed at exit): no screen to compare
            screen = None
        state = recording.end_state(frames, screen, self.launch)
        self._write([*self._waited(), recording.end_line(state)])
        if self.out is not None:
            try:
                self.out.close()
            except OSError as exc:
                self._stop(exc)
            self.out = None

    def _write(self, lines: list[str]) -> None:
        if self.out is None:
            return
        try:
            self.out.write("".join(line + "\n" for line in lines))
            self.out.flush()
        except OSError as exc:
            self._stop(exc)

    def _stop(self, exc: OSError) -> None:
        """The recording cannot be written (a full disk): say so once, play on."""
        tell(f"{self.launch.program}: cannot write {self.name} ({exc.strerror or exc}): "
             "the recording stops here; the game goes on.")
        out, self.out = self.out, None
        try:
            if out is not None:
                out.close()
        except OSError:
            pass


def end_run(loop: Loop, recorder: Recorder | None) -> None:
    """The end of a run, however it ends (the script's end, pyxel's quit, a window's
    close box: those run Python's atexit): the session's exit hooks first (held-back
    saves reach the files), then the recording's ``end`` line, which notes the files as
    they are left. Once."""
    loop.session.exit()
    if recorder is not None:
        recorder.close(loop.frame)
