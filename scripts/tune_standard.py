"""Compare variants of STANDARD's formulas (``Weights``) with the match runner.

    .venv/bin/python scripts/tune_standard.py --vs easy --games 1000 --seed 1 \
        "" "potential=2.0" "danger=8,pile_margin=1"

Each variant is a comma-separated list of ``Weights`` fields (empty: the defaults).
Against ``easy`` it meets EASY (which has no weights: one plain rule); against ``ref``
scripts/reference_bot.py; against ``standard`` STANDARD with the weights of ``--b``
(the defaults if empty). Prints each variant's win rate with its 95% interval.

    .venv/bin/python scripts/tune_standard.py --vs ref --games 2000 --seed 7 --search 40

``--search N`` lets Optuna's TPE sampler (``pip install '.[tune]'``) choose N variants
of the weights in turn, each played for --games games, and prints every trial and the
best ten; the given variants (if any) are tried first. Tune on one seed and confirm
the winners on another: a trial's win rate carries its match's noise.

The runner loads players by "path.py:Name"; this module answers any name of the form
"S,field=value,..." with such a STANDARD player.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.ginrummy.computer import DEFAULT, Standard, Weights  # noqa: E402

if TYPE_CHECKING:
    from port.match import MatchResult

HERE = str(Path(__file__).resolve())
REF = str(Path(__file__).resolve().parent / "reference_bot.py") + ":ReferenceBot"


def weights_of(spec: str, base: Weights = DEFAULT) -> Weights:
    """``"potential=2,danger=8"`` -> ``base`` with those fields changed."""
    fields = {f.name: f.type for f in dataclasses.fields(Weights)}
    changes: dict[str, object] = {}
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        kind = type(getattr(DEFAULT, key)) if key in fields else None
        if kind is None:
            raise ValueError(f"no such weight {key!r}")
        changes[key] = kind(float(value)) if kind is int else kind(value) if kind is not bool \
            else value.lower() in ("1", "true", "yes")
    return dataclasses.replace(base, **changes)


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    kind, _, spec = name.partition(",")
    if kind != "S":
        raise AttributeError(name)
    w = weights_of(spec)

    # A class, not a function: the runner plays a function as a policy on the arrays.
    class Variant(Standard):
        def __init__(self, seed: int = 0) -> None:
            super().__init__(seed=seed, weights=w)

    return Variant


def result_line(variant: str, vs: str, r: MatchResult) -> str:
    """One line of a tuning table: A's share of games (draws count half), its 95%
    interval, hands, gins and undercuts won each way, and the speed."""
    lo, hi = r.interval_a
    won = r.a.games_won + r.games_drawn / 2
    return (f"{variant or '(defaults)':50} vs {vs:8} {100 * won / r.games:5.1f}% "
            f"[{100 * lo:.1f}-{100 * hi:.1f}]  hands {r.a.hands_won}:{r.b.hands_won} "
            f"gins {r.a.gins}:{r.b.gins} uc {r.a.undercuts}:{r.b.undercuts} "
            f"{r.games / r.seconds:.0f} g/s")


def opponent(args: argparse.Namespace) -> str:
    """The runner's name for side B."""
    return {"easy": "easy", "ref": REF, "standard": f"{HERE}:S,{args.b}",
            "expert": "expert"}[args.vs]


def trusted():  # type: ignore[no-untyped-def]
    """Our own bots play in the workers' processes, without a time limit: a tuner's
    thousands of games go faster than in a process of their own (the match runner's
    default for a bot file, docs/players.md)."""
    from port.match.common import Watching
    from port.match.guard import Guard
    return Watching(Guard(isolate=False, file_time=None))


def main() -> int:
    from port.match import run_match
    from port.ginrummy.rules.options import Options

    p = argparse.ArgumentParser()
    p.add_argument("--vs", default="easy", choices=("easy", "ref", "standard", "expert"))
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--b", default="", help="weights of side B against standard")
    p.add_argument("--search", type=int, default=0, metavar="N",
                   help="search the weights with Optuna for N trials")
    p.add_argument("variants", nargs="*", default=[""])
    args = p.parse_args()
    if args.search:
        return search(args)
    for v in args.variants:
        weights_of(v)   # fail early on a typo
        r = run_match(f"{HERE}:S,{v}", opponent(args), args.games, args.seed, Options(), watching=trusted())
        print(result_line(v, args.vs, r), flush=True)
    return 0


# The weights a search varies, and their ranges (ints stay ints).
SPACE: dict[str, tuple[float, float]] = {
    "potential": (0.6, 2.8), "danger": (2.0, 12.0), "danger_end": (6.0, 26.0),
    "pile_margin": (-0.5, 2.0), "knock_free_turns": (0, 8), "knock_slope": (0.5, 5.0),
    "knock_floor": (0, 4), "on_potential": (0.0, 1.5),
}


def search(args: argparse.Namespace) -> int:
    """Optuna's TPE over ``SPACE``: each trial one match of --games games."""
    try:
        import optuna  # type: ignore[import-not-found]
    except ImportError:
        print("--search needs Optuna: pip install '.[tune]'", file=sys.stderr)
        return 2
    from port.match import run_match
    from port.ginrummy.rules.options import Options

    b = opponent(args)

    def spec_of(params: dict[str, float]) -> str:
        return ",".join(f"{k}={round(v, 2) if isinstance(v, float) else v}"
                        for k, v in params.items())

    def objective(trial: optuna.Trial) -> float:
        params = {k: trial.suggest_int(k, int(lo), int(hi)) if isinstance(lo, int)
                  else trial.suggest_float(k, lo, hi) for k, (lo, hi) in SPACE.items()}
        spec = spec_of(params)
        r = run_match(f"{HERE}:S,{spec}", b, args.games, args.seed, Options(), watching=trusted())
        print(result_line(spec, args.vs, r), flush=True)
        return (r.a.games_won + r.games_drawn / 2) / r.games

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=args.seed))
    for v in args.variants:
        base = dataclasses.asdict(weights_of(v))
        study.enqueue_trial({k: base[k] for k in SPACE})
    study.optimize(objective, n_trials=args.search)
    print("best trials:")
    for t in sorted(study.trials, key=lambda t: -(t.value or 0))[:10]:
        print(f"  {100 * (t.value or 0):5.1f}%  {spec_of(t.params)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
