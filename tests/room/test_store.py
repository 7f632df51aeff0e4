"""The room's store on real SQLite files and a real redis-server (tests/room/conftest.py):
what the server writes comes back, a move is stored before it is acknowledged and
survives a killed process, a wrong move index is refused, a bad file or an unreachable
Redis is one plain sentence, and both stores give the same answers to the same calls."""
from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from port.room.redisstore import RedisStore
from port.room.store import (DB_NAME, SCHEMA_VERSION, Account, FinishedGame, RatedGame, Rating, SqliteStore, Standing,
                             Store, StoreError, StoreFull, TableRow)

TOP = Path(__file__).resolve().parents[2]
RECORD = "GinRummy game record, version 1\nResult: Dave wins 2 to 0 after 1 hand.\n"


def table(table_id: str = "t1", players: tuple[str, str] = ("Dave", "EXPERT"), **kw: Any) -> TableRow:
    fields: dict[str, Any] = dict(game="ginrummy", rules={"limit": 100, "oklahoma": False}, seed=7, created=100.0)
    fields.update(kw)
    return TableRow(table_id, players=players, **fields)


@pytest.fixture
def sqlite(tmp_path: Path) -> Any:
    store = SqliteStore(tmp_path / DB_NAME)
    yield store
    store.close()


@pytest.fixture
def redis_store(redis_url: str) -> Any:
    store = RedisStore(redis_url)
    yield store
    store.close()


@pytest.fixture(params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest) -> Any:
    """Each behaviour, on both stores."""
    return request.getfixturevalue("sqlite" if request.param == "sqlite" else "redis_store")


# -- accounts ---------------------------------------------------------------------------

def test_names_are_unique_case_insensitively_and_kept_as_first_written(store: Store) -> None:
    assert store.create_account("Dave", b"secret", b"salt", bot=False)
    assert not store.create_account("DAVE", b"other", b"salt2", bot=True)
    got = store.account("dave")
    assert got is not None
    assert (got.name, got.secret, got.salt, got.bot, got.guest) == ("Dave", b"secret", b"salt", False, False)
    assert store.account("Davey") is None


def test_a_token_opens_its_account_until_it_expires(store: Store) -> None:
    store.create_account("Guest1234", b"s", b"t", bot=False, guest=True)
    store.set_token("guest1234", b"\x01" * 32, expires=time.time() + 60)
    got = store.account_by_token(b"\x01" * 32, now=time.time())
    assert got is not None and got.name == "Guest1234" and got.guest
    assert store.account_by_token(b"\x01" * 32, now=time.time() + 61) is None
    assert store.account_by_token(b"\x02" * 32, now=time.time()) is None


def test_a_token_for_no_account_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no account called 'Nobody'"):
        store.set_token("Nobody", b"\x01" * 32, expires=time.time() + 60)


def test_a_token_is_revoked_alone_or_all_with_a_new_password(store: Store) -> None:
    store.create_account("Dave", b"secret", b"salt", bot=False)
    later = time.time() + 60
    for t in (b"\x01", b"\x02", b"\x03"):
        store.set_token("Dave", t * 32, expires=later)
    store.revoke_token(b"\x01" * 32)
    assert store.account_by_token(b"\x01" * 32, time.time()) is None
    assert store.account_by_token(b"\x02" * 32, time.time()) is not None
    store.set_password("dave", b"new secret", b"new salt")
    got = store.account("Dave")
    assert got is not None and (got.secret, got.salt) == (b"new secret", b"new salt")
    assert [store.account_by_token(t * 32, time.time()) for t in (b"\x02", b"\x03")] == [None, None]
    with pytest.raises(StoreError, match="no account called 'Nobody'"):
        store.set_password("Nobody", b"s", b"t")


