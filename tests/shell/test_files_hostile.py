"""The Files unit against a hostile user and a crashing machine (issue 14).

One test per failure the issue found, named after it (each failed before the fix), then
property tests of every loader over generated damage. Real files in real temporary
directories; crashes are real SIGKILLs of real processes; a full disk is a real file-size
limit (RLIMIT_FSIZE). The long version of these is scripts/soak_files.py.
"""
from __future__ import annotations

import datetime
import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from port.files import records
from port.ginrummy import files
from port.ginrummy.files import CFG, SCR, STA, Config, GameRecord, PlayerStats, Result, Store

DAY = datetime.date(1994, 3, 5)
REPO = Path(__file__).resolve().parents[2]
LONGINT_MAX = 2**31 - 1


def game(name: str = "Dave", me: int = 120, cpu: int = 80, hands: int = 6) -> GameRecord:
    return GameRecord(name, me, cpu, hands, 100, False, Result.WON, DAY)


def sta_of(*lines: str) -> bytes:
    """A GINRUMMY.STA whose records are these lines, every checksum right."""
    return records.pack(STA, list(lines))


def good_players(n: int = 3) -> list[str]:
    return [f"{i} 1 0 {5 + i} {100 + i} {60 + i} P{i}" for i in range(n)]


def python(code: str, *args: str, timeout: float = 20, **kw: object) -> subprocess.CompletedProcess[str]:
    """Run some Python in a child process (the same interpreter, the same port)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout, **kw)


def every_value_is_bounded(store: Store) -> None:
    """What a loaded store holds can be shown: bounded numbers, sane names, a table."""
    for p in store.stats():
        for v in (p.won, p.lost, p.drawn, p.hands, p.points, p.against):
            assert 0 <= v <= LONGINT_MAX
        assert 0 < len(p.name) <= 8 and f"{p.average:.2f}" and f"{p.average_against:.2f}"
    for h in store.high_scores():
        assert 0 < h.score <= LONGINT_MAX and 0 < h.hands <= LONGINT_MAX and 0 <= h.limit <= 999
        assert f"{h.average:>7.2f}" and h.date.isoformat()
    assert len(store.stats()) <= 20 and len(store.high_scores()) <= 20
    files.format_stats(store.stats())


# ---- 1. a number over 4,300 digits -----------------------------------------------------------

def test_defect_1_a_number_over_4300_digits_is_damage_not_an_internal_error(tmp_path: Path) -> None:
    huge = "9" * 5000                         # past Python's int-from-string limit
    damaged = sta_of(*good_players(2), f"1 0 0 {huge} 10 10 Huge")
    (tmp_path / STA).write_bytes(damaged)
    (tmp_path / SCR).write_bytes(records.pack(SCR, [f"1994-03-05 {huge} 100 5 N Huge"]))
    (tmp_path / CFG).write_bytes(records.pack(CFG, [f"score_limit={huge}", "name=Dave"]))
    store = Store.open(tmp_path)
    assert store.players() == ["P0", "P1"] and store.high_scores() == []
    assert store.config == Config(name="Dave")
    assert len(store.take_notices()) == 3
    assert (tmp_path / "GINRUMMY.STA.bad1").read_bytes() == damaged
    # the version header too
    (tmp_path / STA).write_bytes(b"GINRUMMY.STA " + huge.encode() + damaged[damaged.index(b"\n"):])
    assert Store.open(tmp_path).players() == ["P0", "P1"]
    # and `ginrummy list` reads it without a traceback
    (tmp_path / STA).write_bytes(damaged)
    players, warnings = files.read_stats(tmp_path)
    assert [p.name for p in players] == ["P0", "P1"] and "damaged" in warnings[0]


# ---- 2. a crash or a full disk during a repair ------------------------------------------------

_KILL_AT_STEP = """
    import os, signal, sys
    from pathlib import Path
    from port.ginrummy.files import Store
    step, n = 0, int(sys.argv[2])
    def hook(event, args):
        global step
        if event in ("open", "os.link", "os.rename", "os.remove", "os.chmod", "os.chown",
                     "os.scandir", "os.mkdir", "os.symlink"):
            step += 1
            if step == n:
                os.kill(os.getpid(), signal.SIGKILL)
    sys.addaudithook(hook)
    Store.open(Path(sys.argv[1]))
    print("whole")
