#!/usr/bin/env python3
"""Build pyxres/ from the readable sources in pyxres/src/.

- pyxres/src/font8x8.txt  -> pyxres/font8x8.bdf (the 8x8 text font, BDF 2.1)
- pyxres/src/cards.txt    -> pyxres/cards_<style>_<height>.png: the card faces of
  the default ("realistic-looking") and BIG CARDS sets plus the back, for the
  64-pixel-high cards and the 36-pixel-high ones of the 200-line CGA profile
- pyxres/src/pointers.txt -> pyxres/pointers.png, a preview of the seven pointers
  (the game reads pointers.txt itself)

A sheet has one row per suit (S H D C) and one column per rank (A..K); column 13
of row 0 holds the back. Pixels are EGA colour indices; TRANSPARENT marks the
rounded corners. Run: .venv/bin/python scripts/build_resources.py
"""
from __future__ import annotations

import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP))

from port.screen import png  # noqa: E402  (after the path fix, to run as a plain script)
from port.screen.profiles import EGA_PALETTE  # noqa: E402

SRC = TOP / "pyxres" / "src"
OUT = TOP / "pyxres"

CARD_W = 48
HEIGHTS = (64, 36)
TRANSPARENT = 13          # light magenta: never used by the card art itself
BLACK, BLUE, RED, LIGHTGRAY, LIGHTBLUE, YELLOW, WHITE = 0, 1, 4, 7, 9, 14, 15
SUITS = "SHDC"
RANKS = "A23456789TJQK"
INKS = {"k": BLACK, "r": RED, "b": BLUE, "y": YELLOW, "w": WHITE, "g": LIGHTGRAY}

Grid = list[list[int]]


# ---- reading the sources ------------------------------------------------------------

def read_pictures(path: Path) -> dict[str, list[str]]:
    """"@ NAME" blocks of rows; lines starting with ';' are comments."""
    pics: dict[str, list[str]] = {}
    name = None
    for line in path.read_text().splitlines():
        if not line or line.startswith(";"):
            continue
        if line.startswith("@"):
            name = line[1:].strip()
            pics[name] = []
        elif name is not None:
            pics[name].append(line.rstrip())
    for key, rows in pics.items():
        if len({len(r) for r in rows}) != 1:
            raise SystemExit(f"{path.name}: picture {key!r} has rows of different lengths")
    return pics


def read_font() -> dict[int, list[str]]:
    return {int(k, 16): rows for k, rows in read_pictures(SRC / "font8x8.txt").items()}


# ---- the font -----------------------------------------------------------------------

def write_bdf(glyphs: dict[int, list[str]], path: Path) -> None:
    """An 8x8 BDF whose every glyph fills its whole cell (ascent 8, no descent),
    so a glyph drawn at (x, y) covers exactly (x..x+7, y..y+7) like BGI's."""
    lines = ["STARTFONT 2.1", "FONT -ginrummy-default8x8-medium-r-normal--8-80-75-75-c-80-iso8859-1",
             "SIZE 8 75 75", "FONTBOUNDINGBOX 8 8 0 0", "STARTPROPERTIES 4",
             "FONT_ASCENT 8", "FONT_DESCENT 0", 'COPYRIGHT "CC0 1.0, drawn for the GinRummy port"',
             "DEFAULT_CHAR 32", "ENDPROPERTIES", f"CHARS {len(glyphs)}"]
    for code in sorted(glyphs):
        lines += [f"STARTCHAR U+{code:04X}", f"ENCODING {code}", "SWIDTH 500 0", "DWIDTH 8 0",
                  "BBX 8 8 0 0", "BITMAP"]
        lines += [f"{int(row.replace('#', '1').replace('.', '0'), 2):02X}" for row in glyphs[code]]
        lines.append("ENDCHAR")
    lines.append("ENDFONT")
    path.write_text("\n".join(lines) + "\n")


# ---- drawing into grids -------------------------------------------------------------

def blank(w: int, h: int, col: int) -> Grid:
    return [[col] * w for _ in range(h)]


