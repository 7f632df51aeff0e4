"""Where things are on Cribbage's game screen, in the 640x350 logical space (EGA's;
docs/screen.md tells how the other profiles map it). The table uses these points for
the cards' flights; the game screen draws at them.

    y   4  the pegging board: the computer's track, then yours (above every box)
    y  62  COMPUTER's cards, face down (its crib beside them)    scores (right)
    y 146  DECK  STARTER  the play with its COUNT                messages
    y 246  your six cards (picked ones raised), your crib beside them
    y 312  1 2 3 4 5 6
    y 326  [LAY AWAY]  [LAST COUNT]  [REVIEW] [HINT] [SAVE RECORD]  [QUIT]
           (REVIEW and SAVE RECORD at a deal's end and the game's end)

The board stands at the top, clear of the information box and the show box, so the
pegs are seen to move while the box that announces them is up. Every label stands
``LABEL_GAP`` above its cards: on CGA's 200 lines that is the 8x8 text's height, so no
label is hidden behind the cards under it (docs/cribbage.md).
"""
from __future__ import annotations

from port.screen import Rect

HUMAN, COMPUTER = 0, 1
CARD_W, CARD_H = 48, 64
LINE = 14

LABEL_GAP = 16                     # a label's top above its cards' (deck's layers too)
CPU_X, CPU_Y, CPU_STEP = 40, 78, 30
CPU_LABEL_Y = CPU_Y - LABEL_GAP
HAND_X, HAND_Y, HAND_STEP = 40, 246, 54
RAISE = 10                         # a card picked for the crib stands this much higher
# Under your cards, above the command boxes: the keys 1-6 (the replay viewer: the name
# and RECORD LINE). On CGA's 200 lines the one pixel row between cards and boxes.
UNDER_Y = 312
CRIB_X = 420                       # the crib, beside its owner's cards
ROW_Y = 162                        # the middle row's cards
DECK_X, STARTER_X = 24, 84
PLAY_X, PLAY_STEP = 156, 26
MSG_X, MSG_Y = 400, 150
SCORES_X, SCORES_Y = 528, CPU_LABEL_Y    # right of the show box, under the board

LAY_AWAY_BOX = Rect(16, 326, 96, 20)
LAST_COUNT_BOX = Rect(192, 326, 112, 20)   # the port's: the last show's boxes again
HINT_BOX = Rect(384, 326, 56, 20)
QUIT_BOX = Rect(568, 326, 56, 20)
# At a hand's end and the game's end: SAVE RECORD (R), its note above the bottom row.
SAVE_BOX = Rect(448, 326, 112, 20)
REVIEW_BOX = Rect(312, 326, 64, 20)        # and REVIEW (V): docs/review.md
NOTE_X, NOTE_Y = 340, UNDER_Y

# The information box in the middle of the screen, and the show box (taller: the
# cards and the count phrase by phrase, 47 characters a line: the longest phrase with
# the five cards it names).
INFO = Rect(160, 120, 320, 84)
SHOW = Rect(120, 60, 400, 240)
YES_BOX = Rect(MSG_X + 16, 190, 48, 20)
NO_BOX = Rect(MSG_X + 72, 190, 40, 20)
AGAIN_BOX = Rect(SHOW.x + 40, SHOW.y + SHOW.h - 30, 112, 20)
MENU_BOX = Rect(SHOW.x + SHOW.w - 152, SHOW.y + SHOW.h - 30, 112, 20)


def hand_slot(seat: int, i: int) -> tuple[int, int]:
    """The top-left corner of a seat's i-th card in hand."""
    if seat == HUMAN:
        return HAND_X + i * HAND_STEP, HAND_Y
    return CPU_X + i * CPU_STEP, CPU_Y


def card_rect(i: int, raised: bool = False) -> Rect:
    """Your i-th card's hit area (cards do not overlap: the whole card)."""
    return Rect(HAND_X + i * HAND_STEP, HAND_Y - (RAISE if raised else 0), CARD_W, CARD_H)


def crib_slot(dealer: int) -> tuple[int, int]:
    return (CRIB_X, HAND_Y) if dealer == HUMAN else (CRIB_X, CPU_Y)


def play_slot(i: int) -> tuple[int, int]:
    return PLAY_X + i * PLAY_STEP, ROW_Y


DECK = (DECK_X, ROW_Y)
STARTER = (STARTER_X, ROW_Y)
DECK_RECT = Rect(DECK_X, ROW_Y, CARD_W, CARD_H)
