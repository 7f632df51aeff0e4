"""The old import paths of GinRummy's units, kept for bot files written before the
house was split into shared units and two games (docs/design.md, "Old import paths").

``from port.rules import Player`` still works and gives the very same objects as
``from port.ginrummy.rules import Player`` (the same module, not a copy), with a
DeprecationWarning naming the new path. Nothing in the project uses these names.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

_RULES = ("melds", "options", "players", "scoring", "settle", "state")
OLD_PATHS: dict[str, str] = {
    "port.rules": "port.ginrummy.rules",
    **{f"port.rules.{m}": f"port.ginrummy.rules.{m}" for m in _RULES},
    "port.rules.errors": "port.checks",
    "port.rules.computer": "port.ginrummy.computer",
    "port.rules.expert": "port.ginrummy.expert",
    "port.rules.levels": "port.ginrummy.levels",
    "port.rules.wintable": "port.ginrummy.wintable",
    "port.env.gin_spaces": "port.ginrummy.spaces",
    "port.env.crib_spaces": "port.cribbage.spaces",
}


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name first (before the path finder would load a second copy of
    the module under it) and answers with the module at its new name."""

    def __init__(self) -> None:
        self._own: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in OLD_PATHS:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = OLD_PATHS[spec.name]
        warnings.warn(f"{spec.name} is now {new}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self._own[spec.name] = module.__spec__   # the import system sets __spec__ to ours
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._own.pop(module.__spec__.name)   # it keeps its own spec


def install() -> None:
    if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())
