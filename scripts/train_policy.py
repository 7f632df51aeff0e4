"""Train the ``policy`` level of either game: a small masked policy network that
imitates STANDARD (docs/envs.md, "A learned baseline").

    python scripts/train_policy.py --game ginrummy            # writes port/ginrummy/policy.npz
    python scripts/train_policy.py --game cribbage            # writes port/cribbage/policy.npz
    python scripts/train_policy.py --game both --games 20 --epochs 1 --out /tmp/p   # a quick try

1. Data: STANDARD plays whole games (default options) against EASY and against
   itself, in turn, seats swapped; each of STANDARD's decisions is kept as the
   seat's observation and action mask (the game's ``spaces``, exactly what the
   network sees when it plays) and the action STANDARD chose. Cribbage's discard is
   two actions, as in the environment: the first card, then the second with the first
   laid away.
2. Training: a multilayer perceptron (ReLU layers, one logit per action), softmax
   over the legal actions only, cross-entropy on STANDARD's choices, Adam, minibatches
   in an order drawn from ``--seed``. numpy only: PyPI's torch for Linux could not be
   imported here without its several GB of CUDA packages, and a network this size
   trains in minutes on numpy.
3. The weights are saved as float16 in a compressed ``.npz`` (``port.netpolicy``
   plays them with numpy alone).

The same command gives the same weights: the games' seeds, the initial weights and
the minibatch order all come from ``--seed``; the games are played in numbered chunks
whose results are joined in order whatever ``--workers`` is.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

# One BLAS thread per process: the same sums in the same order on any machine (so the
# same weights), and no threads spinning against the games' worker processes.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from port.cards import PascalRandom  # noqa: E402
from port.match.common import game_seed  # noqa: E402

TOP = Path(__file__).resolve().parents[1]
CHUNK = 10          # games per job of the worker processes


# -- recording STANDARD's decisions ------------------------------------------------

def _gin_recorder(seed: int, out: list) -> object:
    from port.ginrummy.computer import Standard
    from port.ginrummy.rules.players import Player
    from port.ginrummy import spaces as S

    class Recorder(Player):
        """STANDARD, writing down each decision with the arrays of its view."""

        name = "recorder"

        def __init__(self) -> None:
            self.teacher = Standard(seed=seed)
            self.observer = S.Observer()

        def _keep(self, view: object, action: int) -> None:
            out.append((self.observer.observe(view), S.mask_of(view), action))

        def begin_hand(self, view):          # type: ignore[no-untyped-def]
            self.observer.reset()
            self.teacher.begin_hand(view)

        def observe(self, event):            # type: ignore[no-untyped-def]
            self.teacher.observe(event)

        def end_hand(self, view, result):    # type: ignore[no-untyped-def]
            self.teacher.end_hand(view, result)

        def choose_draw(self, view):         # type: ignore[no-untyped-def]
            d = self.teacher.choose_draw(view)
            self._keep(view, S.action_of_draw(d))
            return d

        def choose_discard(self, view):      # type: ignore[no-untyped-def]
            c = self.teacher.choose_discard(view)
            self._keep(view, S.DISCARD0 + int(c))
            return c

        def choose_knock(self, view):        # type: ignore[no-untyped-def]
            k = self.teacher.choose_knock(view)
            self._keep(view, S.action_of_knock(k))
            return k

    return Recorder()


def _crib_recorder(seed: int, out: list) -> object:
    from port.cribbage.computer import Standard
    from port.cribbage import spaces as S

    class Recorder(Standard):
        """STANDARD, writing down each decision with the arrays of its view."""

        name = "recorder"

        def discard(self, view):             # type: ignore[no-untyped-def]
            a, b = super().discard(view)
            out.append((S.observation_of(view), S.mask_of(view), int(a)))
            out.append((S.observation_of(view, a), S.mask_of(view, a), int(b)))
            return a, b

        def play(self, view):                # type: ignore[no-untyped-def]
            c = super().play(view)
            out.append((S.observation_of(view), S.mask_of(view), S.GO if c is None else int(c)))
            return c

    return Recorder(seed=seed)


def play_chunk(job: tuple[str, int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games ``start..stop`` of the data: STANDARD (recorded) against EASY in even
    pairs of games, against STANDARD in odd ones, seats swapped within each pair."""
    game, seed, start, stop = job
    out: list = []
    if game == "ginrummy":
        from port.ginrummy.computer import Easy, Standard
        from port.ginrummy.rules import Options
        from port.ginrummy.rules.players import play_game
        recorder, options = _gin_recorder, Options()
    else:
        from port.cribbage.computer import Standard
        from port.cribbage.easy import Easy
        from port.cribbage.rules import Options
        from port.cribbage.rules.players import play_game
        recorder, options = _crib_recorder, Options()
    for g in range(start, stop):
        me = recorder(2 * g + 1, out)
        other = (Easy if (g // 2) % 2 == 0 else Standard)(seed=2 * g + 2)
        players = (me, other) if g % 2 == 0 else (other, me)
        play_game(options, PascalRandom(game_seed(seed, g)), players)
    _, _, _, features = shapes(game)
    obs = np.array([features(o) for o, _, _ in out], dtype=np.float16)
    masks = np.array([m for _, m, _ in out], dtype=bool)
    actions = np.array([a for _, _, a in out], dtype=np.int16)
    return obs, masks, actions


def make_data(game: str, games: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    jobs = [(game, seed, s, min(s + CHUNK, games)) for s in range(0, games, CHUNK)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(play_chunk, jobs, chunksize=1)
    else:
        parts = [play_chunk(j) for j in jobs]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


# -- the network ---------------------------------------------------------------------

def init(sizes: list[int], rng: np.random.Generator) -> list[np.ndarray]:
    """He-initialised weights and zero biases: W0, b0, W1, b1, ..."""
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        params.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32))
        params.append(np.zeros(n_out, np.float32))
    return params


def forward(params: list[np.ndarray], x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The masked logits (illegal actions at -1e9) and each layer's input."""
    acts = [x]
    h = x
    n = len(params) // 2
    for i in range(n):
        h = h @ params[2 * i] + params[2 * i + 1]
        if i < n - 1:
            h = np.maximum(h, 0.0)
            acts.append(h)
    return np.where(mask, h, np.float32(-1e9)), acts


def loss_and_grads(params: list[np.ndarray], x: np.ndarray, mask: np.ndarray,
                   y: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Cross-entropy of the softmax over the legal actions, and its gradients."""
    z, acts = forward(params, x, mask)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(len(y))
    loss = float(-np.log(p[rows, y] + 1e-12).mean())
    d = p
    d[rows, y] -= 1.0
    d /= len(y)
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    for i in reversed(range(len(params) // 2)):
        grads[2 * i] = acts[i].T @ d
        grads[2 * i + 1] = d.sum(axis=0)
        if i:
            d = (d @ params[2 * i].T) * (acts[i] > 0)
    return loss, grads


def accuracy(params: list[np.ndarray], x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> float:
    hits = 0
    for s in range(0, len(y), 4096):
        z, _ = forward(params, x[s:s + 4096].astype(np.float32), mask[s:s + 4096])
        hits += int((z.argmax(axis=1) == y[s:s + 4096]).sum())
    return hits / max(1, len(y))


def train(data: tuple[np.ndarray, np.ndarray, np.ndarray], hidden: list[int], epochs: int, batch: int,
          lr: float, seed: int, log: object = print) -> tuple[list[np.ndarray], dict[str, float]]:
    obs, masks, actions = data
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(actions))
    n_val = max(1, len(actions) // 20)          # 5% held out, to see it generalises
    val, fit = order[:n_val], order[n_val:]
    params = init([obs.shape[1], *hidden, masks.shape[1]], rng)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps, t = 0.9, 0.999, 1e-8, 0
    loss = 0.0
    for epoch in range(epochs):
        rng.shuffle(fit)
        rate = lr * (0.5 ** (epoch * 2 / max(1, epochs)))     # halved twice over the run
        losses = []
        for s in range(0, len(fit), batch):
            idx = np.sort(fit[s:s + batch])
            loss, grads = loss_and_grads(params, obs[idx].astype(np.float32), masks[idx],
                                         actions[idx].astype(np.int64))
            losses.append(loss)
            t += 1
            for p, g, mi, vi in zip(params, grads, m, v):
                mi *= b1
                mi += (1 - b1) * g
                vi *= b2
                vi += (1 - b2) * g * g
                p -= rate * (mi / (1 - b1 ** t)) / (np.sqrt(vi / (1 - b2 ** t)) + eps)
        loss = float(np.mean(losses)) if losses else 0.0
        log(f"  epoch {epoch + 1}/{epochs}: loss {loss:.4f}, held-out agreement with STANDARD "
            f"{accuracy(params, obs[val], masks[val], actions[val]):.1%}")
    stats = {"loss": loss, "agreement": accuracy(params, obs[val], masks[val], actions[val])}
    return params, stats


def save(path: Path, params: list[np.ndarray], n_obs: int, n_actions: int, meta: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {("W" if i % 2 == 0 else "b") + str(i // 2): p.astype(np.float16) for i, p in enumerate(params)}
    with open(path, "wb") as f:       # a file object: numpy adds no ".npz" of its own
        np.savez_compressed(f, n_obs=n_obs, n_actions=n_actions,
                            recipe=np.array(" ".join(f"{k}={v}" for k, v in meta.items())), **arrays)


def shapes(game: str) -> tuple[int, int, int, Callable[[np.ndarray], np.ndarray]]:
    """The game's observation and action counts, the network's input count and the
    function from an observation to that input (the game's ``policy.features``)."""
    if game == "ginrummy":
        from port.ginrummy.policy import N_IN, features
        from port.ginrummy.spaces import N_ACTIONS, N_OBS
    else:
        from port.cribbage.policy import N_IN, features
        from port.cribbage.spaces import N_ACTIONS, N_OBS
    return N_OBS, N_ACTIONS, N_IN, features


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=("ginrummy", "cribbage", "both"), default="both")
    p.add_argument("--games", type=int, default=None,
                   help="games of STANDARD to learn from (default 1000 GinRummy, 1500 Cribbage)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--hidden", default="128,128", help="hidden layer sizes (default 128,128)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes playing the games (default 2)")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for GAME.npz (default: the games' own port/GAME/policy.npz, the shipped weights)")
    args = p.parse_args(argv)
    try:
        hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    except ValueError:
        p.error(f"--hidden takes sizes like 128,128, not {args.hidden!r}")
    if args.games is not None and args.games < 1 or args.epochs < 1 or not hidden or min(hidden) < 1:
        p.error("--games, --epochs and the hidden sizes must be at least 1")
    games = ("ginrummy", "cribbage") if args.game == "both" else (args.game,)
    for game in games:
        n_games = args.games or {"ginrummy": 1000, "cribbage": 1500}[game]
        start = time.monotonic()
        print(f"{game}: {n_games} games of STANDARD ...", flush=True)
        data = make_data(game, n_games, args.seed, args.workers)
        played = time.monotonic() - start
        print(f"  {len(data[2])} decisions in {played:.0f} s", flush=True)
        params, stats = train(data, hidden, args.epochs, args.batch, args.lr, args.seed,
                              lambda s: print(s, flush=True))
        n_obs, n_actions, _, _ = shapes(game)
        path = (args.out / f"{game}.npz") if args.out else TOP / "port" / game / "policy.npz"
        save(path, params, n_obs, n_actions, {"games": n_games, "epochs": args.epochs, "hidden": args.hidden,
                                               "batch": args.batch, "lr": args.lr, "seed": args.seed})
        print(f"  wrote {path} ({path.stat().st_size // 1024} KB) in {time.monotonic() - start:.0f} s: "
              f"agreement with STANDARD {stats['agreement']:.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
