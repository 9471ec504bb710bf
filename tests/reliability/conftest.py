"""Fixtures of the reliability suite: one database URL per backend."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite-file", "postgres"])
def backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a database in the session's PG cluster."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_cluster").new_database())
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture(scope="session")
def workers():
    """Four spawned worker processes shared by the suite (see `_procs.StoreProcess`)."""
    from tests.reliability._procs import StoreProcess

    procs = [StoreProcess() for _ in range(4)]
    try:
        for p in procs:
            p.wait_ready()
        yield procs
    finally:
        for p in procs:
            p.stop()
