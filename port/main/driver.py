"""The Main unit's scripted driver: the real game, stepped frame by frame, fed a
script of timed inputs through pyxel's own input simulation, with screenshots.

``python -m port --headless --script FILE --shots DIR`` runs a script (format in
docs/script.md); tests use the same class directly:

    driver = Driver.start(Launch(headless=True), first_screen)   # a game's first screen
    driver.key("B"); driver.click("left", 320, 200); driver.wait(30)
    driver.shot("after")            # DIR/after.png, palette indices exactly

Inputs go in through ``pyxel.set_btn`` / ``set_mouse_pos`` / ``set_input_text``,
so the Mouse unit reads them exactly as it reads a person's.
"""
from __future__ import annotations

import io
import json
import shlex
from collections.abc import Callable
from pathlib import Path

import pyxel

from port.main import cmdline, recording
from port.main.cmdline import Game
from port.main.controller import Controller, Session
from port.main.launch import Launch
from port.main.recorder import Recorder, end_run
from port.main.recording import MAX_WAIT, Desync, ScriptError
from port.main.loop import Loop, init_pyxel, make_session
from port.mouse import BUTTON_NAMES, KEYS, pyxel_key
from port.screen import LOGICAL_HEIGHT, LOGICAL_WIDTH, png
from port.screen.resources import indices_of

_BUTTONS = {"LEFT": pyxel.MOUSE_BUTTON_LEFT, "RIGHT": pyxel.MOUSE_BUTTON_RIGHT,
            "MIDDLE": pyxel.MOUSE_BUTTON_MIDDLE}
# A typed character: the key that makes it and whether shift is held for it.
_CHAR_KEYS = {chr(plain): (name, False) for name, (_, _, plain, _) in KEYS.items() if 32 <= plain < 127}
_CHAR_KEYS.update({chr(shifted): (name, True) for name, (_, _, plain, shifted) in KEYS.items()
                   if 32 <= shifted < 127 and shifted != plain and chr(shifted) not in _CHAR_KEYS})


_MODIFIERS = {"SHIFT": pyxel.KEY_LSHIFT, "CTRL": pyxel.KEY_LCTRL, "ALT": pyxel.KEY_LALT}


def _code(key: str) -> int:
    """The pyxel code of a key name, modifiers (SHIFT, CTRL, ALT) included."""
    return _MODIFIERS.get(key.upper()) or pyxel_key(key)


MAX_PIXEL = 4096            # a pointer pixel beyond any profile's screen is a bad line
MAX_TEXT = 100              # characters one frame's typed text may hold