def test_a_guest_is_dropped_with_its_tokens_and_its_games_stay(store: Store) -> None:
    store.create_account("Guest1234", b"", b"", bot=False, guest=True)
    store.create_account("Guest77", b"", b"", bot=False, guest=True)
    store.create_account("Dave", b"s", b"t", bot=False)
    store.set_token("Guest1234", b"\x05" * 32, expires=time.time() + 60)
    store.open_table(table("t9", players=("Guest1234", "Dave")))
    store.finish_game("t9", "ginrummy", ("Guest1234", "Dave"), RECORD, {"how": "played"}, None)
    assert store.guests() == ["Guest1234", "Guest77"]
    store.drop_account("guest1234")
    assert store.account("Guest1234") is None and store.guests() == ["Guest77"]
    assert store.account_by_token(b"\x05" * 32, time.time()) is None
    assert [g.players for g in store.games_of("Guest1234")] == [("Guest1234", "Dave")]


def test_a_block_is_its_owners_either_way_and_goes_with_either_account(store: Store) -> None:
    for name in ("Ann", "Bob", "Guest12"):
        store.create_account(name, b"s", b"t", bot=False, guest=name.startswith("Guest"))
    store.set_block("ann", "BOB", True)
    store.set_block("Ann", "Guest12", True)
    store.set_block("Ann", "bob", True)                                  # twice: once
    assert store.blocks("ANN") == ["Bob", "Guest12"] and store.blocks("Bob") == []
    assert store.blocked("Bob", "Ann") and store.blocked("ann", "bob") and not store.blocked("Bob", "Guest12")
    with pytest.raises(StoreError, match="no account called 'Nobody'"):
        store.set_block("Ann", "Nobody", True)
    store.drop_account("Guest12")                                        # a guest gone: its blocks too
    assert store.blocks("Ann") == ["Bob"]
    store.set_block("Ann", "Bob", False)
    assert store.blocks("Ann") == [] and not store.blocked("Ann", "Bob")


def test_values_are_parameters_never_sql(store: Store) -> None:
    name = "x'); DROP TABLE accounts; --"
    assert store.create_account(name, b"'", b'"', bot=False)
    assert store.account(name).name == name     # type: ignore[union-attr]
    assert store.account("x") is None


# -- running tables and finished games -------------------------------------------------

def test_moves_come_back_in_order_and_a_wrong_index_is_refused(store: Store) -> None:
    store.open_table(table(moves=({"draw": "stock"},)))
    store.add_move("t1", 1, {"discard": "JH"})
    with pytest.raises(StoreError, match="has 2 moves stored, so the next is move 2, not 1"):
        store.add_move("t1", 1, {"discard": "JH"})
    with pytest.raises(StoreError, match="not 5"):
        store.add_move("t1", 5, {"discard": "QS"})
    with pytest.raises(StoreError, match="no running table t9"):
        store.add_move("t9", 0, {"discard": "QS"})
    assert store.table("t1").moves == ({"draw": "stock"}, {"discard": "JH"})   # type: ignore[union-attr]
    with pytest.raises(StoreError, match="already open"):
        store.open_table(table())


def test_a_turns_moves_are_kept_together_and_each_is_checked_on_its_own(sqlite: SqliteStore) -> None:
    """One process writes the moves of one turn of its loop in one commit (docs/room-bench.md):
    each is checked as a move alone is; a refused one refuses only itself."""
    sqlite.open_table(table())
    sqlite.open_table(table("t2", ("Ann", "Bob")))
    refused = sqlite.add_moves([("t1", 0, {"draw": "stock"}), ("t2", 3, {"draw": "pile"}),
                                ("t9", 0, {"draw": "pile"}), ("t2", 0, {"draw": "pile"}), ("t1", 1, {"discard": "JH"})])
    assert [str(e) if e else None for e in refused] == [
        None, "The table t2 has 0 moves stored, so the next is move 0, not 3.", "There is no running table t9.", None, None]
    assert sqlite.table("t1").moves == ({"draw": "stock"}, {"discard": "JH"})   # type: ignore[union-attr]
    assert sqlite.table("t2").moves == ({"draw": "pile"},)                      # type: ignore[union-attr]


