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
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyxel

from port.main import cmdline, recording
from port.main.cmdline import Game
from port.main.controller import Controller, Session
from port.main.launch import Launch
from port.main.recorder import Recorder, end_run
from port.main.recording import MAX_WAIT, Desync, ScriptError
from port.main.loop import Loop, init_pyxel, make_session
from port.files.players import quoted
from port.mouse import BUTTON_NAMES, KEYS, key_name, pyxel_key
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


_QUOTING = re.compile(r"[\"'#\\]")    # a line shlex must split (quotes, a comment, a backslash)
MAX_PIXEL = 4096            # a pointer pixel beyond any profile's screen is a bad line
MAX_TEXT = 100              # characters one frame's typed text may hold


def _number(text: str, top: int) -> int:
    """A whole number from 0 to top-1 in a script line (bounded: a line cannot hang the run)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(top)) and int(text) < top):
        raise ScriptError(f"expected a whole number from 0 to {top - 1}, not {quoted(text, 20)}")
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
        """Save the screen as an indexed PNG: SHOTS/name.png (a plain file name)."""
        shot_name(name)
        self.shots.mkdir(parents=True, exist_ok=True)
        path = self.shots / (name if name.endswith(".png") else name + ".png")
        p = self.screen.profile
        png.write(path, png.Indexed(p.width, p.height, self.snapshot(), p.palette))
        self.saved.append(path)
        return path

    # ---- scripts ----------------------------------------------------------------------

    def run_script(self, path: str | Path) -> None:
        """Run a script file: every line is checked before the first frame runs."""
        self.run_steps(read_script(path), source=str(path))

    def run_text(self, text: str, source: str = "<script>") -> None:
        """Run a script's lines, every one checked before the first frame runs."""
        self.run_steps(check_text(text, source), source)

    def run_steps(self, steps: list[Step], source: str = "<script>") -> None:
        """Run checked lines. Once the game has quit, the rest is skipped but for an
        ``end`` line, which still checks how the run ended."""
        for step in steps:
            if not self.loop.running and step.word != "end":
                continue
            try:
                self.do(step)
            except Desync as exc:
                raise Desync(f"{source}:{step.number}: {exc}") from None
            except (ValueError, TypeError, IndexError, OverflowError, OSError) as exc:
                if exc is self.game_error:
                    raise                  # an internal error of the game: main() tells it
                # Left once the lines are checked: a shot that cannot be written (a full disk).
                raise ScriptError(f"{source}:{step.number}: {quoted(step.line)}: {exc}") from exc

    def run_line(self, line: str) -> None:
        """One script command (see docs/script.md), checked, then run."""
        step = parse_line(line, 0)
        if step is not None:
            if step.word == "header" and self.inputs_seen:
                raise ScriptError("a header line comes before the script's first input")
            self.do(step)

    def do(self, step: Step) -> None:
        """Run one checked line."""
        word, args = step.word, step.args
        if word == "header":
            return        # read by the command line before the game starts
        if word == "end":
            self.check_end(args[0])
            return
        self.inputs_seen = True
        if word in ("key", "down", "up", "bdown", "bup"):
            for name in args:
                if word == "key":
                    self.key(name)
                elif word in ("down", "up"):
                    getattr(self, word)(name)
                else:
                    pyxel.set_btn(_button(name), word == "bdown")
        else:
            getattr(self, word)(*args)


# ---- a script's lines, checked before the first frame ----------------------------------

@dataclass(frozen=True)
class Step:
    """One line of a script that says something, checked: its command and arguments."""

    number: int          # the line's number in the file (1 is the first)
    line: str            # its text, for messages
    word: str            # the Driver method that runs it ("header" for a header line)
    args: tuple[Any, ...]


