"""Cribbage's game screen (video page 0): the board, the cards, the boxes; your keys
and clicks become the table's moves (``port.cribbage.main.table``). The layout is
``port.cribbage.main.layout``; docs/cribbage.md describes the screen and its keys."""
from __future__ import annotations

import textwrap

import pyxel

from port.cribbage.levels import LEVELS, load_player
from port.cribbage.main import layout as L
from port.cribbage.main.board import draw_board
from port.cribbage.main.context import CribContext
from port.cribbage.main.layout import CARD_H, CARD_W, COMPUTER, HUMAN, LINE
from port.cribbage.main.table import Box, CribTable
from port.cribbage.rules import Options, Phase, Player
from port.cribbage.files import CribGame
from port.cribbage import record, review
from port.cribbage.record import PREFIX
from port.files.gamerecord import Meta
from port.main.controller import Controller
from port.main.reviewscreen import ReviewScreen
from port.mouse import LEFT, MIDDLE, RIGHT, Event, Key, Press
from port.screen import Rect
from port.screen.profiles import (BLACK, BLUE, LIGHTGRAY, LIGHTGREEN, LIGHTRED, WHITE, YELLOW)

ENTER = 13
KEYS_1_6 = "123456"
POINTER_AWAY = (4, 346)      # "moved the mouse pointer away from the middle of the screen"


def computer_for(level: str, seed: int, spec: str | None = None) -> Player:
    """The computer: the LEVEL, or ``--computer``'s bot file (a Player, or a
    PettingZoo-style policy as one, which needs the extra 'rl')."""
    if spec is None:
        return LEVELS[level.lower()](seed)
    return load_player(spec, seed)


