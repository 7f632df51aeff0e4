"""``python -m port.room``: the card room's server (``port.room.cli``)."""
import sys

from port.room.cli import main

sys.exit(main())
