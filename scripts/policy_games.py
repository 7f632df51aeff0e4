"""The games side of ``scripts/train_policy.py``, numpy only: the learner's seat, the
teacher's labels, the rewards, the opponents, and the evaluation on fixed deals.

A *seat* plays one game for the learning network (``Seat``): at each of its
decisions it computes the game's ``policy.features`` of the observation, plays the
network's move (greedy, or drawn from its softmax over the legal actions for
reinforcement learning) and writes down what it saw, what it chose, with what
probability, and, when a teacher is given, the teacher's move in the same position
(DAgger: the teacher labels the learner's own positions). After the game each hand's
points and the game's result become rewards (``Rewards``).

``evaluate`` plays a network (a weights file or arrays) against a level on the match
runner's deals (``port.match.common.game_seed``): games in pairs on one deal with the
seats swapped, so ``evaluate(..., seed=1)`` plays the very games
``python -m port.match --a policy --b LEVEL --seed 1`` plays with those weights shipped.
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from port.cards import PascalRandom  # noqa: E402
from port.match.common import bot_seed, game_seed, wilson  # noqa: E402
from port.netpolicy import Net, forward, head_of, layers_of  # noqa: E402

CHUNK = 10          # games per job of the worker processes
Params = dict[str, np.ndarray]


# -- the two games, side by side --------------------------------------------------------

@dataclass(frozen=True)
class Game:
    """What the trainer needs of one game."""

    name: str
    n_obs: int
    n_actions: int
    n_in: int
    n_per: int
    features: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    scale: float                 # a hand's points are divided by this in the reward


def game_of(name: str) -> Game:
    if name == "ginrummy":
        from port.ginrummy import policy as P, spaces as S
        return Game(name, S.N_OBS, S.N_ACTIONS, P.N_IN, P.N_PER, P.features, 25.0)
    from port.cribbage import policy as C, spaces as CS
    return Game(name, CS.N_OBS, CS.N_ACTIONS, C.N_IN, C.N_PER, C.features, 10.0)


def _modules(name: str) -> tuple[Any, Any, Any, Any]:
    """(spaces, options, play_game, levels) of a game."""
    if name == "ginrummy":
        from port.ginrummy import levels, spaces
        from port.ginrummy.rules import Options
        from port.ginrummy.rules.options import FirstTurn
        from port.ginrummy.rules.players import play_game
        return spaces, Options().with_(first_turn=FirstTurn.ALTERNATE), play_game, levels
    from port.cribbage import levels, spaces
    from port.cribbage.rules import Options
    from port.cribbage.rules.players import play_game
    return spaces, Options(), play_game, levels


def net_of(params: Params, game: Game) -> Net:
    """The numpy network of a parameter dict (the arrays of a weights file)."""
    return Net(layers_of(params), game.features, head_of(params))


def load_params(path: Path) -> Params:
    with np.load(path) as f:
        return {k: np.asarray(f[k], np.float32) for k in f.files if k[0] in "WbHGh"}


# -- what a seat writes down -----------------------------------------------------------

@dataclass
class Steps:
    """Decisions, one row each; the per-action numbers of each decision's legal actions
    are stacked in ``rows`` (``start`` and ``count`` say which are whose)."""

    x: list[np.ndarray] = field(default_factory=list)
    rows: list[np.ndarray] = field(default_factory=list)
    legal: list[np.ndarray] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    label: list[int] = field(default_factory=list)
    label2: list[int] = field(default_factory=list)
    reward: list[float] = field(default_factory=list)
    done: list[bool] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)

    def add(self, x: np.ndarray, per: np.ndarray, legal: np.ndarray, action: int, logp: float,
            label: int, label2: int, hand: int) -> None:
        self.x.append(x.astype(np.float16))
        self.rows.append(per[legal].astype(np.float16))
        self.legal.append(legal.astype(np.int16))
        self.action.append(action)
        self.logp.append(logp)
        self.label.append(label)
        self.label2.append(label2)
        self.reward.append(0.0)
        self.done.append(False)
        self.hand.append(hand)

    def arrays(self) -> dict[str, np.ndarray]:
        count = np.array([len(r) for r in self.legal], np.int32)
        return {
            "x": np.array(self.x, np.float16).reshape(len(self.x), -1),
            "rows": np.concatenate(self.rows) if self.rows else np.zeros((0, 1), np.float16),
            "legal": np.concatenate(self.legal) if self.legal else np.zeros(0, np.int16),
            "count": count,
            "action": np.array(self.action, np.int16), "logp": np.array(self.logp, np.float32),
            "label": np.array(self.label, np.int16), "label2": np.array(self.label2, np.int16),
            "reward": np.array(self.reward, np.float32), "done": np.array(self.done, bool),
        }


def join(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Decisions of several jobs, in order, as one set."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def starts(data: dict[str, np.ndarray]) -> np.ndarray:
    """Where each decision's rows begin in ``rows``."""
    return np.concatenate([[0], np.cumsum(data["count"])[:-1]]).astype(np.int64)


