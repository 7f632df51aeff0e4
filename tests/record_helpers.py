"""What both games' record tests share: writing a record again from a replay's own
states, a refusal's one sentence, and finding a line."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from port.files.gamerecord import RecordError


def rewrite(log: Any, write: Callable[..., str]) -> str:
    """The record written again from the replay's own states: each hand as dealt (its
    deal step) and as it ended (its end step)."""
    pairs, start = [], None
    for st in log.steps:
        if st.kind == "deal":
            start = st.state
        elif st.kind == "end":
            pairs.append((start, st.state))
    return write(log.options, log.meta, pairs)


def refusal(parse: Callable[[str], Any], text: str) -> str:
    """The sentence a damaged record is refused with: one line, no traceback."""
    with pytest.raises(RecordError) as refused:
        parse(text)
    message = str(refused.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def line_of(text: str, pattern: str) -> int:
    """The number of the first line of ``text`` the pattern finds."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if re.search(pattern, line))


@contextmanager
def read_only(directory: Path) -> Iterator[None]:
    """The directory made read-only for real while inside: chmod, or as root (which
    ignores permission bits) ``chattr +i``; the test is skipped where neither holds."""
    root = os.geteuid() == 0
    if root and (shutil.which("chattr") is None
                 or subprocess.run(["chattr", "+i", str(directory)], capture_output=True).returncode):
        pytest.skip("cannot make a read-only directory here: root without chattr +i")
    if not root:
        directory.chmod(0o555)
    try:
        yield
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(directory)], capture_output=True)
        else:
            directory.chmod(0o755)
