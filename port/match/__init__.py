"""The match runner: whole games between two players, headless, for either game.

    python -m port.match --a standard --b easy --games 2000 --seed 1
    python -m port.match --game cribbage --a expert --b standard --games 2000 --seed 1
    python -m port.match --a expert --b path/to/bot.py:ClassName --games 200 --json
    python -m port.match --players easy,standard,expert,bot.py:Mine --games 1000
    python -m port.match --a expert --b standard --games 100000 --ray [ADDRESS]
    python -m port.match --game cribbage --games 20 --records games/     # each game's record
    python -m port.match --a standard --b easy --sprt 0,50 --games 2000   # stop when the SPRT decides
    python -m port.match --gauntlet --players bot.py:Mine,easy,standard --move-time 1
    python -m port.match --a standard --b bot.py:Mine --in-process       # the bot in the worker's process

``common`` holds what both games share (seeds, seats swapped in pairs, the worker
processes, the Wilson interval); ``ginrummy`` and ``cribbage`` each play and tally
their own game and add their own options. A failing bot forfeits its game
(``guard``), a bot file plays from its own process (``isolate``), a match may stop
when an SPRT decides (``sprt``), a round robin has ratings (``ratings``), and the
records and the games' lines are written by ``outputs``. GinRummy is the default game; its names
(``run_match``, ``MatchResult``...) stay importable from here as before.
"""
from __future__ import annotations

import importlib
from typing import Any

# The command line's and GinRummy's names, loaded when first asked for: a bot's own
# process imports this package (``port.match.isolate``), and starts twice as fast
# without the runner, the round robin and the tallies it never uses.
_LAZY = {"main": "port.match.cli", "GAMES": "port.match.cli",
         **dict.fromkeys(("MatchResult", "Side", "play_one", "report", "run_match", "to_json"), "port.match.ginrummy"),
         **dict.fromkeys(("bot_seed", "game_seed", "wilson"), "port.match.common")}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'port.match' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["GAMES", "MatchResult", "Side", "bot_seed", "game_seed", "main", "play_one",
           "report", "run_match", "to_json", "wilson"]
