"""``python -m railkit.capecairo check-deck FILE``: the Vom Kap bis Kairo command-line tools.

One tool so far: ``check-deck`` validates a deck file and lists every problem
(``railkit.capecairo.deck_check``). ``--help`` after the tool's name shows its options.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from railkit.capecairo import deck_check

USAGE = """usage: python -m railkit.capecairo check-deck FILE

tools:
  check-deck   check a Vom Kap bis Kairo deck file (format: railkit/data/cape_to_cairo/README.md)"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "check-deck":
        return deck_check.main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
