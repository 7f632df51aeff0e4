"""What a connection, an address and an account may do in the room, and how fast: one
place to read every limit (docs/room.md, "Limits").

Each limit answers the question the room asks of every message: what can one client make
the room spend (time on the event loop, memory, descriptors, disk, accounts, the other
players' attention)? The numbers are here; the parts of the room that apply them import
them from here.
"""
from __future__ import annotations

from collections import OrderedDict, deque

# ---- messages and sending -------------------------------------------------------------
SEND_QUEUE = 2000            # messages waiting for one slow client before it is let go
MESSAGE_RATE = 20            # a connection's messages a second, after a burst of
MESSAGE_BURST = 40
# A connection's answers (a sync's stream, the lobby, a record) are paid for in bytes:
# past this rate, after this burst, its next page and its next message wait their turn
# (``SendBudget``), so no connection takes more than its share of the event loop.
ANSWER_RATE = 1_000_000      # bytes a second
ANSWER_BURST = 2_000_000     # bytes at once
SYNC_QUEUE = SEND_QUEUE // 2  # a sync's pages fill a connection's queue this far, no further

# ---- accounts and logins ----------------------------------------------------------------
TOKEN_TTL = 24 * 3600.0      # a session token resumes a session this long
FAILED_PER_NAME = 5          # failed logins a name may have in a window
FAILED_PER_ADDRESS = 20      # failed logins an address may have in a window
FAILED_WINDOW = 60.0         # seconds

# ---- invitations --------------------------------------------------------------------------
INVITES_OPEN_MAX = 10        # open invitations one player may have sent


class _Window:
    """Failures per key in the last ``window`` seconds, for at most ``keys`` keys (the
    longest untouched key goes first), so an attacker's many names cost bounded memory."""

    def __init__(self, limit: int, window: float, keys: int) -> None:
        self.limit, self.window, self.keys = limit, window, keys
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def count(self, key: str, now: float) -> int:
        times = self._times.get(key)
        if times is None:
            return 0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._times[key]
            return 0
        return len(times)

    def full(self, key: str, now: float) -> bool:
        return self.count(key, now) >= self.limit

    def add(self, key: str, now: float) -> None:
        self.count(key, now)
        times = self._times.setdefault(key, deque(maxlen=self.limit))
        times.append(now)
        self._times.move_to_end(key)
        while len(self._times) > self.keys:
            self._times.popitem(last=False)

    def clear(self, key: str) -> None:
        self._times.pop(key, None)


class Limiter:
    """Failed logins in a sliding window, per name and per address: past ``per_name``
    failures for a name, or ``per_address`` from an address, within ``window`` seconds,
    ``allow`` says no until the oldest falls out of the window."""

    def __init__(self, per_name: int = FAILED_PER_NAME, per_address: int = FAILED_PER_ADDRESS,
                 window: float = FAILED_WINDOW,
                 keys: int = 10_000) -> None:
        self._names = _Window(per_name, window, keys)
        self._addresses = _Window(per_address, window, keys)

    def allow(self, name: str, address: str, now: float) -> bool:
        return not self._names.full(name.lower(), now) and not self._addresses.full(address, now)

    def failed(self, name: str, address: str, now: float) -> None:
        self._names.add(name.lower(), now)
        self._addresses.add(address, now)

    def succeeded(self, name: str, address: str) -> None:
        """The name's failures are forgiven; the address's stay (one good account must
        not let an address go on guessing others)."""
        self._names.clear(name.lower())


class RateLimit:
    """A token bucket for one connection's messages: ``burst`` at once, then ``rate``
    a second."""

    def __init__(self, rate: float = MESSAGE_RATE, burst: int = MESSAGE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self._tokens = float(burst)
        self._last: float | None = None

    def allow(self, now: float) -> bool:
        if self._last is not None and now > self._last:
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        if self._last is None or now > self._last:
            self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next message is allowed (after ``allow`` said no)."""
        return max(0.0, (1 - self._tokens) / self.rate)


class SendBudget:
    """A token bucket in bytes for one connection's answers: ``burst`` at once, then
    ``rate`` a second. Spending may overdraw it; ``wait`` says how long until it is
    back to zero."""

    def __init__(self, rate: float = ANSWER_RATE, burst: float = ANSWER_BURST) -> None:
        self.rate, self.burst = rate, burst
        self._bytes = float(burst)
        self._last: float | None = None

    def _refill(self, now: float) -> None:
        if self._last is not None and now > self._last:
            self._bytes = min(self.burst, self._bytes + (now - self._last) * self.rate)
        if self._last is None or now > self._last:
            self._last = now

    def spend(self, n: int, now: float) -> None:
        self._refill(now)
        self._bytes -= n

    def wait(self, now: float) -> float:
        """Seconds until the budget is paid back (0: it is not overdrawn)."""
        self._refill(now)
        return max(0.0, -self._bytes / self.rate)


__all__ = ["ANSWER_BURST", "ANSWER_RATE", "INVITES_OPEN_MAX", "Limiter", "RateLimit", "SEND_QUEUE", "SYNC_QUEUE",
           "SendBudget", "TOKEN_TTL"]
