"""Bot files as their authors write them, through the real match runner: the report
names a bot by its own name, an error inside a bot's constructor is reported as the
bot's (never hidden by a second try), and a bot file imports its own siblings."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from port.bots import BotError, bot_name, load_bot
from port.ginrummy.levels import LEVELS

BOT = '''
from helpers_for_my_bot import FIRST          # a sibling module of this file
from port.ginrummy.computer import Standard


class MyVeryOwnBot(Standard):
    name = "mybot"

    def __init__(self, seed=0):
        super().__init__(seed=seed)
        self.first = FIRST


class Broken:
    def __init__(self, seed=0):
        raise TypeError("my own bug")


class NoSeed(Standard):
    def __init__(self):
        super().__init__()
'''


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    folder = tmp_path / "some" / "rather" / "long" / "folder" / "of" / "bots"
    folder.mkdir(parents=True)
    (folder / "helpers_for_my_bot.py").write_text("FIRST = 'from a sibling'\n")
    path = folder / "a_bot_file_with_a_long_name.py"
    path.write_text(BOT)
    return path


def run_match(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "port.match", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_report_names_a_bot_by_its_own_name_and_it_imports_its_siblings(bot_file: Path) -> None:
    done = run_match("--a", f"{bot_file}:MyVeryOwnBot", "--b", "easy", "--games", "2", "--limit", "0",
                     "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "A (mybot) wins" in done.stdout and "\nmybot " in done.stdout
    assert "a_bot_file" not in done.stdout and "folder" not in done.stdout
    side = json.loads(run_match("--a", f"{bot_file}:NoSeed", "--b", "easy", "--games", "2", "--limit", "0",
                                "--workers", "1", "--json").stdout)["a"]
    assert side["name"] == "NoSeed" and side["spec"] == f"{bot_file}:NoSeed"     # no name: its class's


def test_a_type_error_inside_a_bots_constructor_is_reported_as_the_bots(bot_file: Path) -> None:
    with pytest.raises(BotError, match="failed to start: TypeError: my own bug") as got:
        load_bot(f"{bot_file}:Broken", LEVELS)
    assert isinstance(got.value.__cause__, TypeError)
    done = run_match("--a", f"{bot_file}:Broken", "--b", "easy", "--games", "2", "--workers", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "failed to start: TypeError: my own bug" in done.stderr


def test_a_bot_without_seed_is_built_without_it(bot_file: Path) -> None:
    assert type(load_bot(f"{bot_file}:NoSeed", LEVELS, seed=5)).__name__ == "NoSeed"
    assert bot_name(f"{bot_file}:MyVeryOwnBot", LEVELS) == "mybot"
    assert bot_name("STANDARD", LEVELS) == "standard"


def test_a_bot_file_that_does_not_load_is_one_plain_line(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("import no_such_module_anywhere\n")
    done = run_match("--game", "cribbage", "--a", f"{tmp_path / 'bad.py'}:X", "--b", "standard",
                     "--games", "2", "--workers", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "failed to load: ModuleNotFoundError" in done.stderr
