"""docs/behaviour.md names tests that exist: the map cannot rot silently."""
from __future__ import annotations

import re
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def test_every_test_named_in_the_behaviour_map_exists() -> None:
    text = (TOP / "docs" / "behaviour.md").read_text()
    named = set(re.findall(r"(tests/[\w/]+\.py)::(\w+)", text))
    assert len(named) > 150
    missing = []
    for path, name in sorted(named):
        source = (TOP / path).read_text() if (TOP / path).exists() else ""
        if not re.search(rf"^\s*def {name}\(", source, re.M):
            missing.append(f"{path}::{name}")
    assert not missing, "docs/behaviour.md names tests that do not exist: " + ", ".join(missing)


def test_every_file_the_docs_name_is_there() -> None:
    """A path of the project's named in a doc (port/..., tests/..., scripts/...) exists:
    the docs follow the code when it moves. A name of history says it (``since removed``)."""
    missing = []
    for doc in [*sorted((TOP / "docs").glob("*.md")), TOP / "README.md"]:
        for line in doc.read_text().splitlines():
            if "since removed" in line or "removed)" in line:
                continue
            for path in re.findall(r"(?<![\w/.])((?:port|tests|scripts|pyxres)/[\w/.-]*\w)", line):
                if not (TOP / path.split("::")[0]).exists() and "*" not in path:
                    missing.append(f"{doc.name}: {path}")
    assert not missing, "paths the docs name that are not there: " + ", ".join(missing)


# ---- the examples of the engine docs give what they print ---------------------------------

def _examples(text: str) -> list[tuple[str, str]]:
    """(source, expected output) for each ``>>>`` statement in the ```python blocks."""
    out: list[tuple[str, str]] = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        src: list[str] = []
        want: list[str] = []
        for line in block.splitlines():
            if line.startswith(">>> "):
                if src:
                    out.append(("\n".join(src), "\n".join(want)))
                src, want = [line[4:]], []
            elif line.startswith("... ") or line == "...":
                src.append(line[4:])
            elif src:
                want.append(line)
        if src:
            out.append(("\n".join(src), "\n".join(want)))
    return out


def _uncommented(line: str) -> str:
    """A printed line with the doc's note after it taken off ("(0, 0)    # the count is 27")."""
    return re.sub(r"\s{2,}# .*$", "", line)


def _run(src: str, env: dict) -> str:
    """Run one statement as the interactive prompt would; an exception prints as
    ``Name: message`` (the docs' short form of a traceback)."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            exec(compile(src + "\n", "<docs>", "single"), env)
        except Exception as e:  # noqa: BLE001 - printed and compared, as the docs show them
            print(f"{type(e).__name__}: {e}")
    return buf.getvalue().rstrip("\n")


def test_the_engine_examples_in_the_docs_give_their_printed_results() -> None:
    checked = 0
    for doc in ("engine.md", "players.md", "cribbage-engine.md"):
        env: dict = {}
        for src, want in _examples((TOP / "docs" / doc).read_text()):
            got = _run(src, env)
            want = "\n".join(_uncommented(line) for line in want.rstrip("\n").splitlines())
            assert got == want, f"docs/{doc}: >>> {src}\nprints {got!r}\nnot {want!r}"
            checked += 1
    assert checked >= 25


# ---- every code block of docs/envs.md runs as written -----------------------------------

def _blocks(text: str) -> list[str]:
    """The ```python blocks that are programs (not ``>>>`` sessions)."""
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if not b.lstrip().startswith(">>>")]


def _missing(block: str) -> list[str]:
    """The modules a block imports that are not installed here."""
    import importlib.util

    names = re.findall(r"^(?:from|import) ([\w.]+)", block, re.M)
    return sorted({n.split(".")[0] for n in names if importlib.util.find_spec(n.split(".")[0]) is None})


def test_every_code_block_of_the_environments_doc_runs_as_written() -> None:
    """Each block runs on its own, as a reader would paste it: no placeholder left
    undefined. A block needing a package that is not installed here (sb3-contrib, for
    the MaskablePPO example; open_spiel) is left out, and said so."""
    import contextlib
    import io

    pytest = __import__("pytest")
    pytest.importorskip("pettingzoo", reason="the extra 'rl' is not installed")
    ran, left_out = 0, []
    for block in _blocks((TOP / "docs" / "envs.md").read_text()):
        missing = _missing(block)
        if missing:
            left_out.append(", ".join(missing))
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, "<docs/envs.md>", "exec"), {"__name__": "__docs__"})
        ran += 1
    assert ran >= 6, f"ran {ran} blocks; left out for want of {left_out}"
