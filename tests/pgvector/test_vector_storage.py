"""The search vectors stay in their rows (``STORAGE MAIN``): an exact scan reads no TOAST."""

from __future__ import annotations

import hashlib

import numpy as np
import sqlalchemy as sa
from langchain_core.embeddings import Embeddings

from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_vectors import vectors_inline


class WideEmbeddings(Embeddings):
    """768-d vectors: a row of ``tm_search_vectors`` then exceeds the 2 kB TOAST threshold."""

    model_id = "test/wide-768"

    def _one(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        v = np.random.default_rng(seed).standard_normal(768).astype(np.float32)
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(x) for x in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def _toasted_vectors(conn: sa.Connection) -> int:
    """Values of ``tm_search_vectors`` moved out of their rows (chunks in its TOAST table)."""
    toast: object = conn.execute(sa.text(
        "SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = :name"
    ), {"name": t.search_vectors.name}).scalar()
    assert isinstance(toast, str)
    count: object = conn.execute(sa.text(f"SELECT count(*) FROM {toast}")).scalar()
    assert isinstance(count, int)
    return count


def test_wide_vectors_are_stored_in_their_rows(open_pg) -> None:
    s = open_pg(embeddings=WideEmbeddings())
    s.add_many([f"note {i} about tea" for i in range(20)], namespace="a")
    with s.engine.connect() as conn:
        assert vectors_inline(conn)
        assert _toasted_vectors(conn) == 0
        sizes = conn.execute(
            sa.select(sa.func.pg_column_size(t.search_vectors.c.embedding))).scalars()
        assert set(sizes) == {8 + 4 * 768}  # header and float4s: not compressed
    assert s.search("tea", namespace="a", k=3, reinforce=False)


def test_an_older_database_keeps_new_vectors_inline_once_reopened(open_pg) -> None:
    s = open_pg(embeddings=WideEmbeddings())
    s.add("first note", namespace="a")
    with s.engine.begin() as conn:  # as an earlier release left the column
        conn.execute(sa.text(
            "ALTER TABLE tm_search_vectors ALTER COLUMN embedding SET STORAGE EXTERNAL, "
            "ALTER COLUMN owner_id SET STORAGE EXTENDED"))
        assert not vectors_inline(conn)
    s.add("a note written by the earlier release", namespace="a")
    with s.engine.connect() as conn:
        assert _toasted_vectors(conn) > 0  # the case under test: out of line before
    s.close()
    reopened = open_pg(embeddings=WideEmbeddings())
    with reopened.engine.connect() as conn:
        assert vectors_inline(conn)
        before = _toasted_vectors(conn)
    reopened.add_many([f"later note {i}" for i in range(10)], namespace="a")
    with reopened.engine.connect() as conn:
        assert _toasted_vectors(conn) == before  # the new vectors stayed in their rows
