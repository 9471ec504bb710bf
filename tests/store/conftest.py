"""The store conformance suite: every test here runs on a SQLite file, on PostgreSQL (search in
process) and on PostgreSQL with pgvector (search pushed down to the database)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore


@pytest.fixture(params=["sqlite-file", "postgres", "postgres-pgvector"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "postgres":
        return request.getfixturevalue("pg_cluster").new_database()
    if request.param == "postgres-pgvector":
        return request.getfixturevalue("pgvector_cluster").new_database()
    return f"sqlite:///{tmp_path / 'memory.db'}"


@pytest.fixture
def open_store(store_url, hash_embeddings, clock) -> Iterator[Callable[..., TieredMemoryStore]]:
    """Open (or reopen) a store on this test's database."""
    opened: list[TieredMemoryStore] = []

    def factory(**kwargs: Any) -> TieredMemoryStore:
        kwargs.setdefault("embeddings", hash_embeddings)
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("config", MemoryConfig(rerank_enabled=False))
        s = TieredMemoryStore(store_url, **kwargs)
        opened.append(s)
        return s

    yield factory
    for s in opened:
        s.close()


@pytest.fixture
def store(open_store) -> TieredMemoryStore:
    return open_store()
