"""The room's accounts: passwords kept as scrypt hashes, names as the games' NAME field
takes them (and a guest's, nobody's), tokens kept as hashes, and the limits on failed
logins, new guests and accounts, and messages."""
from __future__ import annotations

import hashlib
import random
import time
from pathlib import Path

import pytest

from port.room import accounts
from port.room.accounts import check_name, check_password, guest_name, hash_password, new_token, token_hash
from port.room.limits import Backoff, Bucket, Limiter, RateLimit
from port.room.store import DB_NAME, SqliteStore


def test_a_password_checks_only_against_itself() -> None:
    secret, salt = hash_password("hunter2")
    assert len(salt) == 16 and len(secret) == 32
    assert check_password("hunter2", secret, salt)
    assert not check_password("hunter3", secret, salt)
    assert not check_password("Hunter2", secret, salt)
    # Two accounts with one password keep two different secrets.
    other, other_salt = hash_password("hunter2")
    assert other_salt != salt and other != secret


def test_the_hash_is_scrypt_with_the_documented_parameters() -> None:
    secret, salt = hash_password("correct horse", b"\x00" * 16)
    assert secret == hashlib.scrypt(b"correct horse", salt=b"\x00" * 16, n=2**14, r=8, p=1, dklen=32)
    t = time.perf_counter()
    hash_password("correct horse")
    assert time.perf_counter() - t < 1.0        # a login stays quick


def test_an_account_logs_in_through_the_store(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / DB_NAME)
    store.create_account("Dave", *hash_password("s3cret"), bot=False)
    got = store.account("DAVE")
    assert got is not None and check_password("s3cret", got.secret, got.salt)
    token = new_token()
    assert len(token) == 32 and token != new_token()
    store.set_token(got.name, token_hash(token), expires=time.time() + 3600)
    assert store.account_by_token(token_hash(token), time.time()).name == "Dave"     # type: ignore[union-attr]
    assert token.encode() not in (tmp_path / DB_NAME).read_bytes()        # only its hash is kept
    store.close()


@pytest.mark.parametrize("name", ["Dave", "PLAYER", "Mr T", "a", "Sixteen chars ok", 'A "quoted" ok?!', "1-2:3/4"])
def test_names_the_room_takes(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize("name, message", [
    ("", "A name is 1 to 16 letters, digits or spaces."),
    (None, "A name is 1 to 16 letters, digits or spaces."),
    (42, "A name is 1 to 16 letters, digits or spaces."),
    ("Seventeen chars!!", "A name is at most 16 characters long."),
    (" Dave", "A name cannot begin or end with a space."),
    ("Dave ", "A name cannot begin or end with a space."),
    ("Dave.Teach", 'A name has letters, digits, spaces and ! " - : / ? only, not ..'),
    ("Zoë", 'A name has letters, digits, spaces and ! " - : / ? only, not ë.'),
    ("tab\there", "A name has letters, digits, spaces and ! \" - : / ? only, not '\\t'."),
    ("<b>x</b>", 'A name has letters, digits, spaces and ! " - : / ? only, not < >.'),
])
def test_names_the_room_refuses_in_one_sentence(name: object, message: str) -> None:
    with pytest.raises(ValueError) as err:
        check_name(name)
    assert str(err.value) == message


@pytest.mark.parametrize("name", ["Guest1234", "guest7", "GUEST00"])
def test_a_guests_name_is_nobodys_to_register(name: str) -> None:
    assert check_name(name) == name                          # logging in with one (a guest's) is fine
    with pytest.raises(ValueError, match=f"^Names like {name} are the guests': choose another.$"):
        check_name(name, new=True)
    assert check_name("Guestly", new=True) == "Guestly"


def test_the_room_takes_the_characters_the_games_name_field_takes() -> None:
    from port.files.players import NAME_CHARS

    assert accounts.NAME_CHARS is NAME_CHARS
    assert check_name("".join(sorted(NAME_CHARS - {" "}))[:16])


def test_a_guest_gets_a_free_name() -> None:
    rng = random.Random(1)
    taken = {f"Guest{n}" for n in range(1000, 9999)}    # all but Guest9999
    name = guest_name(lambda n: n in taken, rng)
    assert name not in taken and check_name(name) == name
    assert name == "Guest9999" or len(name) == 10         # or five digits when four are used up
    assert guest_name(lambda n: False, random.Random(5)).startswith("Guest")
    assert len(guest_name(lambda n: False, random.Random(5))) == 9


def test_wrong_passwords_hold_back_with_a_growing_delay_that_ends() -> None:
    b = Backoff(free=5, first=1.0, longest=300.0, forget=3600.0, keys=100)
    waits = []
    for _ in range(14):
        b.failed("dora", now=100.0)
        waits.append(b.wait("dora", now=100.0))
    assert waits == [0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300]
    assert b.wait("dora", now=100.0 + 3601) == 0                  # forgotten after an hour's quiet
    for i in range(1000):                                         # an attacker's many names: bounded
        b.failed(f"name{i}", now=1.0)
    assert len(b._state) == 100


def test_the_owner_gets_in_from_a_known_place_or_with_a_token() -> None:
    lim = Limiter()
    for _ in range(5):
        lim.failed("Dora", "203.0.113.9", now=0.0)
    assert lim.wait("dora", "198.51.100.7", now=0.5) == (0.5, "name")      # the name is held,
    assert lim.wait("Ann", "203.0.113.9", now=0.5) == (0.5, "address")     # and the guesser's address
    lim.succeeded("Dora", "198.51.100.7")
    assert lim.wait("dora", "198.51.100.7", now=0.5) == (0.0, "")         # but not where Dora logged in
    assert lim.wait("dora", "192.0.2.1", now=0.5, known=True) == (0.0, "")  # nor with a token of Dora's
    for _ in range(10):                       # a guesser at Dora's own address: its own count, 10 free
        lim.failed("Dora", "198.51.100.7", now=1.0)
    assert lim.wait("dora", "198.51.100.7", now=1.0) == (1.0, "name")
    assert lim.wait("dora", "192.0.2.1", now=1.0, known=True) == (0.0, "")


def test_new_guests_and_accounts_are_counted_in_buckets() -> None:
    bucket = Bucket(burst=10, rate=10 / 60, keys=3)
    assert sum(bucket.take("a", now=0.0) for _ in range(20)) == 10
    assert bucket.wait("a", now=0.0) == pytest.approx(6.0) and bucket.take("a", now=6.0)
    for key in "bcd":
        bucket.take(key, now=7.0)
    assert len(bucket._state) == 3


def test_messages_are_limited_by_a_token_bucket() -> None:
    bucket = RateLimit(rate=20, burst=40)
    assert sum(bucket.allow(0.0) for _ in range(100)) == 40      # a burst of 40
    assert not bucket.allow(0.01)
    assert sum(bucket.allow(0.5) for _ in range(100)) == 10       # then 20 a second
    assert sum(bucket.allow(100.0) for _ in range(100)) == 40     # never more than the burst
