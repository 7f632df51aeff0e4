"""Train the ``policy`` level of either game: imitation of a teacher (EXPERT by
default), DAgger on the learner's own positions, then reinforcement learning (PPO)
against a pool of levels and the learner's past snapshots (docs/envs.md, "A learned
baseline"). Training needs torch (the optional extra 'train', CPU build); the
shipped network plays with numpy alone.

    python scripts/train_policy.py --overwrite           # both games: the shipped weights (times: docs/envs.md)
    python scripts/train_policy.py --game cribbage --out /tmp/p       # writes /tmp/p/cribbage.npz
    python scripts/train_policy.py --game ginrummy --teacher standard --games 40 --dagger 0 \\
        --rl-iters 2 --rl-games 20 --eval-games 20 --out /tmp/p       # a quick try

1. Imitation: the teacher plays ``--games`` games against STANDARD and EASY in turn,
   seats swapped; each of its decisions is kept as the seat's observation, the game's
   ``policy.features`` of it (numbers for the trunk and for each action) and the
   teacher's move. The network learns them (softmax over the legal actions,
   cross-entropy, Adam). Then ``--dagger`` rounds: the network plays, the teacher
   labels the network's own positions, and the network learns the whole set again.
2. Reinforcement learning: ``--rl-iters`` rounds of ``--rl-games`` games; the network
   plays by drawing from its softmax against an opponent drawn from ``--opponents``
   (levels, ``self``: its current greedy self, ``past``: a snapshot of it taken every
   ``--snapshot-every`` rounds); ``--reward`` pays each hand's points and the game's
   result; PPO (clipped ratio, generalised advantage estimation with a separate value
   network, an entropy bonus, and a pull ``--kl`` towards the imitation network).
3. Every ``--eval-every`` rounds the greedy network plays ``--eval-games`` games
   against STANDARD on fixed deals (seed ``--eval-seed``, seats swapped): the learning
   curve. The best of those (the imitation included) is saved, as float16 in a
   compressed ``.npz`` (``port.netpolicy`` plays it with numpy alone).

The shipped weights (``port/GAME/policy.npz``) are replaced only with ``--overwrite``;
an existing file in ``--out`` likewise. The same command gives the same weights: the
games' seeds, the initial weights, the minibatch order and the moves drawn all come
from ``--seed``; games are played in numbered chunks joined in order whatever
``--workers`` is, and torch runs one thread.
"""
from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# One BLAS thread per process: the same sums in the same order on any machine (so the
# same weights), and no threads spinning against the games' worker processes.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

TOP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import policy_games as G  # noqa: E402

Log = Callable[[str], None]
DEFAULTS = {   # per game, where the command line leaves them out (measured: docs/envs.md)
    "ginrummy": {"games": 300, "dagger_games": 150, "rl_iters": 20, "rl_games": 100, "ppo_epochs": 2,
                 "rl_lr": 1e-4, "eval_games": 400},
    "cribbage": {"games": 1000, "dagger_games": 500, "rl_iters": 20, "rl_games": 300, "ppo_epochs": 4,
                 "rl_lr": 3e-4, "eval_games": 1000},
}


def for_game(args: argparse.Namespace, name: str) -> argparse.Namespace:
    """The arguments for one game: its defaults where the command line gave none."""
    out = copy.copy(args)
    for k, v in DEFAULTS[name].items():
        if getattr(out, k) is None:
            setattr(out, k, v)
    return out


def need_torch() -> Any:
    try:
        import torch
    except ImportError:
        raise SystemExit("train_policy.py: this needs the optional extra 'train' (torch is not installed): "
                         "pip install torch==2.13.0 (the CPU build), then pip install 'ginrummy[train]'") from None
    torch.set_num_threads(1)
    return torch


# -- the network in torch, the same arithmetic as port.netpolicy.forward ----------------

