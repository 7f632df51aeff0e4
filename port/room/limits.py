"""What a connection, an address and an account may do in the room, and how fast: one
place to read every limit (docs/room.md, "Limits").

Each limit answers the question the room asks of every message: what can one client make
the room spend (time on the event loop, memory, descriptors, disk, accounts, the other
players' attention)? The numbers are here; the parts of the room that apply them import
them from here.
"""
from __future__ import annotations

from collections import OrderedDict

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

# ---- connections ---------------------------------------------------------------------------
CONNECTIONS_PER_ADDRESS = 16 # open connections from one address (--connections-per-address)
LOGIN_WITHIN = 10.0          # seconds a connection has to log in before it is closed (--login-time)
DESCRIPTORS_LOOK = 1.0       # seconds between counts of the open descriptors
DESCRIPTORS_SPARE = 4        # open descriptors this close to the limit: out of them, said
NO_DESCRIPTORS_SAID = 60.0   # "out of file descriptors" is logged once in this many seconds

# ---- accounts and logins ----------------------------------------------------------------
TOKEN_TTL = 24 * 3600.0      # a session token resumes a session this long
REGISTERS_PER_ADDRESS = 30   # new accounts one address may make a minute (each costs a password hash)
FREE_FAILURES = 5            # failed logins of a name (or from an address) before the delays start
FIRST_DELAY = 1.0            # seconds after the FREE_FAILURES-th failure; each failure more doubles it
LONGEST_DELAY = 300.0        # the delay grows no longer than this
FORGET_FAILURES = 3600.0     # a name's (an address's) failures are forgotten after this long without one
PAIR_FREE_FAILURES = 10      # a name from an address it logged in from before: its own, more lenient count
KNOWN_PAIRS = 100_000        # (name, address) pairs remembered as known (the oldest forgotten first)
THROTTLED_KEYS = 10_000      # names (addresses) whose failures are kept (the oldest forgotten first)

# ---- guests ---------------------------------------------------------------------------------
GUESTS_PER_ADDRESS = 10      # new guests one address may make a minute (all at once, or one each 6 s)
GUESTS_ROOM = 60             # new guests the whole room makes at once, then
GUESTS_ROOM_RATE = 10.0      # this many a second

# ---- invitations --------------------------------------------------------------------------
INVITES_OPEN_MAX = 10        # open invitations one player may have sent
INVITES_WAITING_MAX = 10     # open invitations one player may have waiting for its answer
INVITES_RECEIVED = 30        # invitations one player may receive at once, then
INVITES_RECEIVED_RATE = 0.5  # this many a second (30 a minute)

# ---- house bots, PLAY NOW, blocks (issue 38, section 1) -------------------------------
HOUSE_TABLES = 100           # running tables one house bot (one level) holds at once in one process
HOUSE_TABLES_PER_PLAYER = 2  # running tables with the house bots one player may have at once
HOUSE_NICE = 10              # the house's worker process runs at this niceness: the room's own process comes first
HOUSE_CPU_SHARE = 0.5        # of one core, at most, the house's worker takes (it sleeps off any more)
HOUSE_RESTART = 5.0          # seconds between starts of a house worker that died
SEEK_WAIT = 15.0             # seconds a seek waits for a person before the house bot plays (--seek-wait)
SEEK_LONGEST = 600.0         # with no house bot to fall back on, a seek ends after this long
BLOCKS_MAX = 500             # players one player may block

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

# ---- watching (port/room/watch.py) ------------------------------------------------------------
WATCHERS_MAX = 100           # watchers at one table (each move is one more frame queued for each)
WATCHED_MAX = 4              # tables one player watches at once
WATCH_STARTS = 10            # new watches one address may start at once, then
WATCH_STARTS_RATE = 10 / 60  # this many a second (10 a minute): each sends a game's stream so far


class Backoff:
    """Failures per key, and when the key may try again: after ``free`` failures each
    failure more doubles the wait, from ``first`` seconds up to ``longest`` (exponential
    backoff, applied to whoever fails). A key with no failure for ``forget`` seconds
    starts again from nothing; at most ``keys`` keys are kept (the longest untouched goes
    first), so an attacker's many names cost bounded memory."""

    def __init__(self, free: int = FREE_FAILURES, first: float = FIRST_DELAY, longest: float = LONGEST_DELAY,
                 forget: float = FORGET_FAILURES, keys: int = THROTTLED_KEYS) -> None:
        self.free, self.first, self.longest, self.forget, self.keys = free, first, longest, forget, keys
        self._state: OrderedDict[str, tuple[int, float, float]] = OrderedDict()   # failures, last, next try

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        state = self._state.get(key)
        if state is None:
            return 0.0
        if now - state[1] > self.forget:
            del self._state[key]
            return 0.0
        return max(0.0, state[2] - now)

    def failed(self, key: str, now: float) -> None:
        failures, last, _ = self._state.get(key, (0, now, now))
        failures = 1 if now - last > self.forget else failures + 1
        delay = 0.0 if failures < self.free else min(self.longest, self.first * 2.0 ** (failures - self.free))
        self._state[key] = (failures, now, now + delay)
        self._state.move_to_end(key)
        while len(self._state) > self.keys:
            self._state.popitem(last=False)

    def clear(self, key: str) -> None:
        self._state.pop(key, None)


