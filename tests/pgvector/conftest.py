"""Stores on PostgreSQL 16 + pgvector (``pgserver``), searching in the database."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

# The recall filters of `search_rows` with none set: every tier, type, tag, time and episode.
NO_FILTER = SimpleNamespace(tiers=None, types=None, tags=set(), since=None, until=None,
                            episode_id=None, history=False)


class RandomEmbeddings(Embeddings):
    """A fixed random unit vector per text: no structure, the hardest case for an HNSW graph."""

    def __init__(self, dim: int = 32, model_id: str = "test/random-32") -> None:
        self.dim = dim
        self.model_id = model_id

    def _one(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


@pytest.fixture
def pg_url(pgvector_cluster) -> str:
    return pgvector_cluster.new_database()


@pytest.fixture
def open_pg(pg_url, hash_embeddings, clock) -> Iterator[Callable[..., TieredMemoryStore]]:
    """Open (or reopen) a store on this test's pgvector database."""
    opened: list[TieredMemoryStore] = []

    def factory(**kwargs: Any) -> TieredMemoryStore:
        config = kwargs.pop("config", {})
        kwargs.setdefault("embeddings", hash_embeddings)
        kwargs.setdefault("clock", clock)
        s = TieredMemoryStore(
            pg_url, config=MemoryConfig.from_dict({"rerank_enabled": False, **config}), **kwargs
        )
        opened.append(s)
        return s

    yield factory
    for s in opened:
        s.close()
