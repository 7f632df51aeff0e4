"""GinRummy's menu screens, drawn on video page 1 as the original did, on the shell's
``Menu`` and ``NameMenu``: the title, the options menu (with the "?" list of players and
the table rules), the player's statistics and the high scores."""
from __future__ import annotations

from collections.abc import Callable

from port.ginrummy import files
from port.ginrummy.main import tablerules
from port.ginrummy.main.context import Context
from port.ginrummy.main.play import PlayScreen
from port.ginrummy.rules.options import BONUS_CHOICES, LIMIT_MENU_MAX, LIMIT_STEP
from port.main.controller import Controller
from port.main.menus import ENTER, ESC, MENU_BOX, NAME_FIELD, Menu, NameMenu, Page, notice_lines, yes_no
from port.mouse import LEFT, RIGHT, Key
from port.screen import Rect
from port.screen.profiles import LIGHTGRAY, LIGHTRED, WHITE, YELLOW

SAVE_BOX = Rect(48, 56 + 26 * 10 + 6, 200, 20)     # under the ten option rows
RULES_BOX = Rect(320, 56, 200, 20)     # top right, under NAME: clear of every value
SAVED_NOTE_AT = (SAVE_BOX.x + SAVE_BOX.w + 16, SAVE_BOX.y + 6)


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


class TitleScreen(Menu):
    """BEGIN GAME (B, Enter), OPTIONS (O), HIGH SCORES (H), STATISTICS (S), the port's
    CARD ROOM (C: play people, docs/room.md) and QUIT (Q)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.notices = ctx.take_notices()
        x, w, y, dy = 240, 160, 106, 26       # six boxes, clear of the lines under them
        self.add(Rect(x, y, w, 20), "BEGIN GAME", "B", lambda b: self.begin())
        self.add(Rect(x, y + dy, w, 20), "OPTIONS", "O", lambda b: OptionsScreen(self.ctx))
        self.add(Rect(x, y + 2 * dy, w, 20), "HIGH SCORES", "H", lambda b: self.high_scores())
        self.add(Rect(x, y + 3 * dy, w, 20), "STATISTICS", "S", lambda b: StatsScreen(self.ctx))
        self.add(Rect(x, y + 4 * dy, w, 20), "CARD ROOM", "C", lambda b: self.card_room())
        self.add(Rect(x, y + 5 * dy, w, 20), "QUIT", "Q", lambda b: None)

    def card_room(self) -> Controller:
        from port.ginrummy.main.room import ROOM
        from port.main.roompages import ConnectPage

        return ConnectPage(self.ctx, ROOM)

    def begin(self) -> Controller:
        return PlayScreen(self.ctx, TitleScreen)

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
        for i, line in enumerate(title_lines(cfg)):
            s.text((640 - s.text_width(line)) // 2, 266 + 14 * i, line, WHITE)
        rules = tablerules.summary(cfg)       # nothing with the original's rules
        if rules:
            s.text((640 - s.text_width(rules)) // 2, 294, rules, LIGHTGRAY)
        for i, line in enumerate(notice_lines(self.notices)):
            s.text(8, 308 + 14 * i, line, LIGHTRED)


def title_lines(cfg: files.Config) -> tuple[str, str]:
    """The options the game will start with, under the title ("NAME PLAYER", not the
    "PLAYER PLAYER" a label of PLAYER gave with the default name)."""
    return (f"NAME {cfg.name}   LIMIT {cfg.score_limit}   GIN {cfg.gin_bonus}"
            f"   UNDERCUT {cfg.undercut_bonus}",
            f"OKLAHOMA {yes_no(cfg.knock_card == 'OKLAHOMA')}   KNOCKING {yes_no(cfg.knocking)}"
            f"   EASY {yes_no(cfg.easy)}   LEVEL {cfg.level}")


class OptionsScreen(NameMenu):
    """The options menu: every documented option, its key, and SAVE."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        x, w, y0, dy = 48, 200, 56, 26
        rows: list[tuple[str, str | int | None, Callable[[int], Controller | None]]] = [
            ("GIN BONUS", "G", lambda b: self.cycle_bonus("gin_bonus", b)),
            ("UNDERCUT BONUS", "U", lambda b: self.cycle_bonus("undercut_bonus", b)),
            ("SCORE LIMIT", None, self.limit),
            # OKLAHOMA is one of the TABLE RULES page's three knock cards too: the two agree.
            ("OKLAHOMA", "O", lambda b: self.oklahoma()),
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
        self.add(SAVE_BOX, "SAVE", "S", lambda b: self.save())
        # The other sources' table rules, on a page of their own so that this page keeps
        # the original's items.
        self.add(RULES_BOX, "TABLE RULES", "T", lambda b: RulesScreen(self.ctx))

    def oklahoma(self) -> Controller:
        """OKLAHOMA YES or NO: one of the TABLE RULES page's three knock cards, so YES
        turns the knock card from a deck off (and what cannot go with Oklahoma gives
        way: the deck's doublers, the deal of 11)."""
        kind = "FIXED" if self.cfg.knock_card == "OKLAHOMA" else "OKLAHOMA"
        new = tablerules.with_knock_card(self.cfg, kind)
        return self.set(**{k: getattr(new, k) for k in ("oklahoma", "knock_deck", "doublers", "deal_eleven")})

    def cycle_bonus(self, field: str, button: int) -> Controller:
        """10, 15, 20, 25 and round again (the right button goes back)."""
        i = BONUS_CHOICES.index(getattr(self.cfg, field))
        step = -1 if button == RIGHT else 1
        return self.set(**{field: BONUS_CHOICES[(i + step) % len(BONUS_CHOICES)]})

    def limit(self, button: int) -> Controller:
        """LEFT or '+' up by 50, RIGHT or '-' down by 50, from 0 to 500."""
        return self.set(score_limit=next_limit(self.cfg.score_limit, up=button != RIGHT))

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
                  yes_no(cfg.knock_card == "OKLAHOMA"), yes_no(cfg.big_cards), yes_no(cfg.easy),
                  yes_no(cfg.knocking), str(cfg.pointer + 1), cfg.sort, cfg.level]
        for (rect, _, _, _), value in zip(self.items, values):
            s.text(rect.x + rect.w + 16, rect.y + 6, value, WHITE)
        s.text(320, 56 + 26 * 2 + 6, "LEFT/+ UP  RIGHT/- DOWN", LIGHTGRAY)
        # Show the chosen pointer shape beside its option.
        s.pointer_at(288, 56 + 26 * 7 + 2, cfg.pointer)
        if self.saved_note:   # beside SAVE, clear of the LEVEL row above it
            s.text(*SAVED_NOTE_AT, self.saved_note, LIGHTRED)



