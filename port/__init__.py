"""A Python port of David Teach's DOS card games GinRummy and Cribbage 2.0 (Turbo
Pascal 7.0, BGI): two programs on one shell of shared units, as the originals were.

Shared units, at the bottom: ``cards``, ``mouse``, ``screen``, ``files`` (the keeping
safe), ``main`` (the shell: command line, loop, driver, menus' machinery) and ``bots``
(naming players, a policy as a player). The games beside each other, each with the same
shape: ``ginrummy`` and ``cribbage`` (``rules``, ``computer``, ``expert``, ``levels``,
``files``, ``spaces``, ``main``). On top: ``match`` (the match runner) and ``env`` (the
PettingZoo environments). docs/design.md is the map. Nothing runs at import.
"""
from port import _aliases

__version__ = "0.1.0"

_aliases.install()
