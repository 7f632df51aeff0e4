"""Playing a person in the card room: the game screen against the computer
(``play.PlayScreen``) on a table the room feeds (docs/room.md, "The player's side: a
GinRummy game").

``RoomTable`` has the ``Table``'s reading interface (mode, ``shown()``, scores, result,
boxes, the marks) built from the seat's latest ``View`` (every stream message carries
it) and each hand's ``Settlement`` (the ``hand_end``); its actions send moves
(``link.move``) and change nothing: the position changes when the room's stream says
the move was made. So the client never holds the opponent's cards (the room never sends
them before a hand's end) and never works the rules out itself.

The screen shows everything from the player's side, as against the computer: the
player's seat is drawn where YOU are (seat 0 of the screen), the opponent where the
computer was, whichever seat the room gave. The opponent's moves are played out at the
computer's PACE, a step every ``PACE`` frames (the RED bar over the pile when they took
from it); the player's own at once; a stream that arrives all at once (a rejoin syncs
from seq 0) is caught up at once up to the player's last move.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from port.cards import Card, PascalRandom
from port.ginrummy import record, review
from port.ginrummy.main.context import Context
from port.ginrummy.main.play import (
    ARRANGE_BOX, CPU_Y, DECK_BOX, DRAWN_BOX, HAND_X, HINT_BOX, LINE, MELDS_BOX, NOTE_Y, PILE_BOX, QUIT_BOX,
    RANK_BOX, REVIEW_BOX, SAVE_BOX, SUIT_BOX, UNDO_BOX, PlayScreen,
)
from port.ginrummy.main.table import NO_DECK_UNDO, PACE, Arranging, Mode, Shown, hint_target, shown_hand
from port.ginrummy.record import PREFIX
from port.ginrummy.review import Decision
from port.ginrummy.rules import Act, Game, Options, Phase, Settlement, View, arrange
from port.ginrummy.rules.scoring import ScoreSheet
from port.main.controller import Controller
from port.main.reviewscreen import ReviewScreen
from port.main.roomsession import STREAM, RoomSession, TableLink
from port.main.roomwidgets import ChatLine, draw_clock, rating_line, status_text, watchers_text
from port.mouse import LEFT, Event, Key, Press
from port.protocol import decode
from port.screen import Rect
from port.screen.profiles import BLACK, LIGHTGRAY, WHITE, YELLOW

HINTS_OFF = "Hints are off at this table."
OFFLINE = "Not connected to the room: make the move again when it is back."
# The room's parts of the screen, clear of the game's: the chat under the hand's keys on
# the right (the ARRANGE row keeps the left), the player's clock and the status line on
# the bottom line under the command boxes.
CHAT_AREA = Rect(360, 287, 272, 28)                  # its first line under the keys 1-0 on CGA too
MUTE_X = CHAT_AREA.x + 8 * len("T TO TALK  ")       # where ChatLine writes "M MUTE"
STATUS_Y = 340
SHEET_RATINGS_Y = 54
MY_CLOCK_X = 16 + 8 * 9
STATUS_X = 232
HUMAN_MODES = {Phase.UPCARD_OFFER: Mode.UPCARD_OFFER, Phase.DISCARD: Mode.HUMAN_DISCARD, Phase.KNOCK: Mode.KNOCK_PROMPT}


def mine_first(r: Settlement, me: int) -> Settlement:
    """A settlement from the player's side: the player's seat first (the screen's seat 0)."""
    if me == 0:
        return r

    def other(seat: int | None) -> int | None:
        return None if seat is None else 1 - seat

    return replace(r, winner=other(r.winner), knocker=other(r.knocker), melds=(r.melds[1], r.melds[0]),
                   deadwood_cards=(r.deadwood_cards[1], r.deadwood_cards[0]), deadwood=(r.deadwood[1], r.deadwood[0]))


def scoreboard(options: Options) -> Game:
    """A game that only keeps the score: the rules' own scoring (the running total, the
    boxes, Hollywood's three columns, the score sheet) fed the room's settlements one by
    one (``score``). Its hands are never played: the room plays them."""
    return Game(options, PascalRandom(0))


def score(board: Game, result: Settlement) -> None:
    board.hand.result = result          # the settled hand the room reported
    board.record()


class ViewHand:
    """The hand as the table's middle row and questions read it, from the seat's View:
    the stock's count (never its cards), the pile, the knock card and value."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.stock = range(view.stock_count)      # only its length is drawn
        self.pile = view.pile
        self.knock_card = view.knock_card
        self.knock_value = view.knock_value
        self.options = view.options
        self.stock_only = view.stock_only

    def deadwood(self, seat: int) -> int:
        """The player's own deadwood (the knock question's); the player holds no other."""
        return arrange(self.view.hand).deadwood


class RoomTable(Arranging):
    """One room game from the player's seat, as the game screen reads a ``Table``."""

    def __init__(self, link: TableLink, sort: str = "RANK") -> None:
        self.link = link
        self.me = link.seat
        self.sort = sort
        self.view: View | None = None
        self.options: Options | None = None
        self.game: Game | None = None            # the scoreboard (``scoreboard``)
        self.mode = Mode.COMPUTER
        self.result: Settlement | None = None
        self.message = ""
        self.hint_target: object = None
        self.computer_took_pile = False          # the RED bar: the opponent took the pile
        self.order: tuple[Card, ...] | None = None
        self.arranging = False
        self.picked: Card | None = None
        self.hand_number = 0
        self.queue: list[dict[str, Any]] = []    # the stream not yet shown, in order
        self.history = 0                         # how many of it to catch up at once
        self.sent = False                        # a move sent and not yet answered
        self.ask_seq = 0                         # the room's last question (its clock starts once shown)
        self._note = ""                          # a timeout, said with the move it made
        self._wait = 0
        self._online = True

    # ---- reading, as the game screen reads a Table -------------------------------------

    @property
    def hand(self) -> ViewHand:
        assert self.view is not None
        return ViewHand(self.view)

    @property
    def scores(self) -> tuple[int, int]:
        return (self.game.scores[0], self.game.scores[1]) if self.game else (0, 0)

    @property
    def boxes(self) -> tuple[int, int]:
        return (self.game.boxes[0], self.game.boxes[1]) if self.game else (0, 0)

    @property
    def dealer(self) -> int:
        return 0 if self.view is None or self.view.dealer == self.me else 1

    @property
    def opponent_cards(self) -> int:
        return self.view.opponent_hand_size if self.view is not None else 0

    @property
    def drawn(self) -> Card | None:
        return self.view.drawn if self.mode is Mode.HUMAN_DISCARD and self.view is not None else None

    @property
    def drawn_from_pile(self) -> bool:
        return self.mode is Mode.HUMAN_DISCARD and self.view is not None and self.view.drawn_from_pile

    @property
    def opening(self) -> bool:
        return self.mode is Mode.HUMAN_DISCARD and self.view is not None and self.view.opening

    @property
    def sheet_shown(self) -> bool:
        """The score sheet at the game's end, as against the computer; but only for a
        game played out (a resigned or forfeited game's sheet would name another winner)."""
        end = self.link.end
        opts = self.options
        return (opts is not None and (opts.scoring != "TOTAL" or opts.shutout)
                and end is not None and end.get("how") == "played")

    def sheet(self) -> ScoreSheet:
        assert self.game is not None
        return self.game.sheet()

    def shown(self) -> Shown:
        cards = list(self.view.hand) if self.view is not None else []
        if self.mode is Mode.HUMAN_DISCARD and self.view is not None and self.view.drawn is not None:
            cards = [c for c in cards if c != self.view.drawn]
        return shown_hand(cards, self.sort, self.order)

    def declined_by_computer(self) -> bool:
        return self.view is not None and any(e.seat != self.me and e.act is Act.DECLINE for e in self.view.events)

    # ---- the player's actions: moves sent, nothing changed here ------------------------

    def _send(self, move: dict[str, Any]) -> bool:
        if self.sent:                  # one move at a time: the room answers each
            return False
        if self.link.session.status != "open":
            # A move said to a dropped line would be lost: the player makes it again
            # once the status line's "reconnecting..." is gone.
            self.message = OFFLINE
            return False
        self.hint_target = None
        self.computer_took_pile = False
        self.message = ""
        self.sent = True
        self.link.move(move)
        return True

    def draw_deck(self) -> bool:
        return self.mode is Mode.HUMAN_DRAW and self._send({"act": "stock"})

    def draw_pile(self) -> bool:
        return self.mode is Mode.HUMAN_DRAW and bool(self.hand.pile) and self._send({"act": "pile"})

    def take_upcard(self) -> bool:
        return self.mode is Mode.UPCARD_OFFER and self._send({"act": "take"})

    def decline_upcard(self) -> bool:
        return self.mode is Mode.UPCARD_OFFER and self._send({"act": "decline"})

    def undo(self) -> bool:
        if self.mode is not Mode.HUMAN_DISCARD or self.drawn is None:
            return False
        if not self.drawn_from_pile:
            self.message = NO_DECK_UNDO
            return False
        return self._send({"act": "undo"})

    def discard_drawn(self) -> bool:
        return self.discard(self.drawn)

    def discard_at(self, index: int) -> bool:
        cards = self.shown().cards
        return self.mode is Mode.HUMAN_DISCARD and 0 <= index < len(cards) and self.discard(cards[index])

    def discard(self, card: Card | None) -> bool:
        return (self.mode is Mode.HUMAN_DISCARD and card is not None
                and self._send({"act": "discard", "card": str(card)}))

    def knock(self) -> bool:
        return self.mode is Mode.KNOCK_PROMPT and self._send({"act": "knock"})

    def play_on(self) -> bool:
        return self.mode is Mode.KNOCK_PROMPT and self._send({"act": "play_on"})

    def play_to_gin(self) -> bool:
        return self.mode is Mode.KNOCK_PROMPT and self._send({"act": "play_to_gin"})

    def ask_hint(self) -> bool:
        """The YELLOW bar, when both accepted hints in the invitation; else one line."""
        if self.mode not in (Mode.UPCARD_OFFER, Mode.HUMAN_DRAW, Mode.HUMAN_DISCARD, Mode.KNOCK_PROMPT):
            return False
        if not self.link.hints or self.view is None:
            self.message = HINTS_OFF
            return False
        self.hint_target = hint_target(self.view)
        return True

    def next_hand(self) -> bool:
        """Leave the hand's end: the next hand as the room dealt it, or the game's end."""
        if self.mode is not Mode.HAND_END:
            return False
        if (self.game is not None and self.game.over) or (self.link.end is not None and not self.queue):
            self._game_end()
        else:
            self.mode = Mode.COMPUTER        # until the next deal, a moment away
        return True

    # ---- the room's stream, a frame at a time --------------------------------------------

    def tick(self) -> None:
        """Take what the room said; show the opponent's next step when due (PACE)."""
        self._take()
        online = self.link.session.status == "open"
        if self.link.error or (online and not self._online):
            # refused (the status line says why), or the line came back: the room's
            # stream, synced, says whether the move was made; if not, make it again
            self.sent = False
        self._online = online
        if self._wait > 0:
            self._wait -= 1
        while self.queue:
            if self.mode is Mode.HAND_END and self.history == 0:
                break                        # the result stays until CONTINUE
            m = self.queue[0]
            catching = self.history > 0
            theirs = self._theirs(m)
            if theirs and not catching and self._wait > 0:
                break
            self.queue.pop(0)
            self.history = max(0, self.history - 1)
            self._apply(m)
            if m["type"] in ("event", "deal") and not catching:
                self._wait = PACE
            if theirs and not catching:
                break                        # one visible step of theirs per PACE
        if not self.queue and self.link.end is not None and self.mode not in (Mode.HAND_END, Mode.GAME_END):
            self._game_end()
        if self.mode in HUMAN_MODES.values() or self.mode is Mode.HUMAN_DRAW:
            if not self.sent and online:
                self.link.shown(self.ask_seq)   # the question is on the screen: its clock starts

    def _take(self) -> None:
        for m in self.link.take():
            kind = m.get("type")
            if kind in STREAM or kind == "timeout":
                self.queue.append(m)
            # Up to the player's own last move, the stream is history (a rejoin's sync
            # from seq 0, a drop's catch-up): shown at once, not paced.
            if kind == "event" and (m.get("event") or {}).get("seat") == self.me:
                self.history = len(self.queue)

    def _theirs(self, m: dict[str, Any]) -> bool:
        return m.get("type") == "event" and (m.get("event") or {}).get("seat") != self.me

    def _apply(self, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "timeout":
            who = "you" if m.get("seat") == self.me else str(m.get("name"))
            self._note = f"STANDARD moved for {who}: the clock ran out."
            return
        view: View = decode(View, m["view"])
        if kind == "ask":
            self.ask_seq = int(m.get("seq", 0))
        if self.game is None:
            self.options = view.options
            self.game = scoreboard(view.options)
        self.view = view
        if kind == "deal":
            self.hand_number = int(m.get("hand", self.hand_number + 1))
            self.result = None
            self.order = None            # "A manual order stays until ... the next hand"
            self.picked = None
            self.message, self.hint_target, self.computer_took_pile = "", None, False
            self.sent = False
        elif kind == "event":
            e = m.get("event") or {}
            if e.get("seat") == self.me:
                self.sent = False
                self.hint_target, self.computer_took_pile, self.message = None, False, ""
            elif e.get("act") == Act.DRAW_PILE.value:
                self.computer_took_pile = True
            if self._note:
                self.message, self._note = self._note, ""
        elif kind == "hand_end":
            self.result = mine_first(decode(Settlement, m["result"]), self.me)
            assert self.game is not None
            score(self.game, self.result)
            self.hint_target, self.sent = None, False
            self.mode = Mode.HAND_END
            return
        if view.phase is Phase.OVER:
            # The hand is settled and its hand_end is on its way (perhaps a frame
            # later): nothing is the player's to do until it is shown.
            self.sent = True
        else:
            self.mode = HUMAN_MODES.get(view.phase, Mode.HUMAN_DRAW) if view.to_move == self.me else Mode.COMPUTER

    def _game_end(self) -> None:
        self.mode = Mode.GAME_END
        self.message, self.hint_target, self.arranging, self.picked = "", None, False, None


class RoomPlayScreen(PlayScreen):
    """The game screen playing the person at ``link``'s table; ``back`` is the lobby."""

    QUIT_QUESTION = "RESIGN THIS GAME?"
    AGAIN_LABEL = ("REMATCH", "A")
    MENU_LABEL = ("LOBBY", "L")

    def __init__(self, ctx: Context, session: RoomSession, link: TableLink,
                 back: Callable[[], Controller]) -> None:
        self.session = session
        self.link = link
        self.back = back
        self.chat = ChatLine()
        self.rematch_asked = False
        self.fetched = False
        super().__init__(ctx, lambda _ctx: back(), RoomTable(link, ctx.config.sort))
        # The statistics and high scores are the player's games against the computer:
        # a room game is rated by the room instead (docs/room.md).
        self.recorded = True

    table: RoomTable

    # ---- who sits there --------------------------------------------------------------

    def names(self) -> tuple[str, str]:
        return self.session.name or self.link.players[self.link.seat], self.link.opponent

    def short_name(self) -> str:
        return self.link.opponent[:3].upper()

    def words(self, line: str) -> str:
        other = self.link.opponent
        return (line.replace("THE COMPUTER", other.upper()).replace("The computer", other)
                .replace("COMPUTER", other.upper()))

    def quit_label(self) -> tuple[str, str]:
        return ("RESIGN", "R")

    def playing_line(self) -> str:
        # The opponent away: the status line waits for them; nobody is playing.
        return "" if self.link.away_left() is not None else f"{self.link.opponent} is playing."

    def records_shown(self) -> bool:
        # The record is the room's, fetched once the game is over: a hand's end has none.
        return self.table.mode is Mode.GAME_END

    def game_end_lines(self) -> list[str]:
        end = self.link.end
        if end is None:
            return ["The room is finishing the game."]
        me, other = self.names()
        shown = other[:12].upper()               # the lines stay inside the message area
        loser = other if end.get("winner") == me else me
        whose = "YOU" if loser == me else shown
        if end.get("winner") == me:
            lines = ["YOU WIN THE GAME!"]
        elif end.get("winner") is None:
            lines = ["THE GAME IS A DRAW."]
        else:
            lines = [f"{shown} WINS THE GAME."]
        scores = end.get("scores") or [0, 0]
        mine, theirs = scores[self.link.seat], scores[1 - self.link.seat]
        how = end.get("how")
        if how == "resigned":
            lines.append(f"{whose} RESIGNED.")
        elif how == "clock":
            lines.append("YOUR CLOCK RAN OUT." if loser == me else f"{whose}'S CLOCK RAN OUT.")
        elif how == "away":
            lines.append(f"{whose} DID NOT COME BACK.")
        lines.append(f"{mine} TO {theirs}.")
        lines += rating_lines(end, me, other)
        if not self.link.opponent_here:
            lines.append(f"{shown} HAS LEFT THE ROOM.")
        elif self.rematch_asked:
            lines.append("REMATCH ASKED: WAITING.")
        elif self.link.rematch_from == other:
            lines.append(f"{other[:8].upper()} ASKS FOR A REMATCH.")
        return lines

    # ---- input -------------------------------------------------------------------------

    def update(self, events: list[Event]) -> Controller | None:
        self.session.poll()
        return super().update(events)

    def _taken(self, e: Event) -> bool:
        if isinstance(e, Key) and self._chat_key(e):
            return True
        if isinstance(e, Press) and e.button == LEFT and CHAT_AREA.contains(e.x, e.y):
            self._chat_click(e.x, e.y)
            return True
        return False

    def _after_tick(self) -> Controller | None:
        if self.table.mode is Mode.GAME_END:
            if not self.fetched and self.link.end is not None:
                self.link.fetch_record()
                self.fetched = True
            started = self._rematch_started()
            if started is not None:
                return started
        return self

    def _chat_click(self, x: int, y: int) -> None:
        """The mouse on the chat: its bottom line's "M MUTE" mutes (or unmutes); a click
        anywhere else on it starts typing."""
        if not self.chat.typing and y >= CHAT_AREA.y + 20 and x >= MUTE_X:
            self.link.mute(not self.link.muted)
        else:
            self.chat.typing = True

    def _chat_key(self, k: Key) -> bool:
        """The chat's keys: every key while typing; T and M otherwise, unless the game
        uses the letter at that moment (TAKE the upcard, MELDS LEFT): the game wins."""
        if not self.chat.typing and k.char in ("T", "M") and self._key_target(k.char) is not None:
            return False
        return self.chat.key(k, self.link)

    def _key_target(self, ch: str) -> object:
        t = self.table
        if self.quit_asked:
            return super()._key_target(ch)
        if t.mode is Mode.GAME_END:
            return {"A": "again", "L": "menu", "\r": "menu", "Q": "quit", "R": "save", "V": "review"}.get(ch)
        if t.mode is Mode.HAND_END and ch in ("R", "V"):
            return None
        target = super()._key_target(ch)
        if target is None and ch == "R" and t.mode is not Mode.HAND_END:
            return "quit"                   # RESIGN's letter (Q too, the computer game's QUIT)
        return target

    def _target_at(self, x: int, y: int) -> object:
        target = super()._target_at(x, y)
        mode = self.table.mode
        if mode is Mode.HAND_END and target in ("save", "review"):
            return None
        if mode is Mode.GAME_END and target not in ("again", "menu", "save", "review"):
            return None                      # the table's boxes are gone at the game's end
        if target == "again" and not self.link.opponent_here:
            return None                      # no rematch with one who has left
        if target == "hint" and not self.link.hints:
            return None                      # no HINT box (the middle button still says why)
        return target

    def _press(self, p: Press) -> Controller | None:
        if p.double and self.table.mode is not Mode.GAME_END and self._target_at(p.x, p.y) == "quit":
            p = replace(p, double=False)     # RESIGN is always asked: never on a double click
        return super()._press(p)

    # ---- leaving, the rematch, the record ------------------------------------------------

    def _leave(self) -> Controller | None:
        if self.table.mode is Mode.GAME_END:
            return self.back()
        # YES to RESIGN THIS GAME?: the room ends the game; its end is shown here.
        self.link.resign()
        self.quit_asked = False
        return self

    def _again(self) -> Controller:
        if not self.rematch_asked and self.link.opponent_here:
            self.rematch_asked = True
            self.link.rematch()
        return self

    def _rematch_started(self) -> Controller | None:
        """The room started the rematch (both asked): the new table's game screen."""
        if not self.rematch_asked:
            return None
        got = self.session.take_started()
        mine = [t for t in got if sorted(t.players) == sorted(self.link.players) and t.table != self.link.table]
        self.session.started.extend(t for t in got if t not in mine)
        return RoomPlayScreen(self.ctx, self.session, mine[0], self.back) if mine else None

    def _record_text(self) -> str | None:
        """The finished game's record as the room keeps it (None: not here yet)."""
        end = self.link.end
        number = end.get("number") if end is not None else None
        rec = self.session.records.get(number) if isinstance(number, int) else None
        return None if rec is None else str(rec.get("text", ""))

    def _record_missing(self, text: str | None) -> bool:
        if text is None:
            self.note = "The record is on its way: try again."
            self.link.fetch_record()
        elif not text:
            self.note = "The room keeps no record of it."
        return not text

    def _save_record(self) -> None:
        text = self._record_text()
        if not self._record_missing(text):
            self.note = self.ctx.save_record(PREFIX, lambda: str(text))

    def _review(self) -> Controller:
        text = self._record_text()
        if self._record_missing(text):
            return self
        seat = self.link.seat

        def lines() -> list[str]:
            log = record.parse(str(text))
            return review.lines(review.review([Decision(*each) for each in record.choices(log, seat)]))

        return ReviewScreen(self.ctx.session, "REVIEW OF THE GAME: YOUR DECISIONS BESIDE EXPERT'S", lines, self)

    # ---- drawing -----------------------------------------------------------------------

    def draw(self) -> None:
        s = self.ctx.session.screen
        if self.table.view is None:
            s.set_page(0)
            s.clear(BLACK)
            s.text(HAND_X, CPU_Y - LINE, self.link.opponent[:8], LIGHTGRAY)
            s.text(HAND_X, 160, "Waiting for the room to deal.", WHITE)
        else:
            super().draw()
        self._draw_room()

    def _draw_room(self) -> None:
        s = self.ctx.session.screen
        me, other = (n[:8] for n in self.names())
        sheet_page = self.table.mode is Mode.GAME_END and self.table.sheet_shown and not self.quit_asked
        if sheet_page:                       # under the sheet's title, over its heads
            line = "  ".join(rating_lines(self.link.end or {}, *self.names()))
            s.text((640 - s.text_width(line)) // 2, SHEET_RATINGS_Y, line, WHITE)
        else:
            draw_clock(s, self.link, 1 - self.link.seat, HAND_X + 8 * len(other) + 12, CPU_Y - LINE + 1)
        s.fill(0, STATUS_Y - 2, 640, 10, BLACK)
        s.text(16, STATUS_Y, me, LIGHTGRAY)
        draw_clock(s, self.link, self.link.seat, MY_CLOCK_X, STATUS_Y + 1)
        count = watchers_text(self.link)         # how many watch, at the bottom line's end
        status = status_text(self.session, self.link)
        if status:
            s.text(STATUS_X, STATUS_Y, status[:(640 - STATUS_X) // 8 - (len(count) + 1 if count else 0)], YELLOW)
        if count:
            s.text(640 - 8 - 8 * len(count), STATUS_Y, count, LIGHTGRAY)
        self.chat.draw(s, self.link, CHAT_AREA)

    def _draw_save(self) -> None:
        s = self.ctx.session.screen
        s.button(*SAVE_BOX, "SAVE RECORD", "R")
        if self.note:                        # left of the chat
            s.text(16, NOTE_Y, self.note[:42], WHITE)

    def _draw_boxes(self) -> None:
        """The bottom row as the room has it: at the game's end only REVIEW and SAVE
        RECORD (the table's boxes do nothing there); HINT only at a table with hints."""
        s = self.ctx.session.screen
        t = self.table
        if t.mode is Mode.GAME_END:
            s.button(*REVIEW_BOX, "REVIEW", "V")
            self._draw_save()
            return
        s.button(*DECK_BOX, "DECK", "D")
        s.button(*PILE_BOX, "DISCARD PILE", 8)
        s.button(*DRAWN_BOX, "DRAWN CARD", "D")
        s.button(*UNDO_BOX, "UNDO", "U")
        if self.link.hints:
            s.button(*HINT_BOX, "HINT", "H")
        s.button(*QUIT_BOX, *self.quit_label())
        if self.ctx.config.arrange and t.can_arrange():
            s.button(*RANK_BOX, "BY RANK", "R")
            s.button(*SUIT_BOX, "BY SUIT", "S")
            s.button(*MELDS_BOX, "MELDS LEFT", "M")
            s.button(*ARRANGE_BOX, "ARRANGE", "A", frame=YELLOW if t.arranging else RED)


def rating_lines(end: dict[str, Any], me: str, other: str) -> list[str]:
    """Each player's rating change, as both programs say it ("ANN      1500? -> 1512 (+12)")."""
    if not end.get("rated"):
        return ["NOT RATED."] if end else []
    ratings = end.get("ratings") or {}
    return [rating_line(name, ratings[name]) for name in (me, other) if ratings.get(name)]


def play(ctx: Context, session: RoomSession, link: TableLink, back: Callable[[], Controller]) -> Controller:
    """The GinRummy game screen playing the person at ``link``'s table (``RoomGame.play``)."""
    return RoomPlayScreen(ctx, session, link, back)


__all__ = ["RoomPlayScreen", "RoomTable", "mine_first", "play", "rating_lines"]
