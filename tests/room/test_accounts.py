"""The room's accounts: passwords kept as scrypt hashes, names as the games' NAME field
takes them, tokens kept as hashes, and the limits on failed logins and on messages."""
from __future__ import annotations

import hashlib
import random
import time
from pathlib import Path

import pytest

from port.room import accounts
from port.room.accounts import check_name, check_password, guest_name, hash_password, new_token, token_hash
from port.room.limits import Limiter, RateLimit
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


def test_failed_logins_are_limited_per_name_and_per_address() -> None:
    lim = Limiter(per_name=5, per_address=20, window=60)
    for i in range(5):
        assert lim.allow("Dave", "10.0.0.1", now=100 + i)
        lim.failed("Dave", "10.0.0.1", now=100 + i)
    assert not lim.allow("dave", "10.0.0.2", now=110)        # the name, from anywhere
    assert lim.allow("Ann", "10.0.0.1", now=110)             # the address may still try others
    assert lim.allow("Dave", "10.0.0.1", now=160.5)          # the first failure left the window
    for i in range(15):                                       # 4 still in the window, and 15: 19
        lim.failed(f"name{i}", "10.0.0.1", now=120)
    assert lim.allow("Ann", "10.0.0.1", now=121)
    lim.failed("Bob", "10.0.0.1", now=121)
    assert not lim.allow("Ann", "10.0.0.1", now=121)         # 20 from one address
    assert lim.allow("Ann", "10.0.0.9", now=121)
    lim.succeeded("Dave", "10.0.0.1")
    assert lim.allow("Dave", "10.0.0.2", now=121)            # a good login forgives the name
    assert not lim.allow("Dave", "10.0.0.1", now=121)        # not the address


def test_the_limiter_forgets_old_and_many_entries() -> None:
    lim = Limiter(per_name=5, per_address=20, window=60, keys=100)
    for i in range(10_000):
        lim.failed(f"name{i}", f"10.0.{i // 256}.{i % 256}", now=float(i))
    assert len(lim._names._times) <= 100 and len(lim._addresses._times) <= 100
    lim.allow("name9999", "10.0.39.15", now=1e6)
    assert "name9999" not in lim._names._times                # out of the window: dropped


def test_messages_are_limited_by_a_token_bucket() -> None:
    bucket = RateLimit(rate=20, burst=40)
    assert sum(bucket.allow(0.0) for _ in range(100)) == 40      # a burst of 40
    assert not bucket.allow(0.01)
    assert sum(bucket.allow(0.5) for _ in range(100)) == 10       # then 20 a second
    assert sum(bucket.allow(100.0) for _ in range(100)) == 40     # never more than the burst
