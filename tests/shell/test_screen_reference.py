"""The test screen in every display profile, compared index for index with the
stored reference images (tests/shell/reference/, remade by scripts/make_reference_images.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.main.testscreen import reference_cases, reference_image
from port.screen import png

REFERENCE = Path(__file__).parent / "reference"


@pytest.mark.parametrize("name", list(reference_cases()))
def test_test_screen_matches_its_reference_image(headless_pyxel, tmp_path, name):
    stored = png.read(REFERENCE / f"{name}.png")
    actual = reference_image(name)
    if actual.pixels != stored.pixels or (actual.width, actual.height) != (stored.width, stored.height):
        png.write(tmp_path / f"{name}.png", actual)
        differ = sum(a != b for a, b in zip(actual.pixels, stored.pixels))
        pytest.fail(f"{name}: {differ} pixels differ from tests/shell/reference/{name}.png; "
                    f"this run's image is {tmp_path / (name + '.png')} (if the change is meant, "
                    f"run scripts/make_reference_images.py and review the images)")
    assert actual.palette[:16] == stored.palette[:16]


def test_every_profile_has_a_reference_image():
    from port.screen import PROFILES

    assert set(PROFILES) <= set(reference_cases())
    for name in reference_cases():
        assert (REFERENCE / f"{name}.png").exists()
