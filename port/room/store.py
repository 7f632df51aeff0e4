"""The card room's storage: accounts, ratings, finished games and the running tables.

The room must never lose a game: every move is written here before the server
acknowledges it, and a server killed with ``kill -9`` resumes each table from its seed,
its rules and the moves stored so far. ``Store`` is the interface the server calls (all
synchronous and fast: it calls them from its event loop); ``SqliteStore`` keeps it in
one SQLite file (``ROOM.DB`` in the data directory) for a room of one process;
``port.room.redisstore.RedisStore`` keeps it in one Redis server for several processes.

Moves, rules and results are small JSON-able dicts, stored as JSON text: what comes back
is the JSON round trip (a tuple comes back a list), the same from both stores.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

DB_NAME = "ROOM.DB"
SCHEMA_VERSION = 3              # PRAGMA user_version: a later schema migrates from it
GAMES = ("ginrummy", "cribbage")
PROVISIONAL_RD = 110.0          # a rating is provisional while its deviation is above this (lichess's rule)


class StoreError(Exception):
    """The store cannot do what was asked; the message is one plain sentence."""


class StoreFull(StoreError):
    """The store has no space left (its disk is full): what was asked can be asked again
    once there is space."""


@dataclass(frozen=True)
class Account:
    name: str                   # as first written; unique case-insensitively
    secret: bytes               # the password's scrypt hash (port.room.accounts)
    salt: bytes
    bot: bool
    guest: bool
    created: float              # time.time()


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating (port.room.ratings); a player with no games has the default."""
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06
    games: int = 0


@dataclass(frozen=True)
class FinishedGame:
    number: int                 # 1, 2, ... in the order the games finished
    game: str                   # "ginrummy" | "cribbage"
    players: tuple[str, str]
    record: str                 # the game-record text (docs/records.md)
    result: dict[str, Any]
    finished: float


@dataclass(frozen=True)
class RatedGame:
    """One rated game in a player's rating history: the rating before and after it."""
    number: int
    game: str
    name: str                   # the player, as the game's record spells it
    opponent: str
    score: float                # 1 won, 0.5 drawn, 0 lost
    before: Rating
    after: Rating
    finished: float


@dataclass(frozen=True)
class Standing:
    """A player on a game's leaderboard: the rating, and the rated games' results
    counted since the rating history began (docs/room-store.md)."""
    name: str
    bot: bool
    rating: Rating
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass(frozen=True)
class TableRow:
    """A running table: its position is the seed, the rules and the moves so far."""
    table_id: str
    game: str
    players: tuple[str, str]
    rules: dict[str, Any]
    seed: int
    created: float
    moves: tuple[dict[str, Any], ...] = ()


