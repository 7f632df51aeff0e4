"""The frame loop's resources: a long headless run does not grow."""
from __future__ import annotations

import resource

import pyxel


def test_headless_frames_keep_no_screencast(headless_pyxel) -> None:
    # pyxel records frames for its screencast; headless at an unpaced rate that would
    # keep every frame (220 KB at 640x350). 2,000 frames must not grow the process.
    def rss_mb() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024

    for _ in range(200):
        pyxel.flip()
    before = rss_mb()
    for _ in range(2000):
        pyxel.flip()
    assert rss_mb() - before < 50
