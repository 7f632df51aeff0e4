"""The Mouse unit: the pointer, three buttons, chords, double clicks, the pointer
shapes' owner-independent input side, and the keyboard as the DOS program saw it.

Each frame ``Mouse.poll()`` turns pyxel's devices into the game's own events:

- ``Key(ascii, scan)``: what ReadKey returned, with extended keys (arrows, F1..F10,
  ...) as ascii 0 plus the scan code; auto-repeat at the BIOS typematic rate.
- ``Press(button, x, y, double, chord)`` / ``Release(button, x, y)``: LEFT, RIGHT or
  MIDDLE at a logical point. Left and right down together are the middle button
  (the documentation's hint chord); a second press of a button within 13 frames
  (8 BIOS ticks, about 0.44 s) in the same 8-pixel cell is a double click. With
  ``long_press`` (a web page, where a touch screen's finger is the left button and
  there is no middle one; a mouse's middle button works as on the desktop), the left
  button held still for half a second is the middle button too.
  A button already down when the Mouse is made (the web page's "click to start")
  is no press, and its release is no release.
- ``Move(x, y)``: the pointer moved.

It knows nothing of gin rummy; screens react to these events, never to pyxel.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyxel

LEFT, RIGHT, MIDDLE = 0, 1, 2
BUTTON_NAMES = ("LEFT", "RIGHT", "MIDDLE")
_PYXEL_BUTTONS = (pyxel.MOUSE_BUTTON_LEFT, pyxel.MOUSE_BUTTON_RIGHT, pyxel.MOUSE_BUTTON_MIDDLE)

# Turbo Vision's double-click: 8 BIOS ticks (1/18.2 s each) is 0.44 s, 13 frames at 30.
DOUBLE_CLICK_SECONDS = 8 / 18.2
DOUBLE_CLICK_CELL = 8
# The BIOS typematic default: repeat after 0.5 s, then about 10 per second.
REPEAT_DELAY_SECONDS = 0.5
REPEAT_EVERY_SECONDS = 0.1
# A long press: the left button held this long within LONG_PRESS_SLOP pixels of where
# it went down (half a second, as touch screens' own long press).
LONG_PRESS_SECONDS = 0.5
LONG_PRESS_SLOP = 8


@dataclass(frozen=True)
class Key:
    """A key as ReadKey saw it: ASCII code, or 0 and the scan code for extended keys."""

    ascii: int
    scan: int

    @property
    def extended(self) -> bool:
        return self.ascii == 0

    @property
    def char(self) -> str:
        """The character, upper-cased (commands are case-insensitive); '' if extended."""
        return "" if self.extended else chr(self.ascii).upper()


@dataclass(frozen=True)
class Press:
    button: int
    x: int
    y: int
    double: bool = False
    chord: bool = False       # the middle button made of others: left and right together,
                              # or (with long_press) the left held still


@dataclass(frozen=True)
class Release:
    button: int
    x: int
    y: int


@dataclass(frozen=True)
class Move:
    x: int
    y: int


Event = Key | Press | Release | Move

# ---- the keyboard table ----------------------------------------------------------------
# name: (pyxel key attribute, scan code, ASCII, ASCII with shift); ASCII 0 = extended.
_US_SHIFTED = dict(zip("1234567890-=[];'`\\,./", "!@#$%^&*()_+{}:\"~|<>?"))
KEYS: dict[str, tuple[str, int, int, int]] = {}


def _add(name: str, attr: str, scan: int, ascii_: int, shifted: int | None = None) -> None:
    KEYS[name] = (attr, scan, ascii_, ascii_ if shifted is None else shifted)


for _row, _first in (("QWERTYUIOP", 0x10), ("ASDFGHJKL", 0x1E), ("ZXCVBNM", 0x2C)):
    for _i, _ch in enumerate(_row):
        _add(_ch, f"KEY_{_ch}", _first + _i, ord(_ch.lower()), ord(_ch))
for _i, _ch in enumerate("1234567890"):
    _add(_ch, f"KEY_{_ch}", 0x02 + _i, ord(_ch), ord(_US_SHIFTED[_ch]))
for _name, _attr, _scan, _ch in (
        ("MINUS", "KEY_MINUS", 0x0C, "-"), ("EQUALS", "KEY_EQUALS", 0x0D, "="),
        ("LEFTBRACKET", "KEY_LEFTBRACKET", 0x1A, "["), ("RIGHTBRACKET", "KEY_RIGHTBRACKET", 0x1B, "]"),
        ("SEMICOLON", "KEY_SEMICOLON", 0x27, ";"), ("QUOTE", "KEY_QUOTE", 0x28, "'"),
        ("BACKQUOTE", "KEY_BACKQUOTE", 0x29, "`"), ("BACKSLASH", "KEY_BACKSLASH", 0x2B, "\\"),
        ("COMMA", "KEY_COMMA", 0x33, ","), ("PERIOD", "KEY_PERIOD", 0x34, "."),
        ("SLASH", "KEY_SLASH", 0x35, "/")):
    _add(_name, _attr, _scan, ord(_ch), ord(_US_SHIFTED[_ch]))
_add("ESC", "KEY_ESCAPE", 0x01, 27)
_add("BACKSPACE", "KEY_BACKSPACE", 0x0E, 8)
_add("TAB", "KEY_TAB", 0x0F, 9)
_add("ENTER", "KEY_RETURN", 0x1C, 13)
_add("SPACE", "KEY_SPACE", 0x39, 32)
_add("KP_ENTER", "KEY_KP_ENTER", 0x1C, 13)
_add("KP_MINUS", "KEY_KP_MINUS", 0x4A, ord("-"))       # the grey minus
_add("KP_PLUS", "KEY_KP_PLUS", 0x4E, ord("+"))         # the grey plus
_add("KP_MULTIPLY", "KEY_KP_MULTIPLY", 0x37, ord("*"))
for _i in range(10):
    _add(f"F{_i + 1}", f"KEY_F{_i + 1}", 0x3B + _i, 0)
for _name, _attr, _scan in (("UP", "KEY_UP", 0x48), ("LEFT", "KEY_LEFT", 0x4B), ("RIGHT", "KEY_RIGHT", 0x4D),
                            ("DOWN", "KEY_DOWN", 0x50), ("HOME", "KEY_HOME", 0x47), ("END", "KEY_END", 0x4F),
                            ("PAGEUP", "KEY_PAGEUP", 0x49), ("PAGEDOWN", "KEY_PAGEDOWN", 0x51),
                            ("INSERT", "KEY_INSERT", 0x52), ("DELETE", "KEY_DELETE", 0x53)):
    _add(_name, _attr, _scan, 0)

# Aliases a script may use.
KEY_ALIASES = {"ESCAPE": "ESC", "RETURN": "ENTER", "-": "MINUS", "=": "EQUALS", "+": "KP_PLUS",
               " ": "SPACE", ",": "COMMA", ".": "PERIOD", "/": "SLASH", ";": "SEMICOLON"}
# Keys that leave text behind (pyxel also reports them in input_text).
_TEXT_KEYS = frozenset(name for name, (_, _, a, _) in KEYS.items() if 32 <= a < 127)
_SCAN_OF_CHAR = {chr(a): scan for name, (_, scan, a, s) in KEYS.items() for a in (a, s) if a}


def key_name(name: str) -> str:
    """The table name of a key written in a script: "b", "Enter", "esc", "F1", "-"."""
    up = name if name in KEY_ALIASES else name.upper()
    up = KEY_ALIASES.get(up, up)
    if up not in KEYS:
        raise ValueError(f"unknown key {name!r}; keys are {', '.join(KEYS)}")
    return up


def pyxel_key(name: str) -> int:
    """The pyxel key code of a key name."""
    return getattr(pyxel, KEYS[key_name(name)][0])


def key_event(name: str, shift: bool = False) -> Key:
    """The Key event a press of a named key makes."""
    _, scan, plain, shifted = KEYS[key_name(name)]
    return Key(shifted if shift else plain, scan)


def char_event(ch: str) -> Key:
    """The Key event of a typed character (text entry); scan 0 if no key makes it."""
    return Key(ord(ch) if ord(ch) < 256 else ord("?"), _SCAN_OF_CHAR.get(ch, 0))


class Mouse:
    """Polls pyxel once a frame and keeps the pointer and button state.

    ``to_logical`` maps a pixel to the screen's logical coordinates (the Screen's
    ``logical``); ``nokeyboard`` drops every key except while ``text_entry`` is on
    (the documentation: NOKEYBOARD "will disable all keyboard input for the game
    except for when changing the player name"); ``long_press`` makes the left button
    held still a chorded middle press. pyxel must be initialised.
    """

    def __init__(self, *, to_logical: Callable[[int, int], tuple[int, int]] | None = None,
                 size: tuple[int, int] = (640, 350), fps: int = 30, nokeyboard: bool = False,
                 present: bool = True, long_press: bool = False) -> None:
        self.to_logical = to_logical or (lambda x, y: (x, y))
        self.size = size
        self.fps = fps
        self.nokeyboard = nokeyboard
        self.present = present        # a mouse was found (pyxel always has one)
        self.text_entry = False       # typing a name: characters come as typed text
        self.frame = 0
        self.pixel = (0, 0)           # the pointer in pixels, for drawing it
        self.x, self.y = 0, 0         # the pointer in logical coordinates
        # Buttons down already belong to something before the game (the page's click).
        self._down = [pyxel.btn(b) for b in _PYXEL_BUTTONS] if present else [False] * 3
        self._ignored = list(self._down)
        self._chord = False
        self._last_press: dict[int, tuple[int, tuple[int, int]]] = {}
        self.double_frames = round(DOUBLE_CLICK_SECONDS * fps)
        self._hold = round(REPEAT_DELAY_SECONDS * fps)
        self._repeat = max(1, round(REPEAT_EVERY_SECONDS * fps))
        self.long_press_frames = round(LONG_PRESS_SECONDS * fps) if long_press else None
        self._left_down_at: tuple[int, tuple[int, int]] | None = None   # frame, pixel

    # ---- polling ----------------------------------------------------------------------

    def poll(self) -> list[Event]:
        """This frame's events, in the order pointer, buttons, keys."""
        self.frame += 1
        events: list[Event] = []
        self._poll_pointer(events)
        if self.present:
            self._poll_buttons(events)
        self._poll_keys(events)
        return events

    def _poll_pointer(self, events: list[Event]) -> None:
        px = min(max(pyxel.mouse_x, 0), self.size[0] - 1)
        py = min(max(pyxel.mouse_y, 0), self.size[1] - 1)
        if (px, py) != self.pixel:
            self.pixel = (px, py)
            self.x, self.y = self.to_logical(px, py)
            events.append(Move(self.x, self.y))

    def _poll_buttons(self, events: list[Event]) -> None:
        now = [pyxel.btn(b) for b in _PYXEL_BUTTONS]
        pressed = [now[b] and not self._down[b] for b in range(3)]
        released = [self._down[b] and not now[b] for b in range(3)]
        # Left and right down together are the middle button: whichever came second
        # (or both in one frame) becomes the chord; a first press alone was already
        # acted on, which is why the documentation warns to chord off choice areas.
        chord = now[LEFT] and now[RIGHT] and (pressed[LEFT] or pressed[RIGHT]) and not self._chord
        for b in (LEFT, RIGHT, MIDDLE):
            if pressed[b] and not (chord and b != MIDDLE and (pressed[LEFT + RIGHT - b] or now[LEFT + RIGHT - b])):
                events.append(self._press(b))
        if chord:
            self._chord = True
            events.append(self._press(MIDDLE, chord=True))
        if self._long_press(pressed[LEFT], now[LEFT]):
            events.append(self._press(MIDDLE, chord=True))
        for b in (LEFT, RIGHT, MIDDLE):
            if released[b] and not self._ignored[b]:
                events.append(Release(b, self.x, self.y))
            if released[b]:
                self._ignored[b] = False
        if not (now[LEFT] and now[RIGHT]):
            self._chord = False
        self._down = now

    def _long_press(self, pressed: bool, down: bool) -> bool:
        """Whether the left button has just been held still long enough (once a press)."""
        if self.long_press_frames is None or not down or self._ignored[LEFT]:
            self._left_down_at = None
            return False
        if pressed:
            self._left_down_at = (self.frame, self.pixel)
            return False
        if self._left_down_at is None:
            return False                     # already fired, or moved away
        since, (x0, y0) = self._left_down_at
        if abs(self.pixel[0] - x0) > LONG_PRESS_SLOP or abs(self.pixel[1] - y0) > LONG_PRESS_SLOP:
            self._left_down_at = None
            return False
        if self.frame - since < self.long_press_frames:
            return False
        self._left_down_at = None
        return True

    def _press(self, button: int, chord: bool = False) -> Press:
        cell = (self.pixel[0] // DOUBLE_CLICK_CELL, self.pixel[1] // DOUBLE_CLICK_CELL)
        last = self._last_press.get(button)
        double = last is not None and self.frame - last[0] <= self.double_frames and last[1] == cell
        # A double click uses up its first press: a third click starts afresh.
        self._last_press[button] = (-10**9, cell) if double else (self.frame, cell)
        return Press(button, self.x, self.y, double, chord)

    def _poll_keys(self, events: list[Event]) -> None:
        if self.nokeyboard and not self.text_entry:
            return
        # set_btn on a left/right modifier does not light pyxel's combined key: ask all.
        shift = any(pyxel.btn(k) for k in (pyxel.KEY_SHIFT, pyxel.KEY_LSHIFT, pyxel.KEY_RSHIFT))
        ctrl = any(pyxel.btn(k) for k in (pyxel.KEY_CTRL, pyxel.KEY_LCTRL, pyxel.KEY_RCTRL))
        for name, (attr, scan, plain, shifted) in KEYS.items():
            if self.text_entry and name in _TEXT_KEYS:
                continue            # typed characters arrive as text below
            if pyxel.btnp(getattr(pyxel, attr), self._hold, self._repeat):
                ascii_ = shifted if shift else plain
                if ctrl and name.isalpha() and len(name) == 1:
                    ascii_ = ord(name) - 64        # Ctrl+letter: ^A = 1 .. ^Z = 26
                events.append(Key(ascii_, scan))
        if self.text_entry:
            events.extend(char_event(ch) for ch in pyxel.input_text)

    # ---- queries ----------------------------------------------------------------------

    def down(self, button: int) -> bool:
        return self._down[button]
