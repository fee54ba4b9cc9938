"""Where the shipped data lives: ``data/`` beside the package (editable install, Binder),
or the folder named by the ``RAILKIT_DATA`` environment variable."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    override = os.environ.get("RAILKIT_DATA")
    return Path(override) if override else PROJECT_ROOT / "data"