def _number(text: str, top: int) -> int:
    """A whole number from 0 to top-1 in a script line (bounded: a line cannot hang the run)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(top)) and int(text) < top):
        raise ScriptError(f"expected a whole number from 0 to {top - 1}, not {text[:20]!r}")
    return int(text)


class Driver:
    def __init__(self, loop: Loop, recorder: Recorder | None = None) -> None:
        self.loop = loop
        self.session = loop.session
        self.recorder = recorder        # --record: the run written as a script
        if recorder is not None:
            loop.before_poll.append(recorder.frame)
        launch = self.session.launch
        self.shots = Path(launch.shots) if launch.shots is not None else Path("shots")
        self.saved: list[Path] = []
        self.inputs_seen = False    # a header line (docs/script.md) comes before any input
        self.game_error: Exception | None = None   # what the game raised, if it did

    @classmethod
    def start(cls, launch: Launch, controller: Controller | Callable[[Session], Controller]) -> Driver:
        """Initialise pyxel if needed, make the session and the first controller: the
        given one, or one made from the session by a given function (a game's
        ``first_screen``, a controller class such as TestScreen)."""
        init_pyxel(launch)
        _release_everything()
        session = make_session(launch)
        # With launch.record, the recording begins before the first screen reads the files.
        recorder = Recorder.begin(launch, session.mouse) if launch.record is not None else None
        if isinstance(controller, type) or not hasattr(controller, "update"):
            first = controller(session)  # type: ignore[operator]
        else:
            first = controller  # type: ignore[assignment]
        driver = cls(Loop(session, first), recorder)
        # Park the pointer where a fresh run has it; the first frame then starts clean.
        pyxel.set_mouse_pos(0, 0)
        return driver

    # ---- frames -----------------------------------------------------------------------

    @property
    def controller(self) -> Controller | None:
        return self.loop.controller

    @property
    def screen(self):
        return self.session.screen

    @property
    def mouse(self):
        return self.session.mouse

    def step(self, frames: int = 1) -> None:
        """Run frames: update, draw, flip (which ends the frame's pressed/typed input)."""
        for _ in range(frames):
            if not self.loop.running:
                return
            try:
                self.loop.update()
                self.loop.draw()
            except Exception as exc:
                self.game_error = exc      # the game's own error, never a bad script line
                raise
            pyxel.flip()

    wait = step

    def finish(self) -> None:
        """End the run as the program does at exit: the session's exit hooks (held-back
        saves), then the recording's ``end`` line. Once."""
        end_run(self.loop, self.recorder)

    # ---- input ------------------------------------------------------------------------

    def down(self, key: str) -> None:
        """Hold a key (or SHIFT, CTRL, ALT) down from the next frame on."""
        pyxel.set_btn(_code(key), True)

    def up(self, key: str) -> None:
        pyxel.set_btn(_code(key), False)

    def key(self, name: str, *, shift: bool = False, ctrl: bool = False) -> None:
        """Press and release a key: two  "shift+a" and "ctrl+c" also work."""
        parts = name.split("+") if len(name) > 1 and "+" in name[:-1] else [name]
        mods, name = {p.upper() for p in parts[:-1]}, parts[-1]
        shift, ctrl = shift or "SHIFT" in mods, ctrl or "CTRL" in mods
        code = pyxel_key(name)
        held = [m for m, on in ((pyxel.KEY_LSHIFT, shift), (pyxel.KEY_LCTRL, ctrl)) if on]
        for m in held:
            pyxel.set_btn(m, True)
        pyxel.set_btn(code, True)
        self.step()
        pyxel.set_btn(code, False)
        for m in held:
            pyxel.set_btn(m, False)
        self.step()

    def type(self, text: str) -> None:
        """Type text as a person would: each character's key with its typed text
        (two frames a character)."""
        for ch in text:
            name, shift = _CHAR_KEYS.get(ch, (None, False))
            if shift:
                pyxel.set_btn(pyxel.KEY_LSHIFT, True)
            if name is not None:
                pyxel.set_btn(pyxel_key(name), True)
            pyxel.set_input_text(ch)
            self.step()
            if name is not None:
                pyxel.set_btn(pyxel_key(name), False)
            pyxel.set_btn(pyxel.KEY_LSHIFT, False)
            self.step()

    def move(self, x: int, y: int) -> None:
        """Put the pointer on a logical point (takes effect on the next frame)."""
        pyxel.set_mouse_pos(self.screen.px(x), self.screen.py(y))

    def pixel(self, x: int, y: int) -> None:
        """Put the pointer on a pixel of the screen (a recording's pointer: exact on
        every profile, where logical points may share a pixel)."""
        pyxel.set_mouse_pos(x, y)

    def text(self, text: str) -> None:
        """The next frame's typed text, as pyxel reports it (no key is pressed for it)."""
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise ScriptError(f"expected a JSON string of at most {MAX_TEXT} characters")
        pyxel.set_input_text(text)

    def check_end(self, expected: dict[str, str]) -> None:
        """Compare how this run ends with how its recording ended: Desync if it differs."""
        got = recording.end_state(self.loop.frame, self.snapshot(), self.session.launch)
        wrong = recording.differences(expected, got)
        if wrong:
            raise Desync(f"the replay did not end as its recording did: {'; '.join(wrong)}")

    def press(self, button: str = "left") -> None:
        """Press a mouse button and run one frame."""
        pyxel.set_btn(_button(button), True)
        self.step()

    def release(self, button: str = "left") -> None:
        """Release a mouse button and run one frame."""
        pyxel.set_btn(_button(button), False)
        self.step()

    def click(self, button: str = "left", x: int | None = None, y: int | None = None) -> None:
        """Optionally move, then press and release: two """
        if x is not None and y is not None:
            self.move(x, y)
        self.press(button)
        self.release(button)

    # ---- output -----------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """The colour indices on pyxel's screen now (the last frame presented)."""
        return indices_of(pyxel.screen)

    def shot(self, name: str) -> Path:
        """Save the screen as an indexed PNG: SHOTS/name.png."""
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / (name if name.endswith(".png") else name + ".png")
        p = self.screen.profile
        png.write(path, png.Indexed(p.width, p.height, self.snapshot(), p.palette))
        self.saved.append(path)
        return path

    # ---- scripts ----------------------------------------------------------------------

    def run_script(self, path: str | Path) -> None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ScriptError(f"{path}: cannot read the script ({getattr(exc, 'strerror', None) or exc})") from None
        self.run_text(text, source=str(path))

    def run_text(self, text: str, source: str = "<script>") -> None:
        """Run a script's lines. Once the game has quit, the rest is skipped but for an
        ``end`` line, which still checks how the run ended."""
        for number, line in enumerate(text.splitlines(), 1):
            if not self.loop.running and line.strip().partition(" ")[0].lower() != "end":
                continue
            try:
                self.run_line(line)
            except Desync as exc:
                raise Desync(f"{source}:{number}: {exc}") from None
            except (ValueError, TypeError, IndexError, OverflowError, OSError) as exc:
                if exc is self.game_error:
                    raise                  # an internal error of the game: main() tells it
                shown = line.strip() if len(line.strip()) <= 60 else line.strip()[:57] + "..."
                raise ScriptError(f"{source}:{number}: {shown!r}: {exc}") from exc

    def run_line(self, line: str) -> None:
        """One script command (see docs/script.md)."""
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            return
        word, _, rest = stripped.partition(" ")
        word = word.lower()
        if word in recording.HEADER:
            # Read by the command line before the game starts; the Python API's Driver
            # was given its Launch. Either way a header is over once inputs begin.
            if self.inputs_seen:
                raise ScriptError("a header line comes before the script's first input")
            return
        if word == "end":
            self.check_end(recording.parse_end(rest.split()))
            return
        self.inputs_seen = True
        if word == "type":
            self.type(rest[1:-1] if len(rest) >= 2 and rest[0] == rest[-1] == '"' else rest)
            return
        if word == "text":
            self.text(json.loads(rest))
            return
        args = shlex.split(rest, comments=True)
        if word == "wait":
            self.step(_number(args[0], MAX_WAIT + 1) if args else 1)
        elif word == "key":
            for name in args:
                self.key(name)
        elif word in ("down", "up"):
            for name in args:
                getattr(self, word)(name)
        elif word == "move":
            self.move(_number(args[0], LOGICAL_WIDTH), _number(args[1], LOGICAL_HEIGHT))
        elif word in ("press", "release"):
            getattr(self, word)(args[0] if args else "left")
        elif word == "click":
            coords = [_number(args[1], LOGICAL_WIDTH), _number(args[2], LOGICAL_HEIGHT)] if len(args) >= 3 else [None, None]
            self.click(args[0] if args else "left", *coords)
        elif word == "shot":
            self.shot(args[0])
        elif word == "pixel":
            self.pixel(_number(args[0], MAX_PIXEL), _number(args[1], MAX_PIXEL))
        elif word in ("bdown", "bup"):
            for name in args:
                pyxel.set_btn(_button(name), word == "bdown")
        else:
            raise ScriptError(f"unknown command {word!r}")


def run_recording(script: str | Path, game: Game, shots: str | Path) -> Driver:
    """Replay a script (a recording) in this process as ``--script SCRIPT --headless
    --shots SHOTS`` would: its header read, its files laid out in SHOTS/files, its end
    checked (Desync if the run ends otherwise). The Driver is returned once it has run."""
    err = io.StringIO()
    launch = cmdline.parse(["--script", str(script), "--headless", "--shots", str(shots)], io.StringIO(), err,
                           game=game)
    if not isinstance(launch, Launch):
        raise ScriptError(err.getvalue().strip())
    if cmdline.make_outputs(launch, err) is not None:
        raise ScriptError(err.getvalue().strip())
    recording.prepare_files(launch)
    driver = Driver.start(launch, game.first_screen())
    driver.run_script(launch.script or script)
    driver.finish()
    return driver


def _button(name: str) -> int:
    up = name.upper()
    if up not in _BUTTONS:
        raise ScriptError(f"unknown button {name!r}: {', '.join(n.lower() for n in BUTTON_NAMES)}")
    return _BUTTONS[up]


def _release_everything() -> None:
    # A driver started after another in the same process begins with nothing held.
    for attr, *_ in KEYS.values():
        pyxel.set_btn(getattr(pyxel, attr), False)
    for code in (*_BUTTONS.values(), pyxel.KEY_LSHIFT, pyxel.KEY_RSHIFT, pyxel.KEY_LCTRL, pyxel.KEY_RCTRL):
        pyxel.set_btn(code, False)
    pyxel.flip()
