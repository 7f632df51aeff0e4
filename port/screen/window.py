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
EGA = (640, 350)     # the profile every screen is laid out for: no window is smaller than its
SDL_INIT_VIDEO = 0x20
WINDOWPOS_CENTERED = 0x2FFF0000      # SDL_WINDOWPOS_CENTERED


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


def fitting_size(width: int, height: int, desktop: tuple[int, int]) -> tuple[int, int]:
    """The window's size on this desktop: the largest whole scale that fits, unless
    that leaves the window smaller than EGA's 640x350 would be here (HERC's 720 pixels
    on a 1366-wide desktop: 1x, where EGA opens at 2x); then the largest size of the
    profile's shape that fits, up to EGA's scale (its pixels no longer whole, but the
    window as large as the other displays' rather than half their size)."""
    dw, dh = desktop
    whole = fitting_scale(width, height, desktop)
    ega = fitting_scale(EGA[0], EGA[1], desktop)
    if whole >= ega:
        return width * whole, height * whole
    f = min(dw / width, (dh - TITLE_BAR) / height, float(ega))
    return int(width * f), int(height * f)


def window_scale(width: int, height: int) -> int | None:
    """The scale to open a width x height window at, or None to let pyxel choose."""
    desktop = desktop_size()
    return None if desktop is None else fitting_scale(width, height, desktop)


def grow_window(width: int, height: int, scale: int) -> tuple[int, int] | None:
    """After pyxel has opened its window at the whole ``scale``: where the desktop has
    room for a larger one (``fitting_size``), the window is made that size and pyxel
    scales the screen into it. The new size, or None where nothing changed."""
    desktop = desktop_size()
    if desktop is None:
        return None
    size = fitting_size(width, height, desktop)
    if size == (width * scale, height * scale):
        return None
    sdl = _pyxel_sdl()
    if sdl is None:
        return None
    try:
        sdl.SDL_GL_GetCurrentWindow.restype = ctypes.c_void_p
        window = sdl.SDL_GL_GetCurrentWindow()
        if not window:
            return None
        sdl.SDL_SetWindowSize(ctypes.c_void_p(window), *size)
        # Centred again: it was placed for its first, smaller size.
        sdl.SDL_SetWindowPosition(ctypes.c_void_p(window), WINDOWPOS_CENTERED, WINDOWPOS_CENTERED)
    except (AttributeError, OSError):
        return None
    import pyxel
    pyxel.integer_scale(False)          # fill the window: the scale is not whole
    return size
