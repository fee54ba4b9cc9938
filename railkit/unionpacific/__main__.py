"""``python -m railkit.unionpacific check-board FILE``: the Union Pacific command-line tools.

One tool so far: ``check-board`` validates a board file and warns about playability
(``railkit.unionpacific.board_check``). ``--help`` after the tool's name shows its options.
"""

from __future__ import annotations

from collections.abc import Sequence

from railkit.cli import run_tools, tools_usage
from railkit.messages import N_, Message
from railkit.unionpacific import board_check

USAGE = tools_usage("python -m railkit.unionpacific check-board [--strict] [--quick] FILE", "check-board",
                    Message(N_("check a Union Pacific board file (format: railkit/data/union_pacific/README.md)")))


def main(argv: Sequence[str] | None = None) -> int:
    return run_tools(argv, USAGE, {"check-board": board_check.main})


if __name__ == "__main__":
    raise SystemExit(main())
