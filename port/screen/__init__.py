"""The Screen unit: display profiles, video pages, 8x8 text, card and pointer images,
the screen saver and the drawing primitives (boxes, bars, buttons with hot letters).

Knows nothing of gin rummy: a card is an int 0..51 (suit*13+rank, suits S H D C),
a pointer shape an index 0..6. See docs/screen.md.
"""
from __future__ import annotations

from port.screen.core import CARD_H, CARD_W, LOW_DECK, Rect, Screen, hot_indices
from port.screen.profiles import (BLACK, BLUE, BROWN, COLOUR_NAMES, CYAN, DARKGRAY, DEFAULT_PROFILE,
                                  EGA_PALETTE, GREEN, LIGHTBLUE, LIGHTCYAN, LIGHTGRAY, LIGHTGREEN,
                                  LIGHTMAGENTA, LIGHTRED, LOGICAL_HEIGHT, LOGICAL_WIDTH, MAGENTA,
                                  PROFILES, RED, WHITE, YELLOW, Look, Profile, profile)
from port.screen.saver import Saver

__all__ = [
    "BLACK", "BLUE", "BROWN", "CARD_H", "CARD_W", "COLOUR_NAMES", "CYAN", "DARKGRAY",
    "DEFAULT_PROFILE", "EGA_PALETTE", "GREEN", "LIGHTBLUE", "LIGHTCYAN", "LIGHTGRAY",
    "LIGHTGREEN", "LIGHTMAGENTA", "LIGHTRED", "LOGICAL_HEIGHT", "LOGICAL_WIDTH", "LOW_DECK",
    "MAGENTA", "PROFILES", "RED", "Rect", "Saver", "Screen", "WHITE", "YELLOW", "Look",
    "Profile", "hot_indices", "profile",
]
