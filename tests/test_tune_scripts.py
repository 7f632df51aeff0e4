"""The tuning scripts, run as a developer runs them: a subprocess on the real runner."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_tune_standard_plays_a_variant_of_the_weights() -> None:
    # A variant is a class the runner builds, not a function it would play as a policy.
    r = _run("tune_standard.py", "--vs", "easy", "--games", "4", "--seed", "1",
             "", "danger=8,knock_floor=0")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("(defaults)") and " vs easy " in lines[0]
    assert lines[1].startswith("danger=8,knock_floor=0") and "%" in lines[1]


def test_tune_expert_plays_a_variant_of_its_attributes_and_weights() -> None:
    r = _run("tune_expert.py", "--vs", "easy", "--games", "2", "--seed", "1",
             "playouts=40,w.danger=7")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("playouts=40,w.danger=7") and " vs easy " in r.stdout


def test_a_weight_search_runs_its_trials() -> None:
    pytest.importorskip("optuna")
    r = _run("tune_standard.py", "--vs", "easy", "--games", "2", "--seed", "1",
             "--search", "2", "")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    # The given variant (the defaults) is the first trial, then one the sampler chose.
    assert out[0].startswith("potential=1.6,danger=6.0,")
    assert "best trials:" in out
