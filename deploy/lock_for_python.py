"""Print railkit's lock as the Python running this script can install it.

    python deploy/lock_for_python.py requirements.lock > users-lock.txt

Before Python 3.11.5 (Debian 12 ships 3.11.2), the pins listed in overrides-python-before-3.11.5.txt
replace the lock's pins of the same packages; a note on stderr says so. Otherwise the lock is unchanged.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

OVERRIDES = Path(__file__).resolve().parent / "overrides-python-before-3.11.5.txt"


def package(line: str) -> str:
    return re.split(r"[=<>!~;\[ ]", line.strip(), maxsplit=1)[0].lower().replace("_", "-")


def lock_for(lock: list[str], version: tuple[int, int, int]) -> list[str]:
    if version >= (3, 11, 5):
        return lock
    overrides = [o.strip() for o in OVERRIDES.read_text().splitlines() if o.strip() and not o.startswith("#")]
    replaced = {package(o) for o in overrides}
    print(f"Python {'.'.join(map(str, version))}: {', '.join(overrides)} replace the lock's pins "
          f"({OVERRIDES.name})", file=sys.stderr)
    return [line for line in lock if package(line) not in replaced] + overrides


if __name__ == "__main__":
    print("\n".join(lock_for(Path(sys.argv[1]).read_text().splitlines(), sys.version_info[:3])))
