"""The pegging board: a track of holes for each player, 121 (or 61) long, in groups of
five as on a wooden board, with a start hole before them and the game hole after.
Each player has two pegs: the front peg marks the score, the back peg the score before
the last points, and the back one leapfrogs the front with every score. When skunking
is on, a line marks the skunk point: "after the 90th hole; for a 61 point limit it is
after the 30th"."""
from __future__ import annotations

from port.cribbage.main.layout import COMPUTER, HUMAN
from port.screen import Rect, Screen
from port.screen.profiles import (BROWN, DARKGRAY, GREEN, LIGHTGRAY, LIGHTGREEN, LIGHTMAGENTA,
                                  LIGHTRED, RED, WHITE)

BOARD = Rect(8, 4, 624, 52)      # at the top of the screen, above every box
START_X = 24            # the start hole
FIRST_X = 40            # hole 1
GAME_X = 620            # the game hole (the limit)
TRACK_Y = {COMPUTER: 18, HUMAN: 40}
PEG_COLOURS = {COMPUTER: (LIGHTRED, RED), HUMAN: (LIGHTGREEN, GREEN)}   # front, back


def spacing(limit: int) -> tuple[int, int]:
    """A hole's pitch and the gap between groups of five, so either board fills the
    same length (120 holes of 4 pixels, or 60 of 8)."""
    return (4, 4) if limit > 61 else (8, 8)


def hole_x(limit: int, hole: int) -> int:
    """The x of a hole: 0 the start, 1..limit-1 the track, ``limit`` the game hole."""
    if hole <= 0:
        return START_X
    if hole >= limit:
        return GAME_X
    pitch, gap = spacing(limit)
    i = hole - 1
    return FIRST_X + i * pitch + (i // 5) * gap


def skunk_x(limit: int) -> int:
    """Between the last hole of a skunk and the first that escapes it."""
    line = limit - 30            # the skunk point: the least score that escapes
    return (hole_x(limit, line - 1) + hole_x(limit, line)) // 2


def draw_board(s: Screen, limit: int, skunking: bool, front: tuple[int, int] | list[int],
               back: tuple[int, int] | list[int], other: str = "C", mine: str = "Y") -> None:
    """The board and both pairs of pegs; ``other`` marks the opponent's track (C for the
    computer; a room game puts the person's initial there), ``mine`` yours (Y; a
    watcher's screen: the first player's initial)."""
    s.fill(*BOARD, BROWN)
    s.box(*BOARD, LIGHTGRAY)
    for seat, y in TRACK_Y.items():
        for hole in range(limit + 1):
            x = hole_x(limit, hole)
            big = hole in (0, limit) or hole % 30 == 0
            s.bar(x - 1, y - 1, 3 if big else 2, 3 if big else 2, WHITE if big else DARKGRAY)
        s.text(BOARD.x + 3, y - 4, other[:1] if seat == COMPUTER else mine[:1], LIGHTGRAY)
    if skunking:
        x = skunk_x(limit)
        s.bar(x, BOARD.y + 3, 1, BOARD.h - 6, LIGHTMAGENTA)
    for seat, y in TRACK_Y.items():
        lead, trail = PEG_COLOURS[seat]
        for score, col in ((back[seat], trail), (front[seat], lead)):
            x = hole_x(limit, score)
            s.bar(x - 2, y - 6, 4, 9, col)