def stamp(grid: Grid, x: int, y: int, rows: list[str], ink: int, scale: int = 1,
          turned: bool = False) -> None:
    """Draw a picture; '#' takes ``ink``, letters their own colour, '.' nothing."""
    if turned:                       # half a circle, as the lower pips of a real card
        rows = [r[::-1] for r in rows[::-1]]
    for j, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch == ".":
                continue
            col = ink if ch == "#" else INKS[ch]
            for dy in range(scale):
                for dx in range(scale):
                    grid[y + j * scale + dy][x + i * scale + dx] = col


def frame(grid: Grid) -> None:
    """White card with a black edge and rounded (transparent) corners."""
    h, w = len(grid), len(grid[0])
    for x in range(w):
        grid[0][x] = grid[h - 1][x] = BLACK
    for y in range(h):
        grid[y][0] = grid[y][w - 1] = BLACK
    for cx, cy, dx, dy in ((0, 0, 1, 1), (w - 1, 0, -1, 1), (0, h - 1, 1, -1), (w - 1, h - 1, -1, -1)):
        grid[cy][cx] = grid[cy][cx + dx] = grid[cy + dy][cx] = TRANSPARENT
        grid[cy + dy][cx + dx] = BLACK


def ink_of(suit: str) -> int:
    return RED if suit in "HD" else BLACK


def text_width(s: str, scale: int) -> int:
    return 8 * scale * len(s)


# Pip positions of the default faces: (column, row), columns 0 left / 1 centre /
# 2 right, rows as a fraction of the pip area from top (0) to bottom (1).
PIP_LAYOUT: dict[str, list[tuple[int, float]]] = {
    "2": [(1, 0), (1, 1)],
    "3": [(1, 0), (1, .5), (1, 1)],
    "4": [(0, 0), (2, 0), (0, 1), (2, 1)],
    "5": [(0, 0), (2, 0), (1, .5), (0, 1), (2, 1)],
    "6": [(0, 0), (2, 0), (0, .5), (2, .5), (0, 1), (2, 1)],
    "7": [(0, 0), (2, 0), (1, .25), (0, .5), (2, .5), (0, 1), (2, 1)],
    "8": [(0, 0), (2, 0), (1, .25), (0, .5), (2, .5), (1, .75), (0, 1), (2, 1)],
    "9": [(0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, .5), (0, 2 / 3), (2, 2 / 3), (0, 1), (2, 1)],
    "T": [(0, 0), (2, 0), (1, 1 / 6), (0, 1 / 3), (2, 1 / 3), (0, 2 / 3), (2, 2 / 3), (1, 5 / 6), (0, 1), (2, 1)],
}