def make_nets(torch: Any, game: G.Game, hidden: list[int], head: int, seed: int) -> tuple[Any, Any]:
    nn = torch.nn
    torch.manual_seed(seed)

    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [game.n_in, *hidden]
            self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.out = nn.Linear(sizes[-1], game.n_actions)
            self.h0 = nn.Linear(game.n_per, head)
            self.g0 = nn.Linear(sizes[-1], head, bias=False)
            self.h1 = nn.Linear(head, 1)

        def forward(self, x: Any, per: Any, mask: Any) -> Any:
            h = x
            for layer in self.trunk:
                h = torch.relu(layer(h))
            u = torch.relu(self.h0(per) + self.g0(h)[:, None, :])
            z = self.out(h) + self.h1(u)[..., 0]
            return z.masked_fill(~mask, -1e9)

    class Value(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = nn.Sequential(nn.Linear(game.n_in, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                     nn.Linear(128, 1))

        def forward(self, x: Any) -> Any:
            return self.net(x)[:, 0]

    return Policy(), Value()


def params_of(net: Any) -> G.Params:
    """The numpy arrays of a weights file (rounded to float16, as shipped)."""
    def a(t: Any) -> np.ndarray:
        return t.detach().numpy().astype(np.float16).astype(np.float32)
    out: G.Params = {}
    layers = [*net.trunk, net.out]
    for i, layer in enumerate(layers):
        out[f"W{i}"] = a(layer.weight.T)
        out[f"b{i}"] = a(layer.bias)
    out["H0"], out["h0"] = a(net.h0.weight.T), a(net.h0.bias)
    out["G0"] = a(net.g0.weight.T)
    out["H1"], out["h1"] = a(net.h1.weight.T), a(net.h1.bias)
    return out


def load_into(torch: Any, net: Any, params: G.Params) -> None:
    layers = [*net.trunk, net.out]
    with torch.no_grad():
        for i, layer in enumerate(layers):
            layer.weight.copy_(torch.tensor(params[f"W{i}"].T))
            layer.bias.copy_(torch.tensor(params[f"b{i}"]))
        net.h0.weight.copy_(torch.tensor(params["H0"].T))
        net.h0.bias.copy_(torch.tensor(params["h0"]))
        net.g0.weight.copy_(torch.tensor(params["G0"].T))
        net.h1.weight.copy_(torch.tensor(params["H1"].T))
        net.h1.bias.copy_(torch.tensor(params["h1"]))


def save(path: Path, params: G.Params, game: G.Game, meta: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.astype(np.float16) for k, v in params.items()}
    with open(path, "wb") as f:       # a file object: numpy adds no ".npz" of its own
        np.savez_compressed(f, n_obs=game.n_obs, n_actions=game.n_actions,
                            recipe=np.array(" ".join(f"{k}={v}" for k, v in meta.items())), **arrays)


# -- minibatches ---------------------------------------------------------------------

class Batches:
    """Minibatches of a set of decisions as torch tensors (the per-action numbers
    spread to one row per action, zero for the actions the mask refuses)."""

    def __init__(self, torch: Any, data: dict[str, np.ndarray], game: G.Game) -> None:
        self.torch = torch
        self.data = data
        self.game = game
        self.start = G.starts(data)
        self.n = len(data["action"])

    def get(self, idx: np.ndarray) -> dict[str, Any]:
        torch, d = self.torch, self.data
        counts = d["count"][idx]
        owner = np.repeat(np.arange(len(idx)), counts)
        first = np.repeat(self.start[idx] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        rows = first + np.arange(counts.sum())
        act = d["legal"][rows].astype(np.int64)
        per = torch.zeros(len(idx), self.game.n_actions, self.game.n_per)
        per[owner, act] = torch.from_numpy(d["rows"][rows].astype(np.float32))
        mask = torch.zeros(len(idx), self.game.n_actions, dtype=torch.bool)
        mask[owner, act] = True
        out = {"x": torch.from_numpy(d["x"][idx].astype(np.float32)), "per": per, "mask": mask}
        for k in ("action", "label", "label2"):
            out[k] = torch.from_numpy(d[k][idx].astype(np.int64))
        for k in ("logp", "adv", "ret"):
            if k in d:
                out[k] = torch.from_numpy(d[k][idx].astype(np.float32))
        return out


# -- imitation -----------------------------------------------------------------------

def imitate(torch: Any, net: Any, data: dict[str, np.ndarray], game: G.Game, epochs: int, batch: int,
            lr: float, seed: int, log: Log) -> float:
    """Cross-entropy on the teacher's labels (either of two, where two are given);
    returns the held-out agreement with the teacher (5% of the decisions)."""
    keep = np.flatnonzero(data["label"] >= 0)
    rng = np.random.default_rng(seed)
    order = rng.permutation(keep)
    n_val = max(1, len(order) // 20)
    val, fit = order[:n_val], order[n_val:]
    batches = Batches(torch, data, game)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for epoch in range(epochs):
        for group in opt.param_groups:
            group["lr"] = lr * 0.5 ** (epoch * 2 / max(1, epochs))     # halved twice over the run
        rng.shuffle(fit)
        losses = []
        for s in range(0, len(fit), batch):
            b = batches.get(np.sort(fit[s:s + batch]))
            logp = torch.log_softmax(net(b["x"], b["per"], b["mask"]), dim=1)
            p1 = logp.gather(1, b["label"][:, None])[:, 0]
            two = b["label2"] >= 0
            p2 = logp.gather(1, b["label2"].clamp(min=0)[:, None])[:, 0]
            loss = -torch.where(two, torch.logaddexp(p1, p2), p1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        log(f"  epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.4f}, held-out agreement "
            f"{agreement(torch, net, batches, val):.1%}")
    return agreement(torch, net, batches, val)


def agreement(torch: Any, net: Any, batches: Batches, idx: np.ndarray) -> float:
    hits = 0
    with torch.no_grad():
        for s in range(0, len(idx), 2048):
            b = batches.get(idx[s:s + 2048])
            pick = net(b["x"], b["per"], b["mask"]).argmax(dim=1)
            hits += int(((pick == b["label"]) | (pick == b["label2"])).sum())
    return hits / max(1, len(idx))


# -- reinforcement learning -------------------------------------------------------------

def advantages(torch: Any, value: Any, data: dict[str, np.ndarray], lam: float) -> None:
    """Generalised advantage estimates (no discount within a game) and the value
    targets, written into ``data`` as ``adv`` and ``ret``."""
    with torch.no_grad():
        v = np.concatenate([value(torch.from_numpy(data["x"][s:s + 8192].astype(np.float32))).numpy()
                            for s in range(0, len(data["x"]), 8192)])
    r, done = data["reward"], data["done"]
    adv = np.zeros_like(v)
    last = 0.0
    for i in range(len(v) - 1, -1, -1):
        nxt = 0.0 if done[i] else v[i + 1]
        delta = r[i] + nxt - v[i]
        last = delta + (0.0 if done[i] else lam * last)
        adv[i] = last
    data["adv"], data["ret"] = adv, adv + v


def ppo(torch: Any, net: Any, value: Any, anchor: Any, opt: Any, vopt: Any, data: dict[str, np.ndarray],
        game: G.Game, args: argparse.Namespace, rng: np.random.Generator, policy: bool = True) -> dict[str, float]:
    """One round of PPO updates on the round's decisions."""
    batches = Batches(torch, data, game)
    adv = data["adv"]
    data["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
    stats: dict[str, list[float]] = {"pi": [], "v": [], "ent": [], "kl": [], "clip": []}
    idx = np.arange(batches.n)
    for _ in range(args.ppo_epochs):
        rng.shuffle(idx)
        for s in range(0, len(idx), args.rl_batch):
            b = batches.get(np.sort(idx[s:s + args.rl_batch]))
            vloss = ((value(b["x"]) - b["ret"]) ** 2).mean()
            vopt.zero_grad()
            vloss.backward()
            vopt.step()
            stats["v"].append(float(vloss.detach()))
            if not policy:
                continue
            logits = net(b["x"], b["per"], b["mask"])
            logp = torch.log_softmax(logits, dim=1)
            new = logp.gather(1, b["action"][:, None])[:, 0]
            ratio = torch.exp(new - b["logp"])
            a = b["adv"]
            pi = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
            p = logp.exp()
            ent = -(torch.where(b["mask"], p * logp, torch.zeros_like(p))).sum(dim=1).mean()
            loss = pi - args.ent * ent
            if args.kl > 0:
                with torch.no_grad():
                    q = torch.log_softmax(anchor(b["x"], b["per"], b["mask"]), dim=1)
                kl = torch.where(b["mask"], q.exp() * (q - logp), torch.zeros_like(p)).sum(dim=1).mean()
                loss = loss + args.kl * kl
                stats["kl"].append(float(kl.detach()))
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            stats["pi"].append(float(pi.detach()))
            stats["ent"].append(float(ent.detach()))
            stats["clip"].append(float(((ratio - 1).abs() > args.clip).float().mean()))
    return {k: float(np.mean(v)) if v else 0.0 for k, v in stats.items()}


def parse_pool(text: str) -> dict[str, float]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, w = part.partition("=")
        try:
            out[name] = float(w) if w else 1.0
        except ValueError:
            raise ValueError(f"--opponents takes name=weight, as standard=0.6,past=0.4, not {part!r}") from None
        if name not in ("easy", "standard", "expert", "self", "past"):
            raise ValueError(f"--opponents names easy, standard, expert, self or past, not {name!r}")
    if not out or sum(out.values()) <= 0:
        raise ValueError("--opponents needs at least one opponent with a weight above 0")
    return out


def draw_opponents(pool: dict[str, float], n: int, snapshots: int, rng: np.random.Generator) -> list[str]:
    """``n`` opponents in pairs (both games of a pair, seats swapped, meet the same one)."""
    names = [k for k in pool if k != "past" or snapshots]
    w = np.array([pool[k] for k in names])
    out = []
    for _ in range(0, n, 2):
        name = names[int(rng.choice(len(names), p=w / w.sum()))]
        if name == "past":
            name = f"past{int(rng.integers(snapshots))}"
        out += [name, name]
    return out[:n]


# -- one game, start to end -----------------------------------------------------------

def train_game(torch: Any, name: str, args: argparse.Namespace, log: Log) -> tuple[G.Params, list[str]]:
    game = G.game_of(name)
    n_games, n_dagger, rl_iters = args.games, args.dagger_games, args.rl_iters
    net, value = make_nets(torch, game, args.hidden, args.head, args.seed)
    by = 1 if args.teacher == "expert" else 0
    curve: list[str] = []
    rewards = args.reward
    t0 = time.monotonic()

    def clock() -> str:
        return f"{time.monotonic() - t0:5.0f} s"

    def evaluate(label: str) -> float:
        s = G.evaluate(name, params_of(net), args.eval_against, args.eval_games, args.eval_seed, args.workers)
        curve.append(f"{clock()}  {label}: against {args.eval_against.upper()} {s}")
        log(f"  {curve[-1]}")
        return s.rate

    # 1. imitation
    if args.init is not None:
        load_into(torch, net, G.load_params(args.init))
        log(f"{name}: starting from {args.init}")
    elif n_games == 0:
        log(f"{name}: starting from random weights (no imitation)")
    else:
        opponents = ["easy" if (g // 2) % 2 == 0 else "standard" for g in range(n_games)]
        log(f"{name}: {n_games} games of {args.teacher.upper()} ...")
        data = G.run_jobs(G.play_job, G.jobs_of(name, None, args.seed, opponents, nets={}, explore=False,
                                                 teacher=args.teacher, rewards=rewards, label_by=by,
                                                 follow=True), args.workers)
        log(f"  {len(data['action'])} decisions, {clock()}")
        agree = imitate(torch, net, data, game, args.epochs, args.batch, args.lr, args.seed, log)
        curve.append(f"{clock()}  imitation of {args.teacher.upper()}: held-out agreement {agree:.1%}")
        for r in range(args.dagger):
            opponents = ["easy" if (g // 2) % 2 == 0 else "standard" for g in range(n_dagger)]
            more = G.run_jobs(G.play_job, G.jobs_of(name, params_of(net), args.seed + 1000 * (r + 1), opponents,
                                                     nets={}, explore=False, teacher=args.teacher,
                                                     rewards=rewards, label_by=by), args.workers)
            hit = float(np.mean(more["action"] == more["label"])) if len(more["action"]) else 0.0
            log(f"  DAgger round {r + 1}: {len(more['action'])} positions of the network, agreeing with "
                f"{args.teacher.upper()} on {hit:.1%}, {clock()}")
            data = G.join([data, more])
            agree = imitate(torch, net, data, game, args.dagger_epochs, args.batch, args.lr, args.seed + r + 1, log)
            curve.append(f"{clock()}  DAgger round {r + 1}: the network agreed with {args.teacher.upper()} "
                         f"on {hit:.1%} of its positions; held-out agreement after {agree:.1%}")
        del data
    best = (evaluate("before reinforcement learning") if args.eval_games else 0.0, params_of(net))

    # 2. reinforcement learning
    if rl_iters:
        anchor = copy.deepcopy(net)
        pool = args.opponents
        rng = np.random.default_rng([args.seed, 77])
        opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
        vopt = torch.optim.Adam(value.parameters(), lr=1e-3)
        snapshots: list[G.Params] = [params_of(net)]
        for it in range(rl_iters + 1):
            current = params_of(net)
            opponents = draw_opponents(pool, args.rl_games, len(snapshots), rng)
            nets = {f"past{i}": p for i, p in enumerate(snapshots)}
            nets["self"] = current
            data = G.run_jobs(G.play_job, G.jobs_of(name, current, args.seed + 7919 * (it + 1), opponents,
                                                     nets=nets, explore=True, teacher=None, rewards=rewards),
                              args.workers)
            advantages(torch, value, data, args.gae)
            # Round 0 only fits the value network to the imitation's games.
            stats = ppo(torch, net, value, anchor, opt, vopt, data, game, args, rng, policy=it > 0)
            mean_r = float(data["reward"].sum() / args.rl_games)
            log(f"  round {it}/{rl_iters}: {len(data['action'])} decisions, reward a game {mean_r:+.3f}, "
                f"value loss {stats['v']:.3f}, entropy {stats['ent']:.3f}, kl {stats['kl']:.4f}, "
                f"clipped {stats['clip']:.1%}, {clock()}")
            if it and it % args.snapshot_every == 0:
                snapshots.append(params_of(net))
            if it and args.eval_games and (it % args.eval_every == 0 or it == rl_iters):
                rate = evaluate(f"RL round {it} (reward a game {mean_r:+.3f})")
                if rate > best[0]:
                    best = (rate, params_of(net))
    if not args.eval_games:         # nothing measured: the last weights
        return params_of(net), curve
    curve.append(f"{clock()}  saved: the best of these ({best[0]:.1%})")
    return best[1], curve


def out_paths(args: argparse.Namespace, games: tuple[str, ...]) -> dict[str, Path]:
    return {g: (args.out / f"{g}.npz") if args.out else TOP / "port" / g / "policy.npz" for g in games}


def recipe(args: argparse.Namespace, name: str) -> dict[str, object]:
    """The arguments that made a weights file, as the file keeps them."""
    out: dict[str, object] = {"game": name}
    for k, v in vars(args).items():
        if k in ("game", "out", "overwrite", "workers", "games_list"):
            continue
        if k == "hidden":
            v = ",".join(map(str, v))
        elif k == "reward":
            v = f"hand={v.hand:g},game={v.game:g}"
        elif k == "opponents":
            v = ",".join(f"{n}={w:g}" for n, w in v.items())
        out[k.replace("_", "-")] = v
    return out


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked: a mistake is one sentence and exit 2."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=("ginrummy", "cribbage", "both"), default="both")
    p.add_argument("--teacher", choices=("standard", "expert"), default="expert")
    p.add_argument("--games", type=int, default=None,
                   help="the teacher's own games (default 300 GinRummy, 1000 Cribbage; 0: no imitation)")
    p.add_argument("--dagger", type=int, default=1, help="DAgger rounds (default 1)")
    p.add_argument("--dagger-games", type=int, default=None,
                   help="the network's games a DAgger round (default 150 GinRummy, 500 Cribbage)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--dagger-epochs", type=int, default=3)
    p.add_argument("--hidden", default="128,128", help="hidden layer sizes (default 128,128)")
    p.add_argument("--head", type=int, default=32, help="the action head's width (default 32)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--rl-iters", type=int, default=None, help="PPO rounds (default 20; 0: imitation only)")
    p.add_argument("--rl-games", type=int, default=None,
                   help="games a PPO round (default 100 GinRummy, 300 Cribbage)")
    p.add_argument("--rl-lr", type=float, default=None, help="PPO's learning rate (default 1e-4 GinRummy, 3e-4 Cribbage)")
    p.add_argument("--rl-batch", type=int, default=1024)
    p.add_argument("--ppo-epochs", type=int, default=None, help="passes over a round's decisions (default 2 GinRummy, 4 Cribbage)")
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent", type=float, default=0.003)
    p.add_argument("--kl", type=float, default=0.0, help="pull towards the imitation network (default 0)")
    p.add_argument("--gae", type=float, default=0.95)
    p.add_argument("--reward", default="hand=1,game=0", help="hand=X,game=Y (default hand=1,game=0)")
    p.add_argument("--opponents", default="standard=0.6,easy=0.1,past=0.2,self=0.1",
                   help="the pool: name=weight of easy, standard, expert, self, past")
    p.add_argument("--snapshot-every", type=int, default=5)
    p.add_argument("--eval-games", type=int, default=None,
                   help="games of each point of the learning curve (default 400 GinRummy, 1000 Cribbage; 0: none)")
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--eval-seed", type=int, default=99)
    p.add_argument("--eval-against", choices=("easy", "standard", "expert"), default="standard")
    p.add_argument("--init", type=Path, default=None, help="start from these weights (no imitation)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes playing the games (default 2)")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for GAME.npz (default: the games' own port/GAME/policy.npz, the shipped weights)")
    p.add_argument("--overwrite", action="store_true", help="replace weights already there (the shipped ones too)")
    args = p.parse_args(argv)
    try:
        args.hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    except ValueError:
        p.error(f"--hidden takes sizes like 128,128, not {args.hidden!r}")
    try:
        args.reward = G.Rewards.parse(args.reward)
        args.opponents = parse_pool(args.opponents)
    except ValueError as exc:
        p.error(str(exc))
    if any(n is not None and n < 0 for n in (args.games, args.dagger_games, args.dagger, args.rl_iters,
                                              args.eval_games)):
        p.error("--games, --dagger, --dagger-games, --rl-iters and --eval-games cannot be negative")
    if args.epochs < 1 or not args.hidden or min(args.hidden) < 1 or args.head < 1 \
            or args.rl_games is not None and args.rl_games < 2 or args.ppo_epochs is not None and args.ppo_epochs < 1 \
            or args.eval_every < 1 or args.snapshot_every < 1:
        p.error("--epochs, --ppo-epochs, --head, --eval-every, --snapshot-every and the hidden sizes must be "
                "at least 1, --rl-games at least 2")
    if args.init is not None and not args.init.is_file():
        p.error(f"--init names no file: {args.init}")
    args.games_list = ("ginrummy", "cribbage") if args.game == "both" else (args.game,)
    paths = out_paths(args, args.games_list)
    there = [path for path in paths.values() if path.exists()]
    if there and not args.overwrite:
        shipped = " (the shipped weights)" if not args.out else ""
        p.error(f"{there[0]} exists{shipped}: give --out DIR, or --overwrite to replace it")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    games = args.games_list
    paths = out_paths(args, games)
    torch = need_torch()
    for name in games:
        start = time.monotonic()
        mine = for_game(args, name)
        params, curve = train_game(torch, name, mine, lambda s: print(s, flush=True))
        game = G.game_of(name)
        save(paths[name], params, game, recipe(mine, name))
        print(f"{name}: learning curve (greedy, against {args.eval_against.upper()} on fixed deals, "
              f"seed {args.eval_seed}, seats swapped):", flush=True)
        for line in curve:
            print(f"  {line}", flush=True)
        print(f"  wrote {paths[name]} ({paths[name].stat().st_size // 1024} KB) in "
              f"{time.monotonic() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
