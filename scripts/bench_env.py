"""Environment steps per second with a random legal policy: ours against OpenSpiel's.

    .venv/bin/python scripts/bench_env.py [--steps 20000] [--runs 3] [--game ginrummy|cribbage|all]
                                          [--form aec|single|all]
    .venv/bin/python scripts/bench_env.py --game-length 20     # steps of a random game to 100
    .venv/bin/python scripts/bench_env.py --search             # clones/s, sample_world/s, the bridge
    .venv/bin/python scripts/bench_env.py --clock cpu          # rates per CPU second (a shared machine)

``--search``: the rules' search positions (``port.*.rules.search``): ``clone()`` of
positions met in random play, per second; ``sample_world`` from a seat's view at
those positions, per second; and steps per second of the OpenSpiel bridge
(``port.openspiel``, random legal moves with the observation tensor and the mask at
each, chance nodes not counted; the tensor as OpenSpiel's list, and again through its
numpy observation, ``make_observation``) beside our AEC environment's, and beside a Python game
for OpenSpiel that does nothing (the same tensor size and actions, constant answers):
the cost of OpenSpiel's calls into a Python game alone.

Every step builds what a learner needs, the observation array and the legal-action
mask, for the seat to move, then picks a uniformly random legal action:

* ``aec``: our PettingZoo environment through its wrappers (``env.last()``,
  ``env.step()``), every move of both seats a step; against OpenSpiel's game
  (``pyspiel``, from the optional extra ``bench``: ``pip install open_spiel``) with
  ``observation_tensor`` and ``legal_actions_mask`` at every move, its chance nodes
  (the deal) sampled in the loop and not counted as steps.
* ``single``: our single-agent environment (``port.env.single``) against a random
  opponent, a step being a learner's move (``env.step`` and ``env.action_masks()``);
  against OpenSpiel with the same loop: seat 0 learns (observation and mask), seat 1
  plays at random from its legal actions.

OpenSpiel's cribbage has no observation tensor: its ``observation_string`` is taken
instead (the only observation it gives). Runs alternate between the two so that a
busy machine weighs on both alike; each row prints its runs and their median, and
the ratio of our median to OpenSpiel's.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

# The clock the rates are taken by: the wall's (the default), or with --clock cpu this
# process's CPU time, which leaves out the turns other processes take on a shared
# machine's cores (under a load of 6 on 2 cores the wall's rates were a third of a quiet
# machine's and swung from run to run).
clock = time.perf_counter

GAMES = {"ginrummy": ("port.env.ginrummy_v0", "gin_rummy"), "cribbage": ("port.env.cribbage_v0", "cribbage")}


def random_episode(env: object, rng: random.Random, limit: int) -> int:
    """Play a reset AEC environment with random legal actions until its episode ends
    or ``limit`` steps are made; the steps made."""
    done = 0
    for _ in env.agent_iter():                           # type: ignore[attr-defined]
        obs, _, term, trunc, _ = env.last()              # type: ignore[attr-defined]
        if term or trunc:
            env.step(None)                               # type: ignore[attr-defined]
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
        done += 1
        if done >= limit:
            break
    return done


def ours_aec(game: str, steps: int, seed: int) -> float:
    env = importlib.import_module(GAMES[game][0]).env()
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    t0 = clock()
    while done < steps:
        done += random_episode(env, rng, steps - done)
        env.reset()
    return done / (clock() - t0)


def ours_single(game: str, steps: int, seed: int) -> float:
    from port.env.single import make

    env = make(game, opponent="random")
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    done = 0
    t0 = clock()
    while done < steps:
        obs, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done += 1
        if term:
            obs, _ = env.reset()
    return done / (clock() - t0)


def _observer(game: str) -> Callable[..., object]:
    if game == "cribbage":          # no tensor: the string is OpenSpiel's only observation
        return lambda s, p: s.observation_string(p)
    return lambda s, p: np.asarray(s.observation_tensor(p), dtype=np.float32)


def spiel(game: str, steps: int, seed: int, learner: int | None = None) -> float:
    """OpenSpiel's game with a random legal policy: every move of the seat ``learner``
    (of every seat when None) builds the observation and the mask and is a step; the
    other seat picks from its legal actions. Chance nodes (the deal) are sampled."""
    import pyspiel

    g = pyspiel.load_game(GAMES[game][1])
    observe = _observer(game)
    rng = random.Random(seed)
    done = 0
    t0 = clock()
    while done < steps:
        s = g.new_initial_state()
        while not s.is_terminal() and done < steps:
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            p = s.current_player()
            if learner is None or p == learner:
                observe(s, p)
                mask = np.asarray(s.legal_actions_mask(p), dtype=np.int8)
                s.apply_action(int(rng.choice(np.flatnonzero(mask))))
                done += 1
            else:
                s.apply_action(rng.choice(s.legal_actions(p)))
    return done / (clock() - t0)


def spiel_aec(game: str, steps: int, seed: int) -> float:
    return spiel(game, steps, seed)


def spiel_single(game: str, steps: int, seed: int) -> float:
    return spiel(game, steps, seed, learner=0)


def have_openspiel() -> bool:
    try:
        importlib.import_module("pyspiel")
    except ImportError:
        return False
    return True


def game_length(games: int, seed: int = 1) -> list[int]:
    """Steps (both seats' moves) of GinRummy games to 100 between random legal policies."""
    from port.env import ginrummy_v0

    rng = random.Random(seed)
    out = []
    for g in range(games):
        env = ginrummy_v0.env(episode="game", score_limit=100)
        env.reset(seed=seed + g)
        out.append(random_episode(env, rng, 10 ** 9))
    return out


def search_positions(game: str, count: int, seed: int = 1) -> list[tuple[object, int]]:
    """(position, seat) pairs met in random play of the rules' search positions."""
    mod = importlib.import_module(f"port.{game}.rules")
    options = mod.Options(score_limit=0) if game == "ginrummy" else mod.Options()
    rng = random.Random(seed)
    out: list[tuple[object, int]] = []
    g = 0
    while len(out) < count:
        p = mod.Position.deal(options, seed=g)
        g += 1
        while not p.terminal and len(out) < count:
            if rng.random() < 0.2:
                out.append((p.clone(), rng.choice((0, 1))))
            p.step(rng.choice(p.legal_actions()))
    return out


def per_second(fn: Callable[[], object], seconds: float = 2.0) -> float:
    n = 0
    t0 = clock()
    while (elapsed := clock() - t0) < seconds:
        for _ in range(50):
            fn()
        n += 50
    return n / elapsed


def bridge(game: str, steps: int, seed: int, name: str | None = None, arrays: bool = False) -> float:
    """Random legal moves on ``port.openspiel``'s game (or the game ``name``), the
    observation tensor and the mask built at each player move (a step); chance nodes
    sampled, not counted. The tensor is ``state.observation_tensor(p)`` (a list of
    floats, OpenSpiel's contract) made an array; with ``arrays`` OpenSpiel's numpy
    observation instead (``open_spiel.python.observation.make_observation``: the
    game's observer writes into a numpy array, no list)."""
    import pyspiel
    import port.openspiel as bridges

    g = pyspiel.load_game(name or (bridges.GIN_NAME if game == "ginrummy" else bridges.CRIB_NAME))
    if arrays:
        from open_spiel.python.observation import make_observation

        observation = make_observation(g)

        def observe(s: object, p: int) -> object:
            observation.set_from(s, p)
            return observation.tensor
    else:
        def observe(s: object, p: int) -> object:
            return np.asarray(s.observation_tensor(p), dtype=np.float32)     # type: ignore[attr-defined]
    rng = random.Random(seed)
    done = 0
    t0 = clock()
    while done < steps:
        s = g.new_initial_state()
        while not s.is_terminal() and done < steps:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            p = s.current_player()
            observe(s, p)
            mask = np.asarray(s.legal_actions_mask(p), dtype=np.int8)
            s.apply_action(int(rng.choice(np.flatnonzero(mask))))
            done += 1
    return done / (clock() - t0)


def register_floor(game: str) -> str:
    """Register (once) a Python game for OpenSpiel that does nothing: the game's own
    tensor size and actions, constant answers (whose turn, four legal actions, a zero
    tensor), 30 moves a game, no chance. Through ``bridge()``'s loop it measures what
    OpenSpiel's calls into a Python game cost by themselves: the floor under any
    Python game's steps, ours included. Its name."""
    import pyspiel

    spaces = importlib.import_module(f"port.{game}.spaces")
    name = f"python_floor_{game}"
    if name in pyspiel.registered_names():
        return name
    kind = pyspiel.GameType(
        short_name=name, long_name=f"a Python game that does nothing ({game}'s sizes)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=True, parameter_specification={})
    zero, legal, terminal = np.zeros(spaces.N_OBS, np.float32), [0, 1, 2, 3], int(pyspiel.PlayerId.TERMINAL)

    class Observer:
        def __init__(self) -> None:
            self.tensor = np.zeros(spaces.N_OBS, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: object, player: int) -> None:
            self.tensor[:] = zero

        def string_from(self, state: object, player: int) -> str:
            return ""

    class Game(pyspiel.Game):                           # type: ignore[misc]
        def __init__(self, params: dict | None = None) -> None:
            info = pyspiel.GameInfo(num_distinct_actions=spaces.N_ACTIONS, max_chance_outcomes=0, num_players=2,
                                    min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=30)
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(self, iig_obs_type: object = None, params: object = None) -> Observer:
            return Observer()

    class State(pyspiel.State):                         # type: ignore[misc]
        def __init__(self, g: Game) -> None:
            super().__init__(g)
            self.moves = 0

        def current_player(self) -> int:
            return terminal if self.moves >= 30 else self.moves & 1

        def is_terminal(self) -> bool:
            return self.moves >= 30

        def _legal_actions(self, player: int) -> list[int]:
            return legal

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def chance_outcomes(self) -> list:
            return []

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def __str__(self) -> str:
            return str(self.moves)

    pyspiel.register_game(kind, Game)
    return name


def bridge_states(game: str, count: int, seed: int = 1) -> list[object]:
    """States of ``port.openspiel``'s game after random moves, for its ``clone()``: what
    OpenSpiel's searches (MCTS, ISMCTS) copy at every simulation."""
    import pyspiel
    import port.openspiel as bridges

    g = pyspiel.load_game(bridges.GIN_NAME if game == "ginrummy" else bridges.CRIB_NAME)
    rng = random.Random(seed)
    found: list[object] = []
    while len(found) < count:
        s = g.new_initial_state()
        for _ in range(rng.randrange(4, 40)):
            if s.is_terminal():
                break
            acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            s.apply_action(rng.choice(acts))
        if not s.is_terminal():
            found.append(s)
    return found


def search_report(runs: int, steps: int) -> None:
    for game in GAMES:
        rules = importlib.import_module(f"port.{game}.rules")
        found = search_positions(game, 200)
        cycle = [0]

        def clone() -> object:
            cycle[0] = (cycle[0] + 1) % len(found)
            return found[cycle[0]][0].clone()                   # type: ignore[attr-defined]

        def clone_hand() -> object:
            cycle[0] = (cycle[0] + 1) % len(found)
            return found[cycle[0]][0].hand.clone()              # type: ignore[attr-defined]

        rng = random.Random(2)
        views = [(p.view(seat), p) for p, seat in found]          # type: ignore[attr-defined]

        def sample() -> object:
            cycle[0] = (cycle[0] + 1) % len(views)
            view, p = views[cycle[0]]
            return rules.sample_world(view, rng)

        clones = [per_second(clone) for _ in range(runs)]
        hands = [per_second(clone_hand) for _ in range(runs)]
        samples = [per_second(sample) for _ in range(runs)]
        print(f"{game:9} Position.clone() {statistics.median(clones):8,.0f} /s (runs {', '.join(f'{r:,.0f}' for r in clones)})")
        print(f"{game:9} HandState.clone() {statistics.median(hands):7,.0f} /s (runs {', '.join(f'{r:,.0f}' for r in hands)})")
        print(f"{game:9} sample_world() {statistics.median(samples):10,.0f} /s (runs {', '.join(f'{r:,.0f}' for r in samples)})")
        if have_openspiel():
            ours, theirs, arrays, floor = [], [], [], []
            for seed in range(1, runs + 1):      # alternate: the machine's load falls on both
                ours.append(ours_aec(game, steps, seed))
                theirs.append(bridge(game, steps, seed))
                arrays.append(bridge(game, steps, seed, arrays=True))
                floor.append(bridge(game, steps, seed, register_floor(game)))
            print(f"{game:9} bridge {statistics.median(theirs):9,.0f} steps/s (runs {', '.join(f'{r:,.0f}' for r in theirs)})"
                  f" | our AEC {statistics.median(ours):9,.0f} (runs {', '.join(f'{r:,.0f}' for r in ours)}) | ratio {statistics.median(theirs) / statistics.median(ours):.2f}x",
                  flush=True)
            print(f"{game:9} bridge, numpy observation {statistics.median(arrays):9,.0f} steps/s "
                  f"(runs {', '.join(f'{r:,.0f}' for r in arrays)}) | ratio to our AEC "
                  f"{statistics.median(arrays) / statistics.median(ours):.2f}x", flush=True)
            print(f"{game:9} a Python game doing nothing, same sizes, same loop {statistics.median(floor):9,.0f} steps/s "
                  f"(runs {', '.join(f'{r:,.0f}' for r in floor)}) | ratio to our AEC "
                  f"{statistics.median(floor) / statistics.median(ours):.2f}x", flush=True)
            states = bridge_states(game, 200)

            def clone_state() -> object:
                cycle[0] = (cycle[0] + 1) % len(states)
                return states[cycle[0]].clone()                  # type: ignore[attr-defined]
            copies = [per_second(clone_state) for _ in range(runs)]
            print(f"{game:9} bridge clone() {statistics.median(copies):8,.0f} /s (runs {', '.join(f'{r:,.0f}' for r in copies)})",
                  flush=True)


def row(label: str, ours: list[float], theirs: list[float] | None) -> str:
    shown = ", ".join(f"{r:,.0f}" for r in ours)
    line = f"{label:18} {statistics.median(ours):9,.0f} steps/s (runs {shown})"
    if theirs:
        med = statistics.median(theirs)
        line += (f" | OpenSpiel {med:9,.0f} (runs {', '.join(f'{r:,.0f}' for r in theirs)})"
                 f" | ratio {statistics.median(ours) / med:.2f}x")
    return line


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=20000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", choices=[*GAMES, "all"], default="all")
    p.add_argument("--form", choices=["aec", "single", "all"], default="all",
                   help="the environment form measured (both by default)")
    p.add_argument("--game-length", type=int, default=0, metavar="N",
                   help="instead: the steps of N random GinRummy games to 100")
    p.add_argument("--search", action="store_true",
                   help="instead: clones/s, sample_world/s and the OpenSpiel bridge's steps/s")
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="rates by the wall clock, or by this process's CPU time (a shared machine)")
    args = p.parse_args()
    if args.clock == "cpu":
        global clock
        clock = time.process_time
    if args.search:
        search_report(args.runs, args.steps)
        return
    if args.game_length:
        lengths = game_length(args.game_length)
        print(f"random GinRummy games to 100: median {statistics.median(lengths):,.0f} steps, "
              f"mean {statistics.mean(lengths):,.0f} (min {min(lengths):,}, max {max(lengths):,}; "
              f"{len(lengths)} games)")
        return
    spiel = have_openspiel()
    if not spiel:
        print("OpenSpiel is not installed (pip install open_spiel, or the extra 'bench'): ours only")
    for game in GAMES:
        if args.game not in (game, "all"):
            continue
        for form, ours, theirs in (("aec", ours_aec, spiel_aec), ("single", ours_single, spiel_single)):
            if args.form not in (form, "all"):
                continue
            mine: list[float] = []
            other: list[float] = []
            for seed in range(1, args.runs + 1):      # alternate: the machine's load falls on both
                mine.append(ours(game, args.steps, seed))
                if spiel:
                    other.append(theirs(game, args.steps, seed))
            print(row(f"{game} {form}", mine, other or None), flush=True)


if __name__ == "__main__":
    main()
