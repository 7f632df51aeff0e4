"""Cribbage 2.0, GinRummy's sibling by the same author: its own Rules unit
(``port.cribbage.rules``) on the shared Cards unit (``port.cards``)."""
