"""The Screen unit's resources: the 8x8 font, card sheets and pointer shapes from pyxres/.

Everything is read once into pyxel Images (faces are rendered once and blitted,
never redrawn pixel by pixel) when a Screen is made; ``scripts/build_resources.py``
builds the files from the readable sources in ``pyxres/src/``.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyxel

import port
from port.screen import png

PYXRES = Path(port.__file__).resolve().parent.parent / "pyxres"
CARD_W = 48
TRANSPARENT = 13          # the card sheets' colour key (light magenta, unused by the art)
BACK_COLUMN = 13          # the back sits in column 13 of a sheet's first row


def image_from(pic: png.Indexed) -> pyxel.Image:
    """A pyxel Image holding exactly the indices of an indexed picture."""
    img = pyxel.Image(pic.width, pic.height)
    ctypes.memmove(img.data_ptr(), pic.pixels, len(pic.pixels))
    return img


def indices_of(img: pyxel.Image) -> bytes:
    """The colour indices of a pyxel Image, row by row."""
    return bytes(img.data_ptr()[:img.width * img.height])


# ---- font ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def glyphs() -> dict[int, tuple[int, ...]]:
    """The font's glyphs from the BDF: code -> 8 row bytes (bit 7 = leftmost pixel)."""
    out: dict[int, tuple[int, ...]] = {}
    code, rows, in_bitmap = None, [], False
    for line in (PYXRES / "font8x8.bdf").read_text().splitlines():
        word = line.split(" ", 1)[0]
        if word == "ENCODING":
            code = int(line.split()[1])
        elif word == "BITMAP":
            rows, in_bitmap = [], True
        elif word == "ENDCHAR":
            out[code] = tuple(rows)
            in_bitmap = False
        elif in_bitmap:
            rows.append(int(line, 16))
    return out


@lru_cache(maxsize=None)
def _runs(code: int) -> tuple[tuple[int, int, int], ...]:
    """A glyph as horizontal runs (x, y, length): few rectangles per scaled glyph."""
    out = []
    for y, bits in enumerate(glyphs().get(code, glyphs()[32])):
        x = 0
        while x < 8:
            if bits & (0x80 >> x):
                start = x
                while x < 8 and bits & (0x80 >> x):
                    x += 1
                out.append((start, y, x - start))
            else:
                x += 1
    return tuple(out)


class Font:
    """BGI's DefaultFont in spirit: 8x8 cells, size n draws each glyph 8n x 8n."""

    def __init__(self) -> None:
        self._pyxel_font = pyxel.Font(str(PYXRES / "font8x8.bdf"))

    @staticmethod
    def width(s: str, size: int = 1) -> int:
        return 8 * size * len(s)

    def draw(self, img: pyxel.Image, x: int, y: int, s: str, col: int, size: int = 1) -> None:
        if size == 1:
            img.text(x, y, s, col, self._pyxel_font)
            return
        for i, ch in enumerate(s):
            gx = x + 8 * size * i
            for rx, ry, n in _runs(ord(ch)):
                img.rect(gx + rx * size, y + ry * size, n * size, size, col)


# ---- cards --------------------------------------------------------------------------

@dataclass
class CardSheets:
    """The normal and BIG faces and the back at one card height."""

    height: int
    normal: pyxel.Image
    big: pyxel.Image

    @classmethod
    def load(cls, height: int) -> CardSheets:
        return cls(height, image_from(_sheet("normal", height)), image_from(_sheet("big", height)))

    def source(self, card: int | None, big: bool) -> tuple[pyxel.Image, int, int]:
        """Where a face (or the back, card None) is: image, u, v."""
        if card is None:
            return self.normal, BACK_COLUMN * CARD_W, 0
        if not 0 <= card < 52:
            raise ValueError(f"no card {card}: cards are 0..51")
        img = self.big if big else self.normal
        return img, card % 13 * CARD_W, card // 13 * self.height


@lru_cache(maxsize=None)
def _sheet(style: str, height: int) -> png.Indexed:
    return png.read(PYXRES / f"cards_{style}_{height}.png")


# ---- pointers -----------------------------------------------------------------------

@dataclass(frozen=True)
class Pointer:
    """A 16x16 graphics pointer as INT 33h took it: AND (screen) and XOR (cursor)
    masks, one int per row with bit 15 the leftmost pixel, and a hotspot."""

    name: str
    hot_x: int
    hot_y: int
    screen_mask: tuple[int, ...]
    cursor_mask: tuple[int, ...]

    def pixels(self) -> list[tuple[int, int, str]]:
        """(x, y, kind) of every pixel that is not transparent: 'black', 'white', 'invert'."""
        out = []
        for y in range(16):
            for x in range(16):
                bit = 0x8000 >> x
                s, c = bool(self.screen_mask[y] & bit), bool(self.cursor_mask[y] & bit)
                if not s:
                    out.append((x, y, "white" if c else "black"))
                elif c:
                    out.append((x, y, "invert"))
        return out


_MASKS = {".": (1, 0), "k": (0, 0), "w": (0, 1), "x": (1, 1)}


@lru_cache(maxsize=None)
def pointers() -> tuple[Pointer, ...]:
    """The seven shapes of pyxres/src/pointers.txt, in POINTER order."""
    shapes: list[Pointer] = []
    head, rows = None, []

    def finish() -> None:
        if head is None:
            return
        parts = head.split()
        hot = parts.index("hot")
        if len(rows) != 16 or any(len(r) != 16 for r in rows):
            raise ValueError(f"pointer {parts[0]} is not 16x16")
        screen = tuple(sum(_MASKS[ch][0] << (15 - i) for i, ch in enumerate(r)) for r in rows)
        cursor = tuple(sum(_MASKS[ch][1] << (15 - i) for i, ch in enumerate(r)) for r in rows)
        shapes.append(Pointer(" ".join(parts[1:hot]), int(parts[hot + 1]), int(parts[hot + 2]),
                              screen, cursor))

    for line in (PYXRES / "src" / "pointers.txt").read_text().splitlines():
        if not line or line.startswith(";"):
            continue
        if line.startswith("@"):
            finish()
            head, rows = line[1:].strip(), []
        else:
            rows.append(line)
    finish()
    return tuple(shapes)
