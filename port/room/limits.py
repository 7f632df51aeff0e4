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

# ---- accounts and logins ----------------------------------------------------------------
TOKEN_TTL = 24 * 3600.0      # a session token resumes a session this long
FAILED_PER_NAME = 5          # failed logins a name may have in a window
FAILED_PER_ADDRESS = 20      # failed logins an address may have in a window
FAILED_WINDOW = 60.0         # seconds

# ---- invitations --------------------------------------------------------------------------
INVITES_OPEN_MAX = 10        # open invitations one player may have sent

# ---- looking back (games, game, top, profile; the HTTP pages) -----------------------------
LOOK_RATE = 2                # a connection's looks a second, after a burst of
LOOK_BURST = 10              # (past it a look is refused, never waited for: moves go first)
GAMES_LISTED = 50            # a player's games in a list (HISTORY, ``games``, /players/NAME)
TOP_PAGE = 20                # a leaderboard's rows a page (``top``; the HTTP page shows 5 pages)
PROFILE_HISTORY = 20         # a profile's rating history, per game
PROFILE_GAMES = 10           # a profile's last games
PAGE_RATE = 5                # HTTP pages an address may ask for a second, after a burst of
PAGE_BURST = 20              # (past it: 429, "Too many pages: wait a moment.")
PAGE_CACHE = 256             # pages kept made (a finished game's page never changes)
PAGE_FRESH = 2.0             # seconds a page of the present (/, /top, /players) is served as made
PAGE_ADDRESSES = 10_000      # addresses whose page rate is remembered (the longest untouched go first)


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

__all__ = ["GAMES_LISTED", "INVITES_OPEN_MAX", "LOOK_BURST", "LOOK_RATE", "Limiter", "PAGE_ADDRESSES", "PAGE_BURST",
           "PAGE_CACHE", "PAGE_FRESH", "PAGE_RATE", "PROFILE_GAMES", "PROFILE_HISTORY", "RateLimit", "SEND_QUEUE",
           "TOKEN_TTL", "TOP_PAGE"]