"""


def _kept_somewhere(d: Path, data: bytes) -> bool:
    return any(p.read_bytes() == data for p in d.iterdir() if p.name.startswith(STA) and p.is_file())


def test_defect_2_a_crash_at_every_step_of_a_repair_leaves_a_statistics_file(tmp_path: Path) -> None:
    """kill -9 before each file operation of the repair in turn: the statistics file is
    always there (the damaged one or the whole repaired one) and the damaged bytes are
    never lost."""
    damaged = sta_of(*good_players(5))[:-7]          # cut short: damaged
    step = 0
    while True:
        step += 1
        d = tmp_path / f"kill{step}"
        d.mkdir()
        (d / STA).write_bytes(damaged)
        done = python(_KILL_AT_STEP, str(d), str(step))
        assert (d / STA).exists(), f"no statistics file after a kill at step {step}"
        now = (d / STA).read_bytes()
        assert now == damaged or records.unpack(STA, now).whole, step
        assert _kept_somewhere(d, damaged), step
        after = Store.open(d)                          # the next start: all five players
        assert after.players() == ["P0", "P1", "P2", "P3", "P4"], step
        assert len([p for p in d.iterdir() if ".bad" in p.name]) == 1, step   # kept aside once
        assert not [p for p in d.iterdir() if p.name.endswith(".tmp")], step
        if done.stdout.strip() == "whole":
            break
        assert done.returncode == -9, done.stderr
    assert step > 3                                    # the kills did land inside the repair


_FULL_DISK = """
    import json, resource, signal, sys
    from pathlib import Path
    from port.ginrummy.files import Store
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a full disk: writes fail with EFBIG
    limit = int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    store = Store.open(Path(sys.argv[1]))
    print(json.dumps([store.players(), store.take_notices()]))
"""


def test_defect_2_a_full_disk_during_a_repair_leaves_the_damaged_file_in_place(tmp_path: Path) -> None:
    damaged = sta_of(*good_players(20))[:-7]
    (tmp_path / STA).write_bytes(damaged)
    done = python(_FULL_DISK, str(tmp_path), "200")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    players, [notice] = json.loads(done.stdout)
    assert len(players) == 20 and "cannot be repaired" in notice
    assert (tmp_path / STA).read_bytes() == damaged
    # with room again, the next start repairs it
    store = Store.open(tmp_path)
    assert len(store.players()) == 20 and "20 players recovered" in store.take_notices()[0]


# ---- 3. two copies on one directory -----------------------------------------------------------

_RECORDER = """
    import datetime, sys
    from pathlib import Path
    from port.ginrummy.files import GameRecord, Result, Store
    store = Store.open(Path(sys.argv[1]))
    names = ["Ann", "Bob", sys.argv[2]]
    for i in range(int(sys.argv[3])):
        store.record_game(GameRecord(names[i % 3], 100, 50, 5, 100, False, Result.WON,
                                     datetime.date(2000, 1, 1)))
    assert store.take_notices() == []
