"""The optional extras (``pip install 'ginrummy[rl]'``...): import what one needs, or
stop with one plain line naming the extra to install. Shared by the games (a policy as
the computer), the environments and the match runner."""
from __future__ import annotations

import importlib


def need(extra: str, *modules: str) -> None:
    """Import ``modules`` or stop with one plain line naming the optional extra to install."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise ImportError(f"this needs the optional extra '{extra}' ({name} is not installed): "
                              f"pip install 'ginrummy[{extra}]'") from None
