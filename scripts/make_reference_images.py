#!/usr/bin/env python3
"""Regenerate tests/shell/reference/*.png: the test screen in every display profile.

Run after a deliberate change to what the Screen unit draws, look at the images
(they are ordinary palette PNGs), and commit them with the change:

    .venv/bin/python scripts/make_reference_images.py [NAME ...]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from port.main.testscreen import reference_cases, reference_image  # noqa: E402
from port.screen import png  # noqa: E402

OUT = TOP / "tests" / "shell" / "reference"


def main(names: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or list(reference_cases()):
        path = OUT / f"{name}.png"
        png.write(path, reference_image(name))
        print(f"wrote {path.relative_to(TOP)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