"""


def test_defect_3_two_copies_recording_at_once_lose_no_game(tmp_path: Path) -> None:
    games = 150
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    children = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(_RECORDER), str(tmp_path),
                                  own, str(games)], cwd=REPO, env=env, stderr=subprocess.PIPE)
                for own in ("One", "Two")]
    for child in children:
        assert child.stderr is not None
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    store = Store.open(tmp_path)
    total = {p.name: p.won for p in store.stats()}
    assert sum(total.values()) == 2 * games
    assert total == {"Ann": 100, "Bob": 100, "One": 50, "Two": 50}


# ---- 4. absurd values with valid checksums -------------------------------------------------

def test_defect_4_absurd_values_with_valid_checksums_are_refused(tmp_path: Path) -> None:
    absurd = str(10**400)
    (tmp_path / STA).write_bytes(sta_of(f"1 0 0 5 {absurd} 10 Absurd", *good_players(1),
                                        f"1 0 0 {LONGINT_MAX + 1} 5 5 Over"))
    (tmp_path / SCR).write_bytes(records.pack(SCR, [f"1994-03-05 {absurd} 100 5 N Absurd",
                                                  "1994-03-05 120 100 5 N Fine",
                                                  "+99999-01-01 120 100 5 N Odd",
                                                  "1994-03-05 120 100 0 N NoHands"]))
    store = Store.open(tmp_path)
    assert store.players() == ["P0"] and [h.name for h in store.high_scores()] == ["Fine"]
    every_value_is_bounded(store)
    assert len(store.take_notices()) == 2


def test_defect_4_absurd_values_arriving_mid_session_do_not_crash_list_or_the_screens(
        headless_pyxel, tmp_path: Path) -> None:
    """Another program writes absurd totals while the game runs: the game's next re-read
    refuses them, and the STATISTICS and HIGH SCORES screens and `list` still show."""
    from port.ginrummy.main import menus
    from tests.ginrummy.helpers import open_game

    d = open_game(tmp_path, name="Dave")
    absurd = str(10**400)
    (tmp_path / STA).write_bytes(sta_of(f"1 0 0 5 {absurd} {absurd} Dave"))
    (tmp_path / SCR).write_bytes(records.pack(SCR, [f"1994-03-05 {absurd} 100 5 N Dave"]))
    players, _ = files.read_stats(tmp_path)
    assert players == [] and files.format_stats(players)
    store = d.controller.ctx.store
    store.record_game(game("Dave"))
    every_value_is_bounded(store)
    d.key("S")
    assert isinstance(d.controller, menus.StatsScreen)
    d.step(2)
    d.key("M")
    d.key("H")
    assert isinstance(d.controller, menus.ScoresScreen)
    d.step(2)
    assert [h.score for h in store.high_scores()] == [120]


# ---- 5. a FIFO, a socket or a device in place of a data file -----------------------------------

_OPEN_AND_RECORD = """
    import datetime, json, sys
    from pathlib import Path
    from port.ginrummy.files import GameRecord, Result, Store
    store = Store.open(Path(sys.argv[1]))
    store.record_game(GameRecord("Dave", 100, 50, 5, 100, False, Result.WON, datetime.date(2000, 1, 1)))
    print(json.dumps(store.take_notices()))
