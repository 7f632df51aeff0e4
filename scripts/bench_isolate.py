"""What running bot files in their own process costs (the default since issue 39;
``--in-process`` plays them in the worker's): a bot file's calls (its decisions and
its hooks) made in the engine's process, then in a process of its own, over the same
games.

    .venv/bin/python scripts/bench_isolate.py [--games 40] [--runs 3] [--workers 1] [--game ginrummy|cribbage]

The bot is the reference bot (``scripts/reference_bot.py``, or the Cribbage one)
against STANDARD, on ``--workers`` worker processes, the same seed each time; the
runs alternate. Printed: the calls into the bot per game (every call is a round trip
when isolated), each way's seconds and games/s (the median run) and, on one worker,
its CPU seconds (this process's and the bot's process's, its start included: on a
shared machine the wall clock measures the wait for a core as much as the work), the
difference per call waited for; then one decision's round trip alone (a real view sent
2,000 times to the bot's process, less the time the bot takes in this process).
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.match import cribbage, ginrummy  # noqa: E402
from port.match.common import Watching  # noqa: E402
from port.cards import PascalRandom  # noqa: E402
from port.match.guard import Guard, Watch  # noqa: E402
from port.match.isolate import UNANSWERED, BotProcess, close_all  # noqa: E402
from port.cribbage.rules import Options as CribbageOptions  # noqa: E402
from port.ginrummy.rules.options import Options  # noqa: E402

HERE = Path(__file__).resolve().parent
BOTS = {"ginrummy": (ginrummy, str(HERE / "reference_bot.py") + ":ReferenceBot", Options()),
        "cribbage": (cribbage, str(HERE / "reference_cribbage_bot.py") + ":ReferenceBot", CribbageOptions())}


def _calls(game: str, games: int) -> tuple[int, int]:
    """The calls into the bot (side A) over the games: those waited for (its decisions,
    ``end_hand``), and the hooks sent without waiting (``observe``, ``begin_hand``)."""
    module, bot, options = BOTS[game]
    waited = hooks = 0
    original = Watch.call

    def counting(self: Watch, seat: int, method: str, fn, args, remote: bool = False):  # type: ignore[no-untyped-def]
        nonlocal waited, hooks
        if getattr(fn, "__self__", None) is not None and type(fn.__self__).__name__ == "ReferenceBot":
            if method in UNANSWERED:
                hooks += 1
            else:
                waited += 1
        return original(self, seat, method, fn, args, remote)

    Watch.call = counting  # type: ignore[method-assign]
    try:        # in this process, where the calls can be counted
        module.run_match(bot, "standard", games, 1, options, workers=1, watching=Watching(Guard(isolate=False)))
    finally:
        Watch.call = original  # type: ignore[method-assign]
    return waited, hooks


def _round_trip(game: str, n: int) -> float:
    """The median seconds of one decision asked of the bot's process (a real view of
    a dealt hand, pickled there and back), the bot's own thinking included."""
    module, bot, options = BOTS[game]
    process = BotProcess(module.load_player.__module__)
    process.request(("new", bot, 1), None)
    if game == "ginrummy":
        from port.ginrummy.rules import HandState
        hand = HandState.deal(options, PascalRandom(1991))
        method, view = "choose_draw", hand.view(hand.to_move)
    else:
        from port.cribbage.rules import GameState
        state = GameState.new(options, PascalRandom(1991), 0)
        method, view = "discard", state.hand.view(state.hand.to_act)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        process.request(("call", method, (view,)), None)
        times.append(time.perf_counter() - t0)
    process.kill()
    local = module.load_player(bot, 1)
    here = []
    for _ in range(n):
        t0 = time.perf_counter()
        getattr(local, method)(view)
        here.append(time.perf_counter() - t0)
    return statistics.median(times) - statistics.median(here)


def _cpu() -> float:
    """CPU seconds of this process and its reaped children (the bots' processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _seconds(game: str, games: int, isolate: bool, workers: int) -> tuple[float, float]:
    """The run's wall-clock seconds, and its CPU seconds (one worker only: a pool's
    workers are the forkserver's children, not counted here; else 0)."""
    module, bot, options = BOTS[game]
    t0, c0 = time.perf_counter(), _cpu()
    module.run_match(bot, "standard", games, 1, options, workers=workers, watching=Watching(Guard(isolate=isolate)))
    close_all()           # the bots' processes end with the run, as a run's do: their CPU time is counted
    return time.perf_counter() - t0, (_cpu() - c0 if workers == 1 else 0.0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", choices=sorted(BOTS), default="ginrummy")
    p.add_argument("--workers", type=int, default=1, help="worker processes (a pool from 2 on, its start included)")
    args = p.parse_args()
    waited, hooks = _calls(args.game, args.games)
    _seconds(args.game, 2, True, 1)           # warm: the engine's imports, the disk's cache
    here, apart, cpu_here, cpu_apart = [], [], [], []
    for _ in range(args.runs):
        for isolate, wall, cpu in ((False, here, cpu_here), (True, apart, cpu_apart)):
            w, c = _seconds(args.game, args.games, isolate, args.workers)
            wall.append(w)
            cpu.append(c)
    h, a = statistics.median(here), statistics.median(apart)
    trip = _round_trip(args.game, 2000)
    print(f"{args.game}: {args.games} games on {args.workers} worker(s); calls into the bot a game: "
          f"{waited / args.games:.0f} waited for (decisions, end_hand), {hooks / args.games:.0f} hooks sent "
          "without waiting")
    print(f"in the engine's process (--in-process): {h:.2f} s, {args.games / h:.1f} games/s "
          f"(runs {', '.join(f'{x:.2f}' for x in here)})")
    print(f"in its own process (the default):       {a:.2f} s, {args.games / a:.1f} games/s "
          f"(runs {', '.join(f'{x:.2f}' for x in apart)}); {a / h:.2f}x the time")
    if args.workers == 1:     # CPU time: what a busy machine cannot blur (it counts work, not waiting)
        ch, ca = statistics.median(cpu_here), statistics.median(cpu_apart)
        print(f"CPU seconds (this process and the bot's): in the engine's {ch:.2f} "
              f"({1000 * ch / args.games:.0f} ms a game), in its own {ca:.2f} ({1000 * ca / args.games:.0f} ms a game); "
              f"{ca / ch:.2f}x the work")
    print(f"the match's extra time per call waited for: {1e6 * (a - h) / waited:.0f} us")
    print(f"one decision's round trip (median of 2000, less the bot's own time): {1e6 * trip:.0f} us")


if __name__ == "__main__":
    main()
