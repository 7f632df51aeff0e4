"""A room table: one game's driver, two seats, the move clock, the seats' numbered
streams and their absences. The table alone applies moves to its game (lila's
"round": clients only send intentions and draw what they are told).

Each seat's stream is numbered from 1 (``seq``): a message of the game (``deal``,
``event``, ``ask``, ``hand_end``) has the same number every time it is said, because
everything said follows from the rules, the seed and the moves. A client that comes
back says the last number it saw (``sync``) and gets what followed: the frames as they
were first said, kept as text (``Stream``), so a sync costs what it sends and never a
replay of the game. A table made again after a restart replays its moves once, then.
"""
from __future__ import annotations

import json
import time
import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from port.protocol import VERSION

try:      # orjson writes a frame ten times faster than json, the same text (docs/room-bench.md)
    import orjson

    def frame_text(value: Any) -> str:
        return orjson.dumps(value).decode()
except ImportError:          # pragma: no cover - a room without it writes the same frames, slower
    def frame_text(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))
from port.room.games import DRIVERS, Driver, replay
from port.room.seat import seat_for

CHAT_KEPT = 20               # chat lines a table keeps for a player who comes back (in memory only)
STANDIN = "standard"         # who moves for a seat whose clock ran out
TIMEOUTS_TO_FORFEIT = 3      # "three in a row forfeit the game"
HAND_PAUSE = 15.0            # seconds more for the first decision after a hand's end (its result is read)
SHOWN_WAIT = 30.0            # a person's clock starts when its screen says the decision is shown, this late at most
# A view's place in a frame, filled with its JSON text: no message of a game holds a
# control character (names and cards are checked), so the hole is found only where it is.
_HOLE = "\x00"
_HOLE_TEXT = json.dumps(_HOLE)
BLOCK = 32                   # frames of a stream compressed together (and a sync's page at most)