"""


@pytest.mark.parametrize("kind", ["fifo", "socket", "device"])
def test_defect_5_a_fifo_in_place_of_a_data_file_does_not_hang(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(tmp_path / CFG)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / CFG))
        server.close()                  # the socket file stays
    else:
        (tmp_path / CFG).symlink_to("/dev/zero")
    done = python(_OPEN_AND_RECORD, str(tmp_path), timeout=15)
    assert done.returncode == 0, done.stderr
    [notice] = json.loads(done.stdout)
    assert "Cannot read GINRUMMY.CFG" in notice
    assert Store.open(tmp_path).player("Dave").won == 1      # the statistics still saved
    mode = os.lstat(tmp_path / CFG).st_mode
    assert {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISLNK}[kind](mode)
    players, warnings = files.read_stats(tmp_path)              # and `list` reads the rest
    assert [p.name for p in players] == ["Dave"]


def test_defect_5_list_of_a_fifo_statistics_file_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / STA)
    done = python("import sys; from port.ginrummy.main import main; sys.exit(main(['list', sys.argv[1]]))",
                  str(tmp_path), timeout=15)
    assert done.returncode == 0 and "not a regular file" in done.stdout


# ---- 8. one unreadable file ---------------------------------------------------------------

@pytest.mark.parametrize("unreadable", [CFG, SCR])
def test_defect_8_one_unreadable_file_leaves_the_statistics_working(tmp_path: Path, unreadable: str) -> None:
    (tmp_path / unreadable).mkdir()                 # unreadable even for root
    store = Store.open(tmp_path)
    [notice] = store.take_notices()
    assert f"Cannot read {unreadable}" in notice
    store.record_game(game())
    assert store.take_notices() == []
    assert Store.open(tmp_path).player("Dave").won == 1          # saved on disk
    if unreadable == CFG:
        assert Store.open(tmp_path).high_scores()[0].score == 120
    assert (tmp_path / unreadable).is_dir()                       # and left alone


# ---- 9. the file's mode and a symlink ------------------------------------------------------

def test_defect_9_a_save_keeps_the_files_mode(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_game(game())
    store.save_config(Config(name="Dave"))
    for name, mode in ((STA, 0o644), (CFG, 0o664), (SCR, 0o640)):
        (tmp_path / name).chmod(mode)
    store.record_game(game())
    store.save_config(Config(name="Ann"))
    for name, mode in ((STA, 0o644), (CFG, 0o664), (SCR, 0o640)):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_defect_9_a_new_file_gets_the_usual_mode_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        Store.open(tmp_path).record_game(game())
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / STA).stat().st_mode) == 0o644


def test_defect_9_a_symlinked_file_is_written_through_to_its_target(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    game_dir = tmp_path / "game"
    game_dir.mkdir()
    (elsewhere / "gin.sta").write_bytes(sta_of(*good_players(1)))
    (game_dir / STA).symlink_to(elsewhere / "gin.sta")
    (game_dir / CFG).symlink_to("../elsewhere/not-yet.cfg")      # a link to a file not made yet
    store = Store.open(game_dir)
    store.record_game(game())
    store.save_config(Config(name="Linked"))
    assert (game_dir / STA).is_symlink() and (game_dir / CFG).is_symlink()
    assert Store.open(game_dir).players() == ["Dave", "P0"]
    assert Config(name="Linked") == Store.open(game_dir).config
    assert (elsewhere / "not-yet.cfg").is_file()
    # a damaged linked file is repaired through the link, kept aside beside its target
    (elsewhere / "gin.sta").write_bytes(b"junk")
    store = Store.open(game_dir)
    assert "gin.sta.bad1" in store.take_notices()[0]
    assert (game_dir / STA).is_symlink() and (elsewhere / "gin.sta.bad1").read_bytes() == b"junk"


# ---- 10. leftover .tmp files ------------------------------------------------------------

def test_defect_10_tmp_files_of_interrupted_saves_are_removed(tmp_path: Path) -> None:
    Store.open(tmp_path).record_game(game())
    leftovers = [tmp_path / f"{name}.{tag}.tmp" for name in (CFG, STA, SCR)
                 for tag in ("a1b2c3d4", "x_9kq2mz")]
    for p in leftovers:
        p.write_bytes(b"half a save")
    mine = [tmp_path / "GINRUMMY.STA.notes.tmp", tmp_path / "OTHER.STA.a1b2c3d4.tmp", tmp_path / "keep.tmp"]
    for p in mine:
        p.write_bytes(b"not the game's")
    store = Store.open(tmp_path)
    assert store.take_notices() == [] and store.players() == ["Dave"]
    assert not any(p.exists() for p in leftovers)
    assert all(p.exists() for p in mine)


# ---- property tests of every loader -------------------------------------------------------

def _good_files() -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp))
        store.save_config(Config(name="Saved", gin_bonus=10, score_limit=250, pointer=3))
        for i in range(20):
            store.record_game(game(f"P{i:02}", me=100 + i, hands=5 + i % 3))
        return {p.name: p.read_bytes() for p in Path(tmp).iterdir()}


GOOD = _good_files()

_hostile_number = st.one_of(
    st.integers(0, 10**12).map(str),
    st.integers(1, 6000).map(lambda n: "9" * n),
    st.sampled_from(["-1", "+5", " 7", "1_000", "١٢", "²", "0x1F", "1e9", "", "2147483648",
                     "2147483647", "00000000000000000001"]),
)
# Text as a line of a file can hold it: no line breaks, no lone surrogates (no UTF-8
# encoding has them; arbitrary bytes are the "bytes" damage's part).
_hostile_text = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30)


@st.composite
def _hostile_record(draw: st.DrawFn, name: str) -> str:
    """A record line with a right checksum and fields drawn from hostile values."""
    n = _hostile_number
    if name == STA:
        return " ".join([*(draw(n) for _ in range(6)), draw(_hostile_text)])
    if name == SCR:
        date = draw(st.one_of(st.dates().map(str), st.sampled_from(
            ["2024-13-45", "20240102", "+99999-01-01", "2024-W01-1", "0000-00-00"]), _hostile_text))
        return " ".join([date, draw(n), draw(n), draw(n), draw(st.sampled_from(["Y", "N", "y", "YES"])),
                         draw(_hostile_text)])
    key = draw(st.sampled_from([*files.CFG_FORMAT.codecs, "noblank", ""]))
    return f"{key}={draw(st.one_of(n, _hostile_text))}"


@st.composite
def damaged_file(draw: st.DrawFn) -> tuple[str, bytes]:
    name = draw(st.sampled_from([CFG, STA, SCR]))
    data = GOOD[name]
    kind = draw(st.sampled_from(["records", "bytes", "truncate", "flip", "header"]))
    if kind == "records":
        lines = records.unpack(name, data).lines
        for _ in range(draw(st.integers(1, 3))):
            lines.insert(draw(st.integers(0, len(lines))), draw(_hostile_record(name)))
        data = records.pack(name, lines)
    elif kind == "bytes":
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at + draw(st.integers(0, 8)):]
    elif kind == "truncate":
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif kind == "flip":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([data[at] ^ (1 << draw(st.integers(0, 7)))]) + data[at + 1:]
    else:
        version = draw(st.one_of(_hostile_number, _hostile_text))
        data = f"{name} {version}".encode("utf-8", "replace") + data[data.index(b"\n"):]
    return name, data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_file())
def test_every_loader_survives_generated_damage(case: tuple[str, bytes]) -> None:
    """Whatever the damage: the game starts with bounded values, `list` reads without
    changing anything, the damaged bytes are kept, and the next start is quiet."""
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for other, content in GOOD.items():
            (d / other).write_bytes(data if other == name else content)
        players, _ = files.read_stats(d)
        files.format_stats(players)
        assert (d / name).read_bytes() == data                       # `list` changed nothing
        store = Store.open(d)
        every_value_is_bounded(store)
        notices = store.take_notices()
        if (d / name).read_bytes() != data:                          # repaired: kept aside
            assert (d / f"{name}.bad1").read_bytes() == data and len(notices) == 1
        again = Store.open(d)
        assert again.take_notices() == []
        assert (again.config, again.stats(), again.high_scores()) == \
            (store.config, store.stats(), store.high_scores())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([CFG, STA, SCR]), st.binary(max_size=600))
def test_every_loader_takes_any_bytes(name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / name).write_bytes(data)
        store = Store.open(d)
        every_value_is_bounded(store)
        assert len(store.take_notices()) <= 1
        assert (d / name).read_bytes() == data or (d / f"{name}.bad1").read_bytes() == data


def test_a_file_of_4_gib_is_read_only_to_its_limit(tmp_path: Path) -> None:
    with open(tmp_path / STA, "wb") as f:                 # sparse: no 4 GiB written
        f.write(sta_of(*good_players(3)))
        f.truncate(4 << 30)
    store = Store.open(tmp_path)
    assert store.players() == ["P0", "P1", "P2"] and "3 players recovered" in store.take_notices()[0]
    assert (tmp_path / "GINRUMMY.STA.bad1").stat().st_size == 4 << 30
    assert (tmp_path / STA).stat().st_size < 1000


def test_a_file_of_4_gib_is_listed_without_reading_it_all(tmp_path: Path) -> None:
    with open(tmp_path / STA, "wb") as f:
        f.write(sta_of(*good_players(2)))
        f.truncate(4 << 30)
    done = python("""
        import resource, sys
        from port.ginrummy.files import read_stats
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))    # no 4 GiB read
        players, warnings = read_stats(sys.argv[1])
        print([p.name for p in players], warnings)
    """, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "['P0', 'P1']" in done.stdout and "damaged" in done.stdout


def test_a_player_at_longint_keeps_every_total_readable(tmp_path: Path) -> None:
    top = LONGINT_MAX
    (tmp_path / STA).write_bytes(sta_of(f"{top} 0 0 {top} {top} {top} Dave"))
    store = Store.open(tmp_path)
    assert store.take_notices() == []
    assert store.record_game(game()).stats == PlayerStats("Dave", top, 0, 0, top, top, top)
    assert Store.open(tmp_path).take_notices() == []


def test_a_symlink_loop_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / STA).symlink_to(STA)
    store = Store.open(tmp_path)
    assert "Cannot read GINRUMMY.STA" in store.take_notices()[0]
    store.record_game(game())
    assert store.player("Dave").won == 1 and (tmp_path / STA).is_symlink()


def test_no_file_opens_for_longer_than_it_takes_to_read(tmp_path: Path) -> None:
    """Every read is bounded: a directory of the three files, each a FIFO with no writer,
    is opened, recorded into and listed within seconds."""
    for name in (CFG, STA, SCR):
        os.mkfifo(tmp_path / name)
    done = python(_OPEN_AND_RECORD, str(tmp_path), timeout=15)
    assert done.returncode == 0, done.stderr
    [notice] = json.loads(done.stdout)
    assert "GINRUMMY.CFG, GINRUMMY.STA and GINRUMMY.SCR" in notice


# ---- the lock -------------------------------------------------------------------------------

@pytest.mark.parametrize("use_flock", [True, False], ids=["flock", "lock-file"])
def test_the_lock_keeps_a_second_holder_out_until_the_first_lets_go(tmp_path: Path, use_flock: bool) -> None:
    from port.files.lock import locked

    with locked(tmp_path, "GINRUMMY.LCK", use_flock=use_flock) as first:
        with locked(tmp_path, "GINRUMMY.LCK", wait=0.05, use_flock=use_flock) as second:
            assert first is True and second is False      # waited, then went on without it
    with locked(tmp_path, "GINRUMMY.LCK", wait=0.05, use_flock=use_flock) as again:
        assert again is True
    assert list(tmp_path.iterdir()) == []                 # nothing left behind


def test_a_lock_file_left_by_a_crash_is_taken_over(tmp_path: Path) -> None:
    from port.files import lock

    stale = tmp_path / "GINRUMMY.LCK"
    stale.write_text("12345")
    old = time.time() - lock.STALE - 5
    os.utime(stale, (old, old))
    with lock.locked(tmp_path, "GINRUMMY.LCK", wait=0.05, use_flock=False) as held:
        assert held is True
    assert not stale.exists()


def test_two_copies_lose_no_game_with_the_lock_file_fallback(tmp_path: Path) -> None:
    code = _RECORDER.replace("store = Store.open(Path(sys.argv[1]))", (
        "from port.files import DiskBackend\n"
        "    store = Store.open(backend=DiskBackend(Path(sys.argv[1]), 'GINRUMMY.LCK', use_flock=False))"))
    children = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), str(tmp_path), own, "60"],
                                 cwd=REPO, stderr=subprocess.PIPE) for own in ("One", "Two")]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    assert sum(p.won for p in Store.open(tmp_path).stats()) == 120
