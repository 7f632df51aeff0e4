"""What Cribbage's screens share for one run: the shell's ``GameContext`` with the
CribStore, and the screen saver's wait by the score limit."""
from __future__ import annotations

from dataclasses import dataclass

from port.cribbage.files import CribStore, backend_for
from port.main.context import GameContext

# "The time of waiting is 5 minutes for a score limit of 61, and 10 minutes for a
# score limit of 121."
SAVER_SECONDS = {61: 5 * 60, 121: 10 * 60}


@dataclass
class CribContext(GameContext):
    open_store = CribStore.open
    backend_for = staticmethod(backend_for)

    def apply_display(self) -> None:
        super().apply_display()
        self.session.screen.saver.seconds = SAVER_SECONDS[self.config.score_limit]
