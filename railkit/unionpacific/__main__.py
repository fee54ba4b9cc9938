"""``python -m railkit.unionpacific check-board FILE``: the Union Pacific command-line tools.

One tool so far: ``check-board`` validates a board file and warns about playability
(``railkit.unionpacific.board_check``). ``--help`` after the tool's name shows its options.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from railkit.unionpacific import board_check

USAGE = """usage: python -m railkit.unionpacific check-board [--strict] [--quick] FILE

tools:
  check-board   check a Union Pacific board file (format: railkit/data/union_pacific/README.md)"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "check-board":
        return board_check.main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
