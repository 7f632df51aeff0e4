"""Screens compared as data: one check for every reference image of the tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.screen import png

ROOT = Path(__file__).resolve().parents[1]


def match_reference(actual: png.Indexed, stored_path: Path, tmp_path: Path, remake: str) -> png.Indexed:
    """Fail, naming how many pixels differ and where this run's image was written, unless
    ``actual`` is the stored image pixel for pixel; ``remake`` is the command that makes
    the references again. The stored image is given back (for its palette)."""
    stored = png.read(stored_path)
    if (actual.width, actual.height, actual.pixels) != (stored.width, stored.height, stored.pixels):
        name = stored_path.stem
        png.write(tmp_path / f"{name}.png", actual)
        differ = sum(a != b for a, b in zip(actual.pixels, stored.pixels))
        pytest.fail(f"{name}: {differ} pixels differ from {stored_path.resolve().relative_to(ROOT)}; this run's image "
                    f"is {tmp_path / (name + '.png')} (if the change is meant, run {remake} and review the images)")
    return stored
