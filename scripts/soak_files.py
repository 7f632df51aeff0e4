"""Soak the Files unit: kill -9 during saves and repairs, two copies at once, a full disk.

    nice -n 10 .venv/bin/python scripts/soak_files.py [--kills 1000] [--games 2000]
                                                       [--lockfile-games 500] [--stopped-games 500]
                                                       [--full 300] [--seed 1]

Each line prints its trials and its failures; the target (issue 14) is 0 torn files,
0 missing files, 0 lost games, 0 tracebacks. Children are forked from this process
(which has imported ``port.files``), so a trial costs a fork, not an interpreter start.

- kill -9 during saves: a child records games (and now and then saves the options) in a
  loop, telling the parent after each game; it is killed at a random moment. Then every
  file must unpack whole, hold every game the child finished (and at most the one it
  was in), and no file may look damaged; the next start must leave no ``.tmp`` behind.
- kill -9 during repairs: a child opens a store on a damaged GINRUMMY.STA (and, in some
  trials, a damaged .CFG and .SCR), puts the same damage back and opens again, in a loop;
  it is killed at a random moment. Every file must be there, either the damaged bytes or
  a whole file; the damaged bytes must still be somewhere (the file or a ``.badN``); the
  next start must recover every record the damaged file held.
- two copies: two children record games into one directory at the same time; every
  game must be counted. Once with flock (the POSIX lock), once with the lock-file fallback.
- two copies and a stopped one: the same two children with a lock wait of 50 ms, while a
  third takes the lock and keeps it for up to 300 ms at a time (a copy stopped in a
  debugger): saves are held back and made later (the Files unit never writes without
  the lock); after a flush at exit every game must be counted, none twice.
- a full disk: a tmpfs of a few pages with only 0-2 pages free (when this process may
  mount one, as root), and RLIMIT_FSIZE of 0-3000 bytes: a child repairs, records and
  saves; nothing on disk may be torn or missing, every game recorded while the store
  still wrote must be there, and a notice must say what was not saved.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.files import records  # noqa: E402
from port.ginrummy import files  # noqa: E402
from port.ginrummy.files import CFG, SCR, STA, Config, DiskBackend, GameRecord, Result, Store  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Ed"]       # never more than 20: no name drops off
DAY = datetime.date(1996, 1, 3)


def game(name: str, me: int = 100) -> GameRecord:
    return GameRecord(name, me, 50, 5, 100, False, Result.WON, DAY)


# ---- children --------------------------------------------------------------------------------

def fork(work: Callable[[int], None], log: Path) -> tuple[int, int]:
    """Fork a child that runs work(write_fd) with stderr in ``log``; (pid, read_fd)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child
        os.close(read_fd)
        err = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(err, 2)
        code = 0
        try:
            work(write_fd)
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


READY = b"r"       # a child's first byte: it runs (a busy machine is slow to fork)


def kill_after(pid: int, fd: int, seconds: float) -> int:
    """SIGKILL the child a while after it says it runs (if it has not ended); its wait
    status."""
    os.read(fd, 1)
    time.sleep(seconds)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


