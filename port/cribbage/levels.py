"""Cribbage's computer levels by name: EASY (``port.cribbage.easy``, one plain rule, as
GinRummy's EASY), STANDARD (``port.cribbage.computer``, the original's formulas) and
EXPERT (``port.cribbage.expert``), and players named by level or by bot file
("path/to/bot.py:ClassName") through the shared ``port.bots``.
"""
from __future__ import annotations

from collections.abc import Callable

from port.bots import load_bot
from port.extras import need
from port.cribbage.computer import Standard
from port.cribbage.easy import Easy
from port.cribbage.expert import Expert
from port.cribbage.rules import Player


def policy_level(seed: int = 0) -> Player:
    """The ``policy`` level: the network shipped with the game (``port.cribbage.policy``),
    played with numpy (the optional extra 'rl'; without it, one line naming the extra).
    Imported here, when asked for, so that the rules core never imports numpy."""
    need("rl", "numpy")
    from port.cribbage.policy import Policy

    return Policy(seed=seed)


LEVELS: dict[str, Callable[..., Player]] = {
    "easy": Easy,
    "standard": Standard,
    "expert": Expert,
    "policy": policy_level,
}


def load_player(spec: str, seed: int = 0) -> Player:
    """A player from its name: a level ("easy", "standard", "expert") or "path/to/bot.py:Name"
    for any bot written to Cribbage's player interface. A Name that is not a ``Player``
    is a PettingZoo-style policy, wrapped as one by ``port.cribbage.spaces.PolicyPlayer``
    (its arrays need the optional extra 'rl')."""
    bot = load_bot(spec, LEVELS, seed)
    if isinstance(bot, Player):
        return bot
    need("rl", "numpy")
    from port.cribbage.spaces import PolicyPlayer

    return PolicyPlayer(bot, spec.rpartition(":")[2])


__all__ = ["LEVELS", "load_player"]
