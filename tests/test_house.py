"""The house's rules, checked on the source: which units may import which
(docs/design.md). Imports inside functions count too: a late import is still a
dependency, only a lazy one.

- The shared units (``cards``, ``mouse``, ``screen``, ``files``, ``main``, ``bots``,
  ``extras``, ``protocol``, ``client``, ``netpolicy``) never import a game, the match
  runner, the environments, the OpenSpiel bridge or the room.
- A game (``ginrummy``, ``cribbage``) never imports the other game, ``match``, ``env``,
  ``openspiel`` or ``room``; nothing but ``openspiel`` imports ``openspiel``, nothing but
  the room imports ``room``.
- The rules core (``cards``, each game's ``rules``, computer players, files and game
  records, the shared ``files``) and the room's server never import pyxel, not even
  through another module.
- No two modules import each other, directly or round a longer circle.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[1]
PORT = TOP / "port"
SHARED = ("port.cards", "port.mouse", "port.screen", "port.files", "port.main", "port.bots", "port.extras",
          "port.checks", "port.protocol", "port.client", "port.netpolicy")
GAMES = ("port.ginrummy", "port.cribbage")
ON_TOP = ("port.match", "port.env", "port.openspiel", "port.room")


def module_name(path: Path) -> str:
    parts = path.relative_to(TOP).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module a file names in an import, anywhere in it (absolute names)."""
    out: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


MODULES = {module_name(p): p for p in PORT.rglob("*.py")}
GRAPH = {name: {m for m in imports_of(path) if m in MODULES and m != name} for name, path in MODULES.items()}


def under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_shared_units_import_no_game_and_nothing_above_them() -> None:
    wrong = {(a, b) for a in GRAPH if under(a, SHARED) for b in GRAPH[a] if under(b, GAMES + ON_TOP)}
    assert not wrong, f"shared units importing a game or the match/env layer: {sorted(wrong)}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_neither_the_other_game_nor_match_nor_env(game: str) -> None:
    others = tuple(g for g in GAMES if g != game) + ON_TOP
    wrong = {(a, b) for a in GRAPH if under(a, (game,)) for b in GRAPH[a] if under(b, others)}
    assert not wrong, f"{game} imports what it must not: {sorted(wrong)}"


def test_nothing_but_the_room_imports_the_room() -> None:
    wrong = {(a, b) for a in GRAPH if not under(a, ("port.room",)) for b in GRAPH[a] if under(b, ("port.room",))}
    assert not wrong, f"the room is on top: nothing below it imports it: {sorted(wrong)}"


def test_nothing_but_the_bridge_imports_the_openspiel_bridge() -> None:
    """``port.openspiel`` is on top: it may import the games and the environments'
    modules, and no module outside it imports it."""
    wrong = {(a, b) for a in GRAPH if not under(a, ("port.openspiel",)) for b in GRAPH[a]
             if under(b, ("port.openspiel",))}
    assert not wrong, f"modules importing the OpenSpiel bridge: {sorted(wrong)}"


def test_no_module_imports_another_that_imports_it_back() -> None:
    """A circle of any length through the package's modules (a parent package counts
    as importing nothing of its children here: ``from pkg import mod`` names ``mod``)."""
    graph = {a: {b for b in bs if not a.startswith(b + ".")} for a, bs in GRAPH.items()}
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in seen and (found := visit(nxt)):
                return found
        stack.pop()
        seen[node] = 2
        return None

    for start in sorted(graph):
        if start not in seen and (circle := visit(start)):
            pytest.fail("modules that import each other: " + " -> ".join(circle))


CORE = ["port.cards", "port.files", "port.files.gamerecord", "port.ginrummy.rules", "port.ginrummy.rules.search",
        "port.cribbage.rules.search", "port.ginrummy.computer",
        "port.ginrummy.expert", "port.ginrummy.levels", "port.ginrummy.files", "port.ginrummy.record",
        "port.cribbage.rules", "port.cribbage.computer", "port.cribbage.expert",
        "port.cribbage.levels", "port.cribbage.files", "port.cribbage.record", "port.bots",
        "port.protocol", "port.client", "port.room.server", "port.room.cli", "port.room.bot", "port.room.hub",
        "port.room.redisstore"]


def test_the_rules_core_runs_without_pyxel() -> None:
    """Imported in a process where pyxel cannot be imported at all."""
    code = ("import sys\nsys.modules['pyxel'] = None\nsys.modules['numpy'] = None\n"
            + "".join(f"import {m}\n" for m in CORE)
            + "from port.cards import PascalRandom\n"
            + "from port.ginrummy.rules import Options, play_game\n"
            + "from port.ginrummy.levels import load_player\n"
            + "play_game(Options(score_limit=0), PascalRandom(1), (load_player('expert'), load_player('easy')))\n"
            + "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=TOP, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_both_games_have_the_same_shape() -> None:
    for game in ("ginrummy", "cribbage"):
        root = PORT / game
        for part in ("rules/__init__.py", "computer.py", "expert.py", "levels.py", "files.py",
                     "spaces.py", "main/__init__.py", "main/words.py", "main/start.py",
                     "main/context.py", "main/menus.py", "main/play.py", "main/table.py"):
            assert (root / part).is_file(), f"port/{game}/{part}"


def test_old_import_paths_give_the_same_objects() -> None:
    """Bot files written to the old paths (``from port.rules import ...``) keep working,
    with the very same classes (docs/design.md, "Old import paths")."""
    code = ("import warnings\nwarnings.simplefilter('error')\n"
            "try:\n    import port.rules\nexcept DeprecationWarning as w:\n    print(w)\n"
            "warnings.simplefilter('ignore')\n"
            "from port.rules.players import Player, Draw\n"
            "from port.rules.computer import Standard\n"
            "from port.env.gin_spaces import PolicyPlayer\n"
            "import port.ginrummy.rules.players as p, port.ginrummy.computer as c\n"
            "print(Player is p.Player, Draw is p.Draw, Standard is c.Standard, p.__spec__.name)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=TOP, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == ["port.rules is now port.ginrummy.rules",
                                        "True True True port.ginrummy.rules.players"], done.stderr
