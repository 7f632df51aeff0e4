"""The test screen in every display profile, compared index for index with the
stored reference images (tests/shell/reference/, remade by scripts/make_reference_images.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.main.testscreen import reference_cases, reference_image
from tests.images import match_reference

REFERENCE = Path(__file__).parent / "reference"


@pytest.mark.parametrize("name", list(reference_cases()))
def test_test_screen_matches_its_reference_image(headless_pyxel, tmp_path, name):
    actual = reference_image(name)
    stored = match_reference(actual, REFERENCE / f"{name}.png", tmp_path, "scripts/make_reference_images.py")
    assert actual.palette[:16] == stored.palette[:16]


def test_every_profile_has_a_reference_image():
    from port.screen import PROFILES

    assert set(PROFILES) <= set(reference_cases())
    for name in reference_cases():
        assert (REFERENCE / f"{name}.png").exists()
