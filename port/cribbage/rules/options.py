"""Cribbage's options that change the rules: the score limit and skunking."""
from __future__ import annotations

from dataclasses import dataclass

from port.checks import IllegalMove, check_flag, check_whole

LIMITS = (121, 61)   # the documentation: SCORE LIMIT cycles between 121 and 61
SKUNK_MARGIN = 30    # "the skunk point (limit - 30)"


@dataclass(frozen=True)
class Options:
    """``limit``: the score that wins (121 or 61). ``skunking``: a loser below the
    skunk line loses by a skunk, which counts as two wins."""

    limit: int = 121
    skunking: bool = False

    def __post_init__(self) -> None:
        # Refused with the engine's own error (a BadArgument for a float, a bool or a
        # string; an IllegalMove for another number), before any game starts.
        if check_whole(self.limit, "set the options", "the score limit") not in LIMITS:
            raise IllegalMove(f"cannot set the options: the score limit is 121 or 61, not {self.limit}")
        check_flag(self.skunking, "set the options", "skunking")

    @property
    def skunk_line(self) -> int:
        """The least score that escapes a skunk: 91 for 121, 31 for 61 (the
        documentation: the line is "after the 90th hole", "after the 30th")."""
        return self.limit - SKUNK_MARGIN

    def is_skunk(self, loser_score: int) -> bool:
        """Whether a game lost with ``loser_score`` is a skunk under these options."""
        return self.skunking and loser_score < self.skunk_line