def test_a_finished_game_is_stored_rated_and_its_table_gone_in_one_step(store: Store) -> None:
    store.open_table(table())
    store.add_move("t1", 0, {"draw": "stock"})
    store.open_table(table("t2", ("Ann", "dave")))
    new = {"Dave": Rating(1662.3, 290.1, 0.06, 1), "EXPERT": Rating(1337.7, 290.1, 0.06, 1)}
    assert store.finish_game("t1", "ginrummy", ("Dave", "EXPERT"), RECORD, {"winner": 0, "score": [2, 0]}, new) == 1
    assert store.table("t1") is None
    assert [t.table_id for t in store.running_tables()] == ["t2"]
    assert store.rating("dave", "ginrummy") == new["Dave"]
    assert store.rating("Dave", "cribbage") == Rating()           # each game rated apart
    # A guest's game: stored, nobody rated.
    assert store.finish_game("t2", "ginrummy", ("Ann", "dave"), "r2", {"winner": 1}, None) == 2
    assert store.ratings(["Ann", "DAVE"], "ginrummy") == {"Ann": Rating(), "DAVE": new["Dave"]}
    first = store.game(1)
    assert first is not None and (first.players, first.record, first.result) == (
        ("Dave", "EXPERT"), RECORD, {"winner": 0, "score": [2, 0]})
    assert store.game(3) is None
    assert [g.number for g in store.games_of("DAVE")] == [2, 1]        # newest first
    assert [g.number for g in store.games_of("dave", limit=1)] == [2]
    assert store.games_of("EXPERT")[0].game == "ginrummy"
    assert store.running_tables() == []


def test_a_dropped_table_leaves_nothing(store: Store) -> None:
    store.open_table(table(moves=({"a": 1}, {"b": 2})))
    store.drop_table("t1")
    assert store.table("t1") is None and store.running_tables() == []
    store.open_table(table())           # the id is free again, with no old moves
    assert store.table("t1").moves == ()    # type: ignore[union-attr]


def test_a_move_that_is_not_json_is_refused(store: Store) -> None:
    store.open_table(table())
    with pytest.raises(StoreError, match="plain JSON values only"):
        store.add_move("t1", 0, {"card": {1, 2}})
    with pytest.raises(StoreError, match="plain JSON values only"):
        store.add_move("t1", 0, {"score": float("nan")})
    store.add_move("t1", 0, {"card": "AS"})          # nothing was stored; the table goes on


def test_a_game_not_in_the_room_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no game called 'chess'"):
        store.open_table(table(game="chess"))


# -- looking back: the rating history, the leaderboards --------------------------------

def _played(store: Store, number: int, game: str, players: tuple[str, str], winner: str | None,
            after: tuple[Rating, Rating], guest: bool = False) -> None:
    """A finished game as the room stores it: the ratings before (the store's own) and after."""
    before = store.ratings(list(players), game)
    table_id = f"t{number}"
    store.open_table(table(table_id, players, game=game))
    got = store.finish_game(table_id, game, players, f"record {number}", {"winner": winner, "how": "played"},
                            None if guest else dict(zip(players, after)), None if guest else before)
    assert got == number


def _evening(store: Store) -> None:
    for name, bot in (("Ann", False), ("bob", False), ("Stan", True), ("Cleo", False), ("Guest7", False)):
        store.create_account(name, b"s", b"t", bot, guest=name.startswith("Guest"))
    _played(store, 1, "ginrummy", ("Ann", "bob"), "Ann", (Rating(1662.0, 290.0, 0.06, 1), Rating(1338.0, 290.0, 0.06, 1)))
    _played(store, 2, "ginrummy", ("Stan", "Ann"), None, (Rating(1520.0, 100.0, 0.06, 1), Rating(1650.0, 105.0, 0.06, 2)))
    _played(store, 3, "ginrummy", ("bob", "Stan"), "Stan", (Rating(1300.0, 280.0, 0.06, 2), Rating(1540.0, 95.0, 0.06, 2)))
    _played(store, 4, "cribbage", ("Ann", "Cleo"), "Cleo", (Rating(1400.0, 300.0, 0.06, 1), Rating(1600.0, 300.0, 0.06, 1)))
    _played(store, 5, "ginrummy", ("Guest7", "Ann"), "Guest7", (Rating(), Rating()), guest=True)


