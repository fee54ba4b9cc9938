"""``python -m railkit.lab``: see ``railkit.lab.cli``."""

import sys

from railkit.lab.cli import main

sys.exit(main())
