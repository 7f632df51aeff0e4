"""Both games as PettingZoo environments (the optional extra ``rl``), and our players
as policies inside them (``adapters``, ``crib_adapters``).

    from port.env import ginrummy_v0
    env = ginrummy_v0.env(render_mode="ansi", score_limit=0)

See docs/envs.md: the action spaces card by card, the observations, the rewards, the
options, and the adapters both ways.
"""
from __future__ import annotations