def drain(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def tracebacks(log: Path) -> int:
    text = log.read_text(errors="replace") if log.exists() else ""
    return int("Traceback" in text)


# ---- what is on disk -------------------------------------------------------------------------

def games_on_disk(d: Path) -> int:
    data = (d / STA).read_bytes() if (d / STA).exists() else records.pack(STA, [])
    return sum(p.games for p in files.STA_FORMAT.decode(records.unpack(STA, data).lines).value)


def whole(d: Path, name: str) -> bool:
    return records.unpack(name, (d / name).read_bytes()).whole


def leftovers(d: Path) -> list[str]:
    return [p.name for p in d.iterdir() if p.name.endswith(".tmp")]


# ---- kill -9 during saves --------------------------------------------------------------------

def _saver(d: Path, seed: int) -> Callable[[int], None]:
    def work(out: int) -> None:
        rng = random.Random(seed)
        os.write(out, READY)
        store = Store.open(d)
        i = 0
        while True:
            if i % 7 == 3:
                store.save_config(Config(name=rng.choice(NAMES), score_limit=rng.randrange(0, 501, 50)))
            store.record_game(game(NAMES[i % len(NAMES)], me=rng.randrange(1, 200)))
            os.write(out, b".")                    # this game is on the disk now
            i += 1
    return work


def kills_during_saves(root: Path, trials: int, rng: random.Random) -> Counter[str]:
    c: Counter[str] = Counter()
    d = root / "saves"
    d.mkdir()
    store = Store.open(d)
    store.save_config(Config(name="Ann"))
    for name in NAMES:
        store.record_game(game(name))
    for t in range(trials):
        before = games_on_disk(d)
        log = root / "saves.log"
        pid, fd = fork(_saver(d, rng.randrange(1 << 30)), log)
        kill_after(pid, fd, rng.uniform(0.0, 0.04))
        acked = len(drain(fd))
        c["trials"] += 1
        c["tracebacks"] += tracebacks(log)
        for name in (CFG, STA, SCR):
            if not (d / name).exists():
                c["missing files"] += 1
            elif not whole(d, name):
                c["torn files"] += 1
        now = games_on_disk(d)
        c["lost games"] += max(0, before + acked - now)
        c["games invented"] += max(0, now - (before + acked + 1))
        c["games saved"] += now - before
        c["kills that caught a game unsaved"] += now == before + acked
        bad = [p for p in d.iterdir() if ".bad" in p.name]
        c["false damage"] += len(bad)
        for p in bad:
            p.unlink()
        again = Store.open(d)                       # the next start
        c["leftover .tmp after the next start"] += len(leftovers(d))
        c["notices at the next start"] += len(again.take_notices())
    return c


# ---- kill -9 during repairs ------------------------------------------------------------------

def _damages(good: dict[str, bytes], rng: random.Random) -> dict[str, bytes]:
    """Damage for GINRUMMY.STA (always) and sometimes the other two."""
    def damage(name: str) -> bytes:
        data = good[name]
        kind = rng.choice(["cut", "flip", "junk", "absurd", "crlf", "garbage"])
        if kind == "cut":
            return data[:rng.randrange(len(data))]
        if kind == "flip":
            at = rng.randrange(len(data))
            return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        if kind == "junk":
            at = rng.randrange(len(data))
            return data[:at] + os.urandom(rng.randrange(1, 40)) + data[at:]
        if kind == "absurd":
            lines = records.unpack(name, data).lines
            bad = {STA: f"1 0 0 5 {10**400} 1 Absurd", SCR: f"1996-01-03 {'9' * 5000} 100 5 N Huge",
                   CFG: f"score_limit={'9' * 5000}"}[name]
            return records.pack(name, [*lines, bad])
        if kind == "crlf":
            return data.replace(b"\n", b"\r\n")
        return os.urandom(rng.randrange(0, 3000))
    damaged = {STA: damage(STA)}
    if rng.random() < 0.3:
        damaged.update({CFG: damage(CFG), SCR: damage(SCR)})
    return damaged


def _repairer(d: Path, damaged: dict[str, bytes]) -> Callable[[int], None]:
    def work(out: int) -> None:
        os.write(out, READY)
        while True:
            Store.open(d)
            os.write(out, b".")                    # one repair done
            for name, data in damaged.items():     # the same damage again, put atomically
                tmp = d / f"damage.{name}"
                tmp.write_bytes(data)
                os.replace(tmp, d / name)
    return work


def expected_after_repair(name: str, data: bytes) -> object:
    fmt = {CFG: files.CFG_FORMAT, STA: files.STA_FORMAT, SCR: files.SCR_FORMAT}[name]
    got = records.unpack(name, data)
    return fmt.empty() if got.foreign else fmt.decode(got.lines).value


def kills_during_repairs(root: Path, trials: int, rng: random.Random) -> Counter[str]:
    c: Counter[str] = Counter()
    good_dir = root / "good"
    good_dir.mkdir()
    store = Store.open(good_dir)
    store.save_config(Config(name="Saved", pointer=3, score_limit=250))
    for i in range(20):
        store.record_game(game(f"P{i:02}", me=100 + i))
    good = {name: (good_dir / name).read_bytes() for name in (CFG, STA, SCR)}
    for t in range(trials):
        d = root / f"repair{t}"
        d.mkdir()
        damaged = _damages(good, rng)
        for name in (CFG, STA, SCR):
            (d / name).write_bytes(damaged.get(name, good[name]))
        log = root / "repair.log"
        pid, fd = fork(_repairer(d, damaged), log)
        kill_after(pid, fd, rng.uniform(0.0, 0.01))
        repairs = len(drain(fd))
        c["trials"] += 1
        c["kills before the first repair ended"] += repairs == 0
        c["tracebacks"] += tracebacks(log)
        for name, data in damaged.items():
            if not (d / name).exists():
                c["missing files"] += 1
                continue
            now = (d / name).read_bytes()
            if now != data and not whole(d, name):
                c["torn files"] += 1
            kept = [p for p in d.iterdir() if p.name.startswith(name) and p.read_bytes() == data]
            c["damaged bytes lost"] += not kept
        after = Store.open(d)                       # the next start recovers every record
        values = {CFG: after.config, STA: after.stats(), SCR: after.high_scores()}
        for name, data in damaged.items():
            c["lost records"] += values[name] != expected_after_repair(name, data)
        c["leftover .tmp after the next start"] += len(leftovers(d))
        shutil.rmtree(d)
    return c


# ---- two copies at once ----------------------------------------------------------------------

def _recorder(d: Path, own: str, games: int, use_flock: bool) -> Callable[[int], None]:
    def work(out: int) -> None:
        backend = DiskBackend(d, lock_name="GINRUMMY.LCK", use_flock=use_flock)
        store = Store.open(d, backend=backend)
        for i in range(games):
            store.record_game(game(["Ann", "Bob", own][i % 3], me=1 + i % 150))
        notices = store.take_notices()
        os.write(out, json.dumps(notices).encode())
    return work


def two_copies(root: Path, games: int, use_flock: bool) -> Counter[str]:
    c: Counter[str] = Counter()
    d = root / f"two-{'flock' if use_flock else 'lockfile'}"
    d.mkdir()
    started = time.perf_counter()
    kids = [fork(_recorder(d, own, games, use_flock), root / f"{own}.log") for own in ("One", "Two")]
    for own, (pid, fd) in zip(("One", "Two"), kids):
        notices = json.loads(drain(fd) or b"[]")
        os.waitpid(pid, 0)
        c["tracebacks"] += tracebacks(root / f"{own}.log")
        c["notices"] += len(notices)
    c["seconds"] = round(time.perf_counter() - started)
    return _tally_two(d, games, c)


def _tally_two(d: Path, games: int, c: Counter[str]) -> Counter[str]:
    """The games two copies ("One", "Two") recorded against what the files hold."""
    c["games"] = 2 * games
    won = {p.name: p.won for p in Store.open(d).stats()}
    expected: Counter[str] = Counter()
    for own in ("One", "Two"):
        for i in range(games):
            expected[["Ann", "Bob", own][i % 3]] += 1
    c["lost games"] = sum(max(0, n - won.get(name, 0)) for name, n in expected.items())
    c["games invented"] = sum(max(0, won.get(name, 0) - n) for name, n in expected.items())
    c["torn files"] = sum(not whole(d, name) for name in (STA, SCR))
    return c


# ---- two copies beside one stopped with the lock -------------------------------------------

def _impatient(d: Path, own: str, games: int) -> Callable[[int], None]:
    def work(out: int) -> None:
        backend = DiskBackend(d, lock_name="GINRUMMY.LCK", wait=0.05)
        store = Store.open(d, backend=backend)
        held_back = 0
        for i in range(games):
            before = store.files.pending
            store.record_game(game(["Ann", "Bob", own][i % 3], me=1 + i % 150))
            held_back += store.files.pending > before
        backend.wait = 60.0                       # at exit the game waits its whole wait
        saved = store.files.flush()
        notices = store.take_notices()
        os.write(out, json.dumps([len(notices), held_back, saved]).encode())
    return work


def _stopper(d: Path, seed: int) -> Callable[[int], None]:
    def work(out: int) -> None:
        from port.files.lock import locked
        rng = random.Random(seed)
        os.write(out, READY)
        while True:
            with locked(d, "GINRUMMY.LCK", wait=60.0):
                time.sleep(rng.uniform(0.0, 0.3))
            time.sleep(rng.uniform(0.0, 0.1))
    return work


def stopped_copy(root: Path, games: int, rng: random.Random) -> Counter[str]:
    c: Counter[str] = Counter()
    d = root / "stopped"
    d.mkdir()
    started = time.perf_counter()
    stopper, stopper_fd = fork(_stopper(d, rng.randrange(1 << 30)), root / "stopper.log")
    os.read(stopper_fd, 1)
    kids = [fork(_impatient(d, own, games), root / f"{own}.log") for own in ("One", "Two")]
    for own, (pid, fd) in zip(("One", "Two"), kids):
        notices, held_back, saved = json.loads(drain(fd) or b"[0, 0, false]")
        os.waitpid(pid, 0)
        c["tracebacks"] += tracebacks(root / f"{own}.log")
        c["held-back saves"] += held_back
        c["notices"] += notices
        c["not saved at exit"] += not saved
    os.kill(stopper, signal.SIGKILL)
    os.waitpid(stopper, 0)
    c["seconds"] = round(time.perf_counter() - started)
    return _tally_two(d, games, c)


# ---- a full disk -----------------------------------------------------------------------------

def _full_disk_child(d: Path, fsize: int | None) -> Callable[[int], None]:
    def work(out: int) -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # writes fail with EFBIG instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        store = Store.open(d)
        written = 0
        for i in range(4):
            store.record_game(game(f"P{i:02}", me=60 + i))   # names in the list: none drops off
            written += not store.in_memory
        saved = store.save_config(Config(name="Full"))
        report = {"written": written, "saved": saved, "memory": store.in_memory,
                  "notices": store.take_notices()}
        os.write(out, json.dumps(report).encode())
    return work


def full_disk(root: Path, trials: int, rng: random.Random, tmpfs: bool) -> Counter[str] | None:
    c: Counter[str] = Counter()
    mount = root / "tmpfs"
    good_dir = root / "full-good"
    good_dir.mkdir(exist_ok=True)
    if not (good_dir / STA).exists():
        store = Store.open(good_dir)
        store.save_config(Config(name="Saved"))
        for i in range(20):
            store.record_game(game(f"P{i:02}", me=100 + i))
    good = {name: (good_dir / name).read_bytes() for name in (CFG, STA, SCR)}
    for t in range(trials):
        if tmpfs:
            mount.mkdir(exist_ok=True)
            if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,nr_inodes=64", "tmpfs",
                               str(mount)], capture_output=True).returncode != 0:
                return None
            d = mount
        else:
            d = root / f"fsize{t}"
            d.mkdir()
        try:
            damaged = rng.random() < 0.5
            sta = good[STA][:-9] if damaged else good[STA]
            for name, data in ((CFG, good[CFG]), (STA, sta), (SCR, good[SCR])):
                (d / name).write_bytes(data)
            before = games_on_disk(d) if not damaged else 0
            if tmpfs:
                _fill(d, free_pages=rng.randrange(0, 3))
            fsize = None if tmpfs else rng.randrange(0, 3000)
            log = root / "full.log"
            pid, fd = fork(_full_disk_child(d, fsize), log)
            report = json.loads(drain(fd) or b"{}")
            os.waitpid(pid, 0)
            c["trials"] += 1
            c["tracebacks"] += tracebacks(log)
            c["tracebacks"] += not report                      # the child died before its report
            for name in (CFG, STA, SCR):
                if not (d / name).exists():
                    c["missing files"] += 1
                elif not whole(d, name) and not (name == STA and damaged and (d / STA).read_bytes() == sta):
                    c["torn files"] += 1
            if damaged:
                c["damaged bytes lost"] += not any(p.read_bytes() == sta for p in d.iterdir()
                                                   if p.name.startswith(STA) and p.is_file())
            c["writes refused"] += bool(report.get("memory"))
            c["refused without a notice"] += bool(report.get("memory")) and not report.get("notices")
            for p in list(d.iterdir()):
                if p.name == "filler":
                    p.unlink()                             # room again: the next start
            after = Store.open(d)
            after.take_notices()
            now = sum(p.games for p in after.stats())
            if damaged:
                before = sum(p.games for p in files.STA_FORMAT.decode(records.unpack(STA, sta).lines).value)
            c["lost games"] += max(0, before + report.get("written", 0) - now)
            c["leftover .tmp after the next start"] += len(leftovers(d))
        finally:
            if tmpfs:
                subprocess.run(["umount", str(mount)], capture_output=True)
            else:
                shutil.rmtree(d)
    return c


