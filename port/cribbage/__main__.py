"""``python -m port.cribbage``: the cribbage command."""
import sys

from port.cribbage.main import main

sys.exit(main())
