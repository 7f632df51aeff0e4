"""The room's accounts: names, passwords, session tokens and the limits on logins and
messages. The store keeps what these make (``port.room.store``); nothing here keeps a
password or a token itself, only their hashes.

- A password is kept as its scrypt hash (n=2**14, r=8, p=1: about 16 MB and some tens of
  milliseconds per try, the parameters Python's documentation and RFC 7914 give for
  interactive logins) with a random 16-byte salt per account, compared in constant time.
- A session token is 24 random bytes (``secrets.token_urlsafe``); the store keeps only
  its SHA-256, so a copy of the database opens no session.
- A name follows the games' own NAME field (``port.files.players.NAME_CHARS``: letters,
  digits, ! " - : / ? and spaces), 1 to 16 characters, no space at either end.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Protocol

from port.files.players import NAME_CHARS

NAME_LONGEST = 16
SALT_BYTES = 16
SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
TOKEN_BYTES = 24


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(the password's scrypt hash, its salt): a new salt unless one is given."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    secret = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt,
                            n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=SCRYPT_LEN)
    return secret, salt


def check_password(password: str, secret: bytes, salt: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[0], secret)


def check_name(name: object) -> str:
    """The name, if the room takes it; else ValueError with one plain sentence."""
    if not isinstance(name, str) or not name:
        raise ValueError("A name is 1 to 16 letters, digits or spaces.")
    if len(name) > NAME_LONGEST:
        raise ValueError(f"A name is at most {NAME_LONGEST} characters long.")
    wrong = sorted({ch for ch in name if ch not in NAME_CHARS})
    if wrong:
        shown = " ".join(ch if ch.isprintable() else repr(ch) for ch in wrong)
        raise ValueError(f"A name has letters, digits, spaces and ! \" - : / ? only, not {shown}.")
    if name != name.strip():
        raise ValueError("A name cannot begin or end with a space.")
    return name


class _Randrange(Protocol):
    def randrange(self, start: int, stop: int) -> int: ...


def guest_name(taken: Callable[[str], bool], rng: _Randrange) -> str:
    """A free name like "Guest1234"; with four digits all taken, more digits."""
    digits = 4
    while True:
        for _ in range(20):
            name = f"Guest{rng.randrange(10 ** (digits - 1), 10 ** digits)}"
            if not taken(name):
                return name
        digits += 1         # 20 taken in a row: the four-digit names are nearly all in use


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


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

    def __init__(self, per_name: int = 5, per_address: int = 20, window: float = 60.0,
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

    def __init__(self, rate: float = 20, burst: int = 40) -> None:
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