def test_each_rated_game_keeps_both_ratings_before_and_after(store: Store) -> None:
    _evening(store)
    history = store.rating_history("ANN", "ginrummy")
    assert [(h.number, h.name, h.opponent, h.score) for h in history] == [(2, "Ann", "Stan", 0.5), (1, "Ann", "bob", 1.0)]
    assert history[1].before == Rating() and history[1].after == Rating(1662.0, 290.0, 0.06, 1)
    assert history[0].before == history[1].after                      # the next game starts where it ended
    assert history[0].after == store.rating("ann", "ginrummy")
    assert [h.number for h in store.rating_history("Ann", "ginrummy", limit=1)] == [2]
    assert [h.number for h in store.rating_history("Ann", "cribbage")] == [4]
    assert store.rating_history("Guest7", "ginrummy") == []           # a guest's game is not rated
    assert store.rating_history("Nobody", "ginrummy") == []


def test_a_leaderboard_puts_provisional_ratings_apart_with_each_ones_results(store: Store) -> None:
    _evening(store)
    top = store.leaderboard("ginrummy")
    assert [(s.name, s.bot, round(s.rating.rating), s.rating.games, s.wins, s.draws, s.losses) for s in top] == [
        ("Ann", False, 1650, 2, 1, 1, 0), ("Stan", True, 1540, 2, 1, 1, 0)]
    assert [s.name for s in store.leaderboard("ginrummy", provisional=True)] == ["bob"]
    assert [s.name for s in store.leaderboard("ginrummy", start=1)] == ["Stan"]
    assert [s.name for s in store.leaderboard("ginrummy", limit=1)] == ["Ann"]
    assert store.leaderboard("ginrummy", start=5) == []
    assert [s.name for s in store.leaderboard("cribbage", provisional=True)] == ["Cleo", "Ann"]
    assert store.leaderboard("cribbage") == []
    assert store.standing("BOB", "ginrummy") == Standing("bob", False, Rating(1300.0, 280.0, 0.06, 2), 0, 0, 2)
    assert store.standing("Guest7", "ginrummy") == Standing("Guest7", False, Rating(), 0, 0, 0)
    assert store.standing("Nobody", "ginrummy") is None
    with pytest.raises(StoreError, match="no game called 'chess'"):
        store.leaderboard("chess")


def test_a_list_of_games_reads_no_record_and_running_tables_come_without_moves(store: Store) -> None:
    _evening(store)
    listed = store.games_of("Ann", records=False)
    assert [(g.number, g.record) for g in listed] == [(5, ""), (4, ""), (2, ""), (1, "")]
    assert [g.result for g in listed] == [g.result for g in store.games_of("Ann")]
    store.open_table(table("late", ("Cleo", "Stan"), created=300.0, moves=({"a": 1},)))
    store.open_table(table("early", ("bob", "Ann"), created=200.0))
    assert [(t.table_id, t.players, t.moves) for t in store.running_list()] == [
        ("late", ("Cleo", "Stan"), ()), ("early", ("bob", "Ann"), ())]


def test_both_stores_look_back_alike(sqlite: SqliteStore, redis_store: RedisStore) -> None:
    def looks(store: Store) -> list[Any]:
        _evening(store)
        out: list[Any] = []
        for game in ("ginrummy", "cribbage"):
            out += [store.leaderboard(game), store.leaderboard(game, provisional=True)]
            out += [[dataclasses.replace(h, finished=0.0) for h in store.rating_history(n, game)]
                    for n in ("Ann", "BOB", "stan", "Cleo", "Guest7")]
            out += [store.standing(n, game) for n in ("Ann", "BOB", "stan", "Cleo", "Guest7", "Nobody")]
        return out

    assert looks(sqlite) == looks(redis_store)


def test_a_version_1_file_gains_the_history_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    from port.room import store as store_module

    db.executescript(store_module._SCHEMA + "PRAGMA user_version = 1;")
    db.execute("INSERT INTO accounts VALUES ('Ann', x'00', x'00', 0, 0, 1.0)")
    db.execute("INSERT INTO ratings VALUES ('Ann', 'ginrummy', 1700.0, 90.0, 0.06, 30)")
    db.execute("INSERT INTO games (game, player0, player1, record, result, finished) VALUES"
               " ('ginrummy', 'Ann', 'Bob', 'r', '{}', 1.0)")
    db.commit()
    db.close()
    store = SqliteStore(path)
    try:
        assert [g.number for g in store.games_of("Ann")] == [1]
        assert store.rating_history("Ann", "ginrummy") == []               # no history before it was kept
        assert store.leaderboard("ginrummy") == [Standing("Ann", False, Rating(1700.0, 90.0, 0.06, 30))]
    finally:
        store.close()


