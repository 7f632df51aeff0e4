"""Both games as OpenSpiel games (the optional extra ``openspiel``: ``pip install
'ginrummy[openspiel]'``), so that OpenSpiel's algorithms (ISMCTS, MCTS, CFR, ...)
run on the port's own rules:

    import pyspiel
    import port.openspiel
    game = pyspiel.load_game("python_port_cribbage")       # or "python_port_ginrummy"

Importing it registers ``python_port_ginrummy`` and ``python_port_cribbage``
(``port.openspiel.games``), and ``python_port_cribbage_pegging``, a small cut of
Cribbage for tabular CFR: the pegging endgame (``port.openspiel.pegging``). It sits on top, beside ``port.env``: it imports the games
and nothing below imports it (docs/design.md). docs/envs.md, "OpenSpiel".
"""
from __future__ import annotations

from port.openspiel import pegging
from port.openspiel.games import CRIB_NAME, GIN_NAME, register

PEGGING_NAME = pegging.NAME

register()
pegging.register()

__all__ = ["CRIB_NAME", "GIN_NAME", "PEGGING_NAME", "register"]
