"""Never lose data: damaged, truncated and garbage files, unwritable disks, crashes.

Every test uses real files in a real temporary directory. A read-only directory is
made with chmod; as root (which ignores permission bits) with ``chattr +i``, which
binds root too; the test is skipped only when neither can be done here.
"""
from __future__ import annotations

import datetime
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from port.files import records
from port.ginrummy import files
from port.ginrummy.files import CFG, SCR, STA, Config, GameRecord, PlayerStats, Result, Store

DAY = datetime.date(1994, 3, 5)
REPO = Path(__file__).resolve().parents[2]


def game(name: str = "Dave", me: int = 120, cpu: int = 80, hands: int = 6) -> GameRecord:
    return GameRecord(name, me, cpu, hands, 100, False, Result.WON, DAY)


def full_dir(d: Path) -> list[PlayerStats]:
    """A directory with a 20-player statistics file, 20 high scores and a config."""
    store = Store.open(d)
    store.save_config(Config(name="Saved", gin_bonus=10, score_limit=250, pointer=3))
    for i in range(20):
        store.record_game(game(f"P{i:02}", me=100 + i, hands=5 + i % 3))
    assert store.take_notices() == []
    return store.stats()


def snapshot(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()}


# ---- a read-only directory, for real -------------------------------------------------

def _lock(d: Path) -> bool:
    if os.geteuid() != 0:
        d.chmod(0o555)
        return True
    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", "+i", str(d)], capture_output=True).returncode == 0


