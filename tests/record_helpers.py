"""What both games' record tests share: writing a record again from a replay's own
states, a refusal's one sentence, and finding a line."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from port.files.gamerecord import RecordError


def rewrite(log: Any, write: Callable[..., str]) -> str:
    """The record written again from the replay's own states: each hand as dealt (its
    deal step) and as it ended (its end step; a game that stopped, as far as it went)."""
    pairs, start = [], None
    for st in log.steps:
        if st.kind == "deal":
            start = st.state
        elif st.kind == "end":
            pairs.append((start, st.state))
    ending = getattr(log, "ending", None)
    return write(log.options, log.meta, pairs, *([ending] if ending is not None else []))


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


# ---- the replay viewer in the real program ----------------------------------------------

TOP = Path(__file__).resolve().parents[1]


def run_replay(program: str, record: Path, script: str, tmp_path: Path, *words: str) -> dict[str, Any]:
    """``python -m port.<program> replay RECORD --headless --script ...`` in a process of
    its own; the screenshots it took, by name (palette indices as data)."""
    from port.screen import png

    script_path = tmp_path / "replay.txt"
    script_path.write_text(script)
    shots = tmp_path / "shots"
    done = subprocess.run([sys.executable, "-m", f"port.{program}", "replay", str(record), *words,
                           "--headless", "--script", str(script_path), "--shots", str(shots)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(TOP), "SDL_AUDIODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    return {p.stem: png.read(p) for p in shots.glob("*.png")}


def text_in(img: Any, x: int, y: int, line: str, colour: int) -> bool:
    """Whether a screenshot shows this line of 8x8 text at (x, y) in ``colour``: every
    pixel of its glyphs lit, every other pixel of its cells not (EGA's 640x350)."""
    from port.screen.resources import glyphs

    font = glyphs()
    for i, ch in enumerate(line):
        rows = font.get(ord(ch), font[32])
        for yy in range(8):
            for xx in range(8):
                lit = img.pixels[(y + yy) * img.width + x + 8 * i + xx] == colour
                if lit != bool(rows[yy] & (0x80 >> xx)):
                    return False
    return True


def card_in(screen: Any, img: Any, x: int, y: int, card: int, big: bool = False, left: int = 0) -> bool:
    """Whether a screenshot shows this card face at (x, y): the very pixels the Screen
    draws for it on a black table (``left``: columns not compared, where the card lies
    over another and its rounded corners show that one)."""
    from port.screen.profiles import BLACK

    screen.clear(BLACK)
    screen.card(x, y, card, big)
    drawn = screen.snapshot()
    w = img.width
    return all(img.pixels[(y + yy) * w + x + left: (y + yy) * w + x + 48]
               == drawn[(y + yy) * w + x + left: (y + yy) * w + x + 48] for yy in range(64))
