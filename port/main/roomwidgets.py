"""What both games' room screens draw beside the game: the chat line, the clock under
a name, and the status line ("reconnecting...", "Waiting for Bob (1:42)").

A shared unit: it reads a ``TableLink`` and knows no game. The keys are the issue's:
T to type a line, ENTER to send it, ESC to drop it, M to mute the other's chat.
"""
from __future__ import annotations

from port.main.roomsession import RoomSession, TableLink
from port.mouse import Key
from port.screen import Rect, Screen
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

    def draw(self, s: Screen, link: TableLink, area: Rect, rows: int = 2) -> None:
        """The last ``rows`` lines said, and under them the line being typed."""
        s.fill(area.x, area.y, area.w, area.h, BLACK)
        said = link.chat_lines[-rows:]
        for i, (name, text) in enumerate(said):
            s.text(area.x, area.y + 10 * i, f"{name}: {text}"[:area.w // 8], LIGHTGRAY)
        y = area.y + 10 * rows
        if self.typing:
            s.text(area.x, y, ("> " + self.text + "_")[-(area.w // 8):], YELLOW)
        else:
            mute = "  M UNMUTE" if link.muted else "  M MUTE"
            s.text(area.x, y, ("T TO TALK" + mute)[:area.w // 8], DARKGRAY)


__all__ = ["ChatLine", "clock_text", "draw_clock", "mm_ss", "status_text"]
