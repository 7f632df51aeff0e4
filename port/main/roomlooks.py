"""Looking back in the card room, both games' pages: HISTORY (a player's last games,
each opened in the game's replay viewer or REVIEW), TOP (this game's leaderboard,
provisional ratings apart) and PROFILE (a player's ratings, results, rating history as a
chart, last games) (docs/room.md, "The player's side: looking back").

A shared unit, a sibling of ``port.main.roompages``: it knows no game. What is the
game's (a rules line, the replay viewer, the review) comes through its ``RoomGame``.
The pages are the lobby's kind: red command boxes with hot letters, 8x8 text, a list
picked by the arrows or a click, the status line last. The room answers each look
(``games``, ``top``, ``profile``, ``game``) into ``RoomSession.looked`` and ``records``;
a page asks once when it opens, and draws what has come.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from port.main.context import GameContext
from port.main.controller import Controller
from port.main.menus import ENTER, Menu
from port.main.roomgame import RoomGame
from port.main.roomsession import RoomSession
from port.main.roomwidgets import faint_text, status_text
from port.mouse import Event, Key, Press
from port.screen import LOGICAL_HEIGHT, Rect
from port.screen.profiles import BLACK, DARKGRAY, LIGHTCYAN, LIGHTGRAY, LIGHTGREEN, LIGHTRED, RED, WHITE, YELLOW

UP, DOWN, PGUP, PGDN, HOME, END = 0x48, 0x50, 0x49, 0x51, 0x47, 0x4F
STATUS_Y = 334                       # the status line (as the room's other pages)
SUB_Y = 34
LIST_X, LIST_Y, LIST_W, ROW_H, ROWS = 24, 68, 592, 14, 14
HEAD_Y = LIST_Y - 19                 # the column heads, clear of the frame on CGA as the lobby's
BOX_Y, BOX_W, BOX_GAP = 300, 136, 152
TITLE = "CARD ROOM"
GAME_WORDS = {"ginrummy": "GIN", "cribbage": "CRIB"}
Back = Callable[[], Controller]


def mmdd(t: Any) -> str:
    try:
        return datetime.fromtimestamp(float(t), timezone.utc).strftime("%Y-%m-%d")
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def outcome(result: dict[str, Any], players: list[str], me: str) -> str:
    """A game's result as ``me`` had it: "WON 121-98", "LOST: RESIGNED", "DRAWN 100-100"."""
    winner, how = result.get("winner"), result.get("how")
    scores = list(result.get("scores") or [0, 0])
    seat = next((i for i, p in enumerate(players) if str(p).lower() == me.lower()), 0)
    mine, theirs = (scores + [0, 0])[seat], (scores + [0, 0])[1 - seat]
    if winner is None:
        return f"DRAWN {mine}-{theirs}"
    word = "WON" if str(winner).lower() == me.lower() else "LOST"
    if how in (None, "played"):
        return f"{word} {mine}-{theirs}"
    ended = {"resigned": "RESIGNED", "clock": "CLOCK", "away": "LEFT"}.get(str(how), str(how).upper())
    return f"{word}: {ended}"


