"""What an installed wheel carries: every built resource and the players' manual."""
from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def package_data() -> dict[str, list[str]]:
    config = tomllib.loads((TOP / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]


def test_every_resource_file_is_package_data() -> None:
    patterns = package_data()["pyxres"]
    root = TOP / "pyxres"
    files = [p.relative_to(root).as_posix() for p in root.rglob("*")
             if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts]
    assert files
    left_out = [f for f in files if not any(fnmatch(f, pat) for pat in patterns)]
    assert not left_out, f"pyxres files a wheel would leave out: {left_out}"


def test_every_data_file_of_the_games_is_package_data() -> None:
    """The manuals `view` prints and EXPERT's tables: each file beside a module of
    port/ is matched by its package's package-data patterns."""
    data = package_data()
    root = TOP / "port"
    files = [p for p in root.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
             and "__pycache__" not in p.parts]
    assert {"GINRUMMY.DOC", "CRIBBAGE.DOC", "hand_outcomes.json", "crib_tables.json"} <= {p.name for p in files}
    left_out = [p.relative_to(TOP).as_posix() for p in files
                if not any(fnmatch(p.name, pat)
                           for pat in data.get(".".join(p.parent.relative_to(TOP).parts), []))]
    assert not left_out, f"files a wheel would leave out: {left_out}"


def test_both_programs_are_console_scripts() -> None:
    """Both games, and the card room's server (docs/room.md)."""
    scripts = tomllib.loads((TOP / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"ginrummy": "port.ginrummy.main:main", "cribbage": "port.cribbage.main:main",
                       "cardroom": "port.room.cli:main"}
