"""What a game gives the room's shared pages: its rules as the invitation page lays
them out, the player's own rules to start an invitation from, and its room game screen.

The pages (connection, lobby, invitation: ``port.main.roompages``) are shared and know
no game; each game hands them one ``RoomGame`` (``port.ginrummy.main.room.ROOM``,
``port.cribbage.main.room.ROOM``), as it hands the shell its ``Game``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from port.main.context import GameContext
from port.main.controller import Controller
from port.main.roomsession import RoomSession, TableLink

Rules = dict[str, Any]          # an invitation's rules, by the engine's option names


@dataclass(frozen=True)
class RuleRow:
    """One rule on the invitation page, laid out as the game's options and TABLE RULES
    pages lay it out: a label with its hot letter (a letter, or its index in the label),
    the rule fields it shows (``keys``: highlighted when the other player changed one),
    its value as text, and the next value (``back``: the previous one, right button)."""

    label: str
    hot: str | int
    keys: tuple[str, ...]
    value: Callable[[Rules], str]
    change: Callable[[Rules, bool], Rules]


class RoomGame(Protocol):
    game: str                    # the room's name of the game: "ginrummy", "cribbage"
    title: str                   # as the pages say it: "GinRummy", "Cribbage"

    def rule_rows(self) -> tuple[RuleRow, ...]:
        """The game's rules on the invitation page (the move clock and hints are the pages')."""
        ...

    def my_rules(self, ctx: GameContext) -> Rules:
        """The player's own rules (the options and table rules in force) as room rules."""
        ...

    def play(self, ctx: GameContext, session: RoomSession, link: TableLink,
             back: Callable[[], Controller]) -> Controller:
        """The game screen playing the person at ``link``'s table; ``back`` is the lobby."""
        ...

    def rules_line(self, rules: Rules) -> str:
        """A finished game's rules in a few words for HISTORY ("100, OKLAHOMA")."""
        ...

    def replay(self, ctx: GameContext, text: str, back: Controller) -> Controller:
        """The game's replay viewer on a record's text; QUIT goes ``back``. A record the
        game cannot read raises ``ValueError`` (its sentence)."""
        ...

    def review(self, ctx: GameContext, text: str, seat: int, back: Controller) -> Controller:
        """The review screen of ``seat``'s decisions in a record's text beside EXPERT's."""
        ...


__all__ = ["RoomGame", "RuleRow", "Rules"]