def _unlock(d: Path) -> None:
    if os.geteuid() != 0:
        d.chmod(0o755)
    else:
        subprocess.run(["chattr", "-i", str(d)], capture_output=True)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A directory with good files in it, then made read-only."""
    d = tmp_path / "ro"
    d.mkdir()
    full_dir(d)
    if not _lock(d):
        pytest.skip("cannot make a read-only directory here: root without chattr +i")
    try:
        probe = d / "probe"
        try:
            probe.write_text("x")
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("this filesystem ignores chattr +i / chmod for us")
        yield d
    finally:
        _unlock(d)


# ---- damage of every kind ------------------------------------------------------------

def test_a_flipped_byte_keeps_the_file_aside_and_every_other_player(tmp_path: Path) -> None:
    good = full_dir(tmp_path)
    data = bytearray((tmp_path / STA).read_bytes())
    line_start = data.index(b"\n", data.index(b"P05") - 40) + 1
    data[line_start + 12] ^= 0x01                       # inside the record of P05 (or next)
    (tmp_path / STA).write_bytes(bytes(data))
    store = Store.open(tmp_path)
    [notice] = store.take_notices()
    assert "GINRUMMY.STA was damaged" in notice and "GINRUMMY.STA.bad1" in notice
    assert "19 players recovered" in notice
    assert (tmp_path / "GINRUMMY.STA.bad1").read_bytes() == bytes(data)
    assert len(store.stats()) == 19 and set(store.stats()) < set(good)
    # the repaired file is whole again: the next start is quiet
    again = Store.open(tmp_path)
    assert again.take_notices() == [] and again.stats() == store.stats()


@pytest.mark.parametrize("name", [CFG, STA, SCR])
def test_every_truncation_starts_and_keeps_every_whole_record(tmp_path: Path, name: str) -> None:
    full_dir(tmp_path)
    original = snapshot(tmp_path)
    data = original[name]
    # every third cut, and every cut next to a line end (where records begin and end)
    ends = [i for i, b in enumerate(data) if b == 0x0A]
    cuts = sorted({*range(0, len(data), 3), *(e + k for e in ends for k in (-1, 0, 1))} - {len(data)})
    for cut in cuts:
        d = tmp_path / f"cut{cut}"
        d.mkdir()
        for other, content in original.items():
            (d / other).write_bytes(content[:cut] if other == name else content)
        store = Store.open(d)
        notices = store.take_notices()
        assert len(notices) == 1 and name in notices[0], cut
        assert (d / f"{name}.bad1").read_bytes() == data[:cut]
        # each record whose line survived whole is still there
        survived = [ln for ln in data[:cut].split(b"\n")[1:-1] if not ln.startswith(b"END")]
        repaired = (d / name).read_bytes()
        for ln in survived:
            assert ln in repaired, (cut, ln)
        shutil.rmtree(d)


def test_garbage_in_every_file_starts_with_defaults_and_keeps_the_garbage(tmp_path: Path) -> None:
    junk = {name: os.urandom(3000) for name in (CFG, STA, SCR)}
    for name, content in junk.items():
        (tmp_path / name).write_bytes(content)
    store = Store.open(tmp_path)
    assert store.config == Config() and store.stats() == [] and store.high_scores() == []
    notices = store.take_notices()
    assert len(notices) == 3 and all("a new one started" in n for n in notices)
    assert store.take_notices() == []                   # told once
    for name, content in junk.items():
        assert (tmp_path / f"{name}.bad1").read_bytes() == content
    # "If this file is not present, or is corrupted, it will be created with the
    # default options."
    assert Store.open(tmp_path).config == Config()
    store.record_game(game())
    assert store.take_notices() == []
    assert Store.open(tmp_path).player("Dave").games == 1


@pytest.mark.parametrize("content", [b"", b"\n", b"GINRUMMY.STA 1\n", b"\x00" * 512,
                                     b"GINRUMMY.STA 1\nEND 0 00000000\n", b"x" * (2 << 20)])
def test_odd_contents_never_stop_the_game(tmp_path: Path, content: bytes) -> None:
    (tmp_path / STA).write_bytes(content)
    store = Store.open(tmp_path)
    assert store.stats() == []
    assert len(store.take_notices()) == 1
    assert (tmp_path / "GINRUMMY.STA.bad1").read_bytes() == content


def test_an_earlier_kept_aside_file_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "GINRUMMY.STA.bad1").write_bytes(b"first")
    (tmp_path / STA).write_bytes(b"second")
    Store.open(tmp_path)
    (tmp_path / STA).write_bytes(b"third")
    Store.open(tmp_path)
    assert [(tmp_path / f"GINRUMMY.STA.bad{i}").read_bytes() for i in (1, 2, 3)] == \
        [b"first", b"second", b"third"]


def test_one_bad_option_keeps_the_others(tmp_path: Path) -> None:
    full_dir(tmp_path)
    data = (tmp_path / CFG).read_bytes().replace(b"pointer=3", b"pointer=9")
    (tmp_path / CFG).write_bytes(data)
    store = Store.open(tmp_path)
    assert store.config == Config(name="Saved", gin_bonus=10, score_limit=250)
    [notice] = store.take_notices()
    assert "GINRUMMY.CFG was damaged" in notice


def test_a_file_of_another_version_is_kept_aside_not_read(tmp_path: Path) -> None:
    full_dir(tmp_path)
    data = (tmp_path / STA).read_bytes().replace(b"GINRUMMY.STA 1", b"GINRUMMY.STA 2", 1)
    (tmp_path / STA).write_bytes(data)
    store = Store.open(tmp_path)
    assert store.stats() == []
    [notice] = store.take_notices()
    assert "another version" in notice
    assert (tmp_path / "GINRUMMY.STA.bad1").read_bytes() == data


def test_windows_line_ends_lose_nothing(tmp_path: Path) -> None:
    good = full_dir(tmp_path)
    (tmp_path / STA).write_bytes((tmp_path / STA).read_bytes().replace(b"\n", b"\r\n"))
    store = Store.open(tmp_path)
    assert store.stats() == good
    assert "20 players recovered" in store.take_notices()[0]


def test_a_name_written_twice_keeps_the_first(tmp_path: Path) -> None:
    lines = [files.stats_line(PlayerStats("Ann", won=3, hands=9)),
             files.stats_line(PlayerStats("Ann", won=1, hands=2))]
    (tmp_path / STA).write_bytes(records.pack(STA, lines))
    store = Store.open(tmp_path)
    assert store.stats() == [PlayerStats("Ann", won=3, hands=9)]
    assert len(store.take_notices()) == 1


_GOOD: dict[str, tuple[bytes, list[PlayerStats]]] = {}


def _good_sta() -> tuple[bytes, list[PlayerStats]]:
    """A whole 20-player GINRUMMY.STA, made once."""
    if not _GOOD:
        with tempfile.TemporaryDirectory() as tmp:
            good = full_dir(Path(tmp))
            _GOOD["sta"] = ((Path(tmp) / STA).read_bytes(), good)
    return _GOOD["sta"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 2000), st.binary(min_size=1, max_size=8)),
                min_size=1, max_size=4))
def test_random_damage_never_invents_or_loses_a_whole_record(damage: list[tuple[int, bytes]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        original, good = _good_sta()
        data = bytearray(original)
        for where, junk in damage:
            where %= len(data)
            data[where:where + len(junk)] = junk          # overwrite (may also grow it)
        data = bytes(data)
        (d / STA).write_bytes(data)
        store = Store.open(d)
        got = store.stats()
        assert set(got) <= set(good)                      # nothing invented
        for p in good:                                    # nothing intact lost
            line = files.stats_line(p).encode()
            if b"\n" + records.crc(line).encode() + b" " + line + b"\n" in data:
                assert p in got
        if data == original:
            assert got == good and store.take_notices() == []
        else:
            assert (d / "GINRUMMY.STA.bad1").read_bytes() == data


# ---- disks that say no ---------------------------------------------------------------

def test_a_read_only_directory_keeps_statistics_in_memory_with_one_notice(read_only: Path) -> None:
    before = snapshot(read_only)
    store = Store.open(read_only)
    assert store.config.name == "Saved" and len(store.stats()) == 20   # what is there is read
    assert store.take_notices() == []
    store.record_game(game("Dave", me=200, hands=5))
    [notice] = store.take_notices()
    assert "GINRUMMY.STA" in notice and "this session only" in notice
    store.record_game(game("Dave"))
    assert store.take_notices() == []                  # once
    assert store.player("Dave").games == 2             # kept for the session
    assert store.high_scores()[0].name == "Dave"
    assert not store.save_config(Config(name="New"))
    assert snapshot(read_only) == before               # and the disk is untouched


def test_a_damaged_file_on_a_read_only_directory_is_left_alone(read_only: Path) -> None:
    _unlock(read_only)
    (read_only / STA).write_bytes(b"garbage")
    _lock(read_only)
    store = Store.open(read_only)
    [notice] = store.take_notices()
    assert "cannot be repaired" in notice
    assert (read_only / STA).read_bytes() == b"garbage"
    store.record_game(game())
    assert store.player("Dave").games == 1 and store.take_notices() == []


def test_a_missing_directory_keeps_statistics_in_memory(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a directory")
    where = tmp_path / "plain" / "saves"
    store = Store.open(where)
    assert store.config == Config() and store.take_notices() == []
    store.record_game(game())
    [notice] = store.take_notices()
    assert "this session only" in notice
    assert store.player("Dave").games == 1


def test_an_unreadable_file_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / STA).mkdir()                          # a directory where the file should be
    (tmp_path / STA / "keep").write_text("mine")
    store = Store.open(tmp_path)
    [notice] = store.take_notices()
    assert "Cannot read GINRUMMY.STA" in notice
    store.record_game(game())
    assert store.player("Dave").games == 1
    assert (tmp_path / STA / "keep").read_text() == "mine"


# ---- crashes, erasing, two copies ----------------------------------------------------

_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from port.files import DiskBackend
    d = DiskBackend(Path(sys.argv[1]))
    blobs = [b"A" * 3_000_000, b"B" * 2_000_000]
    print("ready", flush=True)
    i = 0
    while True:
        d.write("GINRUMMY.STA", blobs[i % 2])
        i += 1
""")


