"""The window's size on the desktop: the largest whole scale of the profile that fits.

pyxel picks its own window scale from three quarters of the display, which on a
1366x768 laptop opens a 640x350 game at 1x: a postage stamp. A DOS player had the
whole monitor; we open at the largest whole multiple that fits the desktop's usable
area (what the taskbar leaves), less room for the window's title bar. Whole multiples
keep every EGA pixel square and the 8x8 text sharp.

The desktop's size comes from SDL, the library pyxel itself opens the window with: the
copy pyxel ships is asked before pyxel starts (initialising SDL's video twice is
counted, not repeated). Where it cannot be asked (no such library, no display, a
browser) pyxel's own choice stands.
"""
from __future__ import annotations

import ctypes
import sys
from pathlib import Path

TITLE_BAR = 40       # pixels a window manager's decoration may take above the window
SDL_INIT_VIDEO = 0x20


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


def fitting_scale(width: int, height: int, desktop: tuple[int, int]) -> int:
    """The largest whole scale at which a width x height screen fits the desktop (w, h)
    with room for a title bar; never less than 1."""
    dw, dh = desktop
    return max(1, min(dw // width, (dh - TITLE_BAR) // height))


def desktop_size() -> tuple[int, int] | None:
    """The usable area of the first display, or None where it cannot be known."""
    if sys.platform == "emscripten":
        return None                    # the browser sizes the canvas itself
    sdl = _pyxel_sdl()
    if sdl is None:
        return None
    try:
        if sdl.SDL_Init(SDL_INIT_VIDEO) != 0:
            return None
        rect = _Rect()
        if sdl.SDL_GetDisplayUsableBounds(0, ctypes.byref(rect)) != 0 or rect.w <= 0 or rect.h <= 0:
            return None
        return rect.w, rect.h
    except (AttributeError, OSError):
        return None


def _pyxel_sdl() -> ctypes.CDLL | None:
    """The SDL library pyxel loads (its own copy when it ships one)."""
    try:
        import pyxel
    except ImportError:
        return None
    libs = Path(pyxel.__file__).parent / "libs"
    names = sorted(libs.glob("*SDL2*")) if libs.is_dir() else []
    for name in names:
        try:
            return ctypes.CDLL(str(name))
        except OSError:
            continue
    return None


def window_scale(width: int, height: int) -> int | None:
    """The scale to open a width x height window at, or None to let pyxel choose."""
    desktop = desktop_size()
    return None if desktop is None else fitting_scale(width, height, desktop)
