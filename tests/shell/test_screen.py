"""The Screen unit: profiles, palettes, font, primitives, hot letters, cards, pages, pointers."""
from __future__ import annotations

import pytest

from port.screen import (BLACK, BLUE, CARD_W, DARKGRAY, EGA_PALETTE, GREEN, LIGHTBLUE, LIGHTGRAY,
                         LIGHTGREEN, LIGHTRED, PROFILES, RED, WHITE, YELLOW, Look, Rect, hot_indices, png,
                         profile)
from port.screen import resources


def pixels(screen, x, y, w, h):
    """Indices of a logical-origin pixel block of the current page, as rows of ints."""
    img = screen.image
    return [[img.pget(screen.px(x) + i, screen.py(y) + j) for i in range(w)] for j in range(h)]


# ---- profiles ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, size, colours, pages", [
    ("EGA", (640, 350), 16, 2), ("VGA", (640, 350), 16, 2), ("EGAMONO", (640, 350), 3, 2),
    ("MDA", (640, 350), 3, 2), ("HERC", (720, 348), 2, 2), ("ATT400", (640, 400), 2, 1),
    ("PC3270", (720, 350), 2, 1), ("CGA", (640, 200), 2, 1)])
def test_profiles_have_the_modes_resolution_colours_and_pages(name, size, colours, pages):
    p = profile(name.lower())
    assert (p.width, p.height, p.colours, p.pages) == (*size, colours, pages)


def test_ega_is_the_default_and_uses_the_default_ega_palette():
    assert PROFILES["EGA"].palette == EGA_PALETTE
    assert EGA_PALETTE[LIGHTGREEN] == 0x55FF55 and EGA_PALETTE[BLUE] == 0x0000AA
    assert EGA_PALETTE[6] == 0xAA5500     # brown, not dark yellow


def test_unknown_profile_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="EGA"):
        profile("SVGA")


def test_mono_palettes_have_only_black_and_one_or_two_shades():
    for name, p in PROFILES.items():
        shades = set(p.palette)
        assert len(shades) == {16: 16, 3: 3, 2: 2}[p.colours], name


def test_colour_rules_of_each_look():
    ega, herc = Look(profile("EGA"), False), Look(profile("HERC"), False)
    assert ega.fg(RED) == RED and ega.hot() == LIGHTGREEN and not ega.underline_hot
    assert herc.fg(RED) == WHITE and herc.bg(GREEN) == BLACK and herc.underline_hot
    laptop = Look(profile("EGA"), True)            # "a brighter shade for some of the colors"
    assert laptop.fg(BLUE) == LIGHTBLUE and laptop.hot() == WHITE
    mono = Look(profile("EGAMONO"), False)         # off / normal / intensified
    assert mono.fg(RED) == DARKGRAY and mono.fg(YELLOW) == WHITE and not mono.two_colour
    forced = Look(profile("EGAMONO"), True)        # LAPTOP forces 2 colours, 1 page
    assert forced.two_colour and forced.pages == 1


# ---- coordinates --------------------------------------------------------------------------

def test_logical_space_is_centred_on_wide_screens_and_scaled_in_height(screen_of):
    herc, cga, att = screen_of("HERC"), screen_of("CGA"), screen_of("ATT400")
    assert herc.px(0) == 40 and herc.px(639) == 679
    assert cga.py(350) == 200 and cga.py(175) == 100 and att.py(350) == 400
    for s in (herc, cga, att):
        for y in (0, 84, 156, 296, 349):
            assert s.py(s.logical(s.px(10), s.py(y))[1]) == s.py(y)


def test_rect_contains_its_inside_only():
    r = Rect(10, 20, 30, 40)
    assert r.contains(10, 20) and r.contains(39, 59)
    assert not r.contains(40, 20) and not r.contains(10, 60) and not r.contains(9, 30)


# ---- text ---------------------------------------------------------------------------------

def test_font_has_every_printable_ascii_character():
    assert set(range(32, 127)) <= set(resources.glyphs())


def test_text_draws_the_8x8_glyph_at_its_top_left(screen_of):
    s = screen_of()
    s.clear(BLACK)
    s.text(100, 50, "A", WHITE)
    rows = ["".join("#" if c == WHITE else "." for c in row) for row in pixels(s, 100, 50, 9, 9)]
    assert rows == ["..##.....", ".####....", "##..##...", "##..##...", "######...",
                    "##..##...", "##..##...", ".........", "........."]


