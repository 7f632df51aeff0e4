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


def test_the_manual_is_package_data() -> None:
    assert "GINRUMMY.DOC" in package_data()["port"]
    assert (TOP / "port" / "GINRUMMY.DOC").exists()


def test_cribbages_manual_and_console_script_are_packaged() -> None:
    config = tomllib.loads((TOP / "pyproject.toml").read_text())
    assert "CRIBBAGE.DOC" in package_data()["port"] and (TOP / "port" / "CRIBBAGE.DOC").exists()
    assert config["project"]["scripts"]["cribbage"] == "port.cribbage.main:main"


def test_cribbage_experts_tables_are_package_data() -> None:
    assert "*.json" in package_data()["port.cribbage"]