def test_a_crash_mid_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    (tmp_path / STA).write_bytes(b"A" * 3_000_000)
    for delay in (0.05, 0.11, 0.17, 0.23, 0.31):
        child = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)],
                                 stdout=subprocess.PIPE, cwd=REPO)
        assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        content = (tmp_path / STA).read_bytes()
        assert content in (b"A" * 3_000_000, b"B" * 2_000_000)
    # leftover temporary files do not bother the next start
    (tmp_path / STA).write_bytes(records.pack(STA, [files.stats_line(PlayerStats("Ann", won=1, hands=3))]))
    store = Store.open(tmp_path)
    assert store.take_notices() == [] and store.players() == ["Ann"]


def test_erasing_the_file_clears_the_list_even_mid_session(tmp_path: Path) -> None:
    # "If your stats file is corrupted, or you just want to clear the list and start
    # over, erase (or rename) the GINRUMMY.STA file."
    store = Store.open(tmp_path)
    store.record_game(game("Ann"))
    (tmp_path / STA).unlink()
    store.record_game(game("Bob"))
    assert Store.open(tmp_path).players() == ["Bob"]


def test_two_copies_of_the_game_lose_neither_game(tmp_path: Path) -> None:
    one, two = Store.open(tmp_path), Store.open(tmp_path)
    one.record_game(game("Ann"))
    two.record_game(game("Bob"))
    assert Store.open(tmp_path).players() == ["Bob", "Ann"]


@pytest.mark.parametrize("header", [b"GINRUMMY.STA \x00", b"GINRUMMY.STA", b"GINRUMMY.ST@ 1", b""])
def test_a_damaged_header_still_keeps_every_record(tmp_path: Path, header: bytes) -> None:
    good = full_dir(tmp_path)
    data = (tmp_path / STA).read_bytes()
    (tmp_path / STA).write_bytes(header + data[data.index(b"\n"):])
    store = Store.open(tmp_path)
    assert store.stats() == good
    assert "20 players recovered" in store.take_notices()[0]
