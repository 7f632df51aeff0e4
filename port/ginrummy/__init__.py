"""GinRummy, David Teach's DOS card game (version 4.x/5.0): its own Rules unit
(``port.ginrummy.rules``), computer players, files and program, on the shared units
(``port.cards``, ``port.files``, ``port.screen``, ``port.mouse``, ``port.main``)."""
