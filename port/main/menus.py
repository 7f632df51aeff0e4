"""The menus' machinery, both games': a page-1 screen of command boxes with hot letters
(``Menu``), and an options menu with the NAME field, POINTER and SAVE (``NameMenu``).
Each game builds its title, options and statistics screens on them
(``port.ginrummy.main.menus``, ``port.cribbage.main.menus``)."""
from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from port.files.formats import POINTERS
from port.files.players import NAME_CHARS, NAME_MAX, clean_name
from port.main.context import GameContext
from port.main.controller import Controller
from port.mouse import LEFT, RIGHT, Event, Key, Press
from port.screen import Rect
from port.screen.profiles import BLACK, YELLOW

ENTER, BACKSPACE, ESC = 13, 8, 27
MENU_BOX = Rect(256, 316, 128, 20)
NAME_FIELD = Rect(384, 16, 96, 20)
NOTICE_COLUMNS = 78                                 # 8 + 78 * 8 = 632: inside the 640 width
# In a web page a touch screen has no keyboard (pyxel's canvas raises none), so the name
# can be tapped in on these on-screen keys too: 8 columns, 5 rows, right of the options.
PAD_KEYS = [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", "SPC", "DEL", "OK"]
PAD_X, PAD_Y, PAD_W, PAD_H, PAD_STEP_X, PAD_STEP_Y = 336, 150, 32, 20, 36, 24


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"


def pad_rect(i: int) -> Rect:
    row, col = divmod(i, 8)
    return Rect(PAD_X + PAD_STEP_X * col, PAD_Y + PAD_STEP_Y * row, PAD_W, PAD_H)


class Menu:
    """A page-1 screen of command boxes: each box has a rect, a label, a hot letter and
    an action taking the mouse button (left or right: some options go both ways)."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.screen = ctx.session.screen
        self.items: list[tuple[Rect, str, str | int | None, Callable[[int], Controller | None]]] = []

    def add(self, rect: Rect, label: str, hot: str | int | None,
            action: Callable[[int], Controller | None]) -> None:
        self.items.append((rect, label, hot, action))

    def keys(self) -> dict[str, Callable[[int], Controller | None]]:
        """Hot letter -> action (the letter's first occurrence in the label, or given)."""
        out = {}
        for _, label, hot, action in self.items:
            if isinstance(hot, str):
                out[hot.upper()] = action
            elif isinstance(hot, int):
                out[label[hot].upper()] = action
        return out

    def update(self, events: list[Event]) -> Controller | None:
        for e in events:
            nxt: Controller | None = self
            if isinstance(e, Key):
                nxt = self.on_key(e)
            elif isinstance(e, Press) and e.button in (LEFT, RIGHT):
                for rect, _, _, action in self.items:
                    if rect.contains(e.x, e.y):
                        nxt = action(e.button)
                        break
                else:
                    nxt = self.on_click(e)
            if nxt is not self:
                return nxt
        return self

    def on_key(self, k: Key) -> Controller | None:
        action = self.keys().get(k.char)
        return action(LEFT) if action else self

    def on_click(self, p: Press) -> Controller | None:
        return self

    def draw(self) -> None:
        s = self.screen
        s.set_page(1)
        s.clear(BLACK)
        self.draw_body()
        for rect, label, hot, _ in self.items:
            s.button(*rect, label, hot)

    def draw_body(self) -> None:
        pass

    def title(self) -> Controller:
        """The game's title screen ("MAIN MENU"), made by the maker start-up gave the context."""
        return self.ctx.title_screen()


class Page(Menu):
    """A page with only MAIN MENU under it (the statistics, the high scores): "Clicking
    within the Main Menu box will bring you back to the main menu. (Title screen) You
    can hit the letter M or the ENTER key to select this in keyboard mode"."""

    menu_box: Rect = MENU_BOX

    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        self.add(self.menu_box, "MAIN MENU", "M", lambda b: self.title())

    def on_key(self, k: Key) -> Controller | None:
        return self.title() if k.ascii == ENTER else super().on_key(k)


def notice_lines(notices: list[str], rows: int = 3) -> list[str]:
    """Start-up notices wrapped to the screen's width (never cut at its right edge),
    in the three text rows under the options summary."""
    lines = [line for note in notices for line in textwrap.wrap(note, NOTICE_COLUMNS)]
    return lines[:rows]


class NameMenu(Menu):
    """An options menu, both games': options set in the context's configuration (its
    ``with_``), the POINTER's seven shapes, SAVE through the store, and the NAME field:
    "typing 'N' or clicking the mouse pointer within the red box around the name,
    typing a new name, and pressing ENTER (or a mouse button). Backspace is the only
    editing key allowed". Each game gives its characters (``name_chars``) and its name
    box (``name_field``)."""

    name_chars: frozenset[str] = frozenset(NAME_CHARS)
    name_field: Rect = NAME_FIELD

    def __init__(self, ctx: GameContext) -> None:
        super().__init__(ctx)
        self.typing = False
        self.typed = ""
        self.saved_note = ""

    @property
    def cfg(self) -> Any:
        return self.ctx.config

    def set(self, **changes: object) -> Controller:
        self.ctx.config = self.cfg.with_(**changes)
        self.ctx.apply_display()
        self.saved_note = ""
        return self

    def toggle(self, field: str) -> Controller:
        return self.set(**{field: not getattr(self.cfg, field)})

    def next_pointer(self, button: int) -> Controller:
        """ "There are seven different shapes"; the right button goes back."""
        n = POINTERS
        return self.set(pointer=(self.cfg.pointer + (-1 if button == RIGHT else 1)) % n)

    def save(self) -> Controller:
        files = self.ctx.store.files
        held = files.pending
        ok = self.ctx.store.save_config(self.cfg)
        if self.ctx.store.nodisk:
            self.saved_note = "NODISK: options are not saved."
        elif files.pending > held:
            # Another copy holds the lock: nothing was written yet. Said here at once, as
            # the title says it (its notice), not "Options saved." (docs/files.md).
            self.saved_note = "Not saved yet: another copy holds the files."
        else:
            self.saved_note = "Options saved." if ok else "Could not save the options."
        return self

    def start_typing(self) -> Controller:
        self.typing = True
        self.typed = ""
        self.ctx.session.mouse.text_entry = True
        return self

    def end_typing(self) -> Controller:
        self.typing = False
        self.ctx.session.mouse.text_entry = False
        if self.typed.strip():
            self.set(name=clean_name(self.typed))
        return self

    @property
    def pad(self) -> bool:
        """Whether the on-screen keys are up: typing the name in a web page."""
        return self.typing and self.ctx.session.launch.web

    def update(self, events: list[Event]) -> Controller | None:
        if not self.typing:
            return super().update(events)
        for e in events:
            if isinstance(e, Press) and e.chord:
                continue                 # its first button already typed or ended the name
            if isinstance(e, Press):
                key = self._pad_key(e.x, e.y) if self.pad else None
                if key is None:
                    self.end_typing()    # "pressing ENTER (or a mouse button)"
                else:
                    self.type_key({"OK": ENTER, "DEL": BACKSPACE, "SPC": ord(" ")}.get(key) or ord(key))
            elif isinstance(e, Key):
                self.type_key(e.ascii)
            if not self.typing:
                break
        return self

    def type_key(self, ascii_: int) -> None:
        """One key of the name, typed or tapped."""
        if ascii_ == ENTER:
            self.end_typing()
        elif ascii_ == BACKSPACE:        # "the only editing key allowed"
            self.typed = self.typed[:-1]
        elif ascii_ and chr(ascii_) in self.name_chars and len(self.typed) < NAME_MAX:
            self.typed += chr(ascii_)

    @staticmethod
    def _pad_key(x: int, y: int) -> str | None:
        return next((k for i, k in enumerate(PAD_KEYS) if pad_rect(i).contains(x, y)), None)

    def draw(self) -> None:
        super().draw()
        s = self.screen
        name = (self.typed + "_") if self.typing else self.ctx.config.name
        s.text(self.name_field.x + 4, self.name_field.y + 6, name[:9], YELLOW)
        if self.pad:
            s.fill(PAD_X - 8, PAD_Y - 8, 8 * PAD_STEP_X + 12, 5 * PAD_STEP_Y + 12, BLACK)
            for i, key in enumerate(PAD_KEYS):
                s.button(*pad_rect(i), key)