# -- owners and presence ---------------------------------------------------------------

def test_one_owner_per_table_until_its_claim_expires(store: Store) -> None:
    assert store.claim_table("t1", "proc-a", ttl=0.2)
    assert not store.claim_table("t1", "proc-b", ttl=0.2)
    assert store.table_owner("t1") == "proc-a"
    assert store.renew_table("t1", "proc-a", ttl=0.2)
    assert not store.renew_table("t1", "proc-b", ttl=0.2)
    time.sleep(0.25)
    assert store.table_owner("t1") is None
    assert store.claim_table("t1", "proc-b", ttl=5)
    assert not store.renew_table("t1", "proc-a", ttl=5)


def test_presence_expires_or_is_dropped(store: Store) -> None:
    store.set_presence("Dave", {"table": "t1"}, ttl=5)
    store.set_presence("Ann", {"table": None}, ttl=0.1)
    assert store.presence() == {"Dave": {"table": "t1"}, "Ann": {"table": None}}
    time.sleep(0.15)
    assert store.presence() == {"Dave": {"table": "t1"}}
    store.drop_presence("Dave")
    assert store.presence() == {}


# -- the same games from both stores ---------------------------------------------------

def _script(store: Store) -> list[Any]:
    """A room's evening: accounts, two tables (one with a name made to collide with the
    other's moves), refused moves, a finished game, a dropped table. Every return value (or error message), with the clock's values zeroed."""
    out: list[Any] = []

    def call(name: str, *args: Any, **kw: Any) -> None:
        try:
            got = getattr(store, name)(*args, **kw)
        except StoreError as e:
            got = f"StoreError: {e}"
        out.append((name, _unclocked(got)))

    call("create_account", "Dave", b"\x00\xff", b"salt", False)
    call("create_account", "dave", b"x", b"y", True)
    call("create_account", "EXPERT", b"", b"", True)
    call("create_account", "Guest0042", b"g", b"h", False, guest=True)
    call("account", "DAVE")
    call("set_token", "Dave", b"tok", 4e9)
    call("account_by_token", b"tok", 1e9)
    call("account_by_token", b"tok", 5e9)
    call("open_table", table("a", ("Dave", "EXPERT"), seed=2**63 - 1))
    call("open_table", table("a:moves", ("Guest0042", "EXPERT"), game="cribbage", rules={"limit": 121},
                             created=101.5, moves=({"lay": ["5H", "JD"]},)))
    call("open_table", table("c", seed=2**64))
    for i, move in enumerate([{"draw": "stock"}, {"discard": "JH"}, {"knock": True, "shows": [["7H", "8H"]]}]):
        call("add_move", "a", i, move)
    call("add_move", "a", 1, {"discard": "QS"})
    call("add_move", "a:moves", 0, {"peg": "5C"})
    call("add_move", "a:moves", 1, {"peg": "5C", "nested": {"x": [1, 2.5, None, "é"]}})
    call("table", "a")
    call("running_tables")
    call("rating", "Dave", "ginrummy")
    call("finish_game", "a", "ginrummy", ("Dave", "EXPERT"), RECORD, {"winner": 0},
         {"Dave": Rating(1662.31, 290.32, 0.0599, 1), "EXPERT": Rating(1337.69, 290.32, 0.0599, 1)})
    call("finish_game", "x", "ginrummy", ("EXPERT", "Dave"), "r", {"winner": None}, None)
    call("ratings", ["dave", "EXPERT", "Guest0042"], "ginrummy")
    call("game", 1)
    call("game", 2)
    call("game", 3)
    call("games_of", "dave")
    call("games_of", "EXPERT", limit=1)
    call("drop_table", "a:moves")
    call("running_tables")
    call("table", "a:moves")
    return out


