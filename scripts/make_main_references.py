#!/usr/bin/env python3
"""Regenerate a game's reference images: every screen of it in a fixed state
(tests/ginrummy/reference/*.png; with --cribbage, tests/cribbage/reference/*.png; with
--room, the card room's pages, tests/room/reference/*.png, played against a real room).

Run after a deliberate change to what the screens show, look at the images, and
commit them with the change:

    .venv/bin/python scripts/make_main_references.py [SCENE ...]
    .venv/bin/python scripts/make_main_references.py --cribbage [SCENE ...]
    .venv/bin/python scripts/make_main_references.py --room [SCENE ...]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main(names: list[str]) -> int:
    from port.main import loop
    from port.main.launch import Launch
    from port.screen import png
    game = "ginrummy"
    if names[:1] == ["--room"]:
        from tests.room.scenes import SCENES, images

        loop.init_pyxel(Launch(headless=True))
        out = TOP / "tests" / "room" / "reference"
        out.mkdir(parents=True, exist_ok=True)
        for name, image in images(names[1:] or list(SCENES)).items():   # one room for them all
            png.write(out / f"{name}.png", image)
            print(f"wrote {(out / f'{name}.png').relative_to(TOP)}")
        return 0
    if names[:1] == ["--cribbage"]:
        names, game = names[1:], "cribbage"
        from tests.cribbage.scenes import SCENES, scene_image
    else:
        from tests.ginrummy.scenes import SCENES, scene_image

    loop.init_pyxel(Launch(headless=True))
    out = TOP / "tests" / game / "reference"
    out.mkdir(parents=True, exist_ok=True)
    for name in names or list(SCENES):
        path = out / f"{name}.png"
        png.write(path, scene_image(name))
        print(f"wrote {path.relative_to(TOP)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
