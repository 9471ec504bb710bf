"""Shared fixtures: a real SQLite file per test, a deterministic embedding, the real MiniLM."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.embeddings import LocalEmbeddings
from tests.helpers import Clock, HashEmbeddings


@pytest.fixture
def clock() -> Clock:
    """A settable clock starting at 2026-01-01 UTC."""
    return Clock(datetime(2026, 1, 1, tzinfo=timezone.utc))


@pytest.fixture
def hash_embeddings() -> HashEmbeddings:
    return HashEmbeddings()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def store(db_path: Path, hash_embeddings: HashEmbeddings, clock: Clock) -> Iterator[TieredMemoryStore]:
    """A store on a real SQLite file with a deterministic bag-of-words embedding."""
    s = TieredMemoryStore(
        f"sqlite:///{db_path}",
        embeddings=hash_embeddings,
        config=MemoryConfig(rerank_enabled=False),
        clock=clock,
    )
    yield s
    s.close()


@pytest.fixture(scope="session")
def minilm() -> LocalEmbeddings:
    """The real bundled all-MiniLM-L6-v2 (loaded once per test session)."""
    emb = LocalEmbeddings()
    emb.embed_query("warm up")
    return emb


__all__ = ["Clock", "HashEmbeddings", "timedelta"]


@pytest.fixture(scope="session")
def pg_cluster():
    """A throwaway PostgreSQL cluster on loopback for the whole session (installed if missing)."""
    from tests.pg import start_cluster

    cluster = start_cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pgvector_cluster():
    """A throwaway PostgreSQL 16 + pgvector cluster (``pgserver``) for the whole session."""
    from tests.pg import start_pgvector_cluster

    cluster = start_pgvector_cluster()
    yield cluster
    cluster.stop()
