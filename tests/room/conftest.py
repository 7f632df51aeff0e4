"""The room's storage tests: a real ``redis-server`` for the whole session.

``redis_url`` starts one on a free port in a temporary directory, with nothing saved to
disk (``--save "" --appendonly no``), and stops it at the end; each test gets its own
database number, emptied first. Without the binary, or if it does not start, the Redis
tests are skipped with one plain message.
"""
from __future__ import annotations

import itertools
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SKIP = "redis-server is not installed; the Redis tests are skipped"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A redis-server saving nothing, answering on a free port; skips without one."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip(SKIP)
    port = _free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder), "--databases", "64", "--logfile", str(folder / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while not _answers(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc)
            pytest.skip(SKIP)
        time.sleep(0.02)
    return proc, f"redis://127.0.0.1:{port}"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a redis-server of this session (without a database number)."""
    proc, url = _start(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        _stop(proc)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A redis-server of one test's own, which the test may stop: (process, URL)."""
    proc, url = _start(tmp_path)
    try:
        yield proc, url
    finally:
        if proc.poll() is None:
            _stop(proc)


_next_db = itertools.cycle(range(1, 64))


@pytest.fixture
def redis_url(redis_server: str) -> str:
    """A URL of an empty database of the session's redis-server, one per test."""
    import redis

    url = f"{redis_server}/{next(_next_db)}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url
