"""Demo sync: the corpus of recorded games in tests/demos/ replayed on every run, as
faithful source ports test themselves (docs/script.md, "Demo sync").

Each demo is a recording (``--record``) of a whole game played through the real
program, NAME.txt, and the final screen it ended on, NAME.png. A replay must end
exactly as recorded: the same number of frames, the same final screen (palette
indices, compared pixel for pixel with NAME.png) and the same files (their digests, on
the recording's ``end`` line). A deliberate change that alters a demo is re-recorded
with ``scripts/make_demos.py``.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from port.cribbage.main.words import CRIBBAGE
from port.ginrummy.main.words import GINRUMMY
from port.main.driver import run_recording
from port.main.recording import REPLAY_FILES, read_header
from port.screen import png

TOP = Path(__file__).resolve().parents[2]
DEMOS = TOP / "tests" / "demos"
GAMES = {game.program: game for game in (GINRUMMY, CRIBBAGE)}
CORPUS = sorted(DEMOS.glob("*.txt"))


def game_of(path: Path):
    for game in GAMES.values():
        try:
            return game, read_header(path, game.program, game.files)
        except ValueError:
            continue
    raise AssertionError(f"{path.name} is not a recording of either game")


def test_the_corpus_has_both_games_several_profiles_and_a_picture_for_each() -> None:
    assert len(CORPUS) >= 4
    headers = {path.stem: game_of(path) for path in CORPUS}
    assert {game.program for game, _ in headers.values()} == {"ginrummy", "cribbage"}
    assert len({header.fields.get("profile", "EGA") for _, header in headers.values()}) >= 3
    assert any(header.files and any(header.files.values()) for _, header in headers.values())   # saved files
    for path in CORPUS:
        assert path.with_suffix(".png").is_file(), f"{path.stem} has no final screen"
    assert sorted(p.stem for p in DEMOS.glob("*.png")) == [p.stem for p in CORPUS]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_demo_replays_to_its_recorded_end(headless_pyxel, tmp_path: Path, path: Path) -> None:
    game, _ = game_of(path)
    d = run_recording(path, game, tmp_path)                 # Desync if frames, screen or a file differ
    expected = png.read(path.with_suffix(".png"))
    shown = d.snapshot()
    if shown != expected.pixels:
        d.shot("final")
        differ = sum(a != b for a, b in zip(shown, expected.pixels))
        raise AssertionError(f"{path.stem}: {differ} pixels differ from {path.stem}.png "
                             f"(this replay's screen: {tmp_path / 'final.png'})")
    assert expected.palette == d.screen.profile.palette
    assert d.controller is not None                  # every demo ends on a screen, not quit


def test_a_recordings_date_is_the_one_the_high_scores_get(headless_pyxel, tmp_path: Path) -> None:
    """gin_files_cga was recorded on 1996-01-03 (the header's ``date``), starting from
    saved files of 1994: its replay writes that date, whatever today is."""
    run_recording(DEMOS / "gin_files_cga.txt", GINRUMMY, tmp_path)
    scores = (tmp_path / REPLAY_FILES / "GINRUMMY.SCR").read_text()
    assert "1996-01-03" in scores and "Newcomer" in scores and scores.count("1994-03-05") == 3
    assert "name=Newcomer" in (tmp_path / REPLAY_FILES / "GINRUMMY.CFG").read_text()


def test_the_command_line_replays_a_demo(tmp_path: Path) -> None:
    """In a fresh process (another PYTHONHASHSEED, pyxel started anew): the same end."""
    demo = DEMOS / "crib_keys.txt"
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(TOP)}
    env.pop("GINRUMMY_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "port.cribbage", "--script", str(demo), "--headless",
                           "--shots", str(tmp_path / "shots")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert png.read(tmp_path / "shots" / "final.png").pixels == png.read(demo.with_suffix(".png")).pixels
