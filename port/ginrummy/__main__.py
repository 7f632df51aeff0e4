"""``python -m port.ginrummy``: the same as the ``ginrummy`` console script."""
import sys

from port.ginrummy.main import main

sys.exit(main())