class Chooser:
    """The network's move: greedy, or drawn from its softmax (``rng``); with
    ``follow``, the teacher's own move (the teacher's games)."""

    def __init__(self, params: Params | None, game: Game, rng: np.random.Generator | None,
                 follow: bool = False) -> None:
        self.layers, self.head = (layers_of(params), head_of(params)) if params else ([], None)
        self.game = game
        self.rng = rng
        self.follow = follow

    def __call__(self, obs: np.ndarray, mask: np.ndarray, label: int = -1
                 ) -> tuple[int, float, np.ndarray, np.ndarray, np.ndarray]:
        x, per = self.game.features(obs)
        legal = np.flatnonzero(mask)
        if self.follow:
            return label, 0.0, x, per, legal
        z = forward(self.layers, self.head, x, per)
        zl = z[legal].astype(np.float64)
        zl -= zl.max()
        p = np.exp(zl)
        p /= p.sum()
        i = int(np.argmax(zl)) if self.rng is None else int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), float(np.log(p[i] + 1e-12)), x, per, legal


# -- the learner's seat, per game --------------------------------------------------------

def gin_seat(choose: Chooser, teacher: Any, steps: Steps) -> Any:
    from port.ginrummy import spaces as S

    class Seat(S.PolicyPlayer):
        name = "learner"

        def __init__(self) -> None:
            self.observer = S.Observer()
            self.hands = -1

        def begin_hand(self, view):          # type: ignore[no-untyped-def]
            self.observer.reset()
            self.hands += 1
            if teacher is not None:
                teacher.begin_hand(view)

        def observe(self, event):            # type: ignore[no-untyped-def]
            if teacher is not None:
                teacher.observe(event)

        def end_hand(self, view, result):    # type: ignore[no-untyped-def]
            if teacher is not None:
                teacher.end_hand(view, result)

        def _ask(self, view):                # type: ignore[no-untyped-def]
            mask = S.mask_of(view)
            label = S.action_from_view(view, teacher) if teacher is not None else -1
            a, logp, x, per, legal = choose(self.observer.observe(view), mask, label)
            steps.add(x, per, legal, a, logp, label, -1, self.hands)
            return a

    return Seat()