class Art:
    def __init__(self) -> None:
        self.pics = read_pictures(SRC / "cards.txt")
        self.font = read_font()

    def pic(self, kind: str, key: str) -> list[str]:
        return self.pics[f"{kind} {key}"]

    def index(self, grid: Grid, rank: str, suit: str, tall: bool) -> None:
        """The corner index (rank over suit), top left and turned at bottom right."""
        h, w = len(grid), len(grid[0])
        ink = ink_of(suit)
        glyph = self.pic("rank", rank)
        gx = 2 if rank == "T" else 3
        stamp(grid, gx, 3, glyph, ink)
        stamp(grid, 3, 12, self.pic("pip5", suit), ink)
        # The same block turned: its top-left corner mirrors to the bottom right.
        stamp(grid, w - gx - len(glyph[0]), h - 3 - 7, glyph, ink, turned=True)
        stamp(grid, w - 3 - 5, h - 12 - 5, self.pic("pip5", suit), ink, turned=True)

    def pips(self, grid: Grid, rank: str, suit: str, tall: bool) -> None:
        h = len(grid)
        kind, size = ("pip7", 7) if tall else ("pip5", 5)
        cols = (12, 20, 28) if tall else (14, 21, 28)
        top, bottom = (6, h - 6 - size) if tall else (3, h - 3 - size)
        for col, frac in PIP_LAYOUT[rank]:
            y = top + round(frac * (bottom - top))
            stamp(grid, cols[col], y, self.pic(kind, suit), ink_of(suit), turned=frac > .5)

    def ace(self, grid: Grid, suit: str) -> None:
        h, w = len(grid), len(grid[0])
        stamp(grid, (w - 15) // 2, (h - 15) // 2, self.pic("pip15", suit), ink_of(suit))

    def court(self, grid: Grid, rank: str, suit: str, tall: bool) -> None:
        h, ink = len(grid), ink_of(suit)
        x0, y0, x1, y1 = (11, 8, 36, h - 9) if tall else (12, 3, 35, h - 4)
        for x in range(x0, x1 + 1):
            grid[y0][x] = grid[y1][x] = ink
        for y in range(y0, y1 + 1):
            grid[y][x0] = grid[y][x1] = ink
        if tall:
            half = self.pic("court", rank)
            pw, ph = len(half[0]), len(half)
            px, py = (48 - pw) // 2, y0 + 2
            stamp(grid, px, py, half, ink)
            stamp(grid, px, py + ph, half, ink, turned=True)
        else:
            # No room for a portrait on a 36-pixel card: the letter, twice size.
            glyph = self.font[ord(rank)]
            stamp(grid, 24 - 8, (h - 16) // 2, glyph, ink, scale=2)

    def face(self, card: int, height: int) -> Grid:
        suit, rank = SUITS[card // 13], RANKS[card % 13]
        grid = blank(CARD_W, height, WHITE)
        frame(grid)
        tall = height >= 64
        self.index(grid, rank, suit, tall)
        if rank == "A":
            self.ace(grid, suit)
        elif rank in "JQK":
            self.court(grid, rank, suit, tall)
        else:
            self.pips(grid, rank, suit, tall)
        return grid

    def big(self, card: int, height: int) -> Grid:
        """BIG CARDS: "one big number and one big symbol for the suit"."""
        suit, rank = SUITS[card // 13], RANKS[card % 13]
        grid = blank(CARD_W, height, WHITE)
        frame(grid)
        ink = ink_of(suit)
        label = "10" if rank == "T" else rank
        x = (CARD_W - text_width(label, 2)) // 2
        tall = height >= 64
        for i, ch in enumerate(label):
            # The font's glyphs leave their right column blank: nudge to centre the ink.
            stamp(grid, x + 1 + 16 * i, 5 if tall else 2, self.font[ord(ch)], ink, scale=2)
        scale = 2 if tall else 1
        size = 15 * scale
        stamp(grid, (CARD_W - size) // 2, (26 if tall else 19), self.pic("pip15", suit), ink, scale=scale)
        return grid

    def back(self, height: int) -> Grid:
        grid = blank(CARD_W, height, WHITE)
        frame(grid)
        for y in range(3, height - 3):
            for x in range(3, CARD_W - 3):
                lattice = (x + y) % 6 == 0 or (x - y) % 6 == 0
                grid[y][x] = LIGHTBLUE if lattice else BLUE
        return grid


def sheet(cells: dict[tuple[int, int], Grid], height: int) -> png.Indexed:
    w, h = CARD_W * 14, height * 4
    pixels = bytearray([TRANSPARENT]) * (w * h)
    for (col, row), grid in cells.items():
        for y, line in enumerate(grid):
            start = (row * height + y) * w + col * CARD_W
            pixels[start:start + CARD_W] = bytes(line)
    return png.Indexed(w, h, bytes(pixels), EGA_PALETTE)


def build_cards(art: Art) -> list[Path]:
    written = []
    for height in HEIGHTS:
        for style, render in (("normal", art.face), ("big", art.big)):
            cells = {(c % 13, c // 13): render(c, height) for c in range(52)}
            cells[(13, 0)] = art.back(height)
            path = OUT / f"cards_{style}_{height}.png"
            png.write(path, sheet(cells, height))
            written.append(path)
    return written


def build_pointer_preview() -> Path:
    pics = read_pictures(SRC / "pointers.txt")
    w, h = 20 * len(pics), 20
    pixels = bytearray([LIGHTGRAY]) * (w * h)
    colours = {"k": BLACK, "w": WHITE, "x": RED}
    for n, rows in enumerate(pics.values()):
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch in colours:
                    pixels[(y + 2) * w + n * 20 + 2 + x] = colours[ch]
    path = OUT / "pointers.png"
    png.write(path, png.Indexed(w, h, bytes(pixels), EGA_PALETTE))
    return path


def main() -> int:
    art = Art()
    write_bdf(art.font, OUT / "font8x8.bdf")
    written = [OUT / "font8x8.bdf", *build_cards(art), build_pointer_preview()]
    for path in written:
        print(f"wrote {path.relative_to(TOP)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
