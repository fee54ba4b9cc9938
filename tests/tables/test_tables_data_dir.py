"""The table server keeps its database and teacher key in its own folder (``RAILKIT_TABLES_DATA``), never in
``RAILKIT_DATA``, which names the folder of the games' board and deck files: setting one must not move the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from railkit.classroom.teacher import default_key_file
from railkit.paths import data_dir
from railkit.tables.store import database_url


def test_TABLES_the_servers_folder_is_its_own(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    boards, tables = tmp_path / "boards", tmp_path / "tables"
    monkeypatch.delenv("RAILKIT_DB", raising=False)
    monkeypatch.setenv("RAILKIT_DATA", str(boards))
    monkeypatch.setenv("RAILKIT_TABLES_DATA", str(tables))
    assert database_url() == f"sqlite:///{tables / 'tables.sqlite'}"
    assert default_key_file() == tables / "teacher.key"
    assert data_dir() == boards  # the engines still find a club's board and deck there
    assert not boards.exists()  # nothing of the server's was put among the board files