class CribPlay:
    """One game against the computer."""

    QUIT_ASK = ("QUIT THIS GAME?", "(NO STATISTICS SAVED)")     # the yes/no box's words

    def __init__(self, ctx: CribContext, table: CribTable | None = None) -> None:
        """``table``: the game given from outside (a card room's table); without it,
        a new game against the computer."""
        self.ctx = ctx
        cfg = ctx.config
        launch = ctx.session.launch
        if table is None:
            rng = ctx.new_deal_source()
            seed = 0 if ctx.seed is None else ctx.seed
            table = CribTable(Options(cfg.score_limit, cfg.skunking), computer_for(cfg.level, seed + ctx.games, launch.computer),
                              rng, name=cfg.name, animate=not launch.noanimation, pause=launch.pause)
        self.table = table
        self.quit_asked = False
        self.recorded = False
        self.note = ""                  # what SAVE RECORD did
        screen = ctx.session.screen
        screen.set_page(0)
        pyxel.set_mouse_pos(screen.px(POINTER_AWAY[0]), screen.py(POINTER_AWAY[1]))

    # ---- input ---------------------------------------------------------------------

    def update(self, events: list[Event]) -> Controller | None:
        nxt: Controller | None = self
        for e in events:
            if isinstance(e, (Key, Press)):
                nxt = self._input(e)
            if nxt is not self:
                return nxt
        self.table.tick()
        if self.note and not self.table.can_save:
            self.note = ""               # SAVE RECORD's note is of this hand's end only
        if self.table.over and not self.recorded:
            self._record()
        return self

    def _input(self, e: Key | Press) -> Controller | None:
        t = self.table
        if self.quit_asked:
            target = self._quit_target(e)
            if target == "yes":
                return self._leave()
            if target == "no":
                self.quit_asked = False
            return self
        if t.can_save and self._save_asked(e):
            self.note = self.ctx.save_record(PREFIX, lambda: t.record_text(self._meta()))
            return self
        if t.can_save and self._review_asked(e):
            return self._review()
        if t.scores_up and self._last_count_asked(e):
            t.recall()                   # the scores box comes back after the counts
            return self
        if t.box is not None:
            t.dismiss()                  # "Hit any key or mouse button to clear it quicker"
            return self
        target = self._key_target(e) if isinstance(e, Key) else self._press_target(e)
        return self._choose(target)

    @staticmethod
    def _save_asked(e: Key | Press) -> bool:
        """R, or a click on SAVE RECORD (before the box on screen takes it)."""
        if isinstance(e, Key):
            return e.char == "R"
        return e.button in (LEFT, RIGHT) and L.SAVE_BOX.contains(e.x, e.y)

    @staticmethod
    def _last_count_asked(e: Key | Press) -> bool:
        """C, or a click on LAST COUNT (over the scores box, which offers it)."""
        if isinstance(e, Key):
            return e.char == "C"
        return e.button in (LEFT, RIGHT) and L.LAST_COUNT_BOX.contains(e.x, e.y)

    @staticmethod
    def _review_asked(e: Key | Press) -> bool:
        """V, or a click on REVIEW (where SAVE RECORD is open: a hand's end, the game's)."""
        if isinstance(e, Key):
            return e.char == "V"
        return e.button in (LEFT, RIGHT) and L.REVIEW_BOX.contains(e.x, e.y)

    def _review(self) -> Controller:
        """REVIEW: your decisions of the hand just counted (at the game's end, of the
        whole game) beside EXPERT's, the costliest first (docs/review.md)."""
        t = self.table
        whole = t.over
        hand = len(t.dealt)
        text = t.record_text(self._meta())

        def lines() -> list[str]:
            log = record.parse(text)
            mine = [d for d in review.choices(log, HUMAN) if whole or d.hand == hand]
            return review.lines(review.review(mine))

        title = "REVIEW OF THE GAME" if whole else f"REVIEW OF HAND {hand}"
        return ReviewScreen(self.ctx.session, f"{title}: YOUR DECISIONS BESIDE EXPERT'S", lines, self)

    def _meta(self) -> Meta:
        cfg = self.ctx.config
        level = self.ctx.session.launch.computer or cfg.level
        return Meta((cfg.name, "COMPUTER"), ("human", level), date=self.ctx.today().isoformat(),
                    seed=self.table.seed)

    def _quit_target(self, e: Key | Press) -> str | None:
        if isinstance(e, Key):
            return {"Y": "yes", "N": "no"}.get(e.char)
        for rect, name in ((L.YES_BOX, "yes"), (L.NO_BOX, "no")):
            if rect.contains(e.x, e.y):
                return name
        return None

    def _key_target(self, k: Key) -> object:
        if k.char == "C":
            return "last_count"
        if self.table.over:
            # The game is over: QUIT leaves as MAIN MENU does, with nothing to ask.
            return {"A": "again", "M": "menu", "\r": "menu", "Q": "menu"}.get(k.char)
        if k.char in KEYS_1_6:
            return KEYS_1_6.index(k.char)
        return {"\r": "lay_away", "L": "lay_away", "H": "hint", "Q": "quit"}.get(k.char)

    def _press_target(self, p: Press) -> object:
        target = self._target_at(p.x, p.y)
        if p.button == MIDDLE:
            # "The center button ... will work for hints ANYWHERE"; left and right
            # together only away from a choice area (the first button already chose).
            return "hint" if not p.chord or target is None else None
        return target if p.button in (LEFT, RIGHT) else None

    def _target_at(self, x: int, y: int) -> object:
        t = self.table
        if t.over:
            areas = [(L.AGAIN_BOX, "again"), (L.MENU_BOX, "menu"), (L.QUIT_BOX, "menu")]
        else:
            areas = [(L.LAY_AWAY_BOX, "lay_away"), (L.HINT_BOX, "hint"), (L.QUIT_BOX, "quit")]
        if t.last_count:
            areas.append((L.LAST_COUNT_BOX, "last_count"))
        for rect, name in areas:
            if rect.contains(x, y):
                return name
        if t.over:
            return None
        cards = t.hand.hands[HUMAN]
        for i, c in enumerate(cards):
            if L.card_rect(i, c in t.selected).contains(x, y):
                return i
        return None

    def _choose(self, target: object) -> Controller | None:
        t = self.table
        if target == "again":
            return CribPlay(self.ctx)
        if target == "menu":
            return self._leave()
        if target == "last_count":
            t.recall()
        elif target == "quit":
            self.quit_asked = True
        elif target == "hint":
            t.ask_hint()
        elif target == "lay_away":
            t.lay_away()
        elif isinstance(target, int):
            if t.hand.phase is Phase.DISCARD:
                t.pick(target)
            else:
                t.play_at(target)
        return self

    # ---- leaving -------------------------------------------------------------------

    def _record(self) -> None:
        """At the end of the game only: "If you quit a hand before the END of the game,
        the statistics file WILL NOT be updated"."""
        self.recorded = True
        t = self.table
        self.ctx.store.record_game(CribGame(
            self.ctx.config.name, t.game.winner == HUMAN, t.game.skunk, t.hands_counted,
            t.hand_points, t.cribs_counted, t.crib_points))

    def _leave(self) -> Controller | None:
        title = self.ctx.title
        return title(self.ctx) if title is not None else None

    # ---- drawing -------------------------------------------------------------------

    def draw(self) -> None:
        s = self.ctx.session.screen
        s.set_page(0)
        s.clear(BLACK)
        t = self.table
        hidden = t.hidden()
        self._draw_scores()
        draw_board(s, t.options.limit, t.options.skunking, t.front, t.previous, t.them, t.mark)
        self._draw_computer(hidden)
        self._draw_crib(hidden)
        self._draw_row(hidden)
        self._draw_human(hidden)
        self._draw_boxes()
        self._draw_message()
        self._draw_beside()
        for f, (x, y) in t.flying():
            if f.face_up:
                s.card(x, y, f.card, self.ctx.config.big_cards)
            else:
                s.back(x, y)
        if t.box is not None:
            self._draw_box(t.box)
        elif t.over:
            self._draw_game_end()

    def _draw_scores(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        you, cpu = t.front
        s.text(L.SCORES_X, L.SCORES_Y, f"{t.them[:8]:<8}  {cpu:>3}", LIGHTRED)
        s.text(L.SCORES_X, L.SCORES_Y + LINE, f"{t.name[:8]:<8}  {you:>3}", LIGHTGREEN)
        s.text(L.SCORES_X, L.SCORES_Y + 2 * LINE, f"{'LIMIT':<8}  {t.options.limit:>3}", LIGHTGRAY)
        dealer = "YOU DEAL" if t.hand.dealer == HUMAN else f"{t.them} DEALS"
        s.text(L.SCORES_X, L.SCORES_Y + 3 * LINE + 4, dealer, WHITE)

    def _draw_computer(self, hidden: set[int]) -> None:
        s = self.ctx.session.screen
        s.text(L.CPU_X, L.CPU_LABEL_Y, self.table.them, LIGHTGRAY)
        for i, c in enumerate(self.table.hand.hands[COMPUTER]):
            if c not in hidden:
                s.back(*L.hand_slot(COMPUTER, i))

    def _draw_crib(self, hidden: set[int]) -> None:
        s = self.ctx.session.screen
        h = self.table.hand
        x, y = L.crib_slot(h.dealer)
        cards = [c for c in (*h.cribs[0], *h.cribs[1]) if c not in hidden]
        s.text(x, y - L.LABEL_GAP, self._crib_label(h.dealer), LIGHTGRAY)
        if h.phase is Phase.DONE and h.shows and h.shows[-1].what == "crib":
            for i, c in enumerate(h.crib):
                s.card(x + 10 * i, y, c, self.ctx.config.big_cards)   # clear of the scores
            return
        for i in range(len(cards)):
            s.back(x + 3 * i, y - i)
        if not cards:
            s.box(x, y, CARD_W, CARD_H, LIGHTGRAY)

    def _crib_label(self, dealer: int) -> str:
        return "YOUR CRIB" if dealer == HUMAN else "CRIB"

    def _draw_row(self, hidden: set[int]) -> None:
        s = self.ctx.session.screen
        t = self.table
        h = t.hand
        big = self.ctx.config.big_cards
        s.text(L.DECK_X + 8, L.ROW_Y - L.LABEL_GAP, "DECK", LIGHTGRAY)
        s.deck(*L.DECK, len(h.stock) + (1 if h.starter in hidden else 0))
        s.text(L.STARTER_X - 4, L.ROW_Y - L.LABEL_GAP, "STARTER", LIGHTGRAY)
        if h.starter is not None and h.starter not in hidden:
            s.card(*L.STARTER, h.starter, big)
        else:
            s.box(*L.STARTER, CARD_W, CARD_H, LIGHTGRAY)
        if h.phase is Phase.PLAY or t.row:
            s.text(L.PLAY_X, L.ROW_Y - L.LABEL_GAP, f"COUNT {t.count}", WHITE)
        for i, (seat, c) in enumerate(t.row):
            if c not in hidden:
                x, y = L.play_slot(i)
                s.card(x, y, c, big)
                s.bar(x, y + CARD_H + 2, 20, 3, LIGHTGREEN if seat == HUMAN else LIGHTRED)

    def _draw_human(self, hidden: set[int]) -> None:
        s = self.ctx.session.screen
        t = self.table
        big = self.ctx.config.big_cards
        hint = t.hint or ()
        for i, c in enumerate(t.hand.hands[HUMAN]):
            if c in hidden:
                continue
            x, y = L.hand_slot(HUMAN, i)
            if c in t.selected:
                y -= L.RAISE
            s.card(x, y, c, big)
            s.text(x + 20, L.UNDER_Y, KEYS_1_6[i], WHITE)
            if c in hint:
                s.bar(x, y - 8, CARD_W, 5, YELLOW)     # "YELLOW bars" on the hint

    def _draw_boxes(self) -> None:
        s = self.ctx.session.screen
        over = self.table.over
        if not over:                     # at the game's end only what still works
            s.button(*L.LAY_AWAY_BOX, "LAY AWAY", "L")
            s.button(*L.HINT_BOX, "HINT", "H")
        if self.table.last_count:        # offered once a show has been counted
            s.button(*L.LAST_COUNT_BOX, "LAST COUNT", "C")
        s.button(*L.QUIT_BOX, "QUIT", "Q")
        if self.table.can_save:
            s.button(*L.SAVE_BOX, "SAVE RECORD", "R")
            s.button(*L.REVIEW_BOX, "REVIEW", "V")
            if self.note:
                s.text(L.NOTE_X, L.NOTE_Y, self.note[:36], WHITE)

    def _draw_message(self) -> None:
        s = self.ctx.session.screen
        if self.quit_asked:
            ask, why = self.QUIT_ASK
            s.text(L.MSG_X + 16, L.MSG_Y + 8, ask, WHITE)
            s.text(L.MSG_X + 16, L.MSG_Y + 8 + LINE, why, LIGHTGRAY)
            s.button(*L.YES_BOX, "YES", "Y")
            s.button(*L.NO_BOX, "NO", "N")
            return
        for i, line in enumerate(self._message_lines()[:5]):
            s.text(L.MSG_X + 16, L.MSG_Y + LINE * i, line, WHITE)

    def _message_lines(self) -> list[str]:
        """What the message area says: whose turn, what to do, or the table's message."""
        t = self.table
        lines: list[str] = []
        if t.your_turn_to_lay_away():
            whose = "YOUR" if t.hand.dealer == HUMAN else f"{t.the_them}'S"
            lines = ["Pick two cards (1-6)", f"for {whose} crib,", "then LAY AWAY."]
        elif t.your_turn_to_play():
            lines = ["Your turn: play a card", f"(1-{len(t.hand.hands[HUMAN])})."]
        elif not t.busy and t.hand.phase is Phase.PLAY:
            lines = [self._playing_line()]
        if t.message:
            lines = textwrap.wrap(t.message, 28)
        return lines

    def _draw_beside(self) -> None:
        """What a card room's screen draws beside the game (under the boxes); none here."""

    def _playing_line(self) -> str:
        return "The computer is playing."

    def _frame(self, r: Rect) -> None:
        s = self.ctx.session.screen
        s.fill(*r, BLUE)
        s.box(*r, WHITE)
        s.box(r.x + 2, r.y + 2, r.w - 4, r.h - 4, LIGHTGRAY)

    def _draw_box(self, box: Box) -> None:
        s = self.ctx.session.screen
        if box.show is not None:
            r = L.SHOW
            self._frame(r)
            s.text(r.x + (r.w - s.text_width(box.title)) // 2, r.y + 10, box.title, YELLOW)
            big = self.ctx.config.big_cards
            x0 = r.x + (r.w - (4 * 54 + 12 + CARD_W)) // 2
            for i, c in enumerate(box.show.cards):
                s.card(x0 + 54 * i, r.y + 28, c, big)
            s.card(x0 + 4 * 54 + 12, r.y + 28, box.show.starter, big)
            s.text(x0 + 4 * 54 + 8, r.y + 28 + CARD_H + 3, "STARTER", LIGHTGRAY)
            for i, line in enumerate(box.lines[:9]):
                s.text(r.x + 12, r.y + 112 + LINE * i, line, WHITE)
        else:
            r = L.INFO
            self._frame(r)
            s.text(r.x + (r.w - s.text_width(box.title)) // 2, r.y + 10, box.title, YELLOW)
            for i, line in enumerate(box.lines[:3]):
                s.text(r.x + (r.w - s.text_width(line)) // 2, r.y + 28 + LINE * i, line, WHITE)
        note = self.table.recall_note
        waits = self.table.pause or box.waits
        more = f"{note}: PRESS A KEY" if note else "PRESS A KEY OR BUTTON" if waits else ""
        if more:
            s.text(r.x + (r.w - s.text_width(more)) // 2, r.y + r.h - 12, more, LIGHTGRAY)

    def _draw_game_end(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        r = L.SHOW
        self._frame(r)
        won = t.game.winner == HUMAN
        head = "YOU WIN THE GAME!" if won else "THE COMPUTER WINS."
        s.text(r.x + (r.w - s.text_width(head, 2)) // 2, r.y + 24, head, YELLOW, 2)
        you, cpu = t.front
        lines = [f"{self.ctx.config.name} {you}, COMPUTER {cpu}."]
        if t.game.skunk:
            lines.append("A SKUNK: IT COUNTS AS TWO GAMES.")
        for i, line in enumerate(lines):
            s.text(r.x + (r.w - s.text_width(line)) // 2, r.y + 70 + 2 * LINE * i, line, WHITE)
        s.button(*L.AGAIN_BOX, "PLAY AGAIN", "A")
        s.button(*L.MENU_BOX, "MAIN MENU", "M")


__all__ = ["CribPlay", "computer_for"]