def _unclocked(value: Any) -> Any:
    if isinstance(value, Account):
        return dataclasses.replace(value, created=0.0)
    if isinstance(value, FinishedGame):
        return dataclasses.replace(value, finished=0.0)
    if isinstance(value, list):
        return [_unclocked(v) for v in value]
    if isinstance(value, dict):
        return {k: _unclocked(v) for k, v in value.items()}
    return value


def test_a_redis_table_gives_the_same_games_as_a_sqlite_one(sqlite: SqliteStore, redis_store: RedisStore) -> None:
    ours, theirs = _script(sqlite), _script(redis_store)
    assert len(ours) == 31
    for mine, other in zip(ours, theirs):
        assert mine == other
    errors = [got for _, got in ours if isinstance(got, str) and got.startswith("StoreError")]
    assert errors == ["StoreError: The seed of table c does not fit in 64 bits.",
                      "StoreError: The table a has 3 moves stored, so the next is move 3, not 1.",
                      "StoreError: The table a:moves has 1 move stored, so the next is move 1, not 0."]


# -- two writers on one table ----------------------------------------------------------

def test_two_redis_processes_never_both_write_a_move(redis_url: str) -> None:
    stores = [RedisStore(redis_url) for _ in range(4)]
    stores[0].open_table(table())
    won: list[int] = []

    def write(k: int) -> None:
        for i in range(30):
            try:
                stores[k].add_move("t1", i, {"by": k, "i": i})
                won.append(k)
            except StoreError:
                pass

    threads = [threading.Thread(target=write, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    moves = stores[0].table("t1").moves      # type: ignore[union-attr]
    assert len(won) == 30 and [m["i"] for m in moves] == list(range(30))
    for s in stores:
        s.close()


def test_two_sqlite_stores_on_one_file_never_both_write_a_move(tmp_path: Path) -> None:
    a, b = SqliteStore(tmp_path / DB_NAME), SqliteStore(tmp_path / DB_NAME)
    a.open_table(table())
    a.add_move("t1", 0, {"by": "a"})
    with pytest.raises(StoreError, match="not 0"):
        b.add_move("t1", 0, {"by": "b"})
    b.add_move("t1", 1, {"by": "b"})
    assert [m["by"] for m in a.table("t1").moves] == ["a", "b"]     # type: ignore[union-attr]
    a.close()
    b.close()


# -- SQLite: durable, and a bad file is one sentence -----------------------------------

WRITER = """
import sys
from pathlib import Path
from port.room.store import SqliteStore, TableRow
store = SqliteStore(Path(sys.argv[1]))
store.open_table(TableRow("t1", "cribbage", ("Ann", "Bob"), {"limit": 121}, 3, 1.0))
i = 0
while True:
    store.add_move("t1", i, {"peg": i, "pad": "x" * 200})
    print(i, flush=True)        # the acknowledgement: after the store returned
    i += 1
"""


def test_every_acknowledged_move_survives_a_killed_writer(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    env = {**os.environ, "PYTHONPATH": str(TOP)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env, text=True)
    acked = -1
    assert proc.stdout is not None
    for line in proc.stdout:
        acked = int(line)
        if acked == 150:
            break
    proc.send_signal(signal.SIGKILL)        # mid-way: it is writing move 151 or later
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    store = SqliteStore(path)
    moves = store.table("t1").moves             # type: ignore[union-attr]
    assert len(moves) > acked
    assert moves == tuple({"peg": i, "pad": "x" * 200} for i in range(len(moves)))
    store.add_move("t1", len(moves), {"peg": "resumed"})       # the table goes on
    store.close()


def test_the_schema_is_versioned(tmp_path: Path) -> None:
    SqliteStore(tmp_path / DB_NAME).close()
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="made by a newer version of the room"):
        SqliteStore(tmp_path / DB_NAME)


def test_a_damaged_file_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(b"GinRummy statistics\r\n" * 200)
    with pytest.raises(StoreError) as err:
        SqliteStore(path)
    assert str(err.value) == f"The room database {path} is damaged or is not an SQLite database."
    assert path.read_bytes() == b"GinRummy statistics\r\n" * 200      # and nothing is lost


def test_a_damaged_page_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    store = SqliteStore(path)
    store.open_table(table(moves=tuple({"i": i, "pad": "y" * 500} for i in range(40))))
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 + 8: 4096 * 3] = b"\xa5" * (4096 * 2 - 8)         # pages 2 and 3 scribbled over
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=f"The room database {path} is damaged"):
        SqliteStore(path)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(StoreError, match="is an SQLite database but not the room's"):
        SqliteStore(path)


