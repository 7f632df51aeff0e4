"""GinRummy's replay viewer: ``ginrummy replay FILE`` (docs/records.md). A game record's
steps on the game screen's own table: both hands face up, arranged melds first with
their BLUE and GREEN bars, the deck, the pile and the knock card, the card being
discarded in the DRAWN place, the scores; at each hand's end both hands as the game
shows them then, with the RED layoff bars. The step's record lines are beside the
table; the shell's ``ReplayScreen`` moves through the steps."""
from __future__ import annotations

from port.ginrummy.main.context import Context
from port.ginrummy.main.play import (
    CARD_H, CPU_Y, HAND_STEP, HAND_X, HAND_Y, LINE, PILE_X, RESULT_STEP, RESULT_X, ROW_Y, SCORE_X, CARD_W,
    draw_result, draw_row, meld_bars, result_lines,
)
from port.ginrummy.main.table import shown_hand
from port.ginrummy.record import GameLog, Step
from port.ginrummy.rules import Act, Phase
from port.main.controller import Controller
from port.main.replay import ReplayScreen
from port.screen.profiles import LIGHTGRAY, RED, WHITE, YELLOW

TOP_Y = CPU_Y + 8                # seat 1's row, where the hand's end shows it
ELEVEN_STEP = 45                 # seat 1's eleven cards (the deal of eleven) clear of the scores


class GinReplay(ReplayScreen):
    """A GinRummy record, one step at a time."""

    # A hand's end says as much as the game did (up to six lines, with the table
    # rules' doubling and boxes), then the game's result: eight rows, above the hand's
    # meld bars.
    rows = 8

    def __init__(self, ctx: Context, log: GameLog, back: Controller | None = None) -> None:
        super().__init__(ctx, log.steps, back)
        self.log = log

    def step_text(self, step: Step) -> list[str]:
        return step_text(step, self.log.names)

    def draw_step(self, step: Step) -> None:
        s = self.ctx.session.screen
        cfg = self.ctx.config
        h = step.state
        names = self.log.names
        self._draw_scores(step)
        mover = h.to_move if h.phase is not Phase.OVER else None
        for seat, x, y in ((1, RESULT_X, 2), (0, HAND_X, HAND_Y + CARD_H + 6)):
            s.text(x, y, names[seat], YELLOW if seat == mover else LIGHTGRAY)
        drawn = h.drawn if h.phase is Phase.DISCARD else None
        if h.phase is Phase.OVER and h.result is not None:
            draw_result(s, h.result, cfg.sort, cfg.big_cards)
        else:
            for seat, x0, y, pitch in ((1, RESULT_X, TOP_Y, RESULT_STEP), (0, HAND_X, HAND_Y, HAND_STEP)):
                cards = [c for c in h.hand(seat) if not (seat == h.to_move and c == drawn)]
                shown = shown_hand(cards, cfg.sort)
                if seat == 1 and len(shown.cards) > 10:
                    pitch = ELEVEN_STEP
                meld_bars(s, shown.groups, shown.sets, shown.cards, y - 6, x0, pitch)
                for i, c in enumerate(shown.cards):
                    s.card(x0 + i * pitch, y, c, cfg.big_cards)
        draw_row(s, h, drawn, cfg.big_cards)
        if step.action is not None and step.action.act is Act.DRAW_PILE:
            s.bar(PILE_X, ROW_Y - 22, CARD_W, 5, RED)     # "a RED bar ... over the discard pile"

    def _draw_scores(self, step: Step) -> None:
        s = self.ctx.session.screen
        names = self.log.names
        for seat in (0, 1):
            s.text(SCORE_X, 20 + seat * LINE, f"{names[seat][:8]:<8}{step.scores[seat]:>5}", WHITE)
        s.text(SCORE_X, 20 + 2 * LINE, f"{'LIMIT':<8}{self.log.options.score_limit:>5}", LIGHTGRAY)
        if self.log.options.boxes:
            s.text(SCORE_X, 20 + 3 * LINE, f"BOXES {step.boxes[0]} TO {step.boxes[1]}", WHITE)


def step_text(step: Step, names: tuple[str, str]) -> list[str]:
    """The record's lines of a step shown beside the table: a deal says who deals and
    the upcard (the hands are on the table, the stock too long to read), a move all it
    says, a hand's end what the game said there (who went out and how, the lay-offs,
    both deadwoods, a doubling, the score: ``result_lines`` in the seats' names; the
    melds are on the table), then after the last hand the record's Result line."""
    if step.kind == "deal":
        return [line for line in step.lines
                if not line.startswith(("Stock", *(f"{n} is dealt: " for n in names)))]
    h = step.state
    if step.kind == "end" and h.result is not None:
        said = result_lines(h.result, names[0], h.options, h.knock_card, names=names)
        return said + [line for line in step.lines if line.startswith("Result: ")]
    if step.kind == "end":
        return [line for line in step.lines if not line.startswith(tuple(f"{n} shows " for n in names))]
    return list(step.lines)


__all__ = ["GinReplay", "step_text"]
