"""Cribbage's screens (the board, the show box, options, statistics; EGA and the
2-colour CGA), compared index for index with their stored reference images."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.screen import png
from tests.cribbage.scenes import SCENES, scene_image

REFERENCE = Path(__file__).parent / "reference"


@pytest.mark.parametrize("name", list(SCENES))
def test_screen_matches_its_reference_image(headless_pyxel, tmp_path: Path, name: str) -> None:
    stored = png.read(REFERENCE / f"{name}.png")
    actual = scene_image(name)
    if (actual.width, actual.height, actual.pixels) != (stored.width, stored.height, stored.pixels):
        png.write(tmp_path / f"{name}.png", actual)
        differ = sum(a != b for a, b in zip(actual.pixels, stored.pixels))
        pytest.fail(f"{name}: {differ} pixels differ from tests/cribbage/reference/{name}.png; this "
                    f"run's image is {tmp_path / (name + '.png')} (if the change is meant, run "
                    f"scripts/make_main_references.py --cribbage and review the images)")