class Store(Protocol):
    # accounts (names unique case-insensitively; `name` kept as first written)
    def create_account(self, name: str, secret: bytes, salt: bytes, bot: bool, guest: bool = False) -> bool: ...
    def account(self, name: str) -> Account | None: ...
    def set_token(self, name: str, token_hash: bytes, expires: float) -> None: ...
    def account_by_token(self, token_hash: bytes, now: float) -> Account | None: ...
    def revoke_token(self, token_hash: bytes) -> None: ...
    def set_password(self, name: str, secret: bytes, salt: bytes) -> None: ...   # and every token revoked
    def drop_account(self, name: str) -> None: ...      # a guest's: with its tokens and ratings
    def guests(self) -> list[str]: ...
    # ratings, per game ("ginrummy" | "cribbage")
    def rating(self, name: str, game: str) -> Rating: ...
    def ratings(self, names: Sequence[str], game: str) -> dict[str, Rating]: ...
    def finish_game(self, table_id: str, game: str, players: tuple[str, str], record: str,
                    result: dict[str, Any], ratings: dict[str, Rating] | None,
                    before: dict[str, Rating] | None = None) -> int: ...
    def game(self, number: int) -> FinishedGame | None: ...
    def games_of(self, name: str, limit: int = 50, records: bool = True) -> list[FinishedGame]: ...
    # looking back: each rated game's ratings before and after, the leaderboards
    def rating_history(self, name: str, game: str, limit: int = 50) -> list[RatedGame]: ...
    def leaderboard(self, game: str, provisional: bool = False, start: int = 0,
                    limit: int = 20) -> list[Standing]: ...
    def standing(self, name: str, game: str) -> Standing | None: ...
    def running_list(self) -> list[TableRow]: ...
    # blocks (private: a player's own; gone with either account)
    def set_block(self, who: str, whom: str, on: bool) -> None: ...
    def blocks(self, who: str) -> list[str]: ...
    def blocked(self, a: str, b: str) -> bool: ...      # either way
    # running tables
    def open_table(self, table: TableRow) -> None: ...
    def add_move(self, table_id: str, index: int, move: dict[str, Any]) -> None: ...
    def table(self, table_id: str) -> TableRow | None: ...
    def running_tables(self) -> list[TableRow]: ...
    def drop_table(self, table_id: str) -> None: ...
    # which process owns a table, who is in the room (trivial in one process)
    def claim_table(self, table_id: str, owner: str, ttl: float) -> bool: ...
    def renew_table(self, table_id: str, owner: str, ttl: float) -> bool: ...
    def table_owner(self, table_id: str) -> str | None: ...
    def set_presence(self, name: str, info: dict[str, Any], ttl: float) -> None: ...
    def presence(self) -> dict[str, dict[str, Any]]: ...
    def drop_presence(self, name: str) -> None: ...
    def close(self) -> None: ...


