"""GinRummy's computer levels by name: EASY, STANDARD (``port.ginrummy.computer``) and
EXPERT (``port.ginrummy.expert``), and players named by level or by bot file.

A module of its own so that the player interface, STANDARD and EXPERT each import
only what lies below them (no two modules import each other).
"""
from __future__ import annotations

from collections.abc import Callable

from port.bots import load_bot
from port.extras import need
from port.ginrummy.computer import Easy, Standard
from port.ginrummy.expert import Expert
from port.ginrummy.rules.players import Player


def policy_level(seed: int = 0) -> Player:
    """The ``policy`` level: the network shipped with the game (``port.ginrummy.policy``),
    played with numpy (the optional extra 'rl'; without it, one line naming the extra).
    Imported here, when asked for, so that the rules core never imports numpy."""
    need("rl", "numpy")
    from port.ginrummy.policy import Policy

    return Policy(seed=seed)


LEVELS: dict[str, Callable[..., Player]] = {
    "easy": Easy,
    "standard": Standard,
    "expert": Expert,
    "policy": policy_level,
}


def computer_for(easy: bool, level: str = "standard", seed: int = 0) -> Player:
    """The computer opponent for the game's options: the original's EASY YES/NO
    option wins over the added level."""
    return Easy(seed=seed) if easy else LEVELS[level](seed=seed)


def load_player(spec: str, seed: int = 0) -> Player:
    """A player from its name: a level ("easy", "standard", "expert") or
    "path/to/bot.py:Name" for any bot written to the player interface. A Name that is
    not a ``Player`` is a PettingZoo-style policy, wrapped as one by
    ``port.ginrummy.spaces.PolicyPlayer`` (its arrays need the optional extra 'rl')."""
    bot = load_bot(spec, LEVELS, seed)
    if isinstance(bot, Player):
        return bot
    need("rl", "numpy")
    from port.ginrummy.spaces import PolicyPlayer

    return PolicyPlayer(bot, spec.rpartition(":")[2])


__all__ = ["LEVELS", "computer_for", "load_player"]
