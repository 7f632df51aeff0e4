"""Cribbage's screens (the board, the show box, options, statistics; EGA and the
2-colour CGA), compared index for index with their stored reference images."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.cribbage.scenes import SCENES, scene_image
from tests.images import match_reference

REFERENCE = Path(__file__).parent / "reference"


@pytest.mark.parametrize("name", list(SCENES))
def test_screen_matches_its_reference_image(headless_pyxel, tmp_path: Path, name: str) -> None:
    match_reference(scene_image(name), REFERENCE / f"{name}.png", tmp_path, "scripts/make_main_references.py --cribbage")