def _fill(d: Path, free_pages: int) -> None:
    """Fill the tmpfs until only ``free_pages`` pages are left."""
    page = os.sysconf("SC_PAGE_SIZE")
    fd = os.open(d / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * page)
    except OSError:
        pass
    os.ftruncate(fd, max(0, os.fstat(fd).st_size // page - free_pages) * page)
    os.close(fd)


# ---- the report ------------------------------------------------------------------------------

FAILURES = ("torn files", "missing files", "lost games", "tracebacks", "games invented",
            "false damage", "damaged bytes lost", "lost records", "refused without a notice",
            "leftover .tmp after the next start", "notices at the next start", "not saved at exit")


TARGETS = ("torn files", "missing files", "lost games", "tracebacks")   # issue 14: all 0


def line(title: str, c: Counter[str]) -> int:
    for k in TARGETS:
        c[k] += 0
    failed = sum(c[k] for k in FAILURES)
    rest = ", ".join(f"{c[k]} {k}" for k in c if k not in FAILURES)
    fails = ", ".join(f"{c[k]} {k}" for k in FAILURES if k in c)
    print(f"{title:<32} {rest}; failures: {fails}" + ("" if not failed else "  <-- FAILED"), flush=True)
    return failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=1000, help="kills during saves, and during repairs")
    ap.add_argument("--games", type=int, default=2000, help="games each of the two copies records")
    ap.add_argument("--lockfile-games", type=int, default=500, help="the same with the lock-file fallback")
    ap.add_argument("--stopped-games", type=int, default=500, help="the same beside a copy stopped with the lock")
    ap.add_argument("--full", type=int, default=300, help="full-disk trials of each kind")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="soak_files_"))
    print(f"soak_files: seed {args.seed}, in {root}", flush=True)
    failed = 0
    try:
        failed += line("kill -9 during saves", kills_during_saves(root, args.kills, rng))
        failed += line("kill -9 during repairs", kills_during_repairs(root, args.kills, rng))
        failed += line("two copies (flock)", two_copies(root, args.games, use_flock=True))
        failed += line("two copies (lock-file fallback)", two_copies(root, args.lockfile_games, use_flock=False))
        failed += line("two copies and a stopped one", stopped_copy(root, args.stopped_games, rng))
        on_tmpfs = full_disk(root, args.full, rng, tmpfs=True) if os.geteuid() == 0 else None
        if on_tmpfs is None:
            print(f"{'full disk (tmpfs 64 KiB)':<32} not run: cannot mount a tmpfs here", flush=True)
        else:
            failed += line("full disk (tmpfs 64 KiB)", on_tmpfs)
        failed += line("full disk (RLIMIT_FSIZE)", full_disk(root, args.full, rng, tmpfs=False) or Counter())
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"total failures: {failed}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
