"""Compare an engine's English with the expected text file and fail with a readable diff."""

from __future__ import annotations

import difflib
from pathlib import Path

MAX_DIFF_LINES = 80


def assert_same_text(actual: str, expected_file: Path, regenerate: str) -> None:
    """``actual`` must equal ``expected_file``'s text; otherwise fail showing a unified diff (the first
    ``MAX_DIFF_LINES`` lines) and how to rewrite the file when the change is wanted."""
    expected = expected_file.read_text(encoding="utf-8")
    if actual == expected:
        return
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), fromfile=f"expected {expected_file.name}",
                                     tofile="the engine now", lineterm="", n=2))
    shown = "\n".join(diff[:MAX_DIFF_LINES])
    more = f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines" if len(diff) > MAX_DIFF_LINES else ""
    raise AssertionError(f"the English changed ({expected_file}):\n{shown}{more}\n"
                         f"If the change is wanted, rewrite the expected text with {regenerate} and say why in the commit.")