def read_script(path: str | Path) -> list[Step]:
    """A script file's lines, every one checked (ScriptError names the first bad one
    with its line number), so a bad line far down never waits for the frames before it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"{path}: cannot read the script ({getattr(exc, 'strerror', None) or exc})") from None
    return check_text(text, str(path))


def check_text(text: str, source: str = "<script>") -> list[Step]:
    """A script's lines, checked: each command known, its numbers in range, its keys,
    buttons and shot names good, and every header line before the first input."""
    steps: list[Step] = []
    inputs_seen = False
    for number, line in enumerate(text.splitlines(), 1):
        try:
            step = parse_line(line, number)
            if step is None:
                continue
            if step.word == "header" and inputs_seen:
                raise ScriptError("a header line comes before the script's first input")
        except (ValueError, TypeError, IndexError, OverflowError, KeyError) as exc:
            why = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            raise ScriptError(f"{source}:{number}: {quoted(line.strip())}: {why}") from None
        inputs_seen = inputs_seen or step.word not in ("header", "end")
        steps.append(step)
    return steps


def parse_line(line: str, number: int) -> Step | None:
    """One line of a script (docs/script.md) as a Step, or None for a blank line or a
    comment; ValueError (or IndexError for a missing argument) says what is wrong."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    word, _, rest = stripped.partition(" ")
    word = word.lower()

    def step(*args: Any, name: str = word) -> Step:
        return Step(number, stripped, name, args)

    if word in recording.HEADER:
        # Read by the command line before the game starts; the Python API's Driver
        # was given its Launch. Either way a header is over once inputs begin.
        return step(name="header")
    if word == "end":
        return step(recording.parse_end(rest.split()))
    if word == "type":
        return step(rest[1:-1] if len(rest) >= 2 and rest[0] == rest[-1] == '"' else rest)
    if word == "text":
        text = json.loads(rest)
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise ScriptError(f"expected a JSON string of at most {MAX_TEXT} characters")
        return step(text)
    # shlex only where a line quotes or comments (it is slow: 100,000 lines are checked at once).
    args = shlex.split(rest, comments=True) if _QUOTING.search(rest) else rest.split()
    if word == "wait":
        return step(_number(args[0], MAX_WAIT + 1) if args else 1)
    if word == "key":
        return step(*(_key_press(name) for name in args))
    if word in ("down", "up"):
        for name in args:
            _key_name(name)
        return step(*args)
    if word == "move":
        _arguments(args, 2, "X Y")
        return step(_number(args[0], LOGICAL_WIDTH), _number(args[1], LOGICAL_HEIGHT))
    if word in ("press", "release"):
        return step(_button_name(args[0]) if args else "left")
    if word == "click":
        button = _button_name(args[0]) if args else "left"
        if len(args) == 2:
            raise ScriptError("expected click BUTTON X Y, or click BUTTON")
        coords = (_number(args[1], LOGICAL_WIDTH), _number(args[2], LOGICAL_HEIGHT)) if len(args) >= 3 else ()
        return step(button, *coords)
    if word == "shot":
        _arguments(args, 1, "NAME")
        return step(shot_name(args[0]))
    if word == "pixel":
        _arguments(args, 2, "X Y")
        return step(_number(args[0], MAX_PIXEL), _number(args[1], MAX_PIXEL))
    if word in ("bdown", "bup"):
        return step(*(_button_name(name) for name in args))
    raise ScriptError(f"unknown command {quoted(word, 20)}")


def _arguments(args: list[str], count: int, what: str) -> None:
    if len(args) < count:
        raise ScriptError(f"expected {what}")


def _key_press(name: str) -> str:
    """A ``key`` line's key, checked: a key name, with shift+ or ctrl+ before it."""
    parts = name.split("+") if len(name) > 1 and "+" in name[:-1] else [name]
    for mod in parts[:-1]:
        if mod.upper() not in ("SHIFT", "CTRL"):
            raise ScriptError(f"{quoted(mod, 20)} is not shift or ctrl (as in ctrl+c)")
    _key_name(parts[-1])
    return name


def _key_name(name: str) -> None:
    """A key's name, checked (a modifier, SHIFT, CTRL or ALT, is one too)."""
    if name.upper() not in _MODIFIERS:
        try:
            key_name(name)
        except ValueError:
            raise ScriptError(f"unknown key {quoted(name, 20)} (docs/script.md names the keys)") from None


def _button_name(name: str) -> str:
    _button(name)
    return name


# A shot's name is a plain file name in --shots: never a path (``shot ../../x``,
# ``shot /abs/x``), as a header's ``file`` and ``taken`` lines name only the game's files.
SHOT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


def shot_name(name: str) -> str:
    """A shot's name, checked: letters, digits, ``_ . -``, at most 64 characters, not
    starting with a dot; ValueError otherwise."""
    if not SHOT_NAME.fullmatch(name):
        raise ScriptError(f"a shot's name is a plain file name (letters, digits, _ . -; at most 64), "
                          f"not {quoted(name, 40)}")
    return name


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
        raise ScriptError(f"unknown button {quoted(name, 20)}: {', '.join(n.lower() for n in BUTTON_NAMES)}")
    return _BUTTONS[up]


def _release_everything() -> None:
    # A driver started after another in the same process begins with nothing held.
    for attr, *_ in KEYS.values():
        pyxel.set_btn(getattr(pyxel, attr), False)
    for code in (*_BUTTONS.values(), pyxel.KEY_LSHIFT, pyxel.KEY_RSHIFT, pyxel.KEY_LCTRL, pyxel.KEY_RCTRL):
        pyxel.set_btn(code, False)
    pyxel.flip()