def test_size_n_draws_each_glyph_8n_square(screen_of):
    s = screen_of()
    s.clear(BLACK)
    s.text(0, 0, "Hi", WHITE, size=1)
    small = pixels(s, 0, 0, 16, 8)
    for n in (2, 3):
        s.clear(BLACK)
        s.text(0, 0, "Hi", WHITE, size=n)
        big = pixels(s, 0, 0, 16 * n, 8 * n)
        assert big == [[small[y // n][x // n] for x in range(16 * n)] for y in range(8 * n)]
    assert s.text_width("Hi", 3) == 48


def test_hot_letters_are_light_green_on_colour(screen_of):
    s = screen_of("EGA")
    s.clear(BLACK)
    s.hot_text(0, 0, "DECK", "K", WHITE)
    assert LIGHTGREEN in sum(pixels(s, 24, 0, 8, 8), []) and LIGHTGREEN not in sum(pixels(s, 0, 0, 24, 8), [])
    assert set(sum(pixels(s, 0, 8, 32, 1), [])) == {BLACK}          # no underline


@pytest.mark.parametrize("name", ["HERC", "CGA", "ATT400", "PC3270", "EGAMONO"])
def test_hot_letters_are_underlined_on_mono(screen_of, name):
    """"For 2 color systems, the active keys have a line drawn under them." """
    s = screen_of(name)
    s.clear(BLACK)
    s.hot_text(0, 0, "DECK", "D", WHITE)
    under = [s.image.pget(s.px(0) + i, s.py(0) + 8) for i in range(32)]
    assert under[:7] == [WHITE] * 7 and set(under[8:]) == {BLACK}


def test_hot_indices_accepts_letters_indices_and_ranges():
    assert hot_indices("DISCARD PILE", "P") == {8}
    assert hot_indices("1 2 3", range(0, 5, 2)) == {0, 2, 4}
    assert hot_indices("QUIT", 0) == {0} and hot_indices("QUIT", None) == frozenset()
    with pytest.raises(ValueError):
        hot_indices("QUIT", "Z")


def test_button_is_a_red_box_around_its_label(screen_of):
    s = screen_of()
    s.clear(GREEN)
    r = s.button(100, 100, 80, 20, "QUIT", "Q")
    assert r == Rect(100, 100, 80, 20)
    assert s.image.pget(s.px(100), s.py(100)) == RED and s.image.pget(s.px(179), s.py(119)) == RED
    assert LIGHTGREEN in sum(pixels(s, 100, 100, 80, 20), [])


# ---- bars ---------------------------------------------------------------------------------

def test_bars_keep_their_colours_apart_on_two_colour_screens(screen_of):
    s = screen_of("HERC")
    patterns = []
    for col in (BLUE, GREEN, RED, YELLOW):
        s.clear(BLACK)
        s.bar(0, 0, 8, 4, col)
        patterns.append(tuple(map(tuple, pixels(s, 0, 0, 8, 4))))
    assert len(set(patterns)) == 4


# ---- cards --------------------------------------------------------------------------------

@pytest.mark.parametrize("height", [64, 36])
@pytest.mark.parametrize("style", ["normal", "big"])
def test_every_card_has_its_own_face(style, height):
    sheet = png.read(resources.PYXRES / f"cards_{style}_{height}.png")
    faces = set()
    for c in range(53):
        col, row = (c % 13, c // 13) if c < 52 else (13, 0)
        faces.add(b"".join(sheet.row(row * height + y)[col * CARD_W:(col + 1) * CARD_W]
                           for y in range(height)))
    assert len(faces) == 53


def test_faces_are_built_from_the_sources(tmp_path, monkeypatch):
    """The stored sheets are what scripts/build_resources.py makes now."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_resources", resources.PYXRES.parent / "scripts" / "build_resources.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    monkeypatch.setattr(build, "OUT", tmp_path)
    build.build_cards(build.Art())
    build.write_bdf(build.read_font(), tmp_path / "font8x8.bdf")
    for path in tmp_path.iterdir():
        assert path.read_bytes() == (resources.PYXRES / path.name).read_bytes(), path.name


def test_card_is_drawn_with_round_corners_and_suit_colours(screen_of):
    s = screen_of()
    s.clear(GREEN)
    s.card(100, 100, 13)                      # AH
    block = sum(pixels(s, 100, 100, CARD_W, 64), [])
    assert s.image.pget(s.px(100), s.py(100)) == GREEN        # the corner shows the table
    assert RED in block and WHITE in block and BLACK in block


@pytest.mark.parametrize("name", ["HERC", "CGA", "EGAMONO"])
def test_mono_cards_are_black_ink_on_white(screen_of, name):
    s = screen_of(name)
    s.clear(GREEN)
    for card in (13, 26 + 11, 39 + 12):       # AH QD KC
        s.card(0, 0, card)
        s.card(60, 0, card, big=True)
    s.back(120, 0)
    assert set(sum(pixels(s, 0, 0, 168, s.profile.card_height * 350 // s.profile.height), [])) <= {BLACK, WHITE}


def test_big_cards_differ_from_the_default_set(screen_of):
    s = screen_of()
    s.card(0, 0, 5)
    s.card(60, 0, 5, big=True)
    assert pixels(s, 0, 0, CARD_W, 64) != pixels(s, 60, 0, CARD_W, 64)


def test_deck_count_is_white_then_red_at_seven_or_fewer(screen_of):
    s = screen_of()
    s.clear(GREEN)
    s.deck(0, 100, 8)
    s.deck(100, 100, 7)
    assert WHITE in sum(pixels(s, 16, 104, 16, 8), []) and LIGHTRED not in sum(pixels(s, 16, 104, 16, 8), [])
    # the palette's light red, readable on the black label (dark red on black is not)
    low = sum(pixels(s, 116, 104, 16, 8), [])
    assert LIGHTRED in low and RED not in low


def test_card_numbers_outside_the_deck_are_refused(screen_of):
    with pytest.raises(ValueError):
        screen_of().card(0, 0, 52)


# ---- pages --------------------------------------------------------------------------------

def test_menus_draw_on_page_one_without_touching_the_game_page(screen_of):
    s = screen_of("EGA")
    s.set_page(0)
    s.clear(GREEN)
    s.set_page(1)
    s.clear(BLUE)
    assert s.paging and s.image.pget(5, 5) == BLUE
    s.set_page(0)
    assert s.image.pget(5, 5) == GREEN


@pytest.mark.parametrize("name, kw", [("EGA", {"noblank": True}), ("CGA", {}), ("ATT400", {}),
                                      ("EGAMONO", {"laptop": True})])
def test_noblank_and_one_page_modes_draw_everything_on_one_page(screen_of, name, kw):
    s = screen_of(name, **kw)
    s.set_page(0)
    s.clear(GREEN)
    s.set_page(1)
    s.clear(WHITE)
    s.set_page(0)
    assert not s.paging and s.image.pget(5, 5) == WHITE


def test_pages_are_only_zero_and_one(screen_of):
    with pytest.raises(ValueError):
        screen_of().set_page(2)


# ---- pointers -----------------------------------------------------------------------------

def test_seven_pointer_shapes_of_16x16_masks_with_a_hotspot():
    shapes = resources.pointers()
    assert len(shapes) == 7
    for p in shapes:
        assert len(p.screen_mask) == len(p.cursor_mask) == 16
        assert 0 <= p.hot_x < 16 and 0 <= p.hot_y < 16
        assert p.pixels(), p.name


def test_pointer_is_drawn_with_its_hotspot_on_the_point(screen_of):
    s = screen_of()
    s.clear(GREEN)
    for shape, p in enumerate(s.pointers):
        s.clear(GREEN)
        s.pointer_at(200, 100, shape)
        painted = {(x, y) for x, y, _ in p.pixels()}
        for x in range(16):
            for y in range(16):
                col = s.image.pget(s.px(200) - p.hot_x + x, s.py(100) - p.hot_y + y)
                assert (col != GREEN) == ((x, y) in painted), (p.name, x, y)


def test_present_draws_the_chosen_pointer_over_the_page(screen_of):
    s = screen_of()
    s.clear(GREEN)
    s.pointer = 1
    frame = s.snapshot(pointer=(300, 100))
    p = s.pointers[1]
    x, y, kind = p.pixels()[0]
    assert frame[(100 - p.hot_y + y) * 640 + 300 - p.hot_x + x] == (WHITE if kind == "white" else BLACK)
    assert s.image.pget(300, 100) == GREEN           # the page itself is untouched


# ---- PNG codec ----------------------------------------------------------------------------

def test_png_round_trips_indices_and_palette(tmp_path):
    pic = png.Indexed(3, 2, bytes([0, 1, 15, 4, 4, 2]), EGA_PALETTE)
    png.write(tmp_path / "x.png", pic)
    assert png.read(tmp_path / "x.png") == pic
