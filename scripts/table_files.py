"""What the scripts that build shipped tables share: the JSON text of a table, and
either writing the file or checking that the shipped one is what the script builds
(`--check` writes nothing and exits 1 on a difference)."""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path


def text(table: dict[str, object]) -> str:
    """The file's text: sorted keys, one entry a line, so a rebuild diffs cleanly."""
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def write_or_check(out: Path, build: Callable[[], dict[str, object]], check: bool) -> int:
    """Build the table; write it to ``out``, or with ``check`` compare it with ``out``."""
    t0 = time.perf_counter()
    data = text(build())
    took = time.perf_counter() - t0
    digest = hashlib.sha256(data.encode()).hexdigest()[:16]
    if check:
        same = out.read_text() == data
        print(f"{'same as' if same else 'DIFFERS from'} {out.name} (sha256 {digest}, {took:.0f} s)")
        return 0 if same else 1
    out.write_text(data)
    print(f"wrote {out} (sha256 {digest}, {took:.0f} s)")
    return 0