def crib_seat(choose: Chooser, teacher: Any, steps: Steps, by: int) -> Any:
    """``by``: which value of ``policy.split_values`` labels the second card laid away
    when the learner's first is not one of the teacher's (0 STANDARD's, 1 EXPERT's)."""
    from port.cribbage import spaces as S
    from port.cribbage.policy import split_values

    class Seat(S.PolicyPlayer):
        name = "learner"

        def __init__(self) -> None:
            self.hands = -1
            self.pair: tuple[int, int] | None = None

        def begin_hand(self, view):          # type: ignore[no-untyped-def]
            self.hands += 1
            if teacher is not None:
                teacher.begin_hand(view)

        def end_hand(self, view):            # type: ignore[no-untyped-def]
            if teacher is not None:
                teacher.end_hand(view)

        def _label(self, view, pending):     # type: ignore[no-untyped-def]
            if teacher is None:
                return -1, -1
            if view.phase is S.Phase.DISCARD:
                if pending is None:
                    self.pair = tuple(int(c) for c in teacher.discard(view))   # type: ignore[assignment]
                    return self.pair                                           # type: ignore[return-value]
                assert self.pair is not None
                if pending in self.pair:
                    return self.pair[1 - self.pair.index(pending)], -1
                values = split_values(tuple(sorted(view.hand)), view.dealer == view.seat)
                rest = [c for c in view.hand if c != pending]
                return max(rest, key=lambda c: values[frozenset((pending, c))][by]), -1
            c = teacher.play(view)
            return (S.GO if c is None else int(c)), -1

        def _ask(self, view, pending=None):  # type: ignore[no-untyped-def]
            mask = S.mask_of(view, pending)
            label, label2 = self._label(view, pending)
            a, logp, x, per, legal = choose(S.observation_of(view, pending), mask, label)
            steps.add(x, per, legal, a, logp, label, label2, self.hands)
            return a

    return Seat()


# -- rewards ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Rewards:
    """What a game pays the learner: ``hand`` times each hand's points (its own less the
    opponent's, divided by the game's scale: 25 in GinRummy, 10 in Cribbage), paid at
    its last decision of that hand, and ``game`` for winning the game (minus as much
    for losing it), paid at its last decision. With ``game`` 0 each hand is an episode
    of its own (the advantages look no further than the hand's end); otherwise the
    episode is the game."""

    hand: float = 1.0
    game: float = 0.0

    @staticmethod
    def parse(text: str) -> Rewards:
        """``hand=1,game=0.5``: one sentence (ValueError) for anything else."""
        got = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, val = part.partition("=")
            if key not in ("hand", "game"):
                raise ValueError(f"--reward takes hand=X and game=Y, not {part!r}")
            try:
                got[key] = float(val)
            except ValueError:
                raise ValueError(f"--reward takes numbers, as hand=1,game=0.5, not {part!r}") from None
        return Rewards(**got)


def hand_points(game: str, record: Any, seat: int) -> list[int]:
    """Each hand's points for ``seat`` less the opponent's."""
    out = []
    for h in record.hands:
        if game == "ginrummy":
            r = h.result
            out.append(0 if r.winner is None else (r.points if r.winner == seat else -r.points))
        else:
            t = h.total
            out.append(t[seat] - t[1 - seat])
    return out


def pay(steps: Steps, first: int, game: Game, record: Any, seat: int, rewards: Rewards) -> None:
    """Write the game's rewards on the learner's decisions ``first..`` (the game's)."""
    n = len(steps.action)
    if n == first:
        return
    points = hand_points(game.name, record, seat)
    last_of: dict[int, int] = {}
    for i in range(first, n):
        last_of[steps.hand[i]] = i
    for h, pts in enumerate(points):
        i = last_of.get(h)
        if i is None:      # no decision in that hand: the next one (or the last) carries it
            later = [j for k, j in last_of.items() if k > h]
            i = min(later) if later else n - 1
        steps.reward[i] += rewards.hand * pts / game.scale
        # Without a reward for the game, each hand is an episode of its own.
        steps.done[i] = steps.done[i] or rewards.game == 0
    won = 0.0 if record.winner is None else (1.0 if record.winner == seat else -1.0)
    steps.reward[n - 1] += rewards.game * won
    steps.done[n - 1] = True


# -- playing the learner's games ---------------------------------------------------------

@dataclass(frozen=True)
class Job:
    """Games ``start..stop`` of a batch: the learner (``params``; sampled when
    ``explore``) against ``opponents[g]`` (a level's name, or the key of a network in
    ``nets``), labelled by ``teacher`` (a level's name) when given."""

    game: str
    params: Params
    seed: int
    start: int
    stop: int
    opponents: tuple[str, ...]
    nets: dict[str, Params]
    explore: bool
    teacher: str | None
    rewards: Rewards
    label_by: int = 1
    follow: bool = False


