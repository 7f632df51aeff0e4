"""Cribbage's replay viewer: ``cribbage replay FILE`` (docs/records.md). A game record's
steps on the game screen's own table: the pegging board with both pegs of each seat,
both hands face up, the crib, the deck and the starter, the play with its count; each
count of the show in the game's show box, each hand's scores in its scores box. The
step's record lines are beside the table; the shell's ``ReplayScreen`` moves through
the steps.

The table is drawn by the game screen's own code: ``CribReplay`` takes ``CribPlay``'s
drawing methods (the crib, the middle row, the boxes) and gives them, as the table they
read, the deal at the step (``StepTable``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from port.cards import Card
from port.cribbage.main import layout as L
from port.cribbage.main.board import draw_board
from port.cribbage.main.context import CribContext
from port.cribbage.main.layout import COMPUTER, HUMAN, LINE
from port.cribbage.main.play import CribPlay
from port.cribbage.main.table import Box, show_lines
from port.cribbage.record import GameLog, Step
from port.cribbage.rules import Act, HandState, Phase
from port.files.gamerecord import ENDINGS
from port.main.controller import Controller
from port.main.replay import ReplayScreen
from port.screen.profiles import LIGHTGRAY, LIGHTGREEN, LIGHTRED, WHITE, YELLOW


@dataclass
class StepTable:
    """What the game screen's drawing reads of its table, at a step of the record."""

    hand: HandState
    row: list[tuple[int, Card]] = field(default_factory=list)   # the count's cards on show
    count: int = 0
    pause: bool = False
    recall_note: str | None = None     # the game's LAST COUNT note: never in a replay


def row_of(h: HandState) -> tuple[list[tuple[int, Card]], int]:
    """The cards of the count on show and the count: as at the table, a count that
    ended (31, a go point) stays on show until the next card is played."""
    row: list[tuple[int, Card]] = []
    count = 0
    ended = False
    for e in h.events:
        if e.act is Act.PLAY and e.card is not None:
            if ended:
                row, ended = [], False
            row.append((e.seat, e.card))
            count = e.count
            ended = e.count == 31
        elif e.act is Act.GO_POINT:
            ended = True
        elif e.act is Act.SHOW:
            row, count = [], 0
    return row, count


class CribReplay(ReplayScreen, CribPlay):
    """A Cribbage record, one step at a time (the shell's viewer, the game's drawing)."""

    text_x = L.MSG_X + 16
    text_y = L.MSG_Y
    columns = (632 - L.MSG_X - 16) // 8
    rows = 5                    # clear of YOUR CRIB's label under them (on CGA too)
    box_y = L.LAY_AWAY_BOX.y

    def __init__(self, ctx: CribContext, log: GameLog, back: Controller | None = None) -> None:
        ReplayScreen.__init__(self, ctx, log.steps, back)
        self.log = log
        self.table = StepTable(log.steps[0].state)
        self.pegs = _pegs(log.steps)

    def step_text(self, step: Step) -> list[str]:
        return step_text(step)

    def draw_step(self, step: Step) -> None:
        s = self.ctx.session.screen
        h = step.state
        names = self.log.names
        row, count = row_of(h)
        self.table = StepTable(h, row, count)
        front, back = self.pegs[self.at]
        self._draw_names_and_scores(h)
        draw_board(s, self.log.options.limit, self.log.options.skunking, front, back)
        big = self.ctx.config.big_cards
        mover = h.to_act if h.phase in (Phase.DISCARD, Phase.PLAY) else None
        s.text(L.CPU_X, L.CPU_LABEL_Y, names[COMPUTER], YELLOW if mover == COMPUTER else LIGHTGRAY)
        s.text(L.HAND_X, L.UNDER_Y, names[HUMAN], YELLOW if mover == HUMAN else LIGHTGRAY)
        for seat in (COMPUTER, HUMAN):
            for i, c in enumerate(h.hands[seat]):
                s.card(*L.hand_slot(seat, i), c, big)
        self._draw_crib(set())
        self._draw_row(set())
        if step.kind == "show" and step.show is not None:
            entry = step.show
            role = "CRIB" if entry.what == "crib" else "HAND"
            self._draw_box(Box(f"{names[entry.seat]}'S {role}".upper(), show_lines(entry), show=entry))
        elif step.kind == "end":
            self._draw_box(self._end_box(step))

    def _crib_label(self, dealer: int) -> str:
        """The game screen's label; "YOUR CRIB" only when seat 0 is the person who saved
        the game (a match's record has no "you")."""
        mine = dealer == HUMAN and self.log.meta.roles[HUMAN] == "human"
        return "YOUR CRIB" if mine else "CRIB"

    def _end_box(self, step: Step) -> Box:
        """The hand's scores box, as the game shows it; after the last, the result."""
        names = self.log.names
        h = step.state
        you, cpu = h.scores
        ending = self.log.ending
        if step is self.steps[-1] and ending is not None:
            words = ENDINGS[ending.how].upper()
            return Box("GAME OVER", [f"{names[ending.winner][:16].upper()} WINS:",
                                     f"{names[ending.loser][:16].upper()}", f"{words}", f"IN HAND {step.hand}."])
        if step is self.steps[-1] and self.log.over:
            w = h.winner
            assert w is not None
            lines = [f"{names[w]} WINS {h.scores[w]} TO {h.scores[1 - w]}."]
            if self.log.skunk:
                lines.append("A SKUNK: IT COUNTS AS TWO GAMES.")
            return Box("GAME OVER", lines)
        return Box(f"AFTER HAND {step.hand}", [f"{names[HUMAN][:8]:<8}  {you:>3}",
                                               f"{names[COMPUTER][:8]:<8}  {cpu:>3}",
                                               f"TO {self.log.options.limit}"])

    def _draw_names_and_scores(self, h: HandState) -> None:
        s = self.ctx.session.screen
        names = self.log.names
        s.text(L.SCORES_X, L.SCORES_Y, f"{names[COMPUTER][:8]:<8}  {h.scores[COMPUTER]:>3}", LIGHTRED)
        s.text(L.SCORES_X, L.SCORES_Y + LINE, f"{names[HUMAN][:8]:<8}  {h.scores[HUMAN]:>3}", LIGHTGREEN)
        s.text(L.SCORES_X, L.SCORES_Y + 2 * LINE, f"{'LIMIT':<8}  {self.log.options.limit:>3}", LIGHTGRAY)
        s.text(L.SCORES_X, L.SCORES_Y + 3 * LINE + 4, f"{names[h.dealer][:8]} DEALS", WHITE)


def step_text(step: Step) -> list[str]:
    """The record's lines of a step shown beside the table: a deal says who deals (the
    hands are on the table); a show's and a hand's end's words are in their box."""
    if step.kind in ("show", "end"):
        return []
    if step.kind == "deal":
        return [step.lines[0]]
    return list(step.lines)


def _pegs(steps: list[Step]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Each step's front and back pegs: the back peg where the front one stood before
    the seat's last points (the board's leapfrog)."""
    front, back = [0, 0], [0, 0]
    out = []
    for st in steps:
        for seat in (0, 1):
            score = st.state.scores[seat]
            if score != front[seat]:
                back[seat], front[seat] = front[seat], score
        out.append(((front[0], front[1]), (back[0], back[1])))
    return out


__all__ = ["CribReplay", "StepTable", "row_of", "step_text"]