class RulesScreen(Menu):
    """The table rules of the other sources (docs/choices.md): each rule with its value
    beside it, a click or its key for the next value (the right button goes back), and
    the presets that set a group at once. The original's rules are the defaults; SAVE
    on the options page writes them with the rest."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.add(Rect(RULES_X, 16, RULES_W, 20), "OPTIONS", "O", lambda b: OptionsScreen(self.ctx))
        for i, rule in enumerate(tablerules.RULES):
            self.add(rule_rect(i), rule.label, rule.hot,
                     lambda b, r=rule: self.change(r.change(self.ctx.config, b == RIGHT)))
        for i, name in enumerate(tablerules.PRESET_NAMES):
            self.add(preset_rect(i), name, PRESET_HOT[name],
                     lambda b, n=name: self.change(tablerules.apply_preset(self.ctx.config, n)))

    def change(self, cfg: files.Config) -> Controller:
        self.ctx.config = cfg
        return self

    def on_key(self, k: Key) -> Controller | None:
        return OptionsScreen(self.ctx) if k.ascii in (ENTER, ESC) else super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        cfg = self.ctx.config
        s.text(320, 18, "TABLE RULES", YELLOW, 2)
        for i, rule in enumerate(tablerules.RULES):
            r = rule_rect(i)
            s.text(r.x + r.w + 16, r.y + 6, rule.value(cfg), WHITE)
        s.text(PRESET_X, RULES_Y0 + 6, "PRESETS", LIGHTGRAY)
        y = preset_rect(len(tablerules.PRESET_NAMES)).y + 6       # under the presets
        s.text(PRESET_X, y, f"NOW: {tablerules.preset_of(cfg) or 'YOUR OWN'}", WHITE)
        s.text(PRESET_X, y + 28, "LEFT: NEXT", LIGHTGRAY)
        s.text(PRESET_X, y + 42, "RIGHT: BACK", LIGHTGRAY)
        s.text(RULES_X, 300, "The original's rules are the defaults.", LIGHTGRAY)
        s.text(RULES_X, 314, "SAVE on the options page keeps these.", LIGHTGRAY)


# The rules page: ten rows on the left (their values beside them, up to "OKLAHOMA
# UPCARD", 15 characters, ending at x 384), the presets on the right.
RULES_X, RULES_W, RULES_Y0, RULES_DY = 48, 200, 48, 24
PRESET_X, PRESET_W = 440, 152
# ORIGINAL's R, CARD ROOM's C, CLASSIC's L: no rule's letter, and O stays OPTIONS.
PRESET_HOT: dict[str, str | int] = {"ORIGINAL": 1, "CARD ROOM": "C", "CLASSIC": 1}


def rule_rect(i: int) -> Rect:
    return Rect(RULES_X, RULES_Y0 + RULES_DY * i, RULES_W, 20)


def preset_rect(i: int) -> Rect:
    return Rect(PRESET_X, RULES_Y0 + RULES_DY * (i + 1), PRESET_W, 20)


class StatsScreen(Page):
    """The current player's cumulative statistics."""

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


class ScoresScreen(Page):
    """The top 20 high scores."""

    menu_box = Rect(MENU_BOX.x, 326, MENU_BOX.w, MENU_BOX.h)     # under the twenty rows

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
        i = player_key_index(k.char)
        if i is not None and i < len(self.names):
            return self.pick(self.names[i])
        return super().on_key(k)

    def draw_body(self) -> None:
        s = self.screen
        s.text((640 - s.text_width("PLAYERS", 2)) // 2, 16, "PLAYERS", YELLOW, 2)
        if not self.names:
            s.text(200, 100, "No players in the statistics file yet.", LIGHTGRAY)
        for i in range(len(self.names)):
            col, row = divmod(i, 10)
            s.text(96 + 220 * col, 66 + 24 * row, PLAYER_KEYS[i], LIGHTGRAY)


# The keys beside the names: 1..9, 0 for the first column, A..J for the second
# (no command of this screen uses those letters; O stays OPTIONS).
PLAYER_KEYS = "1234567890ABCDEFGHIJ"


def player_key_index(char: str) -> int | None:
    """Which of the (up to 20) listed players a key picks, or None."""
    i = PLAYER_KEYS.find(char.upper()) if len(char) == 1 else -1
    return i if i >= 0 else None
__all__ = ["Menu", "NameMenu", "OptionsScreen", "PlayersScreen", "RulesScreen", "ScoresScreen", "StatsScreen", "TitleScreen"]