def opponent(name: str, game: Game, nets: dict[str, Params], seed: int) -> Any:
    spaces, _, _, levels = _modules(game.name)
    if name in nets:
        return spaces.PolicyPlayer(net_of(nets[name], game), name)
    return levels.load_player(name, seed)


def play_job(job: Job) -> dict[str, np.ndarray]:
    """The learner's decisions in the job's games, in game order; with ``follow`` the
    teacher plays them itself (the teacher's own games)."""
    game = game_of(job.game)
    _, options, play_game, levels = _modules(job.game)
    steps = Steps()
    for g in range(job.start, job.stop):
        rng = np.random.default_rng([job.seed, g]) if job.explore else None
        choose = Chooser(job.params, game, rng, job.follow)
        teacher = levels.load_player(job.teacher, bot_seed(job.seed, g, 2)) if job.teacher else None
        me = (gin_seat(choose, teacher, steps) if job.game == "ginrummy"
              else crib_seat(choose, teacher, steps, job.label_by))
        other = opponent(job.opponents[g - job.start], game, job.nets, bot_seed(job.seed, g, 1))
        seat = g % 2
        players = (me, other) if seat == 0 else (other, me)
        first = len(steps.action)
        record = play_game(options, PascalRandom(game_seed(job.seed, g)), players)
        pay(steps, first, game, record, seat, job.rewards)
    return steps.arrays()


def run_jobs(work: Callable[[Job], dict[str, np.ndarray]], jobs: list[Job], workers: int) -> dict[str, np.ndarray]:
    if workers > 1 and len(jobs) > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(work, jobs, chunksize=1)
    else:
        parts = [work(j) for j in jobs]
    return join(parts)


def jobs_of(game: str, params: Params, seed: int, opponents: Sequence[str], **kw: Any) -> list[Job]:
    n = len(opponents)
    return [Job(game, params, seed, s, min(s + CHUNK, n), tuple(opponents[s:min(s + CHUNK, n)]), **kw)
            for s in range(0, n, CHUNK)]


# -- evaluation on fixed deals --------------------------------------------------------

@dataclass(frozen=True)
class Score:
    games: int
    won: int
    drawn: int

    @property
    def rate(self) -> float:
        return (self.won + self.drawn / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won + self.drawn / 2, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.rate:.1%} of {self.games} ({lo:.1%}-{hi:.1%})"


def _eval_job(job: tuple[str, Params, str, int, int, int]) -> tuple[int, int]:
    name, params, against, seed, start, stop = job
    game = game_of(name)
    spaces, options, play_game, levels = _modules(name)
    won = drawn = 0
    for g in range(start, stop):
        me = spaces.PolicyPlayer(net_of(params, game), "policy")
        other = levels.load_player(against, bot_seed(seed, g, 1))
        seat = g % 2
        record = play_game(options, PascalRandom(game_seed(seed, g)), (me, other) if seat == 0 else (other, me))
        won += record.winner == seat
        drawn += record.winner is None
    return won, drawn


def evaluate(game: str, weights: Params | Path, against: str = "standard", games: int = 400,
             seed: int = 1, workers: int = 2) -> Score:
    """The network's games against the level ``against`` on the match runner's deals
    for ``seed``: pairs of games on one deal, seats swapped (the network in seat 0 in
    even games). ``weights``: a weights file or its arrays (played as float16 rounds
    them, when they come from the trainer)."""
    params = load_params(weights) if isinstance(weights, Path) else weights
    jobs = [(game, params, against, seed, s, min(s + CHUNK, games)) for s in range(0, games, CHUNK)]
    if workers > 1 and len(jobs) > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_eval_job, jobs, chunksize=1)
    else:
        parts = [_eval_job(j) for j in jobs]
    return Score(games, sum(p[0] for p in parts), sum(p[1] for p in parts))


__all__ = ["CHUNK", "Chooser", "Game", "Job", "Params", "Rewards", "Score", "Steps", "evaluate",
           "game_of", "jobs_of", "join", "load_params", "net_of", "pay", "play_job", "run_jobs",
           "starts"]
