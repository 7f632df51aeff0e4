"""The game screen (video page 0): the table, the human's hand, the red command boxes,
the knock question, the hand's end and the game's end.

Layout, in the 640x350 logical space (docs/screen.md tells how profiles map it):

    y   4  COMPUTER                                       scores and limit (right)
    y  16  the computer's ten cards, face down (face up, arranged, at the hand's end)
    y 112  DECK   PILE   KNOCK card   DRAWN card          messages, questions
    y 192  YELLOW hint bar / y 200 BLUE and GREEN meld bars
    y 206  your hand, melds first                         (RED layoff bars below)
    y 274  1 2 3 4 5 6 7 8 9 0
    y 316  [DECK] [DISCARD PILE] [DRAWN CARD] [UNDO] [HINT]              [QUIT]

The table rules (issue 12) add, only when they are on: BOXES and the DEALER under the
scores (y 62, 76; Hollywood's three games' points beside the names, from x 472), the
knock deck's card face in the KNOCK place with its value under it (y 183), the upcard
question's [TAKE] [DECLINE] where the knock question's boxes go (y 150), an eleventh
card and its key "-" in the deal of 11's opening discard, and at the game's end the
SCORE SHEET page (``_draw_sheet``) with [PLAY AGAIN] [MAIN MENU] at y 316.
"""
from __future__ import annotations

import textwrap
from collections.abc import Callable

from port.files.gamerecord import Meta
from port.ginrummy import files
from port.ginrummy import record, review
from port.ginrummy.record import PREFIX
from port.ginrummy.review import Decision
from port.main.reviewscreen import ReviewScreen
from port.cards import Card
from port.ginrummy.main.context import Context
from port.main.controller import Controller
from port.ginrummy.main.table import COMPUTER, HUMAN, Mode, Table, result_order
from port.mouse import LEFT, MIDDLE, RIGHT, Event, Key, Press
from port.ginrummy.rules import PILE_RUN_LIMIT, DrawnBy, HandState, Options, Outcome, Settlement
from port.ginrummy.rules.scoring import Column, ScoreSheet
from port.ginrummy.rules.players import KnockChoice
from port.screen import Rect, Screen
from port.screen.profiles import BLACK, BLUE, GREEN, LIGHTCYAN, LIGHTGRAY, RED, WHITE, YELLOW

CARD_W, CARD_H = 48, 64
HAND_X, HAND_STEP = 40, 54
CPU_Y, HAND_Y = 16, 206
BACK_STEP = 30
RESULT_X, RESULT_STEP = 16, 50   # the computer's hand face up at the end: clear of the scores
ROW_Y = 112
DECK_X, PILE_X, KNOCK_X, DRAWN_X = 40, 110, 190, 270
MSG_X = 350
MSG_Y = 92
LINE = 14          # text rows at least 14 apart stay apart on the 200-line CGA
KEYS_0_9 = "1234567890"
KEYS_HAND = KEYS_0_9 + "-"      # the deal of 11: the opening discard has an eleventh card

DECK_BOX = Rect(16, 316, 56, 20)
PILE_BOX = Rect(80, 316, 120, 20)
DRAWN_BOX = Rect(208, 316, 104, 20)
UNDO_BOX = Rect(320, 316, 56, 20)
HINT_BOX = Rect(384, 316, 56, 20)
QUIT_BOX = Rect(568, 316, 56, 20)

# Arranging your own hand (the ARRANGE table rule): a row of its own under the hand.
RANK_BOX = Rect(16, 290, 72, 18)
SUIT_BOX = Rect(96, 290, 72, 18)
MELDS_BOX = Rect(176, 290, 96, 18)
ARRANGE_BOX = Rect(280, 290, 72, 18)
ARRANGE_KEYS = {"R": "by_rank", "S": "by_suit", "M": "melds_left", "A": "arrange"}

YES_BOX = Rect(MSG_X + 16, 150, 48, 20)
NO_BOX = Rect(MSG_X + 72, 150, 40, 20)
GIN_BOX = Rect(MSG_X + 120, 150, 112, 20)
CONTINUE_BOX = Rect(MSG_X + 16, 176, 96, 20)
AGAIN_BOX = Rect(MSG_X + 16, 176, 104, 20)
MENU_BOX = Rect(MSG_X + 128, 176, 96, 20)
# The upcard offer (a table rule): take it or decline it, where the knock question's go.
TAKE_BOX = Rect(MSG_X + 16, 150, 56, 20)
DECLINE_BOX = Rect(MSG_X + 80, 150, 80, 20)
# The score sheet's page: its two boxes on the bottom row.
SHEET_AGAIN_BOX = Rect(208, 316, 104, 20)
SHEET_MENU_BOX = Rect(328, 316, 96, 20)
# The hand's and the game's end: SAVE RECORD (R) between HINT and QUIT, its note above
# the bottom row (docs/records.md).
SAVE_BOX = Rect(448, 316, 112, 20)
# ... and REVIEW (V) where UNDO stands while a hand is on (nothing is left to undo), on
# the score sheet's page left of PLAY AGAIN.
REVIEW_BOX = Rect(320, 316, 56, 20)
SHEET_REVIEW_BOX = Rect(88, 316, 104, 20)
NOTE_Y = 298
SCORE_X, HOLLYWOOD_X = 520, 472
KNOCK_VALUE_Y = ROW_Y + CARD_H + 7      # under the knock deck's card, clear of its red box