class LookPage(Menu):
    """What the looking-back pages share: the session polled once a frame, the status
    line (the connection, the room's refusal, the page's own line), the way back."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession, back: Back) -> None:
        super().__init__(ctx)
        self.room, self.session, self.back = room, session, back
        self.line = ""
        self.top = 0
        self.at = 0

    def update(self, events: list[Event]) -> Controller | None:
        self.session.poll()
        return super().update(events)

    def lobby(self) -> Controller:
        self.session.error = ""
        return self.back()

    def rows(self) -> list[Any]:
        return []

    def move(self, by: int) -> Controller:
        n = len(self.rows())
        if n:
            self.at = max(0, min(n - 1, self.at + by))
            if self.at < self.top:
                self.top = self.at
            elif self.at >= self.top + ROWS:
                self.top = self.at - ROWS + 1
        return self

    def on_key(self, k: Key) -> Controller | None:
        if k.extended:
            step = {UP: -1, DOWN: 1, PGUP: -ROWS, PGDN: ROWS, HOME: -10**6, END: 10**6}.get(k.scan)
            return self.move(step) if step else self
        if k.ascii == ENTER:
            return self.enter()
        return super().on_key(k)

    def enter(self) -> Controller:
        return self

    def on_click(self, p: Press) -> Controller | None:
        if LIST_X <= p.x < LIST_X + LIST_W and LIST_Y <= p.y < LIST_Y + ROW_H * ROWS:
            at = self.top + (p.y - LIST_Y) // ROW_H
            if at < len(self.rows()):
                if at == self.at and p.double:
                    return self.enter()
                self.at = at
        return self

    def status(self) -> tuple[str, int]:
        text = status_text(self.session)
        if text:
            return text, LIGHTRED
        return self.line, LIGHTGRAY

    def draw(self) -> None:
        super().draw()
        text, colour = self.status()
        if text:
            self.screen.text(8, STATUS_Y, text[:78], colour)

    def heading(self, sub: str) -> None:
        s = self.screen
        s.text((640 - s.text_width(TITLE, 2)) // 2, 8, TITLE, YELLOW, 2)
        s.text((640 - s.text_width(sub)) // 2, SUB_Y, sub[:78], LIGHTGRAY)

    def draw_list(self, heads: dict[int, str], cells: list[tuple[list[tuple[int, str]], int]]) -> None:
        """The list in its red frame: column heads, then the rows shown (each its cells
        and colour; DARKGRAY greyed, as dithered on CGA and Hercules), the one picked in
        a yellow frame."""
        s = self.screen
        for x, head in heads.items():
            s.text(x, HEAD_Y, head, LIGHTGRAY)
        s.box(LIST_X - 4, LIST_Y - 4, LIST_W + 8, ROW_H * ROWS + 6, RED)
        squeezed = s.profile.height < LOGICAL_HEIGHT      # CGA's 200 lines: no room for a frame between rows
        for i, (row, colour) in enumerate(cells[self.top:self.top + ROWS]):
            y = LIST_Y + ROW_H * i
            if self.top + i == self.at:
                if squeezed:                               # the row picked in reverse (black on white)
                    s.fill(LIST_X - 2, y - 1, LIST_W + 4, ROW_H, WHITE)
                    colour = BLACK
                else:
                    s.box(LIST_X - 2, y - 2, LIST_W + 4, ROW_H, YELLOW)
            for x, text in row:
                if colour == DARKGRAY and s.look.two_colour:
                    faint_text(s, x, y, text)
                else:
                    s.text(x, y, text, colour)
        if len(cells) > ROWS:
            shown = f"{self.top + 1}-{min(len(cells), self.top + ROWS)} OF {len(cells)}"
            s.text(LIST_X + LIST_W - s.text_width(shown), HEAD_Y, shown, LIGHTGRAY)


def command(i: int) -> Rect:
    return Rect(16 + BOX_GAP * i, BOX_Y, BOX_W, 20)


# ---- HISTORY -------------------------------------------------------------------------------------

H_COLS = {"number": 32, "date": 80, "game": 176, "other": 224, "rules": 368, "result": 480}


class HistoryPage(LookPage):
    """A player's last games (the room keeps 50 a list): number, date, game, opponent,
    rules, result. REPLAY (R, ENTER) opens the game's replay viewer on the game picked,
    REVIEW (V) that player's decisions beside EXPERT's, PROFILE (P) the opponent's page,
    LOBBY (L) goes back. The other game's games are listed greyed (its own program
    opens them)."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession, back: Back,
                 name: str | None = None) -> None:
        super().__init__(ctx, room, session, back)
        self.name = name or session.name
        self.want: tuple[str, int] | None = None          # REPLAY or REVIEW, waiting for the record
        session.look("games", name=self.name)
        for i, (label, hot, act) in enumerate((("REPLAY", "R", self.replay), ("REVIEW", "V", self.review),
                                                ("PROFILE", "P", self.profile), ("LOBBY", "L", self.lobby))):
            self.add(command(i), label, hot, lambda b, a=act: a())

    def rows(self) -> list[dict[str, Any]]:
        got = self.session.looked.get("games")
        if got is None or str(got.get("name", "")).lower() != self.name.lower():
            return []
        return [g for g in got.get("games", []) if isinstance(g, dict)]

    def picked(self) -> dict[str, Any] | None:
        rows = self.rows()
        return rows[self.at] if 0 <= self.at < len(rows) else None

    def opponent(self, g: dict[str, Any]) -> str:
        players = [str(p) for p in g.get("players", [])]
        return next((p for p in players if p.lower() != self.name.lower()), "")

    def enter(self) -> Controller:
        return self.replay()

    def open(self, how: str) -> Controller:
        g = self.picked()
        if g is None:
            self.line = "No game picked: the arrows or a click pick one."
            return self
        if g.get("game") != self.room.game:
            self.line = f"Game {g.get('number')} is {str(g.get('game')).capitalize()}'s: its program opens it."
            return self
        self.want = (how, int(g["number"]))
        self.session.fetch_record(int(g["number"]))
        self.line = f"Asking the room for game {g['number']}..."
        return self

    def replay(self) -> Controller:
        return self.open("replay")

    def review(self) -> Controller:
        return self.open("review")

    def profile(self) -> Controller:
        g = self.picked()
        if g is None:
            return self
        return ProfilePage(self.ctx, self.room, self.session, lambda: self, self.opponent(g))

    def update(self, events: list[Event]) -> Controller | None:
        nxt = super().update(events)
        if nxt is self and self.want is not None:
            how, number = self.want
            rec = self.session.records.get(number)
            if rec is not None:
                self.want, self.line = None, ""
                return self.opened(how, rec)
        return nxt

    def opened(self, how: str, rec: dict[str, Any]) -> Controller:
        text = str(rec.get("text", ""))
        players = [str(p).lower() for p in rec.get("players", [])]
        try:
            if how == "replay":
                return self.room.replay(self.ctx, text, self)
            seat = players.index(self.name.lower()) if self.name.lower() in players else 0
            return self.room.review(self.ctx, text, seat, self)
        except ValueError as exc:
            self.line = f"Game {rec.get('number')} cannot be read: {exc}"[:78]
            return self

    def draw_body(self) -> None:
        whose = "YOUR" if self.name == self.session.name else f"{self.name.upper()}'S"
        got = self.session.looked.get("games")
        rows = self.rows()
        self.heading(f"{whose} LAST GAMES" + ("" if got is not None else ": ASKING THE ROOM..."))
        heads = {H_COLS["number"]: "GAME", H_COLS["date"]: "DATE", H_COLS["game"]: "", H_COLS["other"]: "OPPONENT",
                 H_COLS["rules"]: "RULES", H_COLS["result"]: "RESULT"}
        cells = []
        for g in rows:
            result = g.get("result") or {}
            players = [str(p) for p in g.get("players", [])]
            rules = result.get("rules")
            line = self.room.rules_line(rules) if g.get("game") == self.room.game and isinstance(rules, dict) else ""
            here = g.get("game") == self.room.game
            cells.append(([(H_COLS["number"], str(g.get("number", ""))[:5]), (H_COLS["date"], mmdd(g.get("finished"))),
                           (H_COLS["game"], GAME_WORDS.get(str(g.get("game")), "")),
                           (H_COLS["other"], self.opponent(g)[:16]), (H_COLS["rules"], line[:13]),
                           (H_COLS["result"], outcome(result, players, self.name)[:17])], WHITE if here else DARKGRAY))
        self.draw_list(heads, cells)
        if got is not None and not rows:
            self.screen.text(LIST_X + 8, LIST_Y, "No finished game yet.", LIGHTGRAY)


