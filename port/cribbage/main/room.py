"""Cribbage in the card room: what it hands the room's shared pages (``RoomGame``).

The invitation page lays the rules out as the options page does: SCORE LIMIT (61 or
121; its letter L, where the options page takes + and -) and SKUNKING (K).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from port.main.context import GameContext
from port.main.controller import Controller
from port.main.menus import yes_no
from port.main.roomgame import RuleRow, Rules
from port.main.roomsession import RoomSession, TableLink
from port.cribbage.main import roomplay, roomwatch

ROWS: tuple[RuleRow, ...] = (
    # "cycles the pegging board total between 121 and 61 pegs": either way flips it.
    RuleRow("SCORE LIMIT", 6, ("limit",), lambda r: str(r.get("limit", 121)),
            lambda r, back: {**r, "limit": 61 if r.get("limit", 121) == 121 else 121}),
    RuleRow("SKUNKING", "K", ("skunking",), lambda r: yes_no(bool(r.get("skunking", False))),
            lambda r, back: {**r, "skunking": not r.get("skunking", False)}),
)


@dataclass(frozen=True)
class CribRoom:
    game: str = "cribbage"
    title: str = "Cribbage"

    def rule_rows(self) -> tuple[RuleRow, ...]:
        return ROWS

    def my_rules(self, ctx: GameContext) -> Rules:
        return {"limit": ctx.config.score_limit, "skunking": ctx.config.skunking}

    def play(self, ctx: GameContext, session: RoomSession, link: TableLink,
             back: Callable[[], Controller]) -> Controller:
        if link.watching:                                   # a table watched: the screen in its watch mode
            return roomwatch.watch(ctx, session, link, back)
        return roomplay.play(ctx, session, link, back)     # the game screen playing a person

    def rules_line(self, rules: Rules) -> str:
        return f"{rules.get('limit', 121)}" + (", SKUNKS" if rules.get("skunking") else "")

    def replay(self, ctx: GameContext, text: str, back: Controller) -> Controller:
        from port.cribbage import record
        from port.cribbage.main.replay import CribReplay

        return CribReplay(ctx, record.parse(text), back)      # type: ignore[arg-type]

    def review(self, ctx: GameContext, text: str, seat: int, back: Controller) -> Controller:
        from port.cribbage import record, review
        from port.main.reviewscreen import ReviewScreen

        log = record.parse(text)

        def lines() -> list[str]:
            return review.lines(review.review(review.choices(log, seat)))

        return ReviewScreen(ctx.session, f"REVIEW: {log.names[seat]}'S DECISIONS BESIDE EXPERT'S", lines, back)


ROOM = CribRoom()

__all__ = ["ROOM", "ROWS"]
