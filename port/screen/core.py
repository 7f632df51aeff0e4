"""The Screen unit's drawing surface: pages, the logical coordinate space, primitives.

Every screen is laid out once in the EGA's 640x350 logical space. A profile maps it
to its own pixels: x is centred (the 720-pixel-wide Hercules and PC 3270 get a
40-pixel margin each side), y is scaled by height/350 (so the 200-line CGA squeezes
rows together and the 400-line AT&T spreads them). Text keeps its 8x8 cells at every
height, as BGI's did, and cards use art made for the profile's card height.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import pyxel

from port.screen import resources
from port.screen.profiles import (BLACK, BLUE, LIGHTRED, LOGICAL_HEIGHT, LOGICAL_WIDTH, RED, WHITE,
                                  Look, Profile, profile as find_profile)
from port.screen.saver import Saver

CARD_W = resources.CARD_W
CARD_H = 64                 # a card's logical height (its pixel height is the profile's)
LOW_DECK = 7                # "If the number of cards left is 7 or lower, the number ... will be red"

# Bars on 2-colour profiles: a fill pattern per colour keeps the documentation's
# BLUE (sets), GREEN (runs), RED (layoffs, the computer's draw) and YELLOW (hint)
# bars apart where every colour is white: pyxel's ordered dither as the pattern.
_BAR_DITHER = {BLUE: 0.75, 2: 0.5, RED: 0.25}


class Rect(NamedTuple):
    """A rectangle in logical coordinates; ``in rect`` style hit-testing."""

    x: int
    y: int
    w: int
    h: int

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


def hot_indices(label: str, hot: int | str | Iterable[int] | None) -> frozenset[int]:
    """Which characters of a label are hot letters: an index, the first occurrence
    of each letter of a string (case-insensitive), or several indices."""
    if hot is None:
        return frozenset()
    if isinstance(hot, int):
        return frozenset({hot})
    if isinstance(hot, str):
        found = set()
        for letter in hot:
            i = label.upper().find(letter.upper())
            if i < 0:
                raise ValueError(f"hot letter {letter!r} is not in {label!r}")
            found.add(i)
        return frozenset(found)
    return frozenset(hot)


class Screen:
    """The display: a profile, its video pages, the font, card art and pointers.

    Drawing goes to the selected page; ``present`` shows it with the pointer on
    top (or a black screen while the saver has blanked it).
    """

    def __init__(self, profile: str | Profile = "EGA", *, laptop: bool = False,
                 noblank: bool = False, fps: int = 30) -> None:
        self.profile = find_profile(profile) if isinstance(profile, str) else profile
        self.look = Look(self.profile, laptop)
        self.width, self.height = LOGICAL_WIDTH, LOGICAL_HEIGHT
        # Paging as in the original: menus on page 1, the game on page 0. NOBLANK
        # (the documentation's cure for mouse drivers that miss page 1) and 1-page
        # modes draw everything on one page.
        self.paging = self.look.pages > 1 and not noblank
        w, h = self.profile.width, self.profile.height
        self._pages = [pyxel.Image(w, h) for _ in range(2 if self.paging else 1)]
        self._page = 0
        self._x0 = (w - LOGICAL_WIDTH) // 2
        self.font = resources.Font()
        self.cards = resources.CardSheets.load(self.profile.card_height)
        self.pointers = resources.pointers()
        self._pointer_images = [self._pointer_image(p) for p in self.pointers]
        self.pointer = 0                     # the POINTER option's shape, 0..6
        self.pointer_visible = True
        self.saver = Saver(fps=fps, enabled=not noblank)

    # ---- the display ----------------------------------------------------------------

    def activate(self) -> None:
        """Make pyxel's screen this profile's size and palette."""
        if (pyxel.width, pyxel.height) != (self.profile.width, self.profile.height):
            pyxel.resize(self.profile.width, self.profile.height)
        pyxel.colors[:] = list(self.profile.palette)

    # ---- coordinates ----------------------------------------------------------------

    def px(self, x: int) -> int:
        """The pixel column of logical x."""
        return x + self._x0

    def py(self, y: int) -> int:
        """The pixel row of logical y."""
        return y * self.profile.height // LOGICAL_HEIGHT

    def logical(self, px: int, py: int) -> tuple[int, int]:
        """The logical point of a pixel (the first logical row that maps onto it)."""
        x = min(max(px - self._x0, 0), LOGICAL_WIDTH - 1)
        y = -(-py * LOGICAL_HEIGHT // self.profile.height)
        return x, min(max(y, 0), LOGICAL_HEIGHT - 1)

    def _box(self, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int]:
        top, bottom = self.py(y), self.py(y + h)
        return self.px(x), top, w, max(bottom - top, 1)

    # ---- pages ----------------------------------------------------------------------

    @property
    def page(self) -> int:
        """The page being drawn and shown: 0 the game, 1 the menus."""
        return self._page

    def set_page(self, n: int) -> None:
        if n not in (0, 1):
            raise ValueError("pages are 0 (the game) and 1 (title, options, scores, statistics)")
        self._page = n

    @property
    def image(self) -> pyxel.Image:
        """The pyxel Image of the current page (page 1 is page 0 without paging)."""
        return self._pages[self._page if self.paging else 0]

    # ---- primitives (logical coordinates, EGA colour indices) -----------------------

    def clear(self, col: int = BLACK) -> None:
        """Fill the page with a background colour (black on mono screens)."""
        self.image.cls(self.look.bg(col))

    def fill(self, x: int, y: int, w: int, h: int, col: int) -> None:
        """A background area (a panel): black on mono screens unless WHITE."""
        self.image.rect(*self._box(x, y, w, h), self.look.bg(col))

    def bar(self, x: int, y: int, w: int, h: int, col: int) -> None:
        """A coloured bar (the meld, layoff and hint bars): a pattern on 2 colours."""
        img = self.image
        if self.look.two_colour and col in _BAR_DITHER:
            img.dither(_BAR_DITHER[col])
        img.rect(*self._box(x, y, w, h), self.look.fg(col))
        img.dither(1.0)

    def box(self, x: int, y: int, w: int, h: int, col: int, thick: int = 1) -> None:
        """A rectangle outline (the red command boxes)."""
        bx, by, bw, bh = self._box(x, y, w, h)
        for i in range(thick):
            self.image.rectb(bx + i, by + i, bw - 2 * i, bh - 2 * i, self.look.fg(col))

    def line(self, x1: int, y1: int, x2: int, y2: int, col: int) -> None:
        self.image.line(self.px(x1), self.py(y1), self.px(x2), self.py(y2), self.look.fg(col))

    def text(self, x: int, y: int, s: str, col: int = WHITE, size: int = 1) -> None:
        """Text in the 8x8 font with its top-left corner at (x, y)."""
        self.font.draw(self.image, self.px(x), self.py(y), s, self.look.fg(col), size)

    @staticmethod
    def text_width(s: str, size: int = 1) -> int:
        return resources.Font.width(s, size)

    def hot_text(self, x: int, y: int, s: str, hot: int | str | Iterable[int] | None,
                 col: int = WHITE, size: int = 1) -> None:
        """Text whose hot (keyboard) letters are light green, or bright and
        underlined on mono and LAPTOP displays ("the active keys have a line drawn
        under them")."""
        self.text(x, y, s, col, size)
        cell = 8 * size
        for i in hot_indices(s, hot):
            hx = x + cell * i
            self.font.draw(self.image, self.px(hx), self.py(y), s[i], self.look.hot(), size)
            if self.look.underline_hot:
                uy = self.py(y) + cell
                self.image.rect(self.px(hx), uy, cell - size, size, self.look.hot())

    def button(self, x: int, y: int, w: int, h: int, label: str,
               hot: int | str | Iterable[int] | None = None, *, col: int = WHITE,
               frame: int = RED, size: int = 1) -> Rect:
        """A command box: a red frame with its label centred; returns its Rect."""
        self.box(x, y, w, h, frame)
        tw = self.text_width(label, size)
        ty = y + (h - 8 * size) // 2
        # Centre on the pixel grid so a squeezed profile keeps the text inside the box.
        ty = max(y + 1, ty) if self.profile.height >= LOGICAL_HEIGHT else ty
        self.hot_text(x + (w - tw) // 2, ty, label, hot, col, size)
        return Rect(x, y, w, h)

    # ---- cards ----------------------------------------------------------------------

    def card_rect(self, x: int, y: int) -> Rect:
        return Rect(x, y, CARD_W, CARD_H)

    def _blit_card(self, x: int, y: int, card: int | None, big: bool) -> None:
        src, u, v = self.cards.source(card, big)
        img = self.image
        mapping = self.look.card_map()
        for a, b in mapping.items():
            img.pal(a, b)
        img.blt(self.px(x), self.py(y), src, u, v, CARD_W, self.cards.height, resources.TRANSPARENT)
        img.pal()

    def card(self, x: int, y: int, card: int, big: bool = False) -> Rect:
        """A card face (0..51, suit*13+rank, suits S H D C) at (x, y): the
        realistic-looking set, or the BIG CARDS set."""
        self._blit_card(x, y, card, big)
        return self.card_rect(x, y)

    def back(self, x: int, y: int) -> Rect:
        self._blit_card(x, y, None, False)
        return self.card_rect(x, y)

    def deck(self, x: int, y: int, count: int) -> Rect:
        """The deck: a stack of backs with the count "as a small white number on the
        top of the deck", (light) red at LOW_DECK or fewer (inverted on mono screens)."""
        layers = min(3, max(0, (count - 1) // 10))
        for i in range(layers, -1, -1):
            self.back(x + i, y - i)
        if count:
            # On a black label so the red of a low count reads on the blue back.
            label = str(count)
            tw = self.text_width(label)
            tx, ty = x + (CARD_W - tw) // 2, y + 4
            low = count <= LOW_DECK
            inverted = low and self.look.mono        # no red on mono: black on white
            # The badge is as tall as the 8x8 text in pixels on every profile (a logical
            # 12 would be 6 pixels on CGA's 200 lines, under 8 of text).
            self.image.rect(self.px(tx - 2), self.py(ty) - 2, tw + 3, 12,
                            self.look.bg(WHITE if inverted else BLACK))
            if inverted:
                self.font.draw(self.image, self.px(tx), self.py(ty), label, BLACK)
            else:
                # The palette's light red: dark red on black is hard to read.
                self.text(tx, ty, label, LIGHTRED if low else WHITE)
        return Rect(x, y - layers, CARD_W + layers, CARD_H + layers)

    # ---- pointers -------------------------------------------------------------------

    @staticmethod
    def _pointer_image(shape: resources.Pointer) -> pyxel.Image:
        img = pyxel.Image(16, 16)
        img.cls(resources.TRANSPARENT)
        for x, y, kind in shape.pixels():
            if kind != "invert":
                img.pset(x, y, WHITE if kind == "white" else BLACK)
        return img

    def draw_pointer(self, target: pyxel.Image, px: int, py: int, shape: int) -> None:
        """Draw pointer ``shape`` with its hotspot on pixel (px, py) of ``target``."""
        p = self.pointers[shape]
        x0, y0 = px - p.hot_x, py - p.hot_y
        target.blt(x0, y0, self._pointer_images[shape], 0, 0, 16, 16, resources.TRANSPARENT)
        for x, y, kind in p.pixels():
            if kind == "invert" and 0 <= x0 + x < target.width and 0 <= y0 + y < target.height:
                target.pset(x0 + x, y0 + y, target.pget(x0 + x, y0 + y) ^ WHITE)

    def pointer_at(self, x: int, y: int, shape: int) -> None:
        """A pointer drawn into the page itself at a logical point (for showing shapes)."""
        self.draw_pointer(self.image, self.px(x), self.py(y), shape)

    # ---- the frame ------------------------------------------------------------------

    def compose(self, target: pyxel.Image, pointer: tuple[int, int] | None) -> None:
        """What the monitor shows: the current page, the pointer at a pixel, or black
        while the saver has the screen blanked."""
        if self.saver.blank:
            target.cls(BLACK)
            return
        target.blt(0, 0, self.image, 0, 0, self.profile.width, self.profile.height)
        if pointer is not None and self.pointer_visible:
            self.draw_pointer(target, pointer[0], pointer[1], self.pointer)

    def present(self, pointer: tuple[int, int] | None) -> None:
        """Show the frame on pyxel's screen (``pointer`` in pixels, or None)."""
        self.compose(pyxel.screen, pointer)

    def snapshot(self, pointer: tuple[int, int] | None = None) -> bytes:
        """The indices of what the monitor would show: for tests and the driver."""
        img = pyxel.Image(self.profile.width, self.profile.height)
        self.compose(img, pointer)
        return resources.indices_of(img)
