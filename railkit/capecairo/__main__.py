"""``python -m railkit.capecairo check-deck FILE``: the Vom Kap bis Kairo command-line tools.

One tool so far: ``check-deck`` validates a deck file and lists every problem
(``railkit.capecairo.deck_check``). ``--help`` after the tool's name shows its options.
"""

from __future__ import annotations

from collections.abc import Sequence

from railkit.capecairo import deck_check
from railkit.cli import run_tools, tools_usage
from railkit.messages import N_, Message

USAGE = tools_usage("python -m railkit.capecairo check-deck FILE", "check-deck",
                    Message(N_("check a Vom Kap bis Kairo deck file (format: railkit/data/cape_to_cairo/README.md)")))


def main(argv: Sequence[str] | None = None) -> int:
    return run_tools(argv, USAGE, {"check-deck": deck_check.main})


if __name__ == "__main__":
    raise SystemExit(main())
