"""The Screen unit's display profiles: the graphics systems the original ran on.

The documentation asks for "EGA, VGA, MDA, AT&T 400, PC 3270, or Hercules"; each
BGI mode it could use becomes a ``Profile``: a resolution, how many colours and
video pages it has, and the palette the port shows it with. The game always draws
in the 16 EGA colour names; a profile decides what each becomes on its display.
"""
from __future__ import annotations

from dataclasses import dataclass

# The 16 EGA colour indices, named as BGI named them.
BLACK, BLUE, GREEN, CYAN, RED, MAGENTA, BROWN, LIGHTGRAY = range(8)
DARKGRAY, LIGHTBLUE, LIGHTGREEN, LIGHTCYAN, LIGHTRED, LIGHTMAGENTA, YELLOW, WHITE = range(8, 16)
COLOUR_NAMES = ("BLACK", "BLUE", "GREEN", "CYAN", "RED", "MAGENTA", "BROWN", "LIGHTGRAY",
                "DARKGRAY", "LIGHTBLUE", "LIGHTGREEN", "LIGHTCYAN", "LIGHTRED",
                "LIGHTMAGENTA", "YELLOW", "WHITE")

# The default EGA palette (dos.md): what the colour profiles show.
EGA_PALETTE: tuple[int, ...] = (
    0x000000, 0x0000AA, 0x00AA00, 0x00AAAA, 0xAA0000, 0xAA00AA, 0xAA5500, 0xAAAAAA,
    0x555555, 0x5555FF, 0x55FF55, 0x55FFFF, 0xFF5555, 0xFF55FF, 0xFFFF55, 0xFFFFFF,
)

# The LAPTOP switch's "brighter shade for some of the colors": each dark colour
# becomes its light partner, as on the EGA's intensity bit.
BRIGHTER = {BLUE: LIGHTBLUE, GREEN: LIGHTGREEN, CYAN: LIGHTCYAN, RED: LIGHTRED,
            MAGENTA: LIGHTMAGENTA, BROWN: YELLOW, LIGHTGRAY: WHITE, DARKGRAY: LIGHTGRAY}

# Light colours (the EGA's intensified half plus light grey) light up a mono screen
# brightly; dark ones at normal intensity.
LIGHT = frozenset({LIGHTGRAY, *range(LIGHTBLUE, WHITE + 1)})

# The index a mono profile draws normal intensity with: a dark index, which the mono
# palettes below show as the normal shade (light indices show intensified).
MONO_NORMAL = DARKGRAY

# What a mono display shows: off, normal and intensified. On the 2-colour profiles
# only off and on (WHITE) are used.
_MONO_NORMAL_RGB = 0xAAAAAA
_MONO_BRIGHT_RGB = 0xFFFFFF


def _mono_palette(on: int) -> tuple[int, ...]:
    # Every EGA index keeps a shade, so a picture drawn in EGA colours still reads;
    # the drawing primitives map colours to 0 / 7 / 15 before they draw.
    return tuple(0 if i == BLACK else (_MONO_BRIGHT_RGB if i in LIGHT else on) for i in range(16))


@dataclass(frozen=True)
class Profile:
    """One display: its size in pixels, colours and video pages."""

    name: str
    width: int
    height: int
    colours: int           # 16, 3 (mono with intensity) or 2
    pages: int             # video pages the mode has
    palette: tuple[int, ...]
    card_height: int       # pixel height of the card images used (width is always 48)
    description: str

    @property
    def mono(self) -> bool:
        return self.colours < 16


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("EGA", 640, 350, 16, 2, EGA_PALETTE, 64, "EGA 640x350, 16 colours, 2 pages"),
    Profile("VGA", 640, 350, 16, 2, EGA_PALETTE, 64, "VGA in its 640x350 mode (VGAMed), 16 colours, 2 pages"),
    Profile("EGAMONO", 640, 350, 3, 2, _mono_palette(_MONO_NORMAL_RGB), 64,
            "EGA mono 640x350: off, normal, intensified; 2 pages (256K)"),
    Profile("MDA", 640, 350, 3, 2, _mono_palette(_MONO_NORMAL_RGB), 64,
            "a monochrome display driven as EGA mono (MDA itself has no graphics)"),
    Profile("HERC", 720, 348, 2, 2, _mono_palette(_MONO_BRIGHT_RGB), 64, "Hercules 720x348 mono, 2 pages"),
    Profile("ATT400", 640, 400, 2, 1, _mono_palette(_MONO_BRIGHT_RGB), 64, "AT&T 400 640x400 mono, 1 page"),
    Profile("PC3270", 720, 350, 2, 1, _mono_palette(_MONO_BRIGHT_RGB), 64, "PC 3270 720x350 mono, 1 page"),
    Profile("CGA", 640, 200, 2, 1, _mono_palette(_MONO_BRIGHT_RGB), 36, "CGA 640x200, 2 colours, 1 page"),
)}

DEFAULT_PROFILE = "EGA"

# The logical coordinate space every screen is laid out in: the EGA's.
LOGICAL_WIDTH = 640
LOGICAL_HEIGHT = 350


def profile(name: str) -> Profile:
    """The profile of a command-line word (case-insensitive): EGA, VGA, HERC, ..."""
    try:
        return PROFILES[name.upper()]
    except KeyError:
        raise ValueError(f"unknown display profile {name!r}: choose one of {', '.join(PROFILES)}") from None


@dataclass(frozen=True)
class Look:
    """How a profile with the LAPTOP switch draws: colour rules derived once.

    ``two_colour`` profiles show everything lit as WHITE; ``mono`` ones (EGA mono)
    show normal intensity for dark colours and intensified for light ones; colour
    profiles show the EGA colours, brightened under LAPTOP.
    """

    profile: Profile
    laptop: bool

    @property
    def two_colour(self) -> bool:
        # LAPTOP on an EGA mono forces 2 colours (the documentation's advice for
        # "Monochrome EGA/VGA and/or 64k EGA users").
        return self.profile.colours == 2 or (self.profile.colours == 3 and self.laptop)

    @property
    def mono(self) -> bool:
        return self.profile.mono

    @property
    def pages(self) -> int:
        # "...force the program into 2 color/1 video page on these systems".
        return 1 if self.profile.colours == 3 and self.laptop else self.profile.pages

    @property
    def underline_hot(self) -> bool:
        """Hot letters are underlined (and bright) instead of light green."""
        return self.mono or self.laptop

    def fg(self, col: int) -> int:
        """The index a foreground drawing (text, lines, bars, boxes) uses for ``col``."""
        if col == BLACK:
            return BLACK
        if self.two_colour:
            return WHITE
        if self.mono:
            # A mono monitor detected means LAPTOP is on automatically (documentation).
            return WHITE if col in LIGHT else MONO_NORMAL
        if self.laptop:
            return BRIGHTER.get(col, col)
        return col

    def bg(self, col: int) -> int:
        """The index a background fill uses: mono screens have a black table."""
        if self.mono:
            return WHITE if col == WHITE else BLACK
        return col

    def hot(self) -> int:
        """The colour of a hot (keyboard) letter."""
        return WHITE if self.underline_hot else LIGHTGREEN

    def card_map(self) -> dict[int, int]:
        """Remapping of card-art colours: mono cards are ink on white paper."""
        if not self.mono:
            return {}
        return {i: (WHITE if i in LIGHT else BLACK) for i in range(16) if i not in (BLACK, WHITE)}
