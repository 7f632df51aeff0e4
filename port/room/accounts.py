"""The room's accounts: names, passwords and session tokens (the limits on logins and
messages are ``port.room.limits``'s). The store keeps what these make
(``port.room.store``); nothing here keeps a
password or a token itself, only their hashes.

- A password is kept as its scrypt hash (n=2**14, r=8, p=1: about 16 MB and some tens of
  milliseconds per try, the parameters Python's documentation and RFC 7914 give for
  interactive logins) with a random 16-byte salt per account, compared in constant time.
- A session token is 24 random bytes (``secrets.token_urlsafe``); the store keeps only
  its SHA-256, so a copy of the database opens no session.
- A name follows the games' own NAME field (``port.files.players.NAME_CHARS``: letters,
  digits, ! " - : / ? and spaces), 1 to 16 characters, no space at either end. Names
  like ``Guest1234`` (any case) are the guests': nobody registers one, so a guest's
  name is never taken for a player's; nor one like ``House Easy`` (``House`` and a
  space, any case), the room's own bots' (``port.room.house``).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from typing import Protocol

from port.files.players import NAME_CHARS

NAME_LONGEST = 16
SALT_BYTES = 16
SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
TOKEN_BYTES = 24
GUEST_NAME = re.compile(r"guest\d+", re.IGNORECASE)
HOUSE_NAME = re.compile(r"house\s.*", re.IGNORECASE)     # "House Easy": the room's own bots (port.room.house)


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(the password's scrypt hash, its salt): a new salt unless one is given."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    secret = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt,
                            n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=SCRYPT_LEN)
    return secret, salt


def check_password(password: str, secret: bytes, salt: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[0], secret)


def check_name(name: object, new: bool = False) -> str:
    """The name, if the room takes it (``new``: for a new account, so not a guest's);
    else ValueError with one plain sentence."""
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
    if new and GUEST_NAME.fullmatch(name):
        raise ValueError(f"Names like {name} are the guests': choose another.")
    if new and HOUSE_NAME.fullmatch(name):
        raise ValueError(f"Names like {name} are the house bots': choose another.")
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