def to_json(value: Any) -> str:
    """Compact and sorted, so the same dict is the same text in both stores."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise StoreError(f"The room stores plain JSON values only, not {str(value)[:60]}.") from None


def check_game(game: str) -> str:
    if game not in GAMES:
        raise StoreError(f"There is no game called {game!r} in the room.")
    return game


def provisional(r: Rating) -> bool:
    return r.rd > PROVISIONAL_RD


def score_of(name: str, result: dict[str, Any]) -> float:
    """A player's score in a finished game from its result: ``winner`` names the winner
    (None: a draw)."""
    winner = result.get("winner")
    if winner is None:
        return 0.5
    return 1.0 if str(winner).lower() == name.lower() else 0.0


def history_rows(players: tuple[str, str], result: dict[str, Any], ratings: dict[str, Rating] | None,
                 before: dict[str, Rating] | None) -> list[tuple[str, str, float, Rating, Rating]]:
    """What a finished game adds to the rating history: per rated player (name,
    opponent, score, before, after); nothing for a game not rated or without ``before``."""
    if not ratings or not before:
        return []
    rows = []
    for seat, name in enumerate(players):
        if name in ratings and name in before:
            rows.append((name, players[1 - seat], score_of(name, result), before[name], ratings[name]))
    return rows


def wrong_index(table_id: str, have: int, index: int) -> StoreError:
    """Another process wrote this table, or the caller lost count: either way, no."""
    return StoreError(f"The table {table_id} has {have} move{'s' if have != 1 else ''} stored, "
                      f"so the next is move {have}, not {index}.")


def check_table(table: TableRow) -> None:
    """What both stores refuse alike: a game not in the room, a seed SQLite cannot hold."""
    check_game(table.game)
    if not -2**63 <= table.seed < 2**63:
        raise StoreError(f"The seed of table {table.table_id} does not fit in 64 bits.")


class Leases:
    """The table owners and the presence of one process, in memory, with expiry: what
    Redis keeps with SET NX PX for several processes, for a room of one."""

    def __init__(self) -> None:
        self._owners: dict[str, tuple[str, float]] = {}
        self._presence: dict[str, tuple[dict[str, Any], float]] = {}

    def claim(self, table_id: str, owner: str, ttl: float) -> bool:
        if self.owner(table_id) is not None:
            return False
        self._owners[table_id] = (owner, time.monotonic() + ttl)
        return True

    def renew(self, table_id: str, owner: str, ttl: float) -> bool:
        if self.owner(table_id) != owner:
            return False
        self._owners[table_id] = (owner, time.monotonic() + ttl)
        return True

    def owner(self, table_id: str) -> str | None:
        held = self._owners.get(table_id)
        if held is None or held[1] <= time.monotonic():
            self._owners.pop(table_id, None)
            return None
        return held[0]

    def set_presence(self, name: str, info: dict[str, Any], ttl: float) -> None:
        self._presence[name] = (json.loads(to_json(info)), time.monotonic() + ttl)

    def presence(self) -> dict[str, dict[str, Any]]:
        now = time.monotonic()
        self._presence = {k: v for k, v in self._presence.items() if v[1] > now}
        return {k: v[0] for k, v in self._presence.items()}

    def drop_presence(self, name: str) -> None:
        self._presence.pop(name, None)


_SCHEMA = """
CREATE TABLE accounts (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    secret BLOB NOT NULL,
    salt BLOB NOT NULL,
    bot INTEGER NOT NULL,
    guest INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE tokens (
    token_hash BLOB PRIMARY KEY,
    name TEXT NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
    expires REAL NOT NULL
);
CREATE TABLE ratings (
    name TEXT NOT NULL COLLATE NOCASE,
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    rd REAL NOT NULL,
    vol REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (name, game)
);
CREATE TABLE games (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    player0 TEXT NOT NULL COLLATE NOCASE,
    player1 TEXT NOT NULL COLLATE NOCASE,
    record TEXT NOT NULL,
    result TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE INDEX games_player0 ON games (player0, number);
CREATE INDEX games_player1 ON games (player1, number);
CREATE TABLE tables (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    player0 TEXT NOT NULL,
    player1 TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""
# Version 2: the rating history (each rated game's ratings before and after, per
# player), and the leaderboards' order. Games finished before it have no history.
_HISTORY = """
CREATE TABLE history (
    name TEXT NOT NULL COLLATE NOCASE,
    game TEXT NOT NULL,
    number INTEGER NOT NULL,
    opponent TEXT NOT NULL,
    score REAL NOT NULL,
    rating_before REAL NOT NULL, rd_before REAL NOT NULL, vol_before REAL NOT NULL, games_before INTEGER NOT NULL,
    rating_after REAL NOT NULL, rd_after REAL NOT NULL, vol_after REAL NOT NULL, games_after INTEGER NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (name, game, number)
) WITHOUT ROWID;
CREATE INDEX ratings_top ON ratings (game, rating DESC);
"""
# Version 3: blocks (a player's, private: who blocked whom), gone with either account.
_BLOCKS = """
CREATE TABLE blocks (
    who TEXT NOT NULL COLLATE NOCASE REFERENCES accounts(name) ON DELETE CASCADE,
    whom TEXT NOT NULL COLLATE NOCASE REFERENCES accounts(name) ON DELETE CASCADE,
    PRIMARY KEY (who, whom)
) WITHOUT ROWID;
CREATE INDEX blocks_whom ON blocks (whom, who);
"""
# Each later schema adds its step here: _MIGRATIONS[v] takes version v to v + 1.
_MIGRATIONS: dict[int, str] = {0: _SCHEMA, 1: _HISTORY, 2: _BLOCKS}


class SqliteStore:
    """The store in one SQLite file: WAL with synchronous=NORMAL, so a commit is in the
    log before it returns and survives the process being killed (only a power cut may
    lose the last commits), and readers never wait for the writer."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._leases = Leases()
        self._db = self._open()

    # -- opening ---------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if not self.path.parent.exists():
            raise StoreError(f"The room's data directory {self.path.parent} does not exist.")
        if not self.path.parent.is_dir():
            raise StoreError(f"The room's data directory {self.path.parent} is not a directory.")
        if not self.path.exists() and not os.access(self.path.parent, os.W_OK):
            raise StoreError(f"The room's data directory {self.path.parent} is read-only, "
                             f"so its database {self.path.name} cannot be made.")
        self._create_private()
        try:
            # isolation_level=None: no implicit transactions; each write says BEGIN itself.
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
        except sqlite3.Error:
            raise StoreError(f"The room database {self.path} cannot be opened.") from None
        try:
            self._setup(db)
        except sqlite3.DatabaseError as e:
            db.close()
            raise StoreError(self._why(e)) from None
        except StoreError:
            db.close()
            raise
        return db

    def _create_private(self) -> None:
        """A new database file is made readable by its owner only (0600): it holds the
        password hashes. SQLite makes the -wal and -shm files with the database file's
        own permissions, so they are 0600 too."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass                     # there already (or another process made it just now)
        except OSError:
            pass                     # SQLite says why in its own words, next

    def _why(self, e: sqlite3.DatabaseError) -> str:
        text = str(e).lower()
        if "readonly" in text or "unable to open" in text or "read-only" in text:
            return f"The room database {self.path} cannot be written (is its directory read-only?)."
        return f"The room database {self.path} is damaged or is not an SQLite database."

    def _setup(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 5000")
        # Read before journal_mode: a file that is not SQLite fails here, not later.
        db.execute("PRAGMA user_version").fetchone()
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal" and not os.access(self.path, os.W_OK):
            raise StoreError(f"The room database {self.path} is read-only.")
        if str(mode).lower() != "wal":
            raise StoreError(f"The room database {self.path} cannot use a write-ahead log.")
        db.execute("PRAGMA synchronous = NORMAL")
        # A damaged file is refused when the room starts, not in the middle of a game.
        if db.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
            raise StoreError(f"The room database {self.path} is damaged or is not an SQLite database.")
        while self._migrate(db):
            pass

    def _migrate(self, db: sqlite3.Connection) -> bool:
        """One step of the schema forward, if the file needs one: True if it took one.
        The version is read under the write lock, so two processes opening a new file
        at once make its tables once."""
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"The room database {self.path} was made by a newer version of the room.")
            if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(f"The file {self.path} is an SQLite database but not the room's.")
            if version < SCHEMA_VERSION:
                for statement in _MIGRATIONS[version].split(";"):
                    if statement.strip():
                        db.execute(statement)
                # PRAGMA takes no parameters; the value is our own integer, not input.
                db.execute(f"PRAGMA user_version = {int(version) + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return version < SCHEMA_VERSION

    # -- plumbing --------------------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as e:
                raise self._failed(e) from None

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction; BEGIN IMMEDIATE takes the write lock first, so a check and
        the write it guards are atomic across processes sharing the file."""
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    # A COMMIT that failed (a full disk) leaves the transaction open.
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.DatabaseError as e:
                raise self._failed(e) from None

    def _failed(self, e: sqlite3.DatabaseError) -> StoreError:
        if isinstance(e, sqlite3.OperationalError) and "locked" in str(e).lower():
            return StoreError(f"The room database {self.path} is busy (another process holds it).")
        if getattr(e, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            # SQLite's "database or disk is full": the disk (or the file's limit), not damage.
            return StoreFull(f"The room's disk is full: {self.path} cannot grow.")
        return StoreError(self._why(e))

    # -- accounts --------------------------------------------------------------------

    def create_account(self, name: str, secret: bytes, salt: bytes, bot: bool, guest: bool = False) -> bool:
        with self._writing() as db:
            cur = db.execute(
                "INSERT INTO accounts (name, secret, salt, bot, guest, created) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (name, bytes(secret), bytes(salt), int(bot), int(guest), time.time()))
            return cur.rowcount == 1

    def account(self, name: str) -> Account | None:
        with self._reading() as db:
            row = db.execute("SELECT name, secret, salt, bot, guest, created FROM accounts WHERE name = ?",
                             (name,)).fetchone()
        return _account(row)

    def set_token(self, name: str, token_hash: bytes, expires: float) -> None:
        with self._writing() as db:
            if db.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() is None:
                raise StoreError(f"There is no account called {name!r}.")
            db.execute("DELETE FROM tokens WHERE expires <= ?", (time.time(),))
            db.execute("INSERT OR REPLACE INTO tokens (token_hash, name, expires) VALUES (?, ?, ?)",
                       (bytes(token_hash), name, expires))

    def account_by_token(self, token_hash: bytes, now: float) -> Account | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT a.name, a.secret, a.salt, a.bot, a.guest, a.created FROM tokens t"
                " JOIN accounts a ON a.name = t.name WHERE t.token_hash = ? AND t.expires > ?",
                (bytes(token_hash), now)).fetchone()
        return _account(row)

    def revoke_token(self, token_hash: bytes) -> None:
        with self._writing() as db:
            db.execute("DELETE FROM tokens WHERE token_hash = ?", (bytes(token_hash),))

    def set_password(self, name: str, secret: bytes, salt: bytes) -> None:
        with self._writing() as db:
            if db.execute("UPDATE accounts SET secret = ?, salt = ? WHERE name = ?",
                          (bytes(secret), bytes(salt), name)).rowcount != 1:
                raise StoreError(f"There is no account called {name!r}.")
            # tokens.name is the account's name as written: found through accounts (NOCASE).
            db.execute("DELETE FROM tokens WHERE name = (SELECT name FROM accounts WHERE name = ?)", (name,))

    def drop_account(self, name: str) -> None:
        with self._writing() as db:
            db.execute("DELETE FROM ratings WHERE name = ?", (name,))
            db.execute("DELETE FROM accounts WHERE name = ?", (name,))     # its tokens and blocks cascade

    def guests(self) -> list[str]:
        with self._reading() as db:
            return [r[0] for r in db.execute("SELECT name FROM accounts WHERE guest = 1 ORDER BY name")]

    # -- ratings and finished games --------------------------------------------------

    def rating(self, name: str, game: str) -> Rating:
        return self.ratings([name], game)[name]

    def ratings(self, names: Sequence[str], game: str) -> dict[str, Rating]:
        check_game(game)
        out = {}
        with self._reading() as db:
            for name in names:
                row = db.execute("SELECT rating, rd, vol, games FROM ratings WHERE name = ? AND game = ?",
                                 (name, game)).fetchone()
                out[name] = Rating(*row) if row else Rating()
        return out

    def finish_game(self, table_id: str, game: str, players: tuple[str, str], record: str,
                    result: dict[str, Any], ratings: dict[str, Rating] | None,
                    before: dict[str, Rating] | None = None) -> int:
        check_game(game)
        finished = time.time()
        with self._writing() as db:
            cur = db.execute(
                "INSERT INTO games (game, player0, player1, record, result, finished) VALUES (?, ?, ?, ?, ?, ?)",
                (game, players[0], players[1], record, to_json(result), finished))
            number = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(name, game, number, other, score, b.rating, b.rd, b.vol, b.games, a.rating, a.rd, a.vol, a.games,
                  finished) for name, other, score, b, a in history_rows(players, result, ratings, before)])
            for name, r in (ratings or {}).items():
                db.execute(
                    "INSERT INTO ratings (name, game, rating, rd, vol, games) VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (name, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
                    " vol = excluded.vol, games = excluded.games",
                    (name, game, r.rating, r.rd, r.vol, r.games))
            db.execute("DELETE FROM tables WHERE table_id = ?", (table_id,))   # its moves cascade
            return number

    def game(self, number: int) -> FinishedGame | None:
        with self._reading() as db:
            row = db.execute("SELECT number, game, player0, player1, record, result, finished FROM games"
                             " WHERE number = ?", (number,)).fetchone()
        return _finished(row) if row else None

    def games_of(self, name: str, limit: int = 50, records: bool = True) -> list[FinishedGame]:
        """A player's games, newest first; ``records=False``: without their records'
        text (a list of results reads no record)."""
        record = "record" if records else "''"
        with self._reading() as db:
            rows = db.execute(f"SELECT number, game, player0, player1, {record}, result, finished FROM games"
                              " WHERE player0 = ? OR player1 = ? ORDER BY number DESC LIMIT ?",
                              (name, name, max(0, limit))).fetchall()
        return [_finished(r) for r in rows]

    # -- looking back ----------------------------------------------------------------

    def rating_history(self, name: str, game: str, limit: int = 50) -> list[RatedGame]:
        """A player's rated games of ``game``, newest first, each with the ratings
        before and after it."""
        check_game(game)
        with self._reading() as db:
            rows = db.execute("SELECT * FROM history WHERE name = ? AND game = ? ORDER BY number DESC LIMIT ?",
                              (name, game, max(0, limit))).fetchall()
        return [RatedGame(r[2], r[1], r[0], r[3], r[4], Rating(r[5], r[6], r[7], r[8]), Rating(r[9], r[10], r[11], r[12]),
                          r[13]) for r in rows]

    def leaderboard(self, game: str, provisional: bool = False, start: int = 0,
                    limit: int = 20) -> list[Standing]:
        """``game``'s rated players from the ``start``-th (0: the first), by rating,
        highest first (a tie by name): the established ratings, or the provisional."""
        check_game(game)
        side = ">" if provisional else "<="
        with self._reading() as db:
            rows = db.execute(
                "SELECT r.name, a.bot, r.rating, r.rd, r.vol, r.games FROM ratings r"
                " JOIN accounts a ON a.name = r.name"
                f" WHERE r.game = ? AND r.rd {side} ? ORDER BY r.rating DESC, lower(r.name) LIMIT ? OFFSET ?",
                (game, PROVISIONAL_RD, max(0, limit), max(0, start))).fetchall()
            return [self._standing(db, r, game) for r in rows]

    def standing(self, name: str, game: str) -> Standing | None:
        """A player's rating and results in ``game`` (None: no such account)."""
        check_game(game)
        with self._reading() as db:
            row = db.execute(
                "SELECT a.name, a.bot, coalesce(r.rating, ?), coalesce(r.rd, ?), coalesce(r.vol, ?),"
                " coalesce(r.games, 0) FROM accounts a LEFT JOIN ratings r ON r.name = a.name AND r.game = ?"
                " WHERE a.name = ?", (Rating.rating, Rating.rd, Rating.vol, game, name)).fetchone()
            return self._standing(db, row, game) if row else None

    def _standing(self, db: sqlite3.Connection, row: tuple[Any, ...], game: str) -> Standing:
        counts = dict(db.execute("SELECT score, count(*) FROM history WHERE name = ? AND game = ? GROUP BY score",
                                 (row[0], game)).fetchall())
        return Standing(row[0], bool(row[1]), Rating(*row[2:6]), counts.get(1.0, 0), counts.get(0.5, 0),
                        counts.get(0.0, 0))

    # -- blocks ----------------------------------------------------------------------

    def set_block(self, who: str, whom: str, on: bool) -> None:
        """``who`` blocks ``whom`` (``on``) or no longer; both accounts must be there."""
        with self._writing() as db:
            if not on:
                db.execute("DELETE FROM blocks WHERE who = ? AND whom = ?", (who, whom))
                return
            names = [db.execute("SELECT name FROM accounts WHERE name = ?", (n,)).fetchone() for n in (who, whom)]
            if None in names:
                raise StoreError(f"There is no account called {who if names[0] is None else whom!r}.")
            db.execute("INSERT INTO blocks (who, whom) VALUES (?, ?) ON CONFLICT DO NOTHING",
                       (names[0][0], names[1][0]))

    def blocks(self, who: str) -> list[str]:
        """The players ``who`` has blocked, by name as written, in alphabetical order."""
        with self._reading() as db:
            rows = db.execute("SELECT whom FROM blocks WHERE who = ? ORDER BY lower(whom)", (who,)).fetchall()
        return [r[0] for r in rows]

    def blocked(self, a: str, b: str) -> bool:
        """Whether either of the two has blocked the other."""
        with self._reading() as db:
            return db.execute("SELECT 1 FROM blocks WHERE (who = ? AND whom = ?) OR (who = ? AND whom = ?) LIMIT 1",
                              (a, b, b, a)).fetchone() is not None

    # -- running tables --------------------------------------------------------------

    def open_table(self, table: TableRow) -> None:
        check_table(table)
        with self._writing() as db:
            try:
                db.execute("INSERT INTO tables (table_id, game, player0, player1, rules, seed, created)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (table.table_id, table.game, table.players[0], table.players[1],
                            to_json(table.rules), table.seed, table.created))
            except sqlite3.IntegrityError:
                raise StoreError(f"The table {table.table_id} is already open.") from None
            db.executemany("INSERT INTO moves (table_id, idx, move) VALUES (?, ?, ?)",
                           [(table.table_id, i, to_json(m)) for i, m in enumerate(table.moves)])

    def add_move(self, table_id: str, index: int, move: dict[str, Any]) -> None:
        refused = self.add_moves([(table_id, index, move)])[0]
        if refused is not None:
            raise refused

    def add_moves(self, moves: list[tuple[str, int, dict[str, Any]]]) -> list[StoreError | None]:
        """Several tables' moves in one transaction (one commit: the room's moves of one
        turn of its event loop, docs/room-bench.md), each checked as ``add_move`` checks
        it: for each, None (kept) or the StoreError that refused it (the others kept).
        A commit that fails (a full disk) keeps none: its error is raised."""
        out: list[StoreError | None] = []
        with self._writing() as db:
            for table_id, index, move in moves:
                if db.execute("SELECT 1 FROM tables WHERE table_id = ?", (table_id,)).fetchone() is None:
                    out.append(StoreError(f"There is no running table {table_id}."))
                    continue
                have = db.execute("SELECT count(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]
                if index != have:
                    out.append(wrong_index(table_id, have, index))
                    continue
                try:
                    text = to_json(move)
                except StoreError as exc:
                    out.append(exc)
                    continue
                db.execute("INSERT INTO moves (table_id, idx, move) VALUES (?, ?, ?)", (table_id, index, text))
                out.append(None)
        return out

    def table(self, table_id: str) -> TableRow | None:
        with self._reading() as db:
            row = db.execute("SELECT table_id, game, player0, player1, rules, seed, created FROM tables"
                             " WHERE table_id = ?", (table_id,)).fetchone()
            return self._table(db, row) if row else None

    def running_list(self) -> list[TableRow]:
        """The running tables without their moves, newest first (the pages' list)."""
        with self._reading() as db:
            rows = db.execute("SELECT table_id, game, player0, player1, rules, seed, created FROM tables"
                              " ORDER BY created DESC, table_id").fetchall()
        return [TableRow(r[0], r[1], (r[2], r[3]), json.loads(r[4]), r[5], r[6]) for r in rows]

    def running_tables(self) -> list[TableRow]:
        with self._reading() as db:
            rows = db.execute("SELECT table_id, game, player0, player1, rules, seed, created FROM tables"
                              " ORDER BY created, table_id").fetchall()
            return [self._table(db, r) for r in rows]

    def _table(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> TableRow:
        moves = db.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY idx", (row[0],)).fetchall()
        return TableRow(row[0], row[1], (row[2], row[3]), json.loads(row[4]), row[5], row[6],
                        tuple(json.loads(m[0]) for m in moves))

    def drop_table(self, table_id: str) -> None:
        with self._writing() as db:
            db.execute("DELETE FROM tables WHERE table_id = ?", (table_id,))

    # -- one process: owners and presence in memory ----------------------------------

    def claim_table(self, table_id: str, owner: str, ttl: float) -> bool:
        return self._leases.claim(table_id, owner, ttl)

    def renew_table(self, table_id: str, owner: str, ttl: float) -> bool:
        return self._leases.renew(table_id, owner, ttl)

    def table_owner(self, table_id: str) -> str | None:
        return self._leases.owner(table_id)

    def set_presence(self, name: str, info: dict[str, Any], ttl: float) -> None:
        self._leases.set_presence(name, info, ttl)

    def presence(self) -> dict[str, dict[str, Any]]:
        return self._leases.presence()

    def drop_presence(self, name: str) -> None:
        self._leases.drop_presence(name)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _account(row: tuple[Any, ...] | None) -> Account | None:
    if row is None:
        return None
    name, secret, salt, bot, guest, created = row
    return Account(name, bytes(secret), bytes(salt), bool(bot), bool(guest), created)


def _finished(row: tuple[Any, ...]) -> FinishedGame:
    number, game, p0, p1, record, result, finished = row
    return FinishedGame(number, game, (p0, p1), record, json.loads(result), finished)
