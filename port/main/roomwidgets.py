"""What both games' room screens and pages draw and say alike: the chat line, the clock
under a name, the status line ("reconnecting...", "Waiting for Bob (1:42)"), a rating's
change ("1500? -> 1338? (-162)"), a game's result in a player's words, and text greyed
where grey is white (CGA, Hercules).

A shared unit: it reads a ``TableLink`` and knows no game. The keys are the issue's:
T to type a line, ENTER to send it, ESC to drop it, M to mute the other's chat.
"""
from __future__ import annotations

import textwrap
from typing import Any

from port.main.roomsession import RoomSession, TableLink
from port.mouse import Key
from port.screen import LOGICAL_HEIGHT, Rect, Screen
from port.screen.profiles import BLACK, DARKGRAY, LIGHTGRAY, LIGHTRED, WHITE, YELLOW

ENTER, BACKSPACE, ESC = 13, 8, 27
CHAT_MAX = 60                 # characters typed on the line (the room takes 80)
CHAT_CHARS = frozenset(chr(c) for c in range(32, 127))


def mm_ss(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))          # 0.2 s left still shows 0:01
    return f"{s // 60}:{s % 60:02d}"


def status_text(session: RoomSession, link: TableLink | None = None) -> str:
    """The status line: the player's own connection first, then the opponent's absence,
    then a table the room cannot go on with (its disk full), then the last move the room
    refused ("" when all is well)."""
    if session.status == "reconnecting":
        return "reconnecting..."
    if session.status == "connecting":
        return "connecting..."
    if link is not None:
        away = link.away_left()
        if away is not None and link.end is None:
            return f"Waiting for {away[0]} ({mm_ss(away[1])})"
        if link.stalled:
            return link.stalled
        if link.error:
            return link.error
    return session.error


def watchers_text(link: TableLink) -> str:
    """How many watch the table, as the game screens say it ("2 WATCHING"), or ""."""
    return f"{link.watchers} WATCHING" if link.watchers else ""


def rating_change(change: dict[str, Any]) -> str:
    """A rating before and after a game, as both programs say it: "1500? -> 1338? (-162)"."""
    by = int(change.get("change", 0) or 0)
    return f"{change.get('before', '?')} -> {change.get('after', '?')} ({by:+d})"


def rating_line(name: str, change: dict[str, Any], width: int = 8) -> str:
    """A player's rating change under its name: "ANN      1500? -> 1662? (+162)"."""
    return f"{name.upper()[:width]:<{width}} {rating_change(change)}"


def text_rows(s: Screen) -> tuple[int, int]:
    """The logical height of a text row on this screen, and the step between rows that
    keeps them apart: 8 and 10 on 350 lines, 14 and 14 on CGA's 200."""
    high = -(-8 * LOGICAL_HEIGHT // s.profile.height)
    return high, max(10, high)


def clock_text(link: TableLink, seat: int) -> str:
    """The clock under a seat's name while that seat decides ("0:42"), else ""."""
    left = link.seconds_left()
    return mm_ss(left) if left is not None and link.clock_seat == seat else ""


def draw_clock(s: Screen, link: TableLink, seat: int, x: int, y: int, w: int = 96) -> None:
    """The clock as a bar under a name, with its count: green going to red as it runs."""
    left = link.seconds_left()
    if left is None or link.clock_seat != seat or link.clock <= 0:
        return
    part = max(0.0, min(1.0, left / link.clock))
    s.box(x, y, w, 6, DARKGRAY)
    s.bar(x + 1, y + 1, int((w - 2) * part), 4, LIGHTRED if part < 0.25 else YELLOW)
    s.text(x + w + 4, y - 1, mm_ss(left), WHITE)


class ChatLine:
    """The line a player types chat on, and the last lines said."""

    def __init__(self) -> None:
        self.typing = False
        self.text = ""

    def key(self, k: Key, link: TableLink) -> bool:
        """Take a key if it is the chat's: True when it was (the game must not see it)."""
        if not self.typing:
            if k.char == "T":
                self.typing, self.text = True, ""
                return True
            if k.char == "M":
                link.mute(not link.muted)
                return True
            return False
        if k.ascii == ENTER:
            link.chat(self.text)
            self.typing, self.text = False, ""
        elif k.ascii == ESC:
            self.typing, self.text = False, ""
        elif k.ascii == BACKSPACE:
            self.text = self.text[:-1]
        elif not k.extended and chr(k.ascii) in CHAT_CHARS and len(self.text) < CHAT_MAX:
            self.text += chr(k.ascii)
        return True

    def draw(self, s: Screen, link: TableLink, area: Rect, wrap: bool = False) -> None:
        """The last lines said (as many as the area holds on this screen: its rows kept
        apart on CGA's 200 lines too; ``wrap``: long lines wrapped, not cut), and under
        them the line being typed, or "T TO TALK  M MUTE"."""
        s.fill(area.x, area.y, area.w, area.h, BLACK)
        high, step = text_rows(s)
        rows = max(1, 1 + (area.h - high) // step)
        width = area.w // 8
        said: list[str] = []
        for name, text in link.chat_lines[-rows:]:
            line = f"{name}: {text}"
            said += textwrap.wrap(line, width) if wrap else [line[:width]]
        said = said[-(rows - 1):] if rows > 1 else []
        for i, line in enumerate(said):
            s.text(area.x, area.y + step * i, line, LIGHTGRAY)
        y = area.y + step * (rows - 1)
        if self.typing:
            s.text(area.x, y, ("> " + self.text + "_")[-width:], YELLOW)
        else:
            mute = "  M UNMUTE" if link.muted else "  M MUTE"
            s.text(area.x, y, ("T TO TALK" + mute)[:width], DARKGRAY)


def over_line(games: list[dict[str, Any]], me: str, other: str, game: str) -> str:
    """The lobby's line for a game that ended while its player was away: "Your game with
    Bob is over: Bob won, you did not come back in time." (or as the room last said it)."""
    g = next((g for g in games if g.get("game") == game and other.lower() in
              (str(p).lower() for p in g.get("players", []))), None)
    if g is None:
        return f"Your game with {other} is over."
    return f"Your game with {other} is over: {result_words(g.get('result') or {}, me, list(g.get('players', [])))}."


def result_words(result: dict[str, Any], me: str, players: list[str]) -> str:
    """A finished game's result in a player's words: "Bob won 121 to 98", "you won: Bob
    resigned in hand 2", "Bob won: you forfeited on the clock in hand 3"."""
    def who(name: object) -> str:
        return "you" if str(name).lower() == me.lower() else str(name)

    winner, how = result.get("winner"), result.get("how")
    scores = list(result.get("scores") or [0, 0])
    if how == "played":
        if winner is None:
            return f"a draw, {scores[0]} to {scores[1]}"
        w = [str(p).lower() for p in players].index(str(winner).lower()) if players else 0
        return f"{who(winner)} won {scores[w]} to {scores[1 - w]}"
    words = {"resigned": "resigned", "clock": "forfeited on the clock", "away": "did not come back"}.get(
        str(how), str(how))
    return f"{who(winner)} won: {who(result.get('loser'))} {words} in hand {result.get('hands', 1)}"


def faint_text(s: Any, x: int, y: int, text: str) -> None:
    """Text greyed where grey is white (CGA, Hercules): every other pixel of it."""
    s.image.dither(0.5)
    s.text(x, y, text, WHITE)
    s.image.dither(1.0)


__all__ = ["ChatLine", "faint_text", "over_line", "result_words", "clock_text", "draw_clock", "mm_ss", "rating_change", "rating_line", "status_text",
           "text_rows", "watchers_text"]
