"""Cribbage's computer levels by name: EASY (``port.cribbage.easy``, one plain rule, as
GinRummy's EASY), STANDARD (``port.cribbage.computer``, the original's formulas) and
EXPERT (``port.cribbage.expert``), and players named by level or by bot file
("path/to/bot.py:ClassName") through the shared ``port.bots``.
"""
from __future__ import annotations

from collections.abc import Callable

from port.bots import load_bot
from port.cribbage.computer import Standard
from port.cribbage.easy import Easy
from port.cribbage.expert import Expert
from port.cribbage.rules import Player

LEVELS: dict[str, Callable[..., Player]] = {
    "easy": Easy,
    "standard": Standard,
    "expert": Expert,
}


def load_player(spec: str, seed: int = 0) -> Player:
    """A player from its name: a level ("easy", "standard", "expert") or
    "path/to/bot.py:ClassName" for any bot written to Cribbage's player interface."""
    player: Player = load_bot(spec, LEVELS, seed)
    return player


__all__ = ["LEVELS", "load_player"]
