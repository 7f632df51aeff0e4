"""Compare variants of EXPERT (its class attributes) with the match runner.

    .venv/bin/python scripts/tune_expert.py --vs standard --games 200 --seed 1 \
        "" "draw_close=-1" "worlds=32"

Each variant is a comma-separated list of ``Expert`` attributes (worlds, close, ...)
and of its ``Weights`` fields written ``w.field=value`` (from ``expert.WEIGHTS``).
The runner loads players by "path.py:Name"; this module answers any name
"X,attr=value,..." with such an EXPERT.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from port.ginrummy.expert import WEIGHTS, Expert  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent))
from tune_standard import result_line, weights_of  # noqa: E402

HERE = str(Path(__file__).resolve())
REF = str(Path(__file__).resolve().parent / "reference_bot.py") + ":ReferenceBot"


def variant(spec: str) -> type[Expert]:
    attrs: dict[str, object] = {}
    weights: list[str] = []
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        if key.startswith("w."):
            weights.append(part[2:])
            continue
        old = getattr(Expert, key)
        attrs[key] = type(old)(float(value)) if isinstance(old, int) else type(old)(value)
    if weights:
        w = weights_of(",".join(weights), WEIGHTS)

        def __init__(self: Expert, seed: int = 0) -> None:
            Expert.__init__(self, seed, w)

        attrs["__init__"] = __init__
    return type("ExpertVariant", (Expert,), attrs)


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    kind, _, spec = name.partition(",")
    if kind != "X":
        raise AttributeError(name)
    return variant(spec)


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
    p.add_argument("--vs", default="standard", choices=("easy", "ref", "standard"))
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("variants", nargs="*", default=[""])
    args = p.parse_args()
    for v in args.variants:
        variant(v)
        b = {"easy": "easy", "ref": REF, "standard": "standard"}[args.vs]
        r = run_match(f"{HERE}:X,{v}", b, args.games, args.seed, Options(), watching=trusted())
        print(result_line(v, args.vs, r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
