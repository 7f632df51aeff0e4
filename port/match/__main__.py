"""``python -m port.match``: see ``port.match``."""
from __future__ import annotations

import sys

from port.match import main

sys.exit(main())
