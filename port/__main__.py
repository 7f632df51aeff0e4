"""``python -m port``: the same as the ``ginrummy`` console script."""
import sys

from port.main import main

sys.exit(main())
