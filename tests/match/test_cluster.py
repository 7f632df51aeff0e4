"""Tournaments on Ray: a local Ray of two workers gives the local runner's result for
a seed, and a worker killed mid-run has its games played again, none counted twice."""
from __future__ import annotations

import functools
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from port.match import ginrummy
from port.match.common import chunks
from port.match.runner import Runner
from port.ginrummy.rules.options import FirstTurn, Options

pytestmark = pytest.mark.ray
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray of two workers for this module (the runner uses one already started)."""
    import logging

    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": {"PYTHONPATH": f"{ROOT / 'tests'}{os.pathsep}{ROOT}"}})
    yield ray
    ray.shutdown()


def test_a_local_ray_of_two_workers_gives_the_local_runners_json(local_ray) -> None:
    options = Options(score_limit=50)
    here = ginrummy.run_match("standard", "easy", 24, 5, options, workers=1, chunk=4)
    on_ray = ginrummy.run_match("standard", "easy", 24, 5, options, chunk=4,
                                runner=Runner(workers=2, ray="local"))
    here.seconds = on_ray.seconds = 0.0
    assert ginrummy.to_json(on_ray) == ginrummy.to_json(here)
    assert json.loads(ginrummy.to_json(on_ray))["games"] == 24


def _killed_once(flag_dir: str, job: tuple) -> list:
    """The games of ``job``; the first attempt at games 20-29 waits to be killed."""
    flag = Path(flag_dir) / "pid"
    if job[-2] == 20 and not flag.exists():
        flag.write_text(str(os.getpid()))
        time.sleep(120)
    return ginrummy._work(job)


def test_a_worker_killed_mid_run_has_its_games_played_again_once(local_ray, tmp_path: Path) -> None:
    options = Options(score_limit=0).with_(first_turn=FirstTurn.ALTERNATE)
    jobs = [("standard", "easy", options, 3, start, stop) for start, stop in chunks(50, 10)]
    flag = tmp_path / "pid"

    def kill_when_waiting() -> None:
        for _ in range(600):
            if flag.exists() and flag.read_text():
                os.kill(int(flag.read_text()), signal.SIGKILL)
                return
            time.sleep(0.1)

    killer = threading.Thread(target=kill_when_waiting)
    killer.start()
    runner = Runner(workers=2, ray="local")
    results = runner.map(functools.partial(_killed_once, str(tmp_path)), jobs, (), [10] * 5)
    killer.join()
    assert runner.replayed == 1
    assert results == [ginrummy._work(job) for job in jobs]
    assert [len(part) for part in results] == [10] * 5


def test_a_round_robin_on_ray_gives_the_local_crosstable(local_ray, capsys) -> None:
    from port.match import main

    ref = str(ROOT / "scripts" / "reference_bot.py") + ":ReferenceBot"
    args = ["--players", f"easy,standard,{ref}", "--games", "6", "--limit", "0", "--seed", "4", "--json"]
    main([*args, "--workers", "1"])
    here = json.loads(capsys.readouterr().out)
    main([*args, "--ray"])
    on_ray = json.loads(capsys.readouterr().out)
    here["seconds"] = on_ray["seconds"] = 0
    assert here == on_ray and local_ray.is_initialized()      # the fixture's Ray is left running


def test_a_failing_bot_on_ray_is_the_same_one_line_as_here(local_ray, capsys) -> None:
    # Ray's workers run the games: a bot's exception (in its own process) and a hang past
    # --move-time (in the worker's, where Ray's main thread takes the alarm) come back as
    # forfeits, as data, never as a Ray traceback. 12 games: two Ray tasks.
    from port.match import main

    bots = str(ROOT / "tests" / "match" / "failing_bots.py")
    for bot, extra in (("Raises", []), ("Sleeps", ["--move-time", "0.2", "--in-process"])):
        args = ["--a", f"{bots}:{bot}", "--b", "easy", "--games", "12", "--limit", "0", "--json", *extra]
        main([*args, "--workers", "1"])
        here = capsys.readouterr()
        main([*args, "--ray"])
        on_ray = capsys.readouterr()
        assert on_ray.err == here.err and on_ray.err.startswith("forfeit: ")
        assert "Traceback" not in on_ray.err and "Ray" not in on_ray.err
        a, b = json.loads(here.out), json.loads(on_ray.out)
        a["seconds"] = b["seconds"] = 0
        assert a == b and b["a"]["forfeits"] > 0


def test_an_sprt_on_ray_stops_on_the_same_game_as_here(local_ray, capsys) -> None:
    # Results come back in any order; the test takes them in game order, so it decides
    # on the same pair, and the tasks still running are cancelled.
    from port.match import main

    args = ["--a", "standard", "--b", "easy", "--sprt", "0,50", "--games", "200", "--json"]
    main([*args, "--workers", "1"])
    here = json.loads(capsys.readouterr().out)
    main([*args, "--ray"])
    on_ray = json.loads(capsys.readouterr().out)
    here["seconds"] = on_ray["seconds"] = 0
    assert here == on_ray and on_ray["sprt"]["decision"] == "H1" and on_ray["games"] < 200
