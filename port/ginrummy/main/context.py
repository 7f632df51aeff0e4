"""What GinRummy's screens share for one run: the shell's ``GameContext`` (the files,
today's date for the high scores and records) with the Store, the saver's wait by the
score limit and the computer player."""
from __future__ import annotations

from dataclasses import dataclass

from port.ginrummy import files
from port.ginrummy.levels import computer_for, load_player
from port.ginrummy.rules.players import Player
from port.main.context import GameContext


@dataclass
class Context(GameContext):
    open_store = files.Store.open
    backend_for = staticmethod(files.backend_for)

    def apply_display(self) -> None:
        """The pointer shape, and the score limit that sets the screen saver's wait
        ("two seconds per score limit point")."""
        super().apply_display()
        self.session.screen.saver.score_limit = self.config.score_limit

    def computer(self) -> Player:
        seed = 0 if self.seed is None else self.seed
        spec = self.session.launch.computer
        if spec is not None:
            # --computer: a bot file's player, or a PettingZoo-style policy as a player.
            return load_player(spec, seed=seed + self.games)
        return computer_for(self.config.easy, self.config.level.lower(), seed=seed + self.games)
