"""The card room's pages, both games': the connection page, the lobby and the invitation
page (docs/room.md, "The player's side: the pages").

A shared unit: it knows no game. Each game hands it its ``RoomGame`` (the rules as the
invitation page lays them out, the player's own rules, its room game screen) as it hands
the shell its ``Game``. The pages are ``Menu``s of the menus' machinery: red command boxes
with hot letters, 8x8 text, every box a key and a click; a field is typed after its key
or a click on it, on the keyboard or on the on-screen keys under it (mouse-only play).

Every page polls the ``RoomSession`` once a frame and says on its last line what the
room said (``status_text``: "connecting...", "reconnecting...", a refusal in one line).
When the room starts a table (``session.take_started()``), the game's own screen takes
over (``RoomGame.play``), with the lobby to come back to.
"""
from __future__ import annotations

import sys
from typing import Any

from port.main.cmdline import room_address
from port.main.context import GameContext
from port.main.controller import Controller
from port.main.menus import BACKSPACE, ENTER, ESC, Menu, yes_no
from port.main.roomgame import RoomGame, RuleRow, Rules
from port.main.roomlooks import HistoryPage, ProfilePage, TopPage
from port.main.roomseek import BLOCK_RECT, SEEK_RECT, SeekAndBlock, where_mine
from port.main.roomsession import ANSWER_WAIT, DEFAULT_URL, RoomSession, TableLink
from port.main.roomwidgets import faint_text, mm_ss, over_line, status_text
from port.mouse import RIGHT, Event, Key, Press
from port.screen import Rect
from port.screen.profiles import BLACK, DARKGRAY, LIGHTGRAY, LIGHTRED, RED, WHITE, YELLOW

# The extended keys' scan codes, as the Mouse unit gives them (ReadKey's).
UP, DOWN, PGUP, PGDN, HOME, END = 0x48, 0x50, 0x49, 0x51, 0x47, 0x4F
STATUS_Y = 334                       # the status line: the last text row of the page
SUB_Y = 34                           # the line under a page's heading: clear of it on CGA's 200 rows
ROOM_NAME_MAX = 16                   # the room's names are 1-16 characters (docs/room.md)
PASSWORD_MAX = 32                    # typed here; the room takes up to 128
ADDRESS_MAX = 60
TEXT_CHARS = frozenset(chr(c) for c in range(33, 127))
NAME_CHARS = frozenset(TEXT_CHARS | {" "})
# The on-screen keys under a field being typed: letters (capitals, or small after SHIFT),
# digits and an address's characters: a mouse-only player types any name, address or
# password of these (docs/room.md).
SHIFT = "SHIFT"
PAD_KEYS = [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "-", ".", ":", "/", "_", SHIFT, "SPC", "DEL", "OK"]
PAD_X, PAD_Y, PAD_STEP_X, PAD_STEP_Y, PAD_W, PAD_H = 184, 176, 36, 24, 32, 20
CLOCKS = (0, 15, 30, 60, 120, 300)   # the move clock's steps on the invitation page
ROOM_TITLE = "CARD ROOM"


def pad_rect(i: int) -> Rect:
    row, col = divmod(i, 8)
    return Rect(PAD_X + PAD_STEP_X * col, PAD_Y + PAD_STEP_Y * row, PAD_W, PAD_H)


def web_address(js: Any = None) -> str:
    """On the web page: the page's own host (``cardroom`` serves the pages on the room's
    own port), ws:// or wss:// as the page was loaded over http or https."""
    if js is None:
        import js  # type: ignore[import-not-found, no-redef]   # Pyodide's module: the page's window
    loc = js.location
    scheme = "wss" if str(loc.protocol) == "https:" else "ws"
    return f"{scheme}://{loc.host}"


def default_address(ctx: GameContext) -> str:
    """The address the connection page starts with: the last one kept in the CFG, else
    (on the web page) the page's own host, else the room's default."""
    kept = getattr(ctx.config, "room_url", "")
    if kept:
        return kept
    if sys.platform == "emscripten":
        try:
            return web_address()
        except Exception:            # no page to ask (a worker): the default
            return DEFAULT_URL
    return DEFAULT_URL


def keep(ctx: GameContext, **room: str) -> None:
    """Keep the room's lines (``room_url``, ``room_token``, ``room_with``) in the CFG at
    once, and in the options in force: only these lines change in the file (the name or
    limit of the command line still overrides without overwriting). The browser's page
    keeps its CFG in its storage, so a reloaded page finds them too. NODISK keeps nothing."""
    ctx.config = ctx.config.with_(**room)
    store = ctx.store
    if getattr(store, "nodisk", True):
        return
    store.save_config(store.config.with_(**room))


# ---- a page of the room ---------------------------------------------------------------------

