"""docs/behaviour.md names tests that exist: the map cannot rot silently."""
from __future__ import annotations

import re
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def test_every_test_named_in_the_behaviour_map_exists() -> None:
    text = (TOP / "docs" / "behaviour.md").read_text()
    named = set(re.findall(r"(tests/[\w/]+\.py)::(\w+)", text))
    assert len(named) > 150
    missing = []
    for path, name in sorted(named):
        source = (TOP / path).read_text() if (TOP / path).exists() else ""
        if not re.search(rf"^\s*def {name}\(", source, re.M):
            missing.append(f"{path}::{name}")
    assert not missing, "docs/behaviour.md names tests that do not exist: " + ", ".join(missing)
