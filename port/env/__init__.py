"""Both games as PettingZoo environments (the optional extra ``rl``), and the adapters
between PettingZoo-style policies and the games' players.

    from port.env import ginrummy_v0
    env = ginrummy_v0.env(render_mode="ansi", score_limit=0)

See docs/envs.md: the action spaces card by card, the observations, the rewards, the
options, and the adapters both ways.
"""
from __future__ import annotations

import importlib


def need(extra: str, *modules: str) -> None:
    """Import ``modules`` or stop with one plain line naming the optional extra to install."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise ImportError(f"this needs the optional extra '{extra}' ({name} is not installed): "
                              f"pip install 'ginrummy[{extra}]'") from None