class RoomPage(Menu):
    """What the room's pages share: the session polled once a frame, a table the room
    started handed to the game's screen, and the status line."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession | None) -> None:
        super().__init__(ctx)
        self.room = room
        self.session = session
        self.line = ""                       # the page's own one-line message

    def update(self, events: list[Event]) -> Controller | None:
        if self.session is not None:
            self.session.poll()             # (a new connection watches the lobby anew: the session's)
            started = self.session.take_started()
            mine = [link for link in started if link.game == self.room.game]
            for link in started:
                if link.watching and link.game != self.room.game:     # watched from the other program
                    link.unwatch()
                    self.line = f"That table plays {link.game.upper()}: watch it from that program."
            if mine:
                return to_table(self.ctx, self.room, self.session, mine[-1])
        return super().update(events)

    def status(self) -> tuple[str, int]:
        """The status line's text and colour: the connection, then the page's own line."""
        text = status_text(self.session) if self.session is not None else ""
        if text:
            return text, LIGHTRED
        if self.line:
            return self.line, LIGHTRED
        if self.session is not None and self.session.note:
            return self.session.note, LIGHTRED
        return "", WHITE

    def draw(self) -> None:
        super().draw()
        text, colour = self.status()
        if text:
            self.screen.text(8, STATUS_Y, text[:78], colour)

    def heading(self, text: str, sub: str = "") -> None:
        s = self.screen
        s.text((640 - s.text_width(text, 2)) // 2, 8, text, YELLOW, 2)
        if sub:
            s.text((640 - s.text_width(sub)) // 2, SUB_Y, sub, LIGHTGRAY)


def to_table(ctx: GameContext, room: RoomGame, session: RoomSession, link: TableLink) -> Controller:
    """A table the room started (or kept while the program was away): the game's own
    screen, with the lobby to come back to. While it is on, the CFG keeps whom it is
    with, so a restart offers to rejoin it."""
    if not link.watching:                    # a table watched is not one to rejoin
        keep(ctx, room_with=link.opponent)

    def back() -> Controller:
        if link.watching:
            link.unwatch()
        else:
            keep(ctx, room_with="")
        return LobbyPage(ctx, room, session)

    return room.play(ctx, session, link, back)


# ---- the connection page --------------------------------------------------------------------

FIELD_X, FIELD_W, LABEL_X, LABEL_W = 184, 400, 48, 120
FIELD_Y = {"address": 64, "name": 96, "password": 128}


class ConnectPage(RoomPage):
    """The room's address, the name and a password, or GUEST. LOG IN (L, ENTER),
    REGISTER (R: a new account), GUEST (G), MAIN MENU (M, ESC); ADDRESS (A), NAME (N)
    and PASSWORD (P) type their field (or a click on it), ENTER ends it. A game left on
    when the program stopped is offered first: REJOIN (J, ENTER)."""

    def __init__(self, ctx: GameContext, room: RoomGame, address: str | None = None,
                 line: str = "") -> None:
        super().__init__(ctx, room, None)
        kept_name = getattr(ctx.config, "room_name", "")
        self.values = {"address": address or default_address(ctx),
                       "name": (kept_name or str(ctx.config.name))[:ROOM_NAME_MAX], "password": ""}
        self.lower = False                   # the on-screen keys' letters: capitals, or small (SHIFT)
        self.line = line
        self.typing: str | None = None
        self.typed = ""
        self.doing = ""                      # "login", "register", "guest", "resume" while asked
        self.got_tables = False              # the room's list of one's tables came (after welcome)
        cfg = ctx.config
        self.rejoin_with = cfg.room_with if getattr(cfg, "room_token", "") and getattr(cfg, "room_with", "") else ""
        for field, label, hot in (("address", "ADDRESS", "A"), ("name", "NAME", "N"),
                                  ("password", "PASSWORD", "P")):
            y = FIELD_Y[field]
            self.add(Rect(LABEL_X, y, LABEL_W, 20), label, hot, lambda b, f=field: self.start_typing(f))
            self.add(Rect(FIELD_X, y, FIELD_W, 20), "", None, lambda b, f=field: self.start_typing(f))
        x, y, w = 48, 168, 128
        self.add(Rect(x, y, w, 20), "LOG IN", "L", lambda b: self.connect("login"))
        self.add(Rect(x + 136, y, w, 20), "REGISTER", "R", lambda b: self.connect("register"))
        self.add(Rect(x + 272, y, w, 20), "GUEST", "G", lambda b: self.connect("guest"))
        self.add(Rect(x + 408, y, w, 20), "MAIN MENU", "M", lambda b: self.leave())
        if self.rejoin_with:
            self.add(REJOIN_BOX, "REJOIN", 2, lambda b: self.connect("resume"))

    # typing a field
    def start_typing(self, field: str) -> Controller:
        """Type the field: its text kept, the cursor at its end (DEL takes the last)."""
        if not self.doing:
            self.typing, self.typed = field, self.values[field]
            self.ctx.session.mouse.text_entry = True
        return self

    def end_typing(self, keep_it: bool = True) -> None:
        field, self.typing = self.typing, None
        self.ctx.session.mouse.text_entry = False
        if field is not None and keep_it and (self.typed or field == "password"):
            self.values[field] = self.typed.strip() if field != "password" else self.typed

    def type_key(self, k: Key) -> None:
        assert self.typing is not None
        most = {"address": ADDRESS_MAX, "name": ROOM_NAME_MAX, "password": PASSWORD_MAX}[self.typing]
        chars = NAME_CHARS if self.typing == "name" else TEXT_CHARS
        if k.ascii == ENTER:
            self.end_typing()
        elif k.ascii == ESC:
            self.end_typing(keep_it=False)
        elif k.ascii == BACKSPACE:
            self.typed = self.typed[:-1]
        elif not k.extended and chr(k.ascii) in chars and len(self.typed) < most:
            self.typed += chr(k.ascii)

    def pad_key(self, x: int, y: int) -> str | None:
        return next((key for i, key in enumerate(PAD_KEYS) if pad_rect(i).contains(x, y)), None)

    def pad_label(self, key: str) -> str:
        """A key as it types now: a letter small after SHIFT; SHIFT names the other case."""
        if key == SHIFT:
            return "ABC" if self.lower else "abc"
        return key.lower() if self.lower and len(key) == 1 else key

    def update(self, events: list[Event]) -> Controller | None:
        if self.session is not None:
            nxt = self.waiting()
            if nxt is not self:
                return nxt
        if self.typing is None:
            return Menu.update(self, events)     # the session is polled above, once
        for e in events:
            if isinstance(e, Key):
                self.type_key(e)
            elif isinstance(e, Press) and not e.chord:
                key = self.pad_key(e.x, e.y)
                if key is None:
                    self.end_typing()        # a click off the keys ends the field, as ENTER
                elif key == SHIFT:
                    self.lower = not self.lower
                else:
                    code = {"OK": ENTER, "DEL": BACKSPACE, "SPC": ord(" ")}.get(key) or ord(self.pad_label(key))
                    self.type_key(Key(code, 0))
            if self.typing is None:
                break
        return self

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ENTER:
            return self.connect("resume" if self.rejoin_with else "login")
        if k.ascii == ESC:
            return self.leave()
        return super().on_key(k)

    # asking the room
    def connect(self, how: str) -> Controller:
        if self.doing:
            return self
        try:
            url = room_address(self.values["address"])
        except ValueError as exc:
            self.line = str(exc) + "."
            return self
        name, password = self.values["name"].strip(), self.values["password"]
        if how in ("login", "register") and not name:
            self.line = "Type your name first (N)."
            return self
        if how in ("login", "register") and not password:
            self.line = "Type your password first (P), or choose GUEST."
            return self
        self.line = ""
        session = RoomSession(url, keep_token=lambda token: keep(self.ctx, room_token=token or ""),
                              keep_with=lambda name: keep(self.ctx, room_with=name),
                              keep_name=lambda name: keep(self.ctx, room_name=name))
        if how == "resume":
            session.resume(self.ctx.config.room_token)
        elif how == "register":
            session.register(name, password)
        else:
            session.login(name, None if how == "guest" else password)
        self.session, self.doing, self.got_tables = session, how, False
        return self

    def waiting(self) -> Controller:
        """While the room is asked: in when welcomed, or the room's one line."""
        session = self.session
        assert session is not None
        self.got_tables |= any(m.get("type") == "tables" for m in session.poll())
        if session.welcomed and self.got_tables:
            keep(self.ctx, room_url=session.url)
            session.watch_lobby(self.room.game)
            started = [link for link in session.take_started() if link.game == self.room.game]
            if started:
                return to_table(self.ctx, self.room, session, started[-1])
            lobby = LobbyPage(self.ctx, self.room, session)
            if self.doing == "resume":     # the game ended meanwhile: the lobby says how
                lobby.over_with = self.rejoin_with
                session.ask_games()
                keep(self.ctx, room_with="")
            return lobby
        if session.status == "closed":
            self.line = session.error or "The room said no."
            if self.doing == "resume":      # a session the room no longer knows: log in
                keep(self.ctx, room_with="", room_token="")
                return ConnectPage(self.ctx, self.room, self.values["address"], self.line)
            self.session, self.doing = None, ""
        return self

    def leave(self) -> Controller:
        if self.session is not None:
            self.session.close()
        return self.title()

    def status(self) -> tuple[str, int]:
        if self.session is not None and self.session.status == "connecting":
            return f"connecting to {self.session.url}...", LIGHTGRAY
        if self.line:
            return self.line, LIGHTRED
        if self.typing is not None:
            return "Type, then ENTER (or the keys below, then OK).", LIGHTGRAY
        if self.rejoin_with:
            return f"ENTER or J goes back to the game with {self.rejoin_with}; L logs in anew.", LIGHTGRAY
        return "A name and password (R makes a new account), or GUEST.", LIGHTGRAY

    def draw(self) -> None:
        super().draw()
        s = self.screen
        for field, y in FIELD_Y.items():
            text = self.typed + "_" if self.typing == field else self.values[field]
            if field == "password":
                text = "*" * len(text.rstrip("_")) + ("_" if self.typing == field else "")
            s.text(FIELD_X + 4, y + 6, text[-(FIELD_W // 8 - 1):], YELLOW if self.typing == field else WHITE)
        if self.rejoin_with and self.typing is None:
            s.text(LABEL_X, REJOIN_BOX.y - 20, f"Your game with {self.rejoin_with} is still on: REJOIN?", YELLOW)
        if self.typing is not None:
            s.fill(PAD_X - 8, PAD_Y - 8, 8 * PAD_STEP_X + 12, 6 * PAD_STEP_Y + 12, BLACK)
            for i, key in enumerate(PAD_KEYS):
                s.button(*pad_rect(i), self.pad_label(key))

    def draw_body(self) -> None:
        self.heading(ROOM_TITLE, f"{self.room.title}: play people at a card room")


REJOIN_BOX = Rect(48, 236, 128, 20)


# ---- the lobby ------------------------------------------------------------------------------

LIST_X, LIST_Y, LIST_W, ROW_H, ROWS = 24, 68, 480, 14, 12
HEAD_Y = LIST_Y - 19                 # the column heads: clear of the frame and the line above on CGA
INVITES_Y, INVITES_SHOWN = 258, 3
COLS = {"name": 32, "bot": 176, "rating": 224, "where": 296}


class LobbyPage(SeekAndBlock, RoomPage):
    """Who is in the room: name, BOT, this game's rating, free or at a table; the other
    game's players greyed (they cannot be invited from here). The arrows pick a player
    (PGUP/PGDN a page, HOME/END the ends), or a click; UP and DOWN boxes scroll for the
    mouse. INVITE (I, ENTER) the one picked; PLAY NOW (N: a person, else a house bot;
    CANCEL, C, while it looks); WATCH (W) the table of the one picked; BLOCK (K) the one
    picked, or UNBLOCK; the invitations
    waiting (1-3, or a click); BACK (B, ESC): out of the room."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession) -> None:
        super().__init__(ctx, room, session)
        self.top = 0
        self.picked: str | None = None
        self.over_with = ""                  # a rejoin found the game over: its result, once the room says
        if session.status == "open":
            session.watch_lobby(room.game)           # the whole list again (a game may have been long)
        self.add(Rect(520, LIST_Y, 96, 20), "PG UP", None, lambda b: self.scroll(-ROWS))
        self.add(Rect(520, LIST_Y + ROW_H * ROWS - 20, 96, 20), "PG DN", None, lambda b: self.scroll(ROWS))
        self.add(Rect(520, LIST_Y + 24, 96, 20), "INVITE", "I", lambda b: self.invite())
        self.seek_box = len(self.items)          # PLAY NOW, or CANCEL while it looks (``boxes``)
        self.add(SEEK_RECT, "PLAY NOW", "N", lambda b: self.play_now())
        # Looking back (port.main.roomlooks): the one picked's PROFILE (else yours), TOP, your HISTORY.
        here = lambda: LobbyPage(ctx, room, session)   # noqa: E731
        self.add(Rect(520, LIST_Y + 72, 96, 20), "WATCH", "W", lambda b: self.watch())
        self.add(Rect(520, LIST_Y + 96, 96, 20), "PROFILE", "P",
                 lambda b: ProfilePage(ctx, room, session, here, self.picked or session.name))
        self.block_box = len(self.items)         # BLOCK, or UNBLOCK for one blocked
        self.add(BLOCK_RECT, "BLOCK", "K", lambda b: self.block())
        self.add(Rect(520, 246, 96, 20), "TOP", "T", lambda b: TopPage(ctx, room, session, here))
        self.add(Rect(520, 272, 96, 20), "HISTORY", "H", lambda b: HistoryPage(ctx, room, session, here))
        self.add(Rect(520, 300, 96, 20), "BACK", "B", lambda b: self.leave())

    # who is listed
    def rows(self) -> list[dict[str, Any]]:
        assert self.session is not None
        return sorted(self.session.players.values(), key=lambda p: str(p.get("name", "")).lower())

    def plays_here(self, p: dict[str, Any]) -> bool:
        """Not the other game's player (a player who said no game is everyone's)."""
        return p.get("game") in (None, self.room.game)

    def pickable(self, p: dict[str, Any]) -> bool:
        assert self.session is not None
        return self.plays_here(p) and p.get("name") != self.session.name

    def scroll(self, by: int) -> Controller:
        n = len(self.rows())
        self.top = max(0, min(self.top + by, max(0, n - ROWS)))
        return self

    def move_pick(self, by: int) -> Controller:
        rows = self.rows()
        if not rows:
            return self
        names = [str(p["name"]) for p in rows]
        ok = [i for i, p in enumerate(rows) if self.pickable(p)]
        if not ok:
            return self
        at = names.index(self.picked) if self.picked in names else (-1 if by > 0 else len(names))
        aim = max(0, min(len(names) - 1, at + by))
        # The nearest player who can be invited, past the aim (yourself and the other
        # game's players are stepped over), else before it.
        ahead = [i for i in ok if (i >= aim if by > 0 else i <= aim)]
        at = (min(ahead) if by > 0 else max(ahead)) if ahead else (max(ok) if by > 0 else min(ok))
        self.picked = names[at]
        if at < self.top:
            self.top = max(0, min(at, aim))     # HOME shows the list's top, not only the pick
        elif at >= self.top + ROWS:
            self.top = at - ROWS + 1
        return self

    def update(self, events: list[Event]) -> Controller | None:
        nxt = super().update(events)
        if nxt is self:
            self.boxes()
            self.pick_first()
            if self.over_with and self.session is not None and self.session.games is not None:
                self.line = over_line(self.session.games, self.session.name, self.over_with, self.room.game)
                self.over_with = ""
        return nxt

    def pick_first(self) -> None:
        """Nobody picked (or the one picked gone): the first free player who can be
        invited, else the first who can."""
        rows = self.rows()
        if self.picked in {str(p.get("name")) for p in rows}:
            return
        free = [p for p in rows if self.pickable(p) and p.get("status") != "playing"]
        ok = free or [p for p in rows if self.pickable(p)]
        self.picked = str(ok[0]["name"]) if ok else None
        if ok:
            at = rows.index(ok[0])
            self.top = max(0, at - ROWS + 1) if at >= self.top + ROWS else min(self.top, at)

    def invite(self) -> Controller:
        rows = {str(p["name"]): p for p in self.rows()}
        p = rows.get(self.picked or "")
        if p is None:
            self.line = "Pick a player first (the arrows or a click), then INVITE."
            return self
        if not self.pickable(p):
            self.line = ("That is you." if p["name"] == self.session.name  # type: ignore[union-attr]
                         else f"{p['name']} is in the other game's program.")
            return self
        if self.session.is_blocked(str(p["name"])):  # type: ignore[union-attr]
            self.line = f"You have blocked {p['name']}: UNBLOCK (K) first."
            return self
        self.line = ""
        return InvitePage(self.ctx, self.room, self.session, to=str(p["name"]))  # type: ignore[arg-type]

    def watch(self) -> Controller:
        """Watch the table of the one picked (AT A TABLE): the room's answer opens it."""
        p = {str(p["name"]): p for p in self.rows()}.get(self.picked or "")
        if p is None or p.get("status") != "playing" or not self.pickable(p):
            self.line = "Pick a player AT A TABLE, then WATCH."
        else:
            self.line = ""
            self.session.watch(name=str(p["name"]))     # type: ignore[union-attr]
        return self

    def waiting_invitations(self) -> list[dict[str, Any]]:
        assert self.session is not None
        mine = [i for i in self.session.invitations.values() if i.get("game") == self.room.game]
        return mine[:INVITES_SHOWN]

    def open_invitation(self, i: int) -> Controller:
        invs = self.waiting_invitations()
        if i >= len(invs):
            return self
        assert self.session is not None
        return InvitePage(self.ctx, self.room, self.session, inv_id=str(invs[i]["id"]))

    def leave(self) -> Controller:
        assert self.session is not None
        self.session.close()
        return self.title()

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ENTER:
            return self.invite()
        if k.ascii == ESC:
            return self.leave()
        if k.extended:
            step = {UP: -1, DOWN: 1, PGUP: -ROWS, PGDN: ROWS, HOME: -10**6, END: 10**6}.get(k.scan)
            return self.move_pick(step) if step else self
        if k.char in ("1", "2", "3"):
            return self.open_invitation(int(k.char) - 1)
        return super().on_key(k)

    def on_click(self, p: Press) -> Controller | None:
        if LIST_X <= p.x < LIST_X + LIST_W and LIST_Y <= p.y < LIST_Y + ROW_H * ROWS:
            at = self.top + (p.y - LIST_Y) // ROW_H
            rows = self.rows()
            if at < len(rows):
                self.picked = str(rows[at]["name"])
            return self
        for i, _ in enumerate(self.waiting_invitations()):
            if invitation_rect(i).contains(p.x, p.y):
                return self.open_invitation(i)
        return self

    def draw_body(self) -> None:
        assert self.session is not None
        s, session = self.screen, self.session
        self.heading(ROOM_TITLE, f"{self.room.title.upper()} LOBBY   YOU: {session.name} "
                                 f"{rating_of(session.ratings.get(self.room.game))}")
        for col, head in (("name", "NAME"), ("bot", "BOT"), ("rating", "RATING"), ("where", "WHERE")):
            s.text(COLS[col], HEAD_Y, head, LIGHTGRAY)
        s.box(LIST_X - 4, LIST_Y - 4, LIST_W + 8, ROW_H * ROWS + 6, RED)
        rows = self.rows()
        two = s.look.two_colour
        for i, p in enumerate(rows[self.top:self.top + ROWS]):
            y = LIST_Y + ROW_H * i
            here = self.plays_here(p)
            you = p.get("name") == session.name
            colour = WHITE if here else DARKGRAY
            if you and here:
                # Yours in yellow; in reverse (black on white) where yellow is white too.
                colour = BLACK if two else YELLOW
                if two:
                    s.fill(LIST_X - 2, y - 1, LIST_W + 4, ROW_H, WHITE)
            if p.get("name") == self.picked:
                s.box(LIST_X - 2, y - 2, LIST_W + 4, ROW_H, YELLOW)
            ratings = p.get("ratings") or {}
            cells = ((COLS["name"], str(p.get("name", ""))[:ROOM_NAME_MAX]), (COLS["bot"], "BOT" if p.get("bot") else ""),
                     (COLS["rating"], str(ratings.get(self.room.game, ""))),
                     (COLS["where"], where_mine(session, p, where(p, here))))
            for x, text in cells:
                if not here and two:
                    faint_text(s, x, y, text)    # the other program's: greyed as a dithered line
                else:
                    s.text(x, y, text, colour)
        if len(rows) > ROWS:
            shown = f"{self.top + 1}-{min(len(rows), self.top + ROWS)} OF {len(rows)}"
            s.text(LIST_X + LIST_W - s.text_width(shown), HEAD_Y, shown, LIGHTGRAY)
        s.text(LIST_X, INVITES_Y - 16, "INVITATIONS", LIGHTGRAY)
        invs = self.waiting_invitations()
        if not invs:
            s.text(LIST_X + 104, INVITES_Y - 16, "none yet: INVITE a player, or PLAY NOW", DARKGRAY)
        for i, inv in enumerate(invs):
            s.button(*invitation_rect(i), f"{i + 1} {invitation_line(inv, session.name)}", 0)


def invitation_rect(i: int) -> Rect:
    return Rect(LIST_X, INVITES_Y + 22 * i, LIST_W, 18)


def invitation_line(inv: dict[str, Any], me: str) -> str:
    other = inv.get("sender") if inv.get("to") == me else inv.get("to")
    if inv.get("proposer") == me:
        return f"WAITING FOR {other} (ROUND {inv.get('round', 1)})"[:56]
    return f"{other} INVITES YOU (ROUND {inv.get('round', 1)}): ANSWER"[:56]


def rating_of(r: dict[str, Any] | None) -> str:
    return str(r.get("shown", "")) if isinstance(r, dict) else ""


def where(p: dict[str, Any], here: bool) -> str:
    if not here:
        return f"IN {str(p.get('game', '')).upper()}"
    return "AT A TABLE" if p.get("status") == "playing" else "FREE"


# ---- the invitation page --------------------------------------------------------------------

RULE_X0, RULE_X1, RULE_W, RULE_Y0, RULE_DY, RULE_ROWS = 16, 328, 144, 52, 24, 9
COMMAND_Y = 290


class InvitePage(RoomPage):
    """The rules of the invitation, each rule a box with its hot letter and its value
    beside it (a click or the key: the next value; the right button goes back), laid out
    as the game's options and TABLE RULES pages lay them out, with the room's MOVE CLOCK
    (M) and HINTS (T). A new invitation: SEND (E). One received: what the other changed
    in a yellow frame; ACCEPT (A), DECLINE (C), or change rules and SEND BACK (E). One's
    own, waiting: WITHDRAW (W). LOBBY (O, ESC) leaves it open."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession, *,
                 to: str | None = None, inv_id: str | None = None) -> None:
        super().__init__(ctx, room, session)
        self.to = to
        self.inv_id = inv_id
        self.round = 0
        self.sent = False
        self.rules: Rules = {**room.my_rules(ctx), "hints": False}
        self.clock = 60
        self.received: tuple[Rules, int] | None = None
        if inv_id is not None:
            self.load(session.invitations.get(inv_id) or {})
        self.build()

    @property
    def inv(self) -> dict[str, Any] | None:
        assert self.session is not None
        return self.session.invitations.get(self.inv_id) if self.inv_id else None

    @property
    def mine(self) -> bool:
        """Waiting for the other's answer (one's own proposal, or one just sent)."""
        inv = self.inv
        return self.sent or (inv is not None and inv.get("proposer") == self.session.name)  # type: ignore[union-attr]

    def other(self) -> str:
        inv = self.inv
        if inv is None:
            return self.to or ""
        me = self.session.name  # type: ignore[union-attr]
        return str(inv.get("sender") if inv.get("to") == me else inv.get("to"))

    def load(self, inv: dict[str, Any]) -> None:
        """The rules as proposed (a rule not given is the game's default)."""
        self.rules = {**self.rules, "hints": False, **(inv.get("rules") or {})}
        self.clock = int(inv.get("clock", self.clock) or 0)
        self.round = int(inv.get("round", 1))
        self.received = (dict(self.rules), self.clock)

    def build(self) -> None:
        """The boxes for what the page is now: rules change only while it is one's turn."""
        self.items = []
        editable = not self.mine
        for i, row in enumerate(self.all_rows()):
            if editable:
                self.add(rule_rect(i), row.label, row.hot,
                         lambda b, r=row: self.change(r, b == RIGHT))
            else:
                self.add(rule_rect(i), row.label, None, lambda b: self.still())
        x, w, gap = 16, 136, 152
        if self.inv is None and not self.sent:
            self.add(Rect(x, COMMAND_Y, w, 20), "SEND", 1, lambda b: self.send())
        elif self.mine:
            self.add(Rect(x, COMMAND_Y, w, 20), "WITHDRAW", "W", lambda b: self.withdraw())
        else:
            self.add(Rect(x, COMMAND_Y, w, 20), "ACCEPT", "A", lambda b: self.answer("accept"))
            self.add(Rect(x + gap, COMMAND_Y, w, 20), "DECLINE", 2, lambda b: self.answer("decline"))
            self.add(Rect(x + 2 * gap, COMMAND_Y, w, 20), "SEND BACK", 1, lambda b: self.send())
        self.add(Rect(x + 3 * gap, COMMAND_Y, w, 20), "LOBBY", 1, lambda b: self.lobby())

    def all_rows(self) -> tuple[RuleRow, ...]:
        return (*self.room.rule_rows(), *PAGE_ROWS)

    # what the player does
    def change(self, row: RuleRow, back: bool) -> Controller:
        if "clock" in row.keys:
            self.clock = step_clock(self.clock, back)
        else:
            self.rules = row.change(self.rules, back)
        self.line = ""
        return self

    def still(self) -> Controller:
        self.line = f"Waiting for {self.other()}'s answer: WITHDRAW to change it."
        return self

    def offline(self) -> bool:
        """The line is down: an answer said now would be lost, so it is not said."""
        assert self.session is not None
        if self.session.status == "open":
            return False
        self.line = "Not connected to the room: answer again when the line is back."
        return True

    def send(self) -> Controller:
        assert self.session is not None
        if self.inv is None:
            self.session.note = ""                   # what happens to this one is said anew
            self.session.invite(self.other(), self.room.game, self.rules, self.clock)
            self.sent = True
            self.build()
            return self
        if self.received == (self.rules, self.clock):
            self.line = "Change a rule first to send it back, or ACCEPT."
            return self
        if self.offline():
            return self
        self.session.counter(str(self.inv_id), self.rules, self.clock)
        self.sent = True
        self.build()
        return self

    def answer(self, how: str) -> Controller:
        assert self.session is not None
        if self.offline():
            return self
        self.session.answer(str(self.inv_id), how)
        return self if how == "accept" else LobbyPage(self.ctx, self.room, self.session)

    def withdraw(self) -> Controller:
        assert self.session is not None
        if self.inv_id is not None:
            self.session.answer(self.inv_id, "cancel")
        return LobbyPage(self.ctx, self.room, self.session)

    def lobby(self) -> Controller:
        assert self.session is not None
        return LobbyPage(self.ctx, self.room, self.session)

    def on_key(self, k: Key) -> Controller | None:
        if k.ascii == ESC:
            return self.lobby()
        if k.ascii == ENTER:
            if self.inv is None and not self.sent:
                return self.send()
            return self.answer("accept") if not self.mine else self
        return super().on_key(k)

    # what the room says
    def update(self, events: list[Event]) -> Controller | None:
        nxt = super().update(events)
        if nxt is not self:
            return nxt
        assert self.session is not None
        if self.inv_id is None and self.sent:
            found = [i for i in self.session.invitations.values()
                     if i.get("sender") == self.session.name and i.get("to") == self.to
                     and i.get("game") == self.room.game]
            if found:                                # from now on its proposer says whose turn it is
                self.inv_id, self.sent = str(found[-1]["id"]), False
                self.load(found[-1])
                self.build()
            elif self.session.note:                  # opened and closed between two frames
                return LobbyPage(self.ctx, self.room, self.session)
            elif self.session.error:
                self.line, self.session.error, self.sent = self.session.error, "", False
                self.build()
            elif self.session.status == "closed":
                self.line, self.sent, self.session.held = "Not sent: the room's line is closed.", False, None
                self.build()
            elif (self.session.held is None and self.session.invite_sent_at is not None
                  and self.session.now() - self.session.invite_sent_at > ANSWER_WAIT):
                self.line = f"The room did not answer: the invitation to {self.other()} was not sent. SEND again."
                self.sent = False
                self.build()
            return self
        inv = self.inv
        if self.inv_id is not None and inv is None:
            lobby = LobbyPage(self.ctx, self.room, self.session)
            return lobby                             # closed: the lobby says why (the note)
        if inv is not None and int(inv.get("round", 1)) != self.round:
            self.sent = False
            self.load(inv)
            self.build()
        if self.session.error:                       # refused: the room's sentence, and one's turn again
            self.line, self.session.error = self.session.error, ""
            self.sent = False
            self.build()
        return self

    def draw_body(self) -> None:
        s = self.screen
        inv, other = self.inv, self.other()
        if inv is None and not self.sent:
            head, sub = f"INVITE {other}", f"{self.room.title.upper()}: YOUR RULES; CHANGE ANY, THEN SEND"
        elif self.mine:
            head, sub = f"WAITING FOR {other}", f"{self.room.title.upper()}: ROUND {self.round or 1}, YOUR PROPOSAL"
        else:
            head = f"{other} INVITES YOU" if self.round <= 1 else f"{other} SENDS IT BACK"
            sub = f"{self.room.title.upper()}: ROUND {self.round}; CHANGED IN A YELLOW FRAME"
        self.heading(head, sub)
        changed = set((inv or {}).get("changed") or ()) if not self.mine else set()
        for i, row in enumerate(self.all_rows()):
            r = rule_rect(i)
            value = clock_value(self.clock) if "clock" in row.keys else row.value(self.rules)
            x, y = r.x + r.w + 8, r.y + 6
            s.text(x, y, value, WHITE)
            if changed & set(row.keys):
                s.box(x - 3, r.y + 2, s.text_width(value) + 6, 16, YELLOW)

    def status(self) -> tuple[str, int]:
        assert self.session is not None
        if self.sent and self.session.held is not None:
            return f"reconnecting...: the invitation goes to {self.other()} when the line is back.", LIGHTGRAY
        text, colour = super().status()
        if text:
            return text, colour
        inv = self.inv
        if self.mine and inv is not None:
            left = float(inv.get("seconds", 0.0))
            return f"Sent to {self.other()}: waiting for an answer (a round lasts {mm_ss(left)}).", LIGHTGRAY
        if self.sent:
            return f"Sending to {self.other()}...", LIGHTGRAY
        return "A click or the key: next value; right button: back.", LIGHTGRAY


def rule_rect(i: int) -> Rect:
    col, row = divmod(i, RULE_ROWS)
    return Rect(RULE_X0 if col == 0 else RULE_X1, RULE_Y0 + RULE_DY * row, RULE_W, 20)


def step_clock(now: int, back: bool) -> int:
    steps = CLOCKS if now in CLOCKS else tuple(sorted({*CLOCKS, now}))
    return steps[(steps.index(now) + (-1 if back else 1)) % len(steps)]


def clock_value(seconds: int) -> str:
    return "NONE" if seconds <= 0 else f"{mm_ss(seconds)} A MOVE"


def _flip_hints(rules: Rules, back: bool) -> Rules:
    return {**rules, "hints": not rules.get("hints", False)}


# The room's own rows, after the game's: the move clock and hints (docs/room.md, "Rules").
PAGE_ROWS: tuple[RuleRow, ...] = (
    RuleRow("MOVE CLOCK", "M", ("clock",), lambda r: "", lambda r, back: r),
    RuleRow("HINTS", 3, ("hints",), lambda r: yes_no(bool(r.get("hints", False))), _flip_hints),
)


__all__ = ["ConnectPage", "InvitePage", "LobbyPage", "PAGE_ROWS", "RoomPage", "default_address", "keep",
           "to_table", "web_address"]
