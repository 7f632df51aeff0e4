"""Compare variants of STANDARD's formulas (``Weights``) with the match runner.

    .venv/bin/python scripts/tune_standard.py --vs easy --games 1000 --seed 1 \
        "" "potential=2.0" "danger=8,pile_margin=1"

Each variant is a comma-separated list of ``Weights`` fields (empty: the defaults).
Against ``easy`` it meets EASY (which has no weights: one plain rule); against ``ref``
scripts/reference_bot.py; against ``standard`` STANDARD with the weights of ``--b``
(the defaults if empty). Prints each variant's win rate with its 95% interval.

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

from port.rules.computer import DEFAULT, Standard, Weights  # noqa: E402

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
    return lambda seed=0: Standard(seed=seed, weights=w)


def result_line(variant: str, vs: str, r: MatchResult) -> str:
    """One line of a tuning table: A's share of games (draws count half), its 95%
    interval, hands, gins and undercuts won each way, and the speed."""
    lo, hi = r.interval_a
    won = r.a.games_won + r.games_drawn / 2
    return (f"{variant or '(defaults)':50} vs {vs:8} {100 * won / r.games:5.1f}% "
            f"[{100 * lo:.1f}-{100 * hi:.1f}]  hands {r.a.hands_won}:{r.b.hands_won} "
            f"gins {r.a.gins}:{r.b.gins} uc {r.a.undercuts}:{r.b.undercuts} "
            f"{r.games / r.seconds:.0f} g/s")


def main() -> int:
    from port.match import run_match
    from port.rules.options import Options

    p = argparse.ArgumentParser()
    p.add_argument("--vs", default="easy", choices=("easy", "ref", "standard", "expert"))
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--b", default="", help="weights of side B against standard")
    p.add_argument("variants", nargs="*", default=[""])
    args = p.parse_args()
    for v in args.variants:
        weights_of(v)   # fail early on a typo
        a = f"{HERE}:S,{v}"
        b = {"easy": "easy", "ref": REF, "standard": f"{HERE}:S,{args.b}",
             "expert": "expert"}[args.vs]
        r = run_match(a, b, args.games, args.seed, Options())
        print(result_line(v, args.vs, r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
