"""The Main unit's screen/mouse test screen: everything the Screen unit draws, on one page.

Text at sizes 1 to 3, a suit of the realistic-looking faces, BIG CARDS faces, the
back, decks with a white and a red count, the coloured bars, the seven pointer
shapes and command boxes with hot letters; below them the last input events. It is
the first screen until the Main unit's title screen replaces it, and the screen the
reference images are made of.

Keys: P next pointer shape, B swap normal and BIG faces, G show the other video
page, Q quit. Clicking a pointer sample chooses it.
"""
from __future__ import annotations

from port.main.controller import Controller, Session
from port.mouse import BUTTON_NAMES, Event, Key, Move, Press, Release
from port.screen import (BLACK, BLUE, CARD_W, GREEN, LIGHTGRAY, RED, WHITE, YELLOW, Rect)

_NORMAL_ROW = [0 * 13 + r for r in range(13)]                  # AS..KS
_BIG_ROW = [13 + 0, 39 + 6, 9, 26 + 11, 13 + 12]               # AH 7C TS QD KH
_BAR_COLOURS = (BLUE, GREEN, RED, YELLOW)
_POINTER_X0, _POINTER_Y, _POINTER_STEP = 8, 228, 48
BUTTONS = (("BEGIN GAME", "B"), ("OPTIONS", "O"), ("POINTER", "P"), ("PAGE", "G"), ("QUIT", "Q"))


def describe(event: Event) -> str:
    """An event as one short line."""
    if isinstance(event, Key):
        what = f"EXT {event.scan:02X}" if event.extended else f"'{chr(event.ascii)}' {event.ascii}"
        return f"KEY {what} SCAN {event.scan:02X}"
    if isinstance(event, Press):
        flags = " CHORD" * event.chord + " DOUBLE" * event.double
        return f"PRESS {BUTTON_NAMES[event.button]} {event.x},{event.y}{flags}"
    if isinstance(event, Release):
        return f"RELEASE {BUTTON_NAMES[event.button]} {event.x},{event.y}"
    return f"MOVE {event.x},{event.y}"


class TestScreen:
    """The test screen's state: pointer shape, face style, page, event log."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.screen = session.screen
        self.big = False
        self.page = 0
        self.log: list[Event] = []           # every event received, for tests

    # ---- update -----------------------------------------------------------------------

    def update(self, events: list[Event]) -> Controller | None:
        for event in events:
            self.log.append(event)
            if isinstance(event, Key) and self._key(event.char) is None:
                return None
            if isinstance(event, Press) and event.button != 2 and self._click(event.x, event.y) is None:
                return None
        return self

    def _key(self, char: str) -> TestScreen | None:
        if char == "Q":
            return None
        if char == "P":
            self.screen.pointer = (self.screen.pointer + 1) % len(self.screen.pointers)
        elif char == "B":
            self.big = not self.big
        elif char == "G":
            self.page = 1 - self.page
        return self

    def _click(self, x: int, y: int) -> TestScreen | None:
        for i in range(len(self.screen.pointers)):
            if self.pointer_rect(i).contains(x, y):
                self.screen.pointer = i
        for rect, (_, hot) in zip(self.button_rects(), BUTTONS):
            if rect.contains(x, y):
                return self._key(hot)
        return self

    # ---- layout -----------------------------------------------------------------------

    @staticmethod
    def pointer_rect(i: int) -> Rect:
        return Rect(_POINTER_X0 + _POINTER_STEP * i, _POINTER_Y, 16, 16)

    @staticmethod
    def button_rects() -> list[Rect]:
        return [Rect(8 + 126 * i, 296, 118, 20) for i in range(len(BUTTONS))]

    # ---- draw -------------------------------------------------------------------------

    def draw(self) -> None:
        s = self.screen
        s.set_page(self.page)
        s.clear(GREEN if self.page == 0 else BLUE)
        self._draw_text()
        self._draw_cards()
        self._draw_pointers()
        for i, line in enumerate(describe(e) for e in self._recent()):
            s.text(8, 258 + 14 * i, line, WHITE)
        for rect, (label, hot) in zip(self.button_rects(), BUTTONS):
            s.button(*rect, label, hot)
        s.hot_text(8, 328, "HAND KEYS 1 2 3 4 5 6 7 8 9 0", range(10, 29, 2), WHITE)
        s.text(304, 328, f"PAGE {s.page}" + ("" if s.paging else " (NO PAGING)"), LIGHTGRAY)

    def _recent(self) -> list[Event]:
        return [e for e in self.log if not isinstance(e, Move)][-2:]

    def _draw_text(self) -> None:
        s = self.screen
        s.text(8, 2, "GinRummy", YELLOW, size=3)
        s.text(216, 2, "SCREEN TEST", WHITE, size=2)
        s.text(216, 30, s.profile.description[:52], LIGHTGRAY)
        chars = "".join(chr(c) for c in range(32, 127))
        s.text(0, 48, chars[:80], WHITE)
        s.text(0, 62, chars[80:], WHITE)
        s.text(128, 62, "size 1", BLACK)

    def _draw_cards(self) -> None:
        s = self.screen
        for i, card in enumerate(_NORMAL_ROW):
            s.card(8 + CARD_W * i, 84, card, big=self.big)
        for i, card in enumerate(_BIG_ROW):
            x = 8 + 52 * i
            if i < len(_BAR_COLOURS):
                s.bar(x, 150, CARD_W, 3, _BAR_COLOURS[i])
            s.card(x, 156, card, big=not self.big)
        s.back(280, 156)
        s.deck(340, 156, 31)
        s.deck(400, 156, 5)
        s.text(460, 160, "DECK 31 / 5", WHITE)

    def _draw_pointers(self) -> None:
        s = self.screen
        for i in range(len(s.pointers)):
            rect = self.pointer_rect(i)
            if i == s.pointer:
                s.box(rect.x - 2, rect.y - 2, 20, 20, YELLOW)
            s.pointer_at(rect.x + s.pointers[i].hot_x, rect.y + s.pointers[i].hot_y, i)
            s.text(rect.x + 20, rect.y + 4, str(i), WHITE)


# ---- reference images -------------------------------------------------------------------
# The stored images of tests/shell/reference/ are this screen in every profile, made by
# scripts/make_reference_images.py and compared index for index by tests/shell/test_screen_reference.py.

REFERENCE_POINTER = (332, 246)     # logical point the pointer rests on in a reference image


def reference_cases() -> dict[str, dict]:
    """Name -> Launch fields of each stored reference image."""
    from port.screen import PROFILES

    cases = {name: {"profile": name} for name in PROFILES}
    cases["EGA_LAPTOP"] = {"profile": "EGA", "laptop": True}
    cases["EGAMONO_LAPTOP"] = {"profile": "EGAMONO", "laptop": True}
    cases["EGA_BIG"] = {"profile": "EGA", "big": True}
    return cases


def reference_image(name: str):
    """Render one reference case through the driver; a png.Indexed picture."""
    from port.main.driver import Driver
    from port.main.launch import Launch
    from port.screen import png

    fields = dict(reference_cases()[name])
    big = fields.pop("big", False)
    driver = Driver.start(Launch(headless=True, **fields), TestScreen)
    driver.move(*REFERENCE_POINTER)
    driver.step()
    if big:
        driver.key("B")
    profile = driver.screen.profile
    return png.Indexed(profile.width, profile.height, driver.snapshot(), profile.palette)
