"""Record the demo corpus again: whole games played through the real program, recorded
with ``--record`` into tests/demos/ (docs/script.md, "Demo sync").

    .venv/bin/python scripts/make_demos.py              # every demo
    .venv/bin/python scripts/make_demos.py gin_keys     # only these
    .venv/bin/python scripts/make_demos.py --check      # replay each; say which no longer ends as recorded

Each demo is a lazy player (the hint tells it what to play, as in the tests' whole
games) driving the real game headless, with a fixed seed, date and starting files;
what pyxel reported each frame is the recording, NAME.txt, and its final screen
NAME.png (palette indices). tests/shell/test_demos.py replays every demo on every run
and compares the end (frames, screen, files) exactly. Run this after a deliberate
change of what the games do or draw, then look at the PNGs' differences before
committing them. The same seed, date and player make the same file again: a demo
that did not change is rewritten byte for byte.
"""
from __future__ import annotations

import argparse
import datetime
import io
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))

from port.cribbage.main.words import CRIBBAGE  # noqa: E402
from port.ginrummy import files as gin_files  # noqa: E402
from port.ginrummy.main.words import GINRUMMY  # noqa: E402
from port.main import cmdline  # noqa: E402
from port.main.cmdline import Game  # noqa: E402
from port.main.driver import Driver, run_recording  # noqa: E402
from port.main.launch import Launch  # noqa: E402
from port.main.recording import Desync  # noqa: E402

DEMOS = TOP / "tests" / "demos"
DAY = datetime.date(1996, 1, 3)           # Cribbage 2.0's release


@dataclass(frozen=True)
class Demo:
    name: str
    game: Game
    words: tuple[str, ...]                # the command line's words
    seed: int
    play: Callable[[Driver], None]
    files: Callable[[Path], None] = lambda d: None     # the files it starts from


# ---- the players ------------------------------------------------------------------------

def gin_by_keys(d: Driver) -> None:
    from tests.ginrummy.test_whole_game import keyboard_turn, play_whole_game

    d.wait(5)
    d.key("B")
    play_whole_game(d, keyboard_turn)
    d.wait(30)
    d.key("M")                            # MAIN MENU
    d.key("S")                            # the player's statistics
    d.wait(10)


def gin_by_mouse(d: Driver) -> None:
    from port.ginrummy.main import play
    from tests.ginrummy.helpers import center
    from tests.ginrummy.test_whole_game import mouse_turn, play_whole_game

    d.wait(5)
    d.click("left", *center(d.controller.items[0][0]))      # BEGIN GAME
    play_whole_game(d, mouse_turn)                          # the middle button asks hints
    d.wait(30)
    d.click("left", *center(play.MENU_BOX))
    d.wait(5)
    d.click("left", *center(d.controller.items[2][0]))      # HIGH SCORES: today's date
    d.wait(10)


def gin_saved_files(d: Path) -> None:
    store = gin_files.Store.open(d)
    store.save_config(gin_files.Config(name="Saved", score_limit=0, pointer=2, sort="RANK"))
    for name, me in (("Ann", 90), ("Bob", 40), ("Cy", 130)):
        store.record_game(gin_files.GameRecord(name, me, 60, 3, 100, False, gin_files.Result.WON,
                                               datetime.date(1994, 3, 5)))


def gin_new_name(d: Driver) -> None:
    """From saved files: a new name typed in the options and saved, one hand (limit 0)."""
    from tests.ginrummy.test_whole_game import keyboard_turn, play_whole_game

    d.wait(5)
    d.key("O")
    d.key("N")                            # NAME: typed as text
    for _ in range(5):
        d.key("BACKSPACE")
    d.type("Newcomer")
    d.key("ENTER")
    d.key("S")                            # SAVE
    d.key("M")
    d.key("B")
    play_whole_game(d, keyboard_turn)
    d.wait(30)
    d.key("M")
    d.key("H")                            # the high scores, old and new
    d.wait(10)


def crib_by_keys(d: Driver) -> None:
    from tests.cribbage.helpers import in_game
    from tests.cribbage.test_game import keyboard_game

    d.wait(5)
    keyboard_game(d, in_game(d).table)
    d.wait(30)
    d.key("M")
    d.key("S")
    d.wait(10)


def crib_by_mouse(d: Driver) -> None:
    from port.cribbage.main import layout as L
    from tests.cribbage.helpers import click_at
    from tests.cribbage.test_game import mouse_game

    d.wait(5)
    click_at(d, (240, 130, 160, 20))      # BEGIN GAME
    mouse_game(d, d.controller.table)
    d.wait(30)
    click_at(d, L.MENU_BOX)
    d.wait(5)
    click_at(d, d.controller.items[2][0])  # STATISTICS
    d.wait(10)


DEMOS_ALL = (
    Demo("gin_keys", GINRUMMY, ("Keys", "050"), 5, gin_by_keys),
    Demo("gin_mouse", GINRUMMY, ("Mouse", "025", "VGA", "NOKEYBOARD"), 3, gin_by_mouse),
    Demo("gin_files_cga", GINRUMMY, ("CGA",), 7, gin_new_name, gin_saved_files),
    Demo("crib_keys", CRIBBAGE, ("Keys", "61", "NOANIMATION"), 1993, crib_by_keys),
    Demo("crib_mouse_herc", CRIBBAGE, ("Mouse", "61", "HERC", "NOKEYBOARD"), 11, crib_by_mouse),
)


# ---- recording and checking --------------------------------------------------------------

def record(demo: Demo, work: Path) -> None:
    """Play the demo with --record into tests/demos/NAME.txt, its final screen NAME.png."""
    home = work / demo.name
    home.mkdir()
    demo.files(home)
    got = cmdline.parse([*demo.words, "--headless", "--seed", str(demo.seed)], io.StringIO(), sys.stderr,
                        game=demo.game)
    assert isinstance(got, Launch), f"{demo.name}: its words are refused"
    got.path, got.today, got.shots = home, DAY, work / f"{demo.name}-shots"
    got.record = DEMOS / f"{demo.name}.txt"
    d = Driver.start(got, demo.game.first_screen())
    demo.play(d)
    d.finish()
    shutil.copyfile(d.shot("final"), DEMOS / f"{demo.name}.png")
    print(f"{demo.name}: {d.loop.frame} frames", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="only these demos")
    ap.add_argument("--check", action="store_true", help="replay, do not record")
    args = ap.parse_args()
    chosen = [demo for demo in DEMOS_ALL if not args.names or demo.name in args.names]
    unknown = set(args.names) - {demo.name for demo in DEMOS_ALL}
    if unknown:
        print(f"make_demos: no demo {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    DEMOS.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="demos_") as tmp:
        for demo in chosen:
            if not args.check:
                record(demo, Path(tmp))
                continue
            try:
                run_recording(DEMOS / f"{demo.name}.txt", demo.game, Path(tmp) / demo.name)
                print(f"{demo.name}: in sync", flush=True)
            except Desync as exc:
                failed += 1
                print(f"{demo.name}: {exc}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