class Limiter:
    """The door's throttle: failed logins per name, per address and per (name, address),
    each with its growing delay (``Backoff``). Nobody is locked out: a try that comes
    from a known place (an address that logged in to the name before, or a session
    token of the account) is held only by its own (name, address) count, so a guesser
    elsewhere delays only itself and the unknown places trying that name; and the
    delays end (``LONGEST_DELAY`` at most, forgotten after ``FORGET_FAILURES``)."""

    def __init__(self, free: int = FREE_FAILURES, first: float = FIRST_DELAY, longest: float = LONGEST_DELAY,
                 forget: float = FORGET_FAILURES, keys: int = THROTTLED_KEYS, known: int = KNOWN_PAIRS) -> None:
        self._names = Backoff(free, first, longest, forget, keys)
        self._addresses = Backoff(free, first, longest, forget, keys)
        self._pairs = Backoff(max(free, PAIR_FREE_FAILURES), first, longest, forget, keys)
        self._known: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._known_max = known

    def knows(self, name: str, address: str) -> bool:
        return (name.lower(), address) in self._known

    def wait(self, name: str, address: str, now: float, known: bool = False) -> tuple[float, str]:
        """(seconds to wait, what holds the try: "name", "address" or "" ) for a login
        of ``name`` from ``address``; ``known``: the try shows a session token of the
        account. (0, "") lets it through."""
        pair = self._pairs.wait(_pair(name, address), now)
        if known or self.knows(name, address):
            return (pair, "name") if pair > 0 else (0.0, "")
        waits = [(self._addresses.wait(address, now), "address"), (self._names.wait(name.lower(), now), "name"),
                 (pair, "name")]
        return max(waits)

    def failed(self, name: str, address: str, now: float) -> None:
        self._names.failed(name.lower(), now)
        self._addresses.failed(address, now)
        self._pairs.failed(_pair(name, address), now)

    def succeeded(self, name: str, address: str) -> None:
        """The address is known for the name from now on, and its own count forgiven;
        the name's and the address's counts stay (one good account must not let an
        address go on guessing others, nor the owner's login reset a guesser's delay)."""
        key = (name.lower(), address)
        self._known[key] = None
        self._known.move_to_end(key)
        while len(self._known) > self._known_max:
            self._known.popitem(last=False)
        self._pairs.clear(_pair(name, address))


def _pair(name: str, address: str) -> str:
    return f"{name.lower()}\n{address}"


class Bucket:
    """A token bucket per key: ``burst`` at once, then ``rate`` a second, for at most
    ``keys`` keys (a key forgotten is a full bucket again: the oldest go first)."""

    def __init__(self, burst: int, rate: float, keys: int = THROTTLED_KEYS) -> None:
        self.burst, self.rate, self.keys = burst, rate, keys
        self._state: OrderedDict[str, tuple[float, float]] = OrderedDict()    # tokens, when

    def take(self, key: str, now: float) -> bool:
        tokens, then = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - then) * self.rate)
        ok = tokens >= 1
        self._state[key] = (tokens - 1 if ok else tokens, now)
        self._state.move_to_end(key)
        while len(self._state) > self.keys:
            self._state.popitem(last=False)
        return ok

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``take`` would say yes."""
        tokens, then = self._state.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - then) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


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


__all__ = ["ANSWER_BURST", "ANSWER_RATE", "BLOCKS_MAX", "Backoff", "Bucket", "CONNECTIONS_PER_ADDRESS",
           "GAMES_LISTED", "HOUSE_CPU_SHARE", "HOUSE_NICE", "HOUSE_RESTART", "HOUSE_TABLES",
           "HOUSE_TABLES_PER_PLAYER", "INVITES_OPEN_MAX", "INVITES_WAITING_MAX", "LOGIN_WITHIN", "LOOK_BURST",
           "LOOK_RATE", "Limiter", "PAGE_ADDRESSES", "PAGE_BURST", "PAGE_CACHE", "PAGE_FRESH", "PAGE_RATE",
           "PROFILE_GAMES", "PROFILE_HISTORY", "RateLimit", "SEEK_LONGEST", "SEEK_WAIT", "SEND_QUEUE", "SYNC_QUEUE",
           "SendBudget", "TOKEN_TTL", "TOP_PAGE", "WATCHED_MAX", "WATCHERS_MAX", "WATCH_STARTS", "WATCH_STARTS_RATE"]
