"""A person at a real X display, for tests: the pointer moved, buttons and keys pressed
through the XTEST extension (libXtst, which Xvfb serves), so a game in a real window
(``pyxel.run``) gets them as it would from a mouse and a keyboard.

    python -m tests.shell.xinput window "move 320 175" "click 1" "key b" "sleep 0.5" "key q"

Coordinates are the window's once ``window`` has found it (Xvfb runs no window
manager: the game's is the display's only window). Each word is one action; nothing
here knows a game.
"""
from __future__ import annotations

import ctypes
import sys
import time

_X11 = ctypes.CDLL("libX11.so.6")
_XTST = ctypes.CDLL("libXtst.so.6")
_X11.XOpenDisplay.restype = ctypes.c_void_p
_X11.XOpenDisplay.argtypes = [ctypes.c_char_p]
_X11.XStringToKeysym.restype = ctypes.c_ulong
_X11.XStringToKeysym.argtypes = [ctypes.c_char_p]
_X11.XKeysymToKeycode.restype = ctypes.c_ubyte
_X11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
_X11.XFlush.argtypes = [ctypes.c_void_p]
_X11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
_X11.XDefaultRootWindow.restype = ctypes.c_ulong
_X11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
_X11.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                            ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                            ctypes.POINTER(ctypes.c_uint)]
_X11.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                       ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                       ctypes.POINTER(ctypes.c_ulong)]
_XTST.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
_XTST.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
_XTST.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]


class Person:
    """One display's pointer and keyboard."""

    def __init__(self) -> None:
        self.display = _X11.XOpenDisplay(None)
        if not self.display:
            raise SystemExit("xinput: no X display")
        self.origin = (0, 0)

    def find(self, timeout: float = 30.0) -> None:
        """Wait for the game's window (the display's only one: Xvfb runs no window
        manager); later moves are relative to its corner."""
        deadline = time.monotonic() + timeout
        root = _X11.XDefaultRootWindow(self.display)
        while time.monotonic() < deadline:
            windows = self._children(root)
            if windows:
                x, y, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
                _X11.XTranslateCoordinates(self.display, windows[0], root, 0, 0, ctypes.byref(x), ctypes.byref(y),
                                           ctypes.byref(child))
                self.origin = (x.value, y.value)
                return
            time.sleep(0.1)
        raise SystemExit("xinput: no window came")

    def _children(self, window: int) -> list[int]:
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not _X11.XQueryTree(self.display, window, ctypes.byref(root), ctypes.byref(parent),
                               ctypes.byref(children), ctypes.byref(count)):
            return []
        return [children[i] for i in range(count.value)]

    def move(self, x: int, y: int) -> None:
        _XTST.XTestFakeMotionEvent(self.display, -1, self.origin[0] + x, self.origin[1] + y, 0)
        self._flush()

    def button(self, number: int, down: bool) -> None:
        _XTST.XTestFakeButtonEvent(self.display, number, int(down), 0)
        self._flush()

    def key(self, name: str, down: bool) -> None:
        code = _X11.XKeysymToKeycode(self.display, _X11.XStringToKeysym(name.encode()))
        if not code:
            raise SystemExit(f"xinput: no key {name!r}")
        _XTST.XTestFakeKeyEvent(self.display, code, int(down), 0)
        self._flush()

    def _flush(self) -> None:
        _X11.XSync(self.display, 0)


# A press held this long is seen by a game at 30 frames a second, and is not a repeat.
HOLD = 0.1


def act(person: Person, words: list[str]) -> None:
    """``window``, ``move X Y``, ``click N``, ``down N``, ``up N``, ``key NAME``
    (an X keysym name: b, Return, Escape, F1), ``sleep S``."""
    for word in words:
        verb, *args = word.split()
        if verb == "window":
            person.find()
        elif verb == "move":
            person.move(int(args[0]), int(args[1]))
        elif verb in ("down", "up"):
            person.button(int(args[0]), verb == "down")
        elif verb == "click":
            person.button(int(args[0]), True)
            time.sleep(HOLD)
            person.button(int(args[0]), False)
        elif verb == "key":
            person.key(args[0], True)
            time.sleep(HOLD)
            person.key(args[0], False)
        elif verb == "sleep":
            time.sleep(float(args[0]))
            continue
        else:
            raise SystemExit(f"xinput: unknown action {word!r}")
        time.sleep(HOLD)


if __name__ == "__main__":
    act(Person(), sys.argv[1:])