# ---- TOP -----------------------------------------------------------------------------------------

T_COLS = {"rank": 32, "name": 88, "bot": 232, "rating": 280, "games": 360, "won": 432, "drawn": 496, "lost": 560}


class TopPage(LookPage):
    """This game's leaderboard, 20 ranks a page: the established ratings, then the
    provisional ones apart (a rating with a ?). PROFILE (P, ENTER) the player picked;
    NEXT 20 (N) and FIRST 20 (F) page through; LOBBY (L) goes back."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession, back: Back) -> None:
        super().__init__(ctx, room, session, back)
        self.start = 0
        self.ask()
        for i, (label, hot, act) in enumerate((("PROFILE", "P", self.enter), ("NEXT 20", "N", self.next_page),
                                                ("FIRST 20", "F", self.first_page), ("LOBBY", "L", self.lobby))):
            self.add(command(i), label, hot, lambda b, a=act: a())

    def ask(self) -> None:
        self.session.look("top", game=self.room.game, start=self.start)
        self.session.looked["top_provisional"] = None
        self.session.client.send("top", game=self.room.game, provisional=True, start=self.start)
        self.at = self.top = 0

    def next_page(self) -> Controller:
        if any((self.session.looked.get(k) or {}).get("more") for k in ("top", "top_provisional")):
            self.start += 20
            self.ask()
        else:
            self.line = "That is the last page."
        return self

    def first_page(self) -> Controller:
        if self.start:
            self.start = 0
            self.ask()
        return self

    def rows(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for key in ("top", "top_provisional"):
            got = self.session.looked.get(key) or {}
            players = [p for p in got.get("players", []) if isinstance(p, dict)]
            if key == "top_provisional" and players:
                out.append({"head": "PROVISIONAL (FEWER GAMES)"})
            out += players
        return out

    def enter(self) -> Controller:
        rows = self.rows()
        p = rows[self.at] if 0 <= self.at < len(rows) else None
        if p is None or "name" not in p:
            return self
        return ProfilePage(self.ctx, self.room, self.session, lambda: self, str(p["name"]))

    def draw_body(self) -> None:
        asked = any(self.session.looked.get(k) is None for k in ("top", "top_provisional"))
        self.heading(f"{self.room.title.upper()}: THE TOP PLAYERS" + (": ASKING THE ROOM..." if asked else
                     f", FROM RANK {self.start + 1}" if self.start else ""))
        heads = {T_COLS["rank"]: "RANK", T_COLS["name"]: "NAME", T_COLS["bot"]: "BOT", T_COLS["rating"]: "RATING",
                 T_COLS["games"]: "GAMES", T_COLS["won"]: "WON", T_COLS["drawn"]: "DRAWN", T_COLS["lost"]: "LOST"}
        cells = []
        for p in self.rows():
            if "head" in p:
                cells.append(([(T_COLS["rank"], str(p["head"]))], LIGHTCYAN))
                continue
            me = str(p.get("name", "")).lower() == self.session.name.lower()
            cells.append(([(T_COLS["rank"], str(p.get("rank", ""))), (T_COLS["name"], str(p.get("name", ""))[:16]),
                           (T_COLS["bot"], "BOT" if p.get("bot") else ""), (T_COLS["rating"], str(p.get("shown", ""))),
                           (T_COLS["games"], str(p.get("games", 0))), (T_COLS["won"], str(p.get("wins", 0))),
                           (T_COLS["drawn"], str(p.get("draws", 0))), (T_COLS["lost"], str(p.get("losses", 0)))],
                          YELLOW if me and not self.screen.look.two_colour else WHITE))
        self.draw_list(heads, cells)
        if not asked and not cells:
            self.screen.text(LIST_X + 8, LIST_Y, "Nobody is rated in this game yet.", LIGHTGRAY)


# ---- PROFILE -------------------------------------------------------------------------------------

CHART = Rect(72, 128, 296, 132)      # the rating history's chart: oldest left, newest right
LAST_X, LAST_Y = 392, 120


class ProfilePage(LookPage):
    """A player's page: each game's rating and results, this game's rating history as a
    chart (the last 20 rated games), the last games. HISTORY (H) that player's last 50
    games; LOBBY (L) goes back (or to the page that opened it)."""

    def __init__(self, ctx: GameContext, room: RoomGame, session: RoomSession, back: Back, name: str) -> None:
        super().__init__(ctx, room, session, back)
        self.name = name
        session.look("profile", name=name)
        self.add(command(0), "HISTORY", "H", lambda b: self.history())
        self.add(command(3), "BACK", "B", lambda b: self.lobby())

    def got(self) -> dict[str, Any] | None:
        got = self.session.looked.get("profile")
        return got if got is not None and str(got.get("name", "")).lower() == self.name.lower() else None

    def history(self) -> Controller:
        got = self.got()
        name = str(got["name"]) if got else self.name
        return HistoryPage(self.ctx, self.room, self.session, lambda: self, name)

    def draw_body(self) -> None:
        s = self.screen
        got = self.got()
        if got is None:
            self.heading(f"{self.name.upper()}: ASKING THE ROOM...")
            return
        kind = " (BOT)" if got.get("bot") else " (GUEST: NOT RATED)" if got.get("guest") else ""
        self.heading(f"{str(got['name']).upper()}{kind}, IN THE ROOM SINCE {mmdd(got.get('since'))}")
        games = got.get("games") or {}
        y = 56
        for game in sorted(games, key=lambda g: g != self.room.game):
            g = games[game]
            s.text(24, y, f"{game.upper():<9} {str(g.get('shown', '')):<6} {g.get('games', 0)} RATED: "
                          f"{g.get('wins', 0)} WON, {g.get('draws', 0)} DRAWN, {g.get('losses', 0)} LOST",
                   WHITE if game == self.room.game else LIGHTGRAY)
            y += 16
        mine = games.get(self.room.game) or {}
        self.chart([h for h in reversed(mine.get("history") or []) if isinstance(h, dict)])
        s.text(LAST_X, LAST_Y - 16, "LAST GAMES", LIGHTGRAY)
        for i, g in enumerate((got.get("last") or [])[:10]):
            players = [str(p) for p in g.get("players", [])]
            other = next((p for p in players if p.lower() != str(got["name"]).lower()), "")
            line = f"{g.get('number', ''):>4} {GAME_WORDS.get(str(g.get('game')), ''):<4} {other[:9]:<9} " \
                   f"{outcome(g.get('result') or {}, players, str(got['name']))}"
            s.text(LAST_X - 8, LAST_Y + 14 * i, line[:30], WHITE if g.get("game") == self.room.game else LIGHTGRAY)

    def chart(self, points: list[dict[str, Any]]) -> None:
        """The rating after each of the last rated games (the first one's before too), a
        line in a red frame with the highest and lowest on its left."""
        s = self.screen
        s.text(CHART.x - 48, CHART.y - 24, f"{self.room.title.upper()} RATING, LAST {len(points)} RATED GAMES"[:40],
               LIGHTGRAY)
        s.box(CHART.x, CHART.y, CHART.w, CHART.h, RED)
        if not points:
            s.text(CHART.x + 16, CHART.y + CHART.h // 2 - 4, "NO RATED GAME YET", DARKGRAY)
            return
        values = [_rating(points[0].get("before"), 1500.0)] + [float(p.get("rating", 1500.0)) for p in points]
        high, low = max(values), min(values)
        span = max(high - low, 50.0)
        mid = (high + low) / 2
        high, low = mid + span / 2, mid - span / 2
        s.text(CHART.x - 48, CHART.y + 2, f"{round(high):>5}", LIGHTGRAY)
        s.text(CHART.x - 48, CHART.y + CHART.h - 10, f"{round(low):>5}", LIGHTGRAY)
        inner = Rect(CHART.x + 6, CHART.y + 6, CHART.w - 12, CHART.h - 12)

        def at(i: int, v: float) -> tuple[int, int]:
            x = inner.x + (inner.w * i) // max(1, len(values) - 1)
            y = inner.y + int(inner.h * (high - v) / (high - low))
            return x, y

        for i in range(1, len(values)):
            (x1, y1), (x2, y2) = at(i - 1, values[i - 1]), at(i, values[i])
            s.line(x1, y1, x2, y2, LIGHTGREEN if values[i] >= values[i - 1] else LIGHTRED)
        last = points[-1]
        s.text(CHART.x, CHART.y + CHART.h + 6, f"NOW {last.get('after', '')} ({int(last.get('change', 0)):+d} IN "
                                               f"GAME {last.get('number', '')})"[:40], WHITE)


def _rating(shown: Any, default: float) -> float:
    """A shown rating ("1500?") as a number."""
    try:
        return float(str(shown).rstrip("?"))
    except ValueError:
        return default


__all__ = ["HistoryPage", "ProfilePage", "TopPage", "outcome"]
