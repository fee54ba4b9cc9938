"""Fixtures for the table server's tests: one database per test, SQLite and PostgreSQL alike. Imported by each
tests/tables module (not a conftest.py: a second module named conftest would shadow tests/conftest.py, which
other tests import by that name)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tables_client import Postgres, ServerProcess


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.server)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite'}"
    cluster: Postgres = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def start(db_url: str) -> Iterator[Callable[..., ServerProcess]]:
    """``start(*args)``: a table server on ``db_url``; every one started is stopped at the end."""
    started: list[ServerProcess] = []

    def run(*args: str) -> ServerProcess:
        server = ServerProcess(db_url, list(args)).start()
        started.append(server)
        return server

    yield run
    for server in started:
        server.stop()
