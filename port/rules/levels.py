"""GinRummy's computer levels by name: EASY, STANDARD (``port.rules.computer``) and
EXPERT (``port.rules.expert``), and players named by level or by bot file.

A module of its own so that the player interface, STANDARD and EXPERT each import
only what lies below them (no two modules import each other).
"""
from __future__ import annotations

from collections.abc import Callable

from port.bots import load_bot
from port.rules.computer import Easy, Standard
from port.rules.expert import Expert
from port.rules.players import Player

LEVELS: dict[str, Callable[..., Player]] = {
    "easy": Easy,
    "standard": Standard,
    "expert": Expert,
}


def computer_for(easy: bool, level: str = "standard", seed: int = 0) -> Player:
    """The computer opponent for the game's options: the original's EASY YES/NO
    option wins over the added level."""
    return Easy(seed=seed) if easy else LEVELS[level](seed=seed)


def load_player(spec: str, seed: int = 0) -> Player:
    """A player from its name: a level ("easy", "standard", "expert") or
    "path/to/bot.py:ClassName" for any bot written to the player interface.
    "path/to/bot.py:name" naming a function or object is returned as it is (a policy:
    ``port.match`` and the game wrap it with ``port.env.adapters.as_player``)."""
    player: Player = load_bot(spec, LEVELS, seed)
    return player


__all__ = ["LEVELS", "computer_for", "load_player"]