class Stream:
    """One seat's stream as it was said: each frame's JSON text, numbered from 1.

    A stream's frames repeat themselves (every one carries the seat's view: the hand,
    the options, the hand's events so far), so what is older than the hand in play is
    kept compressed, in blocks of at most ``BLOCK`` frames (zlib, about 20 to 1); the
    frames since the last block stay text. A block is closed when a hand is dealt or
    when it is full, and each frame is compressed once. Nothing here is a container
    the garbage collector walks frame by frame (bytes and str are not tracked).
    """

    __slots__ = ("blocks", "firsts", "tail", "count", "deal")

    def __init__(self) -> None:
        self.blocks: list[bytes] = []      # frames joined by newlines (JSON text has none), compressed
        self.firsts: list[int] = []        # the number of each block's first frame
        self.tail: list[str] = []          # the frames after the last block
        self.count = 0                     # the number of the last frame
        self.deal = 0                      # the number of the last deal: the hand in play begins there

    def add(self, frame: str, deal: bool = False) -> None:
        if deal or len(self.tail) >= BLOCK:
            self.seal()
        self.tail.append(frame)
        self.count += 1
        if deal:
            self.deal = self.count

    def seal(self) -> None:
        """Compress the frames said since the last block."""
        if self.tail:
            self.firsts.append(self.count - len(self.tail) + 1)
            self.blocks.append(zlib.compress("\n".join(self.tail).encode(), 1))
            self.tail = []

    def page(self, after: int, upto: int) -> list[str]:
        """Frames ``after + 1`` to ``upto`` (numbers), or the first of them: at most
        one block's (a sync sends a long stream page by page)."""
        first_of_tail = self.count - len(self.tail) + 1
        start = after + 1
        if start > upto:
            return []
        if start >= first_of_tail:
            return self.tail[start - first_of_tail:upto - first_of_tail + 1]
        i = bisect_right(self.firsts, start) - 1
        first = self.firsts[i]
        frames = zlib.decompress(self.blocks[i]).decode().split("\n")
        return frames[start - first:upto - first + 1]

    def pages(self, after: int, upto: int) -> Iterator[list[str]]:
        """Frames ``after + 1`` to ``upto``, a page at a time (each read when it is
        asked for: the stream may have been sealed meanwhile)."""
        while after < upto:
            page = self.page(after, upto)
            if not page:
                return
            yield page
            after += len(page)

    def frames(self, after: int, upto: int) -> list[str]:
        """Every frame ``after + 1`` to ``upto``."""
        return [frame for page in self.pages(after, upto) for frame in page]

    def size(self) -> int:
        """Bytes held (the compressed blocks and the text after them)."""
        return sum(len(b) for b in self.blocks) + sum(len(f) for f in self.tail)


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
    streams: list[Stream] = field(default_factory=lambda: [Stream(), Stream()])
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

    @classmethod
    def new(cls, table_id: str, game: str, players: tuple[str, str], rules: Mapping[str, Any], seed: int,
            clock: int, **kw: Any) -> Table:
        driver = DRIVERS[game](rules, seed)
        return cls(table_id, game, players, dict(rules), seed, clock, driver, **kw)

    @classmethod
    def resumed(cls, table_id: str, game: str, players: tuple[str, str], rules: Mapping[str, Any], seed: int,
                clock: int, moves: list[tuple[int, dict[str, Any]]], **kw: Any) -> Table:
        """A table made again from its stored moves: replayed once, here, its streams
        said again and kept, numbered as they were."""
        driver = replay(game, rules, seed, moves)
        table = cls(table_id, game, players, dict(rules), seed, clock, driver, **kw)
        table.drain()
        return table

    def seat_of(self, name: str) -> int | None:
        low = name.lower()
        for seat in (0, 1):
            if self.players[seat].lower() == low:
                return seat
        return None

    def drain(self) -> list[tuple[int, str, str]]:
        """What the last step owes each seat: (seat, the message's type, its frame),
        each frame numbered, tagged with the table, encoded once and kept in the
        seat's stream."""
        out = []
        streams = self.streams
        views: dict[int, str] = {}        # a view said twice in a step (its event, the ask) is written once
        for seat, msg in self.driver.out:
            stream = streams[seat]
            kind = msg["type"]
            view = msg.get("view")
            if view is None:
                frame = frame_text({"v": VERSION, **msg, "table": self.id, "seq": stream.count + 1})
            else:
                text = views.get(id(view))
                if text is None:
                    text = views[id(view)] = frame_text(view)
                frame = frame_text({"v": VERSION, **msg, "view": _HOLE, "table": self.id,
                               "seq": stream.count + 1}).replace(_HOLE_TEXT, text, 1)
            stream.add(frame, kind == "deal")
            if kind == "ask":
                self.ask_seq[seat] = stream.count
            out.append((seat, kind, frame))
        self.driver.out = []
        return out

    @property
    def moves(self) -> list[tuple[int, dict[str, Any]]]:
        """The moves made so far (none once the game is recorded and its state let go)."""
        return self.driver.moves if self.driver is not None else []

    def settle(self) -> None:
        """The game is recorded: its streams kept compressed (a ``sync`` still gets
        them), the game's state let go (the collector need not walk it while the table
        waits for a rematch)."""
        for stream in self.streams:
            stream.seal()
        self.driver = None

    def since(self, seat: int, seq: int) -> list[str]:
        """The seat's frames after message ``seq`` (0: all of it), as they were said."""
        stream = self.streams[seat]
        return stream.frames(seq, stream.count)

    def standin_move(self, seat: int) -> dict[str, Any]:
        """STANDARD's move for the seat now, as if it had sat there this hand: fed the
        seat's stream from the hand's deal, it answers the last ask. It reads the
        hand's frames, so it costs a hand, not the game."""
        from port.cribbage.levels import load_player as crib_player
        from port.ginrummy.levels import load_player as gin_player

        load: Callable[[str, int], Any] = gin_player if self.game == "ginrummy" else crib_player
        stream = self.streams[seat]
        player = seat_for(self.game, load(STANDIN, self.seed ^ (seat + 1)))
        move = None
        for frame in stream.frames(stream.deal - 1, stream.count):
            move = player.feed(json.loads(frame))
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
                d["seq"] = self.streams[seat].count
        return d


__all__ = ["BLOCK", "CHAT_KEPT", "HAND_PAUSE", "SHOWN_WAIT", "STANDIN", "Stream", "TIMEOUTS_TO_FORFEIT", "Table"]
