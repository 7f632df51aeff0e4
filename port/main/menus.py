"""The menu screens, drawn on video page 1 as the original did: the title, the options
menu (with the "?" list of players), the player's statistics and the high scores."""
from __future__ import annotations

from collections.abc import Callable

from port import files
from port.main.context import Context
from port.main.controller import Controller
from port.mouse import LEFT, RIGHT, Event, Key, Press
from port.rules.options import BONUS_CHOICES, LIMIT_MENU_MAX, LIMIT_STEP
from port.screen import Rect
from port.screen.profiles import BLACK, LIGHTGRAY, LIGHTRED, WHITE, YELLOW

ENTER, BACKSPACE, ESC = 13, 8, 27
MENU_BOX = Rect(256, 316, 128, 20)
NAME_FIELD = Rect(384, 16, 96, 20)
NAME_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + '!"-:/? ')


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"


def next_limit(v: int, up: bool) -> int:
    """The menu's next score limit: steps of 50 that cycle round from 500 to 0 and back
    ("cycles the maximum score ... by 50 points, from 0 to 500"). A command-line limit
    off the steps (234) moves to the neighbouring step (250 up, 200 down)."""
    top = LIMIT_MENU_MAX
    if up:
        return 0 if v >= top else (v // LIMIT_STEP + 1) * LIMIT_STEP
    if v <= 0 or v > top:
        return top
    return (v - 1) // LIMIT_STEP * LIMIT_STEP


class Menu:
    """A page-1 screen of command boxes: each box has a rect, a label, a hot letter and
    an action taking the mouse button (left or right: some options go both ways)."""

    def __init__(self, ctx: Context) -> None:
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
        return TitleScreen(self.ctx)


class TitleScreen(Menu):
    """BEGIN GAME (B, Enter), OPTIONS (O), HIGH SCORES (H), STATISTICS (S), QUIT (Q)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.notices = ctx.take_notices()
        x, w = 240, 160
        self.add(Rect(x, 120, w, 20), "BEGIN GAME", "B", lambda b: self.begin())
        self.add(Rect(x, 148, w, 20), "OPTIONS", "O", lambda b: OptionsScreen(self.ctx))
        self.add(Rect(x, 176, w, 20), "HIGH SCORES", "H", lambda b: self.high_scores())
        self.add(Rect(x, 204, w, 20), "STATISTICS", "S", lambda b: StatsScreen(self.ctx))
        self.add(Rect(x, 232, w, 20), "QUIT", "Q", lambda b: None)

    def begin(self) -> Controller:
        from port.main.play import PlayScreen

        return PlayScreen(self.ctx)

    def high_scores(self) -> Controller:
        # NODISK: "The high scores box will do nothing".
        return ScoresScreen(self.ctx) if self.ctx.store.high_scores_enabled else self

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ENTER:
            return self.begin()
        return super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        title = "GIN RUMMY"
        s.text((640 - s.text_width(title, 4)) // 2, 24, title, YELLOW, 4)
        sub = "A port of David Teach's DOS card game"
        s.text((640 - s.text_width(sub)) // 2, 72, sub, LIGHTGRAY)
        cfg = self.ctx.config
        line1 = (f"PLAYER {cfg.name}   LIMIT {cfg.score_limit}   GIN {cfg.gin_bonus}"
                 f"   UNDERCUT {cfg.undercut_bonus}")
        line2 = (f"OKLAHOMA {yes_no(cfg.oklahoma)}   KNOCKING {yes_no(cfg.knocking)}"
                 f"   EASY {yes_no(cfg.easy)}   LEVEL {cfg.level}")
        for i, line in enumerate((line1, line2)):
            s.text((640 - s.text_width(line)) // 2, 266 + 14 * i, line, WHITE)
        for i, note in enumerate(self.notices[:2]):
            s.text(8, 308 + 14 * i, note[:79], LIGHTRED)


class NameMenu(Menu):
    """An options menu with the NAME field: "typing 'N' or clicking the mouse pointer
    within the red box around the name, typing a new name, and pressing ENTER (or a
    mouse button). Backspace is the only editing key allowed". Each game gives its
    characters (``name_chars``) and its ``set``; the name field is ``name_field``."""

    name_chars: frozenset[str] = frozenset(NAME_CHARS)
    name_field: Rect = NAME_FIELD

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.typing = False
        self.typed = ""

    def set(self, **changes: object) -> Controller:
        raise NotImplementedError

    def start_typing(self) -> Controller:
        self.typing = True
        self.typed = ""
        self.ctx.session.mouse.text_entry = True
        return self

    def end_typing(self) -> Controller:
        self.typing = False
        self.ctx.session.mouse.text_entry = False
        if self.typed.strip():
            self.set(name=files.clean_name(self.typed))
        return self

    def update(self, events: list[Event]) -> Controller | None:
        if not self.typing:
            return super().update(events)
        for e in events:
            if isinstance(e, Press):
                self.end_typing()        # "pressing ENTER (or a mouse button)"
            elif isinstance(e, Key):
                if e.ascii == ENTER:
                    self.end_typing()
                elif e.ascii == BACKSPACE:  # "the only editing key allowed"
                    self.typed = self.typed[:-1]
                elif e.ascii and chr(e.ascii) in self.name_chars and len(self.typed) < files.NAME_MAX:
                    self.typed += chr(e.ascii)
        return self

    def draw(self) -> None:
        super().draw()
        name = (self.typed + "_") if self.typing else self.ctx.config.name
        self.screen.text(self.name_field.x + 4, self.name_field.y + 6, name[:9], YELLOW)


class OptionsScreen(NameMenu):
    """The options menu: every documented option, its key, and SAVE."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.saved_note = ""
        x, w, y0, dy = 48, 200, 56, 26
        rows: list[tuple[str, str | int | None, Callable[[int], Controller | None]]] = [
            ("GIN BONUS", "G", lambda b: self.cycle_bonus("gin_bonus", b)),
            ("UNDERCUT BONUS", "U", lambda b: self.cycle_bonus("undercut_bonus", b)),
            ("SCORE LIMIT", None, self.limit),
            ("OKLAHOMA", "O", lambda b: self.toggle("oklahoma")),
            ("BIG CARDS", "B", lambda b: self.toggle("big_cards")),
            ("EASY", "E", lambda b: self.toggle("easy")),
            ("KNOCKING", "K", lambda b: self.toggle("knocking")),
            ("POINTER", "P", self.next_pointer),
            ("SORT", "R", lambda b: self.set(sort="SUIT" if self.cfg.sort == "RANK" else "RANK")),
            ("LEVEL", "L", lambda b: self.set(level="EXPERT" if self.cfg.level == "STANDARD" else "STANDARD")),
        ]
        for i, (label, hot, action) in enumerate(rows):
            self.add(Rect(x, y0 + dy * i, w, 20), label, hot, action)
        self.add(Rect(x, 16, w, 20), "MAIN MENU", "M", lambda b: self.title())
        self.add(Rect(320, 16, 56, 20), "NAME", "N", lambda b: self.start_typing())
        self.add(NAME_FIELD, "", None, lambda b: self.start_typing())   # "the red box around the name"
        self.add(Rect(488, 16, 24, 20), "?", None, lambda b: PlayersScreen(self.ctx))
        self.add(Rect(x, y0 + dy * len(rows) + 6, w, 20), "SAVE", "S", lambda b: self.save())

    @property
    def cfg(self) -> files.Config:
        return self.ctx.config

    def set(self, **changes: object) -> Controller:
        self.ctx.config = self.cfg.with_(**changes)
        self.ctx.apply_display()
        self.saved_note = ""
        return self

    def toggle(self, field: str) -> Controller:
        return self.set(**{field: not getattr(self.cfg, field)})

    def cycle_bonus(self, field: str, button: int) -> Controller:
        """10, 15, 20, 25 and round again (the right button goes back)."""
        i = BONUS_CHOICES.index(getattr(self.cfg, field))
        step = -1 if button == RIGHT else 1
        return self.set(**{field: BONUS_CHOICES[(i + step) % len(BONUS_CHOICES)]})

    def limit(self, button: int) -> Controller:
        """LEFT or '+' up by 50, RIGHT or '-' down by 50, from 0 to 500."""
        return self.set(score_limit=next_limit(self.cfg.score_limit, up=button != RIGHT))

    def next_pointer(self, button: int) -> Controller:
        n = files.POINTERS
        return self.set(pointer=(self.cfg.pointer + (-1 if button == RIGHT else 1)) % n)

    def save(self) -> Controller:
        ok = self.ctx.store.save_config(self.cfg)
        if self.ctx.store.nodisk:
            self.saved_note = "NODISK: options are not saved."
        else:
            self.saved_note = "Options saved." if ok else "Could not save the options."
        return self

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ENTER:
            return self.title()
        if k.char == "+":
            return self.limit(LEFT)
        if k.char == "-":
            return self.limit(RIGHT)
        return super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        cfg = self.cfg
        values = [str(cfg.gin_bonus), str(cfg.undercut_bonus), str(cfg.score_limit),
                  yes_no(cfg.oklahoma), yes_no(cfg.big_cards), yes_no(cfg.easy),
                  yes_no(cfg.knocking), str(cfg.pointer + 1), cfg.sort, cfg.level]
        for (rect, _, _, _), value in zip(self.items, values):
            s.text(rect.x + rect.w + 16, rect.y + 6, value, WHITE)
        s.text(320, 56 + 26 * 2 + 6, "LEFT/+ UP  RIGHT/- DOWN", LIGHTGRAY)
        # Show the chosen pointer shape beside its option.
        s.pointer_at(288, 56 + 26 * 7 + 2, cfg.pointer)
        if self.saved_note:
            s.text(48, 300, self.saved_note, LIGHTRED)



class StatsScreen(Menu):
    """The current player's cumulative statistics."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.add(MENU_BOX, "MAIN MENU", "M", lambda b: self.title())

    def on_key(self, k: Key) -> Controller | None:
        return self.title() if k.ascii == ENTER else super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        p = self.ctx.store.player(self.ctx.config.name)
        s.text((640 - s.text_width("PLAYER STATISTICS", 2)) // 2, 40, "PLAYER STATISTICS", YELLOW, 2)
        rows = [("NAME", p.name), ("GAMES WON", str(p.won)), ("GAMES LOST", str(p.lost)),
                ("GAMES DRAWN", str(p.drawn)), ("GAMES PLAYED", str(p.games)),
                ("HANDS PLAYED", str(p.hands)),
                ("AVERAGE SCORE PER HAND", f"{p.average:.2f}"),
                ("COMPUTER'S AVERAGE PER HAND", f"{p.average_against:.2f}")]
        for i, (k, v) in enumerate(rows):
            s.text(160, 100 + 20 * i, k, LIGHTGRAY)
            s.text(400, 100 + 20 * i, v, WHITE)


class ScoresScreen(Menu):
    """The top 20 high scores."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.add(Rect(MENU_BOX.x, 326, MENU_BOX.w, MENU_BOX.h), "MAIN MENU", "M", lambda b: self.title())

    def on_key(self, k: Key) -> Controller | None:
        return self.title() if k.ascii == ENTER else super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        s.text((640 - s.text_width("HIGH SCORES", 2)) // 2, 8, "HIGH SCORES", YELLOW, 2)
        s.text(24, 36, " #  NAME      AVERAGE  SCORE  LIMIT  HANDS  OKLA  DATE", LIGHTGRAY)
        for i, h in enumerate(self.ctx.store.high_scores()[:20]):
            line = (f"{i + 1:>2}  {h.name:<8}  {h.average:>7.2f}  {h.score:>5}  {h.limit:>5}"
                    f"  {h.hands:>5}  {'Y' if h.oklahoma else 'N':>4}  {h.date.isoformat()}")
            s.text(24, 50 + 14 * i, line, WHITE)


class PlayersScreen(Menu):
    """The "?" beside the name: every player in the statistics file, to pick one."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.names = ctx.store.players()[:20]
        for i, name in enumerate(self.names):
            col, row = divmod(i, 10)
            rect = Rect(120 + 220 * col, 60 + 24 * row, 160, 20)
            self.add(rect, name, None, lambda b, n=name: self.pick(n))
        self.add(MENU_BOX, "OPTIONS", "O", lambda b: OptionsScreen(self.ctx))

    def pick(self, name: str) -> Controller:
        self.ctx.config = self.ctx.config.with_(name=name)
        return OptionsScreen(self.ctx)

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii in (ENTER, ESC):
            return OptionsScreen(self.ctx)
        if k.char.isdigit():
            i = (int(k.char) - 1) % 10
            if i < len(self.names):
                return self.pick(self.names[i])
        return super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        s.text((640 - s.text_width("PLAYERS", 2)) // 2, 16, "PLAYERS", YELLOW, 2)
        if not self.names:
            s.text(200, 100, "No players in the statistics file yet.", LIGHTGRAY)
        for i in range(min(10, len(self.names))):
            s.text(96, 66 + 24 * i, KEY_DIGITS[i], LIGHTGRAY)


KEY_DIGITS = "1234567890"
__all__ = ["Menu", "NameMenu", "OptionsScreen", "PlayersScreen", "ScoresScreen", "StatsScreen", "TitleScreen"]