def test_a_missing_data_directory_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=f"directory {tmp_path / 'gone'} does not exist"):
        SqliteStore(tmp_path / "gone" / DB_NAME)


def test_a_data_directory_that_is_a_file_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    with pytest.raises(StoreError, match=f"directory {tmp_path / 'data'} is not a directory"):
        SqliteStore(tmp_path / "data" / DB_NAME)


OPENER = """
import sys
from pathlib import Path
from port.room.store import SqliteStore
SqliteStore(Path(sys.argv[1])).close()
print("opened")
"""


def test_processes_opening_a_new_file_at_once_make_it_once(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(TOP)}
    procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(tmp_path / DB_NAME)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=30) for p in procs]
    assert [o for o, _ in outs] == ["opened\n"] * 4, [e for _, e in outs]
    SqliteStore(tmp_path / DB_NAME).close()


@pytest.mark.skipif(os.geteuid() == 0, reason="as root every directory is writable")
def test_a_read_only_directory_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(StoreError, match=f"data directory {folder} is read-only"):
            SqliteStore(folder / DB_NAME)
    finally:
        folder.chmod(0o755)


def test_a_redis_that_goes_away_is_one_sentence(own_redis: tuple[subprocess.Popen[bytes], str]) -> None:
    proc, url = own_redis
    store = RedisStore(url)
    store.open_table(table())
    proc.kill()
    proc.wait()
    with pytest.raises(StoreError) as err:
        store.add_move("t1", 0, {"draw": "stock"})
    assert str(err.value) == f"The room lost its connection to Redis at {url}."
    store.close()


def test_an_unreachable_redis_is_one_sentence() -> None:
    import socket

    with socket.socket() as s:          # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/0"
    with pytest.raises(StoreError) as err:
        RedisStore(url)
    assert str(err.value) == f"The room cannot reach Redis at {url}."
    with pytest.raises(StoreError, match="cannot reach Redis at nonsense"):
        RedisStore("nonsense")


def test_a_full_disk_is_said_so_and_the_store_goes_on_when_there_is_space(tmp_path: Path) -> None:
    """SQLITE_FULL made for real: the file may not grow past its pages (``PRAGMA
    max_page_count``), as on a full disk (tests/room/test_disk_full.py fills a real one)."""
    store = SqliteStore(tmp_path / DB_NAME)
    store.open_table(table("t1"))
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    big = {"seat": 0, "move": {"act": "note", "text": "x" * 20000}}
    with pytest.raises(StoreFull, match="^The room's disk is full: .*ROOM.DB cannot grow.$"):
        store.add_move("t1", 0, big)
    store._db.execute(f"PRAGMA max_page_count = {pages + 100}")
    store.add_move("t1", 0, big)                       # the transaction was rolled back: on again
    assert store.table("t1").moves == (big,)          # type: ignore[union-attr]
    store.close()


def test_the_database_is_its_owners_only(tmp_path: Path) -> None:
    before = os.umask(0o022)                 # a umask that would leave it readable by all
    try:
        store = SqliteStore(tmp_path / DB_NAME)
        store.create_account("Dave", b"s", b"t", bot=False)
        modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
        assert modes == {DB_NAME: 0o600, DB_NAME + "-wal": 0o600, DB_NAME + "-shm": 0o600}
        store.close()
    finally:
        os.umask(before)


@pytest.mark.parametrize("cls", [SqliteStore, RedisStore])
def test_both_stores_have_every_method_of_the_interface(cls: type) -> None:
    import inspect

    wanted = {n: f for n, f in vars(Store).items() if callable(f) and not n.startswith("_")}
    assert len(wanted) == 32
    for name, proto in wanted.items():
        theirs = inspect.signature(getattr(cls, name))
        assert list(theirs.parameters) == list(inspect.signature(proto).parameters), name
        assert [p.default for p in theirs.parameters.values()] == [
            p.default for p in inspect.signature(proto).parameters.values()], name