DECK_RECT = Rect(DECK_X, ROW_Y, CARD_W, CARD_H)
PILE_RECT = Rect(PILE_X, ROW_Y, CARD_W, CARD_H)
KNOCK_RECT = Rect(KNOCK_X, ROW_Y, CARD_W, CARD_H)
DRAWN_RECT = Rect(DRAWN_X, ROW_Y, CARD_W, CARD_H)


def card_rect(i: int, y: int = HAND_Y) -> Rect:
    # The last card overlaps nothing, so each card's hit area is its visible part.
    return Rect(HAND_X + i * HAND_STEP, y, CARD_W, CARD_H)


class PlayScreen:
    """One game against the computer. ``update`` maps events to the Table's actions.

    A room game (``roomplay.RoomPlayScreen``) is this screen on another table: one with
    the Table's reading interface and actions, fed by the room; the hooks below
    (``names``, ``words``, the question and the game end's boxes) say who sits there."""

    QUIT_QUESTION = "QUIT THIS GAME?"
    AGAIN_LABEL = ("PLAY AGAIN", "A")
    MENU_LABEL = ("MAIN MENU", "M")

    def __init__(self, ctx: Context, leave_to: Callable[[Context], Controller], table: Table | None = None) -> None:
        self.ctx = ctx
        # Where QUIT and MAIN MENU lead (the title screen): given by whoever starts the
        # game, so that this module needs none of the menus (which start games from here).
        self.leave_to = leave_to
        # The table: the computer game's own, or one given with its reading interface
        # and actions (a room game's ``RoomTable``).
        cfg = ctx.config
        self.table = table if table is not None else Table(cfg.options(), ctx.computer(), ctx.new_deal_source(),
                                                           cfg.sort)
        self.quit_asked = False
        self.recorded = False
        self.note = ""                  # what SAVE RECORD did, until the next hand
        ctx.session.screen.set_page(0)

    # ---- who sits at the table: the computer here, a person in the room -------------

    def names(self) -> tuple[str, str]:
        """The player's name and the opponent's, as the scores show them."""
        return self.ctx.config.name, "COMPUTER"

    def short_name(self) -> str:
        """The opponent in the score sheet's narrow Hollywood columns."""
        return "CPU"

    def words(self, line: str) -> str:
        """A line of the message area or the score sheet, in the opponent's name."""
        return line

    def quit_label(self) -> tuple[str, str]:
        return "QUIT", "Q"

    def playing_line(self) -> str:
        """The message area while the opponent moves."""
        return "The computer is playing."

    def records_shown(self) -> bool:
        """Whether SAVE RECORD and REVIEW stand on the bottom row (where UNDO was)."""
        return self.table.mode in (Mode.HAND_END, Mode.GAME_END)

    # ---- input ---------------------------------------------------------------------

    def update(self, events: list[Event]) -> Controller | None:
        nxt: Controller | None = self
        for e in events:
            if self._taken(e):
                continue
            if isinstance(e, Key):
                nxt = self._key(e)
            elif isinstance(e, Press):
                nxt = self._press(e)
            if nxt is not self:
                return nxt
        self.table.tick()
        return self._after_tick()

    def _taken(self, e: Event) -> bool:
        """An event something beside the game takes first (a room game's chat line)."""
        return False

    def _after_tick(self) -> Controller | None:
        """The frame's end, once the table has moved on: the finished game recorded."""
        if self.table.mode is Mode.GAME_END and not self.recorded:
            self._record(finished=True)
        return self

    def _key(self, k: Key) -> Controller | None:
        """A key chooses what a click on its box or card would (one table of actions)."""
        target = self._key_target(k.char)
        return self._choose(target) if target is not None else self

    def _key_target(self, ch: str) -> object:
        t = self.table
        if self.quit_asked:
            return {"Y": "yes", "N": "no", "\x1b": "no"}.get(ch)
        if ch == "Q":
            return "quit"
        if ch == "H":
            return "hint"
        if self.ctx.config.arrange and t.can_arrange():
            if ch in ARRANGE_KEYS:
                return ARRANGE_KEYS[ch]
            if t.arranging and ch in KEYS_0_9:       # while arranging the numbers pick
                return ("arrange_card", KEYS_0_9.index(ch))
        by_mode: dict[Mode, dict[str, object]] = {
            Mode.UPCARD_OFFER: {"T": "take", "D": "decline"},
            Mode.HUMAN_DRAW: {"D": "deck", "P": "pile"},
            Mode.HUMAN_DISCARD: {"D": "drawn_box", "U": "undo",
                                 **{c: i for i, c in enumerate(KEYS_HAND)}},
            Mode.KNOCK_PROMPT: {"Y": "yes", "N": "no", "P": "gin"},
            Mode.HAND_END: {"\r": "continue", " ": "continue", "C": "continue", "R": "save", "V": "review"},
            Mode.GAME_END: {"A": "again", "M": "menu", "\r": "menu", "R": "save", "V": "review"},
        }
        return by_mode.get(t.mode, {}).get(ch)

    def _press(self, p: Press) -> Controller | None:
        t = self.table
        target = self._target_at(p.x, p.y)
        if p.button == MIDDLE:
            # "The center button ... will work for hints ANYWHERE"; left and right
            # together only away from a choice area (the first button already chose).
            if not p.chord or target is None:
                t.ask_hint()
            return self
        if p.button not in (LEFT, RIGHT) or target is None:
            return self
        if target == "quit" and p.double:
            return self._leave()            # "Double-clicking on the QUIT option"
        return self._choose(target)

    def _choose(self, target: object) -> Controller | None:
        t = self.table
        if self.quit_asked:
            if target == "yes":
                return self._leave()
            if target == "no":
                self.quit_asked = False
            return self
        if target == "quit" and t.mode is Mode.GAME_END:
            return self._leave()            # the game is over: nothing to ask (as MAIN MENU)
        if target == "quit":
            self.quit_asked = True
        elif target == "hint":
            t.ask_hint()
        elif target in ("by_rank", "by_suit", "melds_left"):
            t.arrange_by({"by_rank": "RANK", "by_suit": "SUIT", "melds_left": "MELDS"}[target])
        elif target == "arrange":
            t.toggle_arranging()
        elif isinstance(target, tuple) and target[0] == "arrange_card":
            t.choose_to_arrange(target[1])
        elif t.mode is Mode.UPCARD_OFFER:
            if target in ("take", "pile", "pile_box"):   # 001: "you take the card by ... clicking on it"
                t.take_upcard()
            elif target == "decline":
                t.decline_upcard()
        elif t.mode is Mode.HUMAN_DRAW:
            if target in ("deck", "deck_box"):
                t.draw_deck()
            elif target in ("pile", "pile_box"):
                t.draw_pile()
        elif t.mode is Mode.HUMAN_DISCARD:
            if isinstance(target, int):
                t.discard_at(target)
            elif target in ("drawn", "undo"):
                # "undo the draw by clicking on the card drawn" — for a pile card only;
                # after a deck draw the click keeps the card and says so (never a discard).
                t.undo()
            elif target in ("pile", "drawn_box"):
                t.discard_drawn()
        elif t.mode is Mode.KNOCK_PROMPT:
            if target in ("yes", "knock"):
                t.knock()
            elif target in ("no", "pile"):
                t.play_on()
            elif target == "gin":
                t.play_to_gin()
        elif target == "save" and t.mode in (Mode.HAND_END, Mode.GAME_END):
            self._save_record()
        elif target == "review" and t.mode in (Mode.HAND_END, Mode.GAME_END):
            return self._review()
        elif t.mode is Mode.HAND_END and target == "continue":
            t.next_hand()
            self.note = ""
        elif t.mode is Mode.GAME_END:
            if target == "again":
                return self._again()
            if target == "menu":
                return self._leave()
        return self

    def _target_at(self, x: int, y: int) -> object:
        """What a click at (x, y) is on: a name, or a hand position 0..9, or None."""
        t = self.table
        prompt: list[tuple[Rect, object]] = []
        if self.quit_asked:
            prompt = [(YES_BOX, "yes"), (NO_BOX, "no")]
        elif t.mode is Mode.KNOCK_PROMPT:
            prompt = [(YES_BOX, "yes"), (NO_BOX, "no"), (GIN_BOX, "gin")]
        elif t.mode is Mode.UPCARD_OFFER:
            prompt = [(TAKE_BOX, "take"), (DECLINE_BOX, "decline")]
        elif t.mode is Mode.HAND_END:
            prompt = [(CONTINUE_BOX, "continue"), (SAVE_BOX, "save"), (REVIEW_BOX, "review")]
        elif t.mode is Mode.GAME_END and t.sheet_shown:
            # the score sheet's page: nothing of the table is under the pointer
            for rect, name in ((SHEET_AGAIN_BOX, "again"), (SHEET_MENU_BOX, "menu"), (SAVE_BOX, "save"),
                               (SHEET_REVIEW_BOX, "review")):
                if rect.contains(x, y):
                    return name
            return None
        elif t.mode is Mode.GAME_END:
            prompt = [(AGAIN_BOX, "again"), (MENU_BOX, "menu"), (SAVE_BOX, "save"), (REVIEW_BOX, "review")]
        areas = prompt + [
            (DECK_RECT, "deck"), (PILE_RECT, "pile"), (KNOCK_RECT, "knock"), (DRAWN_RECT, "drawn"),
            (DECK_BOX, "deck_box"), (PILE_BOX, "pile_box"), (DRAWN_BOX, "drawn_box"),
            (UNDO_BOX, "undo"), (HINT_BOX, "hint"), (QUIT_BOX, "quit"),
        ]
        if self.ctx.config.arrange and t.can_arrange():
            areas += [(RANK_BOX, "by_rank"), (SUIT_BOX, "by_suit"), (MELDS_BOX, "melds_left"),
                      (ARRANGE_BOX, "arrange")]
        for rect, name in areas:
            if rect.contains(x, y):
                return name
        for i in range(len(t.shown().cards)):
            r = card_rect(i)
            if r.contains(x, y):
                return ("arrange_card", i) if t.arranging and t.can_arrange() else i
        return None

    # ---- leaving -------------------------------------------------------------------

    def _record(self, finished: bool) -> None:
        """Statistics and high scores: at the game's end, or on quitting after at least
        one finished hand (the Files unit applies the documented conditions)."""
        self.recorded = True
        g = self.table.game
        cfg = self.ctx.config
        # A finished game counts its final scores (the score sheet's: game and box
        # bonuses, the shutout doubling); a game quit mid-way the points so far.
        human, cpu = g.sheet().totals if finished and g.over and self.table.sheet_shown else g.scores
        rec = files.GameRecord(cfg.name, human, cpu, g.hands_played, cfg.score_limit,
                               cfg.knock_card == "OKLAHOMA",
                               files.result_of(human, cpu), self.ctx.today(), finished=finished,
                               scoring=cfg.scoring)
        self.ctx.store.record_game(rec)

    def _meta(self) -> Meta:
        cfg = self.ctx.config
        spec = self.ctx.session.launch.computer
        level = spec if spec is not None else ("EASY" if cfg.easy else cfg.level)
        return Meta((cfg.name, "COMPUTER"), ("human", level), date=self.ctx.today().isoformat(),
                    seed=self.table.seed)

    def _save_record(self) -> None:
        """SAVE RECORD: the game so far, its finished hands, as a record file in the
        game's files directory (docs/records.md); the note says where, or why not."""
        meta = self._meta()
        self.note = self.ctx.save_record(PREFIX, lambda: self.table.record_text(meta))

    def _review(self) -> Controller:
        """REVIEW: the player's decisions of the hand just played (at the game's end,
        of the whole game) beside EXPERT's, the costliest first (docs/review.md)."""
        t = self.table
        whole = t.mode is Mode.GAME_END
        hand = t.game.hands_played
        text = t.record_text(self._meta())

        def lines() -> list[str]:
            log = record.parse(text)
            mine = [Decision(*each) for each in record.choices(log, HUMAN) if whole or each[2] == hand]
            return review.lines(review.review(mine))

        title = "REVIEW OF THE GAME" if whole else f"REVIEW OF HAND {hand}"
        return ReviewScreen(self.ctx.session, f"{title}: YOUR DECISIONS BESIDE EXPERT'S", lines, self)

    def _leave(self) -> Controller | None:
        if not self.recorded:
            self._record(finished=self.table.mode is Mode.GAME_END)
        return self.leave_to(self.ctx)

    def _again(self) -> Controller:
        if not self.recorded:
            self._record(finished=True)
        return PlayScreen(self.ctx, self.leave_to)

    # ---- drawing -------------------------------------------------------------------

    def draw(self) -> None:
        s = self.ctx.session.screen
        s.set_page(0)
        s.clear(BLACK)
        t = self.table
        if t.mode is Mode.GAME_END and t.sheet_shown and not self.quit_asked:
            self._draw_sheet()
            return
        over = t.mode in (Mode.HAND_END, Mode.GAME_END)
        self._draw_scores()
        if over and t.result is not None:
            draw_result(s, t.result, t.sort, self.ctx.config.big_cards)
        else:
            self._draw_computer_backs()
            self._draw_human()
        self._draw_row()
        self._draw_boxes()
        self._draw_message()

    def _draw_scores(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        opts = t.options
        human, cpu = t.scores
        name, other = (n[:8] for n in self.names())
        s.text(HAND_X, CPU_Y - LINE, other, LIGHTGRAY)
        if opts.scoring == "HOLLYWOOD":
            # the three games' points side by side: "G1  G2  G3" over them
            cols = t.game.column_points
            s.text(HOLLYWOOD_X, 20 - LINE, f"{'':<8}{'G1':>4}{'G2':>4}{'G3':>4}", LIGHTGRAY)
            for row, (who, seat) in enumerate(((name, HUMAN), (other, COMPUTER))):
                s.text(HOLLYWOOD_X, 20 + row * LINE, f"{who:<8}" + "".join(f"{c[seat]:>4}" for c in cols),
                       WHITE)
            s.text(HOLLYWOOD_X, 20 + 2 * LINE, f"{'LIMIT':<8}{opts.score_limit:>4}", LIGHTGRAY)
        else:
            s.text(SCORE_X, 20, f"{name:<8}{human:>5}", WHITE)
            s.text(SCORE_X, 20 + LINE, f"{other:<8}{cpu:>5}", WHITE)
            s.text(SCORE_X, 20 + 2 * LINE, f"{'LIMIT':<8}{opts.score_limit:>5}", LIGHTGRAY)
        x = HOLLYWOOD_X if opts.scoring == "HOLLYWOOD" else SCORE_X
        if opts.boxes:
            bh, bc = t.boxes
            s.text(x, 20 + 3 * LINE, f"BOXES {bh} TO {bc}", WHITE)
        if dealer_shown(opts):
            s.text(x, 20 + 4 * LINE, f"DEALER {name if t.dealer == HUMAN else other}", LIGHTGRAY)

    def _draw_computer_backs(self) -> None:
        s = self.ctx.session.screen
        for i in range(self.table.opponent_cards):
            s.back(HAND_X + i * BACK_STEP, CPU_Y)

    def _draw_human(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        shown = t.shown()
        big = self.ctx.config.big_cards
        meld_bars(s, shown.groups, shown.sets, shown.cards, HAND_Y - 6)
        for i, c in enumerate(shown.cards):
            s.card(HAND_X + i * HAND_STEP, HAND_Y, c, big)
            s.text(HAND_X + i * HAND_STEP + 20, HAND_Y + CARD_H + 4, KEYS_HAND[i], WHITE)
            if t.hint_target == c:
                s.bar(HAND_X + i * HAND_STEP, HAND_Y - 14, CARD_W, 5, YELLOW)
            if t.picked == c:            # arranging: the card that will move
                s.bar(HAND_X + i * HAND_STEP, HAND_Y - 14, CARD_W, 5, LIGHTCYAN)

    def _draw_row(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        h = t.hand
        big = self.ctx.config.big_cards
        draw_row(s, h, t.drawn, big)
        if t.computer_took_pile and t.mode not in (Mode.HAND_END, Mode.GAME_END):
            s.bar(PILE_X, ROW_Y - 22, CARD_W, 5, RED)
        target = t.hint_target
        if target == "deck":
            s.bar(DECK_X, ROW_Y - 22, CARD_W, 5, YELLOW)
        elif target == "pile":
            s.bar(PILE_X, ROW_Y - 22, CARD_W, 5, YELLOW)
        elif target is not None and target == t.drawn:
            s.bar(DRAWN_X, ROW_Y - 22, CARD_W, 5, YELLOW)

    def _draw_boxes(self) -> None:
        s = self.ctx.session.screen
        s.button(*DECK_BOX, "DECK", "D")
        s.button(*PILE_BOX, "DISCARD PILE", 8)
        s.button(*DRAWN_BOX, "DRAWN CARD", "D")
        if self.records_shown():
            s.button(*REVIEW_BOX, "REVIEW", "V")
        else:
            s.button(*UNDO_BOX, "UNDO", "U")
        s.button(*HINT_BOX, "HINT", "H")
        s.button(*QUIT_BOX, *self.quit_label())
        t = self.table
        if self.records_shown():
            self._draw_save()
        if self.ctx.config.arrange and t.can_arrange():
            s.button(*RANK_BOX, "BY RANK", "R")
            s.button(*SUIT_BOX, "BY SUIT", "S")
            s.button(*MELDS_BOX, "MELDS LEFT", "M")
            s.button(*ARRANGE_BOX, "ARRANGE", "A", frame=YELLOW if t.arranging else RED)

    def _draw_save(self) -> None:
        s = self.ctx.session.screen
        s.button(*SAVE_BOX, "SAVE RECORD", "R")
        if self.note:
            s.text(16, NOTE_Y, self.note[:76], WHITE)

    def _draw_message(self) -> None:
        s = self.ctx.session.screen
        t = self.table
        lines: list[str] = []
        if self.quit_asked:
            s.text(MSG_X + 16, ROW_Y + 8, self.QUIT_QUESTION, WHITE)
            s.button(*YES_BOX, "YES", "Y")
            s.button(*NO_BOX, "NO", "N")
            return
        if t.mode is Mode.UPCARD_OFFER:
            first = (["The computer declined it."] if t.declined_by_computer() else [])
            for i, line in enumerate([*first, "Take the upcard?"]):
                s.text(MSG_X + 16, MSG_Y + LINE * i, self.words(line), WHITE)
            s.button(*TAKE_BOX, "TAKE", "T")
            s.button(*DECLINE_BOX, "DECLINE", "D")
            if t.hint_target in ("take", "decline"):
                box = TAKE_BOX if t.hint_target == "take" else DECLINE_BOX
                s.bar(box.x, box.y - 7, box.w, 4, YELLOW)
            return
        elif t.mode is Mode.HUMAN_DRAW:
            lines = ["Draw from the DECK", "or the DISCARD PILE."]
            if t.hand.stock_only:
                lines = ["Both declined the upcard:", "draw from the DECK."]
        elif t.opening:
            lines = ["Start the pile: discard", "a card (1-0, -)."]
        elif t.mode is Mode.HUMAN_DISCARD:
            lines = ["Discard a card (1-0),", "or the DRAWN CARD."]
            if t.drawn_from_pile:
                lines = ["Discard a card (1-0),", "or UNDO the draw."]
        elif t.mode is Mode.COMPUTER:
            lines = [self.playing_line()]
        elif t.mode is Mode.KNOCK_PROMPT:
            s.text(MSG_X + 16, ROW_Y + 8, f"KNOCK WITH {t.hand.deadwood(HUMAN)}?", WHITE)
            s.button(*YES_BOX, "YES", "Y")
            s.button(*NO_BOX, "NO", "N")
            s.button(*GIN_BOX, "PLAY TO GIN", "P")
            if isinstance(t.hint_target, KnockChoice):
                box = {KnockChoice.KNOCK: YES_BOX, KnockChoice.PLAY_ON: NO_BOX,
                       KnockChoice.PLAY_TO_GIN: GIN_BOX}[t.hint_target]
                s.bar(box.x, box.y - 7, box.w, 4, YELLOW)
            return
        elif t.mode is Mode.HAND_END and t.result is not None:
            lines = result_lines(t.result, self.ctx.config.name, t.options, t.hand.knock_card)
            s.button(*CONTINUE_BOX, "CONTINUE", "C")
        elif t.mode is Mode.GAME_END:
            lines = self.game_end_lines()
            s.button(*AGAIN_BOX, *self.AGAIN_LABEL)
            s.button(*MENU_BOX, *self.MENU_LABEL)
        if t.arranging and t.can_arrange() and t.mode is not Mode.KNOCK_PROMPT:
            lines = (["ARRANGE: pick a card (1-0),", "then the card to put it after."]
                     if t.picked is None else [f"Put {t.picked} after which card?", "(A again: done)"])
        if t.message:
            lines = textwrap.wrap(t.message, 34)
        for i, line in enumerate(lines[:6]):
            s.text(MSG_X + 16, MSG_Y + LINE * i, self.words(line), WHITE)

    def game_end_lines(self) -> list[str]:
        """What the game's end says beside the table."""
        return game_end_lines(self.table.scores, self.ctx.config.name)

    def _draw_sheet(self) -> None:
        """The SCORE SHEET page at the game's end (a table rule's scoring, or the
        shutout doubler): each row of the sheet per column, YOU and COMPUTER, then who
        wins; PLAY AGAIN and MAIN MENU on the bottom row."""
        s = self.ctx.session.screen
        t = self.table
        opts = t.options
        sheet = t.sheet()
        title = "SCORE SHEET"
        s.text((640 - s.text_width(title, 2)) // 2, 12, title, YELLOW, 2)
        sub = SCORING_TITLES[opts.scoring] + ("  (SHUTOUT DOUBLER)" if opts.shutout else "")
        s.text((640 - s.text_width(sub)) // 2, 40, sub, LIGHTGRAY)
        n = len(sheet.columns)
        # one game: two wide columns; Hollywood: three games of two columns each
        label_x, col_w = (64, 128) if n == 1 else (24, 64)
        x0 = 288 if n == 1 else 152
        name, other = (n[:8] for n in self.names())
        y = 70
        if n > 1:
            for i in range(n):
                s.text(x0 + i * 2 * col_w + col_w - s.text_width(f"GAME {i + 1}") // 2, y,
                       f"GAME {i + 1}", YELLOW)
            y += LINE
        for j in range(2 * n):
            head = (name if j % 2 == 0 else other) if n == 1 else ("YOU" if j % 2 == 0 else self.short_name())
            s.text(x0 + j * col_w + col_w - 8 - s.text_width(head), y, head, LIGHTGRAY)
        y += LINE + 6
        rows = sheet_rows(sheet, opts)
        for label, values in rows:
            final = label == "FINAL"
            if final:
                s.line(label_x, y - 5, x0 + 2 * n * col_w - 1, y - 5, LIGHTGRAY)
            s.text(label_x, y, label, WHITE if final else LIGHTGRAY)
            for j, v in enumerate(values):
                s.text(x0 + j * col_w + col_w - 8 - s.text_width(v), y, v, WHITE)
            y += LINE + 4
        y = sheet_lines_y(n, len(rows))
        for i, line in enumerate(sheet_lines(sheet, opts)[:5]):
            line = self.words(line)
            s.text((640 - s.text_width(line)) // 2, y + LINE * i, line, YELLOW if i == 0 else WHITE)
        s.button(*SHEET_AGAIN_BOX, *self.AGAIN_LABEL)
        s.button(*SHEET_MENU_BOX, *self.MENU_LABEL)
        s.button(*SHEET_REVIEW_BOX, "REVIEW", "V")
        self._draw_save()

# ---- the table's parts, drawn alike by the game screen and the replay viewer -------------

def meld_bars(s: Screen, groups: tuple[tuple[Card, ...], ...], sets: frozenset[Card],
              order: tuple[Card, ...], y: int, x0: int = HAND_X, step: int = HAND_STEP) -> None:
    """A BLUE bar over each set, a GREEN bar over each run: one bar over each stretch
    of a meld's cards that stand side by side (a hand arranged by the player may
    split a meld)."""
    pos = {c: i for i, c in enumerate(order)}
    for g in groups:
        for first, last in stretches(sorted(pos[c] for c in g)):
            x = x0 + first * step
            w = (last - first) * step + CARD_W
            s.bar(x, y, w, 4, BLUE if g[0] in sets else GREEN)


def draw_row(s: Screen, h: HandState, drawn: Card | None, big: bool) -> None:
    """The middle row: the DECK with its count, the PILE's top, the KNOCK card, and the
    DRAWN card while one is being discarded."""
    s.text(DECK_X + 8, ROW_Y - 16, "DECK", LIGHTGRAY)      # above the deck's layers (CGA too)
    s.deck(DECK_X, ROW_Y, len(h.stock))
    s.text(PILE_X + 8, ROW_Y - 14, "PILE", LIGHTGRAY)
    if h.pile:
        s.card(PILE_X, ROW_Y, h.pile[-1], big)
    else:
        s.box(PILE_X, ROW_Y, CARD_W, CARD_H, LIGHTGRAY)
    draw_knock_card(s, h, big)
    if drawn is not None:
        s.text(DRAWN_X + 4, ROW_Y - 14, "DRAWN", LIGHTGRAY)
        s.card(DRAWN_X, ROW_Y, drawn, big)


def draw_knock_card(s: Screen, h: HandState, big: bool) -> None:
    """The knock card: the knock value (0 with knocking disabled); in Oklahoma a
    RED box around it when the first upcard is a spade. With the knock deck (a
    table rule) the card turned from that second deck, its value under it, and the
    RED box when its suit is a doubler."""
    opts = h.options
    s.text(KNOCK_X, ROW_Y - 14, "KNOCK", LIGHTGRAY)
    if opts.knock_deck and h.knock_card is not None:
        s.card(KNOCK_X, ROW_Y, h.knock_card, big)
        value = "GIN ONLY" if h.knock_value == 0 else f"VALUE {h.knock_value}"
        s.text(KNOCK_X + (CARD_W - s.text_width(value)) // 2, KNOCK_VALUE_Y, value, LIGHTGRAY)
    else:
        s.fill(KNOCK_X, ROW_Y, CARD_W, CARD_H, WHITE)
        s.box(KNOCK_X, ROW_Y, CARD_W, CARD_H, BLACK)
        label = str(h.knock_value)
        w = s.text_width(label, 3)
        s.text(KNOCK_X + (CARD_W - w) // 2, ROW_Y + 20, label, BLACK, 3)
    if opts.doubled(h.knock_card):
        s.box(KNOCK_X - 4, ROW_Y - 4, CARD_W + 8, CARD_H + 8, RED, thick=2)


def draw_result(s: Screen, r: Settlement, sort: str, big: bool) -> None:
    """Both hands face up, arranged, with their meld bars and RED layoff bars."""
    for seat, y, x0, step in ((COMPUTER, CPU_Y + 8, RESULT_X, RESULT_STEP),
                              (HUMAN, HAND_Y, HAND_X, HAND_STEP)):
        melds = r.melds[seat]
        order, laid = result_order(r, seat, sort)
        sets = frozenset(c for m in melds if len({x.rank for x in m}) == 1 for c in m)
        meld_bars(s, tuple(melds), sets, tuple(order), y - 6, x0, step)
        # "a RED bar will be drawn over (or under) all the laid off cards": over the
        # computer's row (the meld-bar row is free above laid cards), so the bar never
        # runs into the message beside it; under yours, as before.
        bar_y = y - 6 if seat == COMPUTER else y + CARD_H + 2
        for i, c in enumerate(order):
            s.card(x0 + i * step, y, c, big)
            if c in laid:
                s.bar(x0 + i * step, bar_y, CARD_W, 4, RED)


SCORING_TITLES = {"TOTAL": "RUNNING TOTAL", "BOXES": "POINT DIFFERENCE WITH BOXES",
                  "GAME_ONLY": "GAME ONLY", "FLOP": "FLOP GIN", "HOLLYWOOD": "HOLLYWOOD: THREE GAMES AT ONCE"}


def sheet_rows(sheet: ScoreSheet, opts: Options) -> list[tuple[str, list[str]]]:
    """The score sheet as rows of text: a label, then per column YOU and COMPUTER.
    Only the rows the scoring method has (docs/choices.md, "The score sheet")."""
    def row(label: str, get: Callable[[Column], tuple[object, object]]) -> tuple[str, list[str]]:
        return label, [str(v) for c in sheet.columns for v in get(c)]

    rows = [row("POINTS", lambda c: c.points)]
    if opts.boxes:
        rows.append(row("BOXES", lambda c: c.boxes))
        rows.append(row("GAME BONUS", lambda c: c.game_bonus))
        rows.append(row("BOX BONUS", lambda c: c.box_bonus))
    if opts.scoring == "GAME_ONLY":
        rows.append(row("GAME", lambda c: tuple(int(c.winner == s) for s in (HUMAN, COMPUTER))))
    if opts.shutout and opts.scoring != "FLOP":
        rows.append(row("SHUTOUT", lambda c: tuple("X2" if c.shutout and c.winner == s else "-"
                                                   for s in (HUMAN, COMPUTER))))
    rows.append(row("FINAL", lambda c: c.totals))
    return rows


def sheet_lines_y(columns: int, rows: int) -> int:
    """Where the score sheet's closing lines start: under its heads and rows."""
    return 70 + LINE * (columns > 1) + LINE + 6 + rows * (LINE + 4) + 10


def sheet_lines(sheet: ScoreSheet, opts: Options) -> list[str]:
    """What the sheet says under its rows: who wins and by how much, and why when the
    points leader loses on boxes."""
    lines = []
    if len(sheet.columns) > 1:
        lines.append(f"THREE GAMES: YOU {sheet.totals[HUMAN]}, COMPUTER {sheet.totals[COMPUTER]}.")
    if sheet.winner is None:
        lines.append("THE GAME IS A DRAW.")
    else:
        head = "YOU WIN" if sheet.winner == HUMAN else "THE COMPUTER WINS"
        lines.append(f"{head} BY {sheet.net}.")
    for i, c in enumerate(sheet.columns):
        p = c.points
        leader = None if p[0] == p[1] else (0 if p[0] > p[1] else 1)
        if opts.boxes and leader is not None and c.winner is not None and c.winner != leader:
            game = f"GAME {i + 1}: " if len(sheet.columns) > 1 else ""
            who = "YOU" if leader == HUMAN else "THE COMPUTER"
            lines.append(f"{game}{who} HAD MORE POINTS BUT LOST ON BOXES.")
    if any(c.shutout for c in sheet.columns):
        lines.append("SHUTOUT: THE WINNER'S SCORE IS DOUBLED.")
    return lines


def stretches(positions: list[int]) -> list[tuple[int, int]]:
    """Sorted positions -> (first, last) of each run of neighbours: [0,1,2,5,6] ->
    [(0, 2), (5, 6)]."""
    out: list[tuple[int, int]] = []
    for p in positions:
        if out and p == out[-1][1] + 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def dealer_shown(opts: Options) -> bool:
    """Whether the screen names the dealer: when a table rule makes the deal matter
    (the original's dealer never changes, and its screen names none)."""
    return opts.random_first or opts.winner_deals or opts.deal_eleven or opts.upcard_offer


SUIT_NAMES = ("SPADE", "HEART", "DIAMOND", "CLUB")


def result_lines(r: Settlement, name: str, opts: Options | None = None,
                 knock_card: Card | None = None, names: tuple[str, str] | None = None) -> list[str]:
    """What the hand's end says: who went out, how, and who scored what (and, under
    the table rules, the knock card's doubling and the boxes earned). With ``names``
    (the replay viewer: a record's two seats) each seat by its name, not YOU."""
    if names is not None:
        return _named(result_lines(r, name, opts, knock_card), names)
    who = {HUMAN: "YOU", COMPUTER: "THE COMPUTER"}
    if r.outcome is Outcome.DRAW and r.drawn_by is DrawnBy.PILE:
        return ["DRAW HAND: THE DISCARD PILE", f"WAS TAKEN {PILE_RUN_LIMIT} TIMES IN A", "ROW. NO SCORE."]
    if r.outcome is Outcome.DRAW:
        return ["DRAW HAND: ONLY TWO CARDS", "LEFT IN THE DECK. NO SCORE."]
    lines = []
    k = r.knocker
    if r.outcome is Outcome.GIN:
        lines.append(f"{who[k]} GOT GIN!" if k == COMPUTER else "GIN! YOU GOT GIN!")
    else:
        lines.append(f"{who[k]} KNOCKED WITH {r.deadwood[k]}.")
        if r.layoffs:
            lines.append(f"{len(r.layoffs)} CARD{'S' * (len(r.layoffs) > 1)} LAID OFF.")
        if r.outcome is Outcome.UNDERCUT:
            lines.append("UNDERCUT!")
    lines.append(f"DEADWOOD: YOU {r.deadwood[HUMAN]}, COMPUTER {r.deadwood[COMPUTER]}.")
    if r.doubled and opts is not None and opts.knock_deck:
        suit = SUIT_NAMES[knock_card.suit] if knock_card is not None else "DOUBLER"
        lines.append(f"{suit} KNOCK CARD: DOUBLED.")
    elif r.doubled:
        lines.append("SPADE UPCARD: DOUBLED.")
    score = f"{'YOU SCORE' if r.winner == HUMAN else 'COMPUTER SCORES'} {r.points}"
    if opts is not None and opts.boxes and r.boxes:
        score += f", {r.boxes} BOX{'ES' * (r.boxes > 1)}"
    lines.append(score + ".")
    return lines


def _named(lines: list[str], names: tuple[str, str]) -> list[str]:
    """The hand's end in the seats' names: "YOU KNOCKED" is "PLAYER KNOCKED", "THE
    COMPUTER SCORES" "COMPUTER SCORES", "DEADWOOD: YOU 5, COMPUTER 25." with both names."""
    you, cpu = (n.upper() for n in names)
    out = []
    for line in lines:
        if line == "GIN! YOU GOT GIN!":
            line = f"{you} GOT GIN!"
        elif line.startswith("DEADWOOD: YOU "):
            a, b = line.removeprefix("DEADWOOD: YOU ").removesuffix(".").split(", COMPUTER ")
            line = f"DEADWOOD: {you} {a}, {cpu} {b}."
        else:
            for old, new in (("YOU SCORE ", f"{you} SCORES "), ("YOU ", f"{you} "),
                             ("COMPUTER SCORES ", f"{cpu} SCORES "), ("THE COMPUTER ", f"{cpu} ")):
                if line.startswith(old):
                    line = new + line.removeprefix(old)
                    break
        out.append(line)
    return out


def game_end_lines(scores: tuple[int, int], name: str) -> list[str]:
    human, cpu = scores
    if human > cpu:
        head = "YOU WIN THE GAME!"
    elif cpu > human:
        head = "THE COMPUTER WINS."
    else:
        head = "THE GAME IS A DRAW."
    return [head, f"{human} TO {cpu}."]


__all__ = ["PlayScreen", "dealer_shown", "game_end_lines", "result_lines", "sheet_lines", "sheet_rows"]
