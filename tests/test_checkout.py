"""A clean checkout (issue 33): the files the programs write stay out of git, and
``.ci/run`` fails, naming them, when the test suite leaves a file in the checkout."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parent.parent
# What a run of either program may write where it runs: the games' files, a damaged one
# kept aside, a write's temporary file, the lock, game records and shots.
WRITTEN = ["GINRUMMY.CFG", "GINRUMMY.STA", "GINRUMMY.SCR", "CRIBBAGE.CFG", "CRIBBAGE.STA", "GINRUMMY.CFG.bad1",
           "CRIBBAGE.STA.0a1b2c3d.tmp", "GINRUMMY.LCK", "FILES.LCK", "GR0001.REC", "CR0042.REC", "shots/final.png"]


def git(*args: str, cwd: Path = TOP) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)


needs_git = pytest.mark.skipif(shutil.which("git") is None or git("rev-parse").returncode != 0,
                               reason="not a git checkout")


@needs_git
def test_the_files_the_programs_write_are_ignored_and_none_is_in_git() -> None:
    ignored = git("check-ignore", "--no-index", *WRITTEN).stdout.split()
    assert ignored == WRITTEN
    # Only at the root: the manuals the games ship are not such files.
    assert git("check-ignore", "--no-index", "port/ginrummy/GINRUMMY.DOC").stdout == ""
    tracked = git("ls-files").stdout.split()
    assert "port/ginrummy/GINRUMMY.DOC" in tracked
    assert not [name for name in tracked if "/" not in name and name.upper().startswith(("GINRUMMY.", "CRIBBAGE."))]


@needs_git
@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("Xvfb") is None and shutil.which("apt-get") is not None,
                    reason=".ci/run would install Xvfb first")
def test_ci_run_fails_naming_what_the_suite_left_in_the_checkout(tmp_path: Path) -> None:
    """.ci/run on a checkout whose "suite" (a stand-in scripts/test) writes a GINRUMMY.CFG
    and a shot: it fails and names both; Python's caches and the virtualenv pass."""
    (tmp_path / ".ci").mkdir()
    (tmp_path / "scripts").mkdir()
    shutil.copy(TOP / ".ci" / "run", tmp_path / ".ci" / "run")
    shutil.copy(TOP / ".gitignore", tmp_path / ".gitignore")
    test = tmp_path / "scripts" / "test"
    test.write_text("#!/usr/bin/env bash\nmkdir -p .venv/bin port/__pycache__ && touch port/__pycache__/a.pyc\n"
                    "for f in \"$@\"; do mkdir -p \"$(dirname \"$f\")\" && touch \"$f\"; done\n")
    test.chmod(0o755)
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-qm", "a checkout"]):
        assert git(*args, cwd=tmp_path).returncode == 0
    clean = subprocess.run([str(tmp_path / ".ci" / "run")], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (clean.returncode, clean.stderr) == (0, "")
    left = subprocess.run([str(tmp_path / ".ci" / "run"), "GINRUMMY.CFG", "shots/final.png", "README"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert left.returncode == 1
    assert left.stderr.splitlines() == [
        "The test suite left files in the checkout (tests must write in temporary directories):",
        "    !! GINRUMMY.CFG", "    !! shots/", "    ?? README"]
