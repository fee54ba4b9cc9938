"""Where the shipped data lives: ``railkit/data/`` inside the package (read through
``importlib.resources``, so a plain wheel install finds it), or the folder named by the
``RAILKIT_DATA`` environment variable. The repository's top-level ``data`` links here."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def data_dir() -> Path:
    override = os.environ.get("RAILKIT_DATA")
    if override:
        return Path(override)
    return Path(str(resources.files("railkit") / "data"))
