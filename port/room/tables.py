"""A room table: one game's driver, two seats, the move clock, the seats' numbered
streams and their absences. The table alone applies moves to its game (lila's
"round": clients only send intentions and draw what they are told).

Each seat's stream is numbered from 1 (``seq``): a message of the game (``deal``,
``event``, ``ask``, ``hand_end``) has the same number every time it is said, because
everything said follows from the rules, the seed and the moves. A client that comes
back says the last number it saw (``sync``) and gets what followed, made again by
replaying the moves (``port.room.games.replay``).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from port.room.games import DRIVERS, Driver, replay
from port.room.seat import seat_for

CHAT_KEPT = 20               # chat lines a table keeps for a player who comes back (in memory only)
STANDIN = "standard"         # who moves for a seat whose clock ran out
TIMEOUTS_TO_FORFEIT = 3      # "three in a row forfeit the game"
HAND_PAUSE = 15.0            # seconds more for the first decision after a hand's end (its result is read)
SHOWN_WAIT = 30.0            # a person's clock starts when its screen says the decision is shown, this late at most


@dataclass
class Table:
    """One game between two named seats. ``clock`` is seconds per decision (0: none)."""

    id: str
    game: str
    players: tuple[str, str]
    rules: dict[str, Any]
    seed: int
    clock: int
    driver: Driver | None                                       # None once the game is recorded
    bots: tuple[bool, bool] = (False, False)
    guests: tuple[bool, bool] = (False, False)
    seqs: list[int] = field(default_factory=lambda: [0, 0])
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    away: dict[int, float] = field(default_factory=dict)       # seat -> when its grace ends
    muted: list[bool] = field(default_factory=lambda: [False, False])
    deadline: float | None = None                               # the asked seat's clock
    asked: int | None = None
    starts: float | None = None                                 # not running yet: it starts by then at the latest
    ask_seq: list[int] = field(default_factory=lambda: [0, 0])  # each seat's last question (its seq)
    finished: dict[str, Any] | None = None                      # the result once over
    rematch: set[int] = field(default_factory=set)
    ending: tuple[str, int | None] | None = None                # a finish the store has not kept yet
    created: float = field(default_factory=time.time)
    chat: list[tuple[str, str, int | None]] = field(default_factory=list)   # (name, text, muted for seat)
    _moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def new(cls, table_id: str, game: str, players: tuple[str, str], rules: Mapping[str, Any], seed: int,
            clock: int, **kw: Any) -> Table:
        driver = DRIVERS[game](rules, seed)
        return cls(table_id, game, players, dict(rules), seed, clock, driver, **kw)

    @classmethod
    def resumed(cls, table_id: str, game: str, players: tuple[str, str], rules: Mapping[str, Any], seed: int,
                clock: int, moves: list[tuple[int, dict[str, Any]]], **kw: Any) -> Table:
        """A table made again from its stored moves; its streams numbered as they were."""
        driver = replay(game, rules, seed, moves)
        table = cls(table_id, game, players, dict(rules), seed, clock, driver, **kw)
        for seat, msg in driver.out:
            table.seqs[seat] += 1
            if msg["type"] == "ask":
                table.ask_seq[seat] = table.seqs[seat]
        driver.out = []
        return table

    def seat_of(self, name: str) -> int | None:
        low = name.lower()
        for seat in (0, 1):
            if self.players[seat].lower() == low:
                return seat
        return None

    def drain(self) -> list[tuple[int, dict[str, Any]]]:
        """The messages the last step owes each seat, numbered and tagged with the table."""
        out = []
        for seat, msg in self.driver.out:
            self.seqs[seat] += 1
            if msg["type"] == "ask":
                self.ask_seq[seat] = self.seqs[seat]
            out.append((seat, {**msg, "table": self.id, "seq": self.seqs[seat]}))
        self.driver.out = []
        return out

    @property
    def moves(self) -> list[tuple[int, dict[str, Any]]]:
        return self.driver.moves if self.driver is not None else self._moves

    def settle(self) -> None:
        """The game is recorded: keep its moves (a ``sync`` replays them), let the game's
        state go (the collector need not walk it while the table waits for a rematch)."""
        self._moves = list(self.moves)
        self.driver = None

    def since(self, seat: int, seq: int) -> list[dict[str, Any]]:
        """The seat's stream after message ``seq`` (0: all of it), made again from the moves."""
        again = replay(self.game, self.rules, self.seed, self.moves)
        out, n = [], 0
        for s, msg in again.out:
            if s == seat:
                n += 1
                if n > seq:
                    out.append({**msg, "table": self.id, "seq": n})
        return out

    def standin_move(self, seat: int) -> dict[str, Any]:
        """STANDARD's move for the seat now, as if it had sat there this hand: fed the
        seat's stream from the hand's deal, it answers the last ask."""
        from port.cribbage.levels import load_player as crib_player
        from port.ginrummy.levels import load_player as gin_player

        load: Callable[[str, int], Any] = gin_player if self.game == "ginrummy" else crib_player
        stream = [m for s, m in replay(self.game, self.rules, self.seed, self.moves).out if s == seat]
        start = max(i for i, m in enumerate(stream) if m["type"] == "deal")
        player = seat_for(self.game, load(STANDIN, self.seed ^ (seat + 1)))
        move = None
        for msg in stream[start:]:
            move = player.feed(msg)
        if move is None:
            raise RuntimeError("the stand-in was not asked")    # the table asked nobody: a bug
        return move

    def arm(self, now: float, after_hand: bool = False, shown_wait: float = SHOWN_WAIT) -> float | None:
        """Set the clock of the seat now asked (None: no clock, or nobody asked). A bot's
        runs at once; a person's starts when its screen says the question is shown
        (``show``), and ``shown_wait`` seconds after it was asked at the latest, so a
        client that never says it cannot stop its clock (docs/room.md, "The clock")."""
        self.asked = self.driver.to_move() if not self.driver.over else None
        self.starts = None
        if self.asked is None or self.clock <= 0:
            self.deadline = None
            return None
        pause = HAND_PAUSE if after_hand else 0.0
        if self.bots[self.asked]:
            self.deadline = now + self.clock + pause
        else:
            self.starts = now + shown_wait + pause
            self.deadline = self.starts + self.clock
        return self.deadline

    def show(self, seat: int, seq: int, now: float) -> bool:
        """The seat's screen shows its question ``seq``: its clock starts now (True), if
        that is the question the clock waits on (a late or stale word changes nothing)."""
        if self.starts is None or self.asked != seat or seq != self.ask_seq[seat]:
            return False
        self.starts, self.deadline = None, now + self.clock
        return True

    def seconds_left(self, now: float) -> float:
        """The asked seat's clock: all of it while it has not started."""
        if self.deadline is None:
            return 0.0
        return float(self.clock) if self.starts is not None else round(max(0.0, self.deadline - now), 1)

    def summary(self, name: str | None = None) -> dict[str, Any]:
        """The table as the lobby and a returning player see it."""
        d: dict[str, Any] = {"table": self.id, "game": self.game, "players": list(self.players),
                             "rules": self.rules, "clock": self.clock, "over": self.finished is not None}
        if name is not None:
            seat = self.seat_of(name)
            d["seat"] = seat
            if seat is not None:
                d["seq"] = self.seqs[seat]
        return d


__all__ = ["HAND_PAUSE", "SHOWN_WAIT", "STANDIN", "TIMEOUTS_TO_FORFEIT", "Table"]
