"""The write-time checks' neighbours read from PostgreSQL + pgvector (search pushdown).

`DatabaseNeighbours` answers the `NeighbourSource` questions from the search tables the writes keep
(`_db_keyword`, `_db_vectors`), with what the in-process index would answer:

* nearest entries: the entry's own vector (``tm_vectors``, the store's model) as the query of
  `vector_search` over the namespace's active entries: an exact scan, or the namespace's HNSW
  index once it has one (then approximate, recall >= 0.95 like search);
* lexical matches: `bm25_search` over the postings (the same BM25 as the in-process index);
* live SEMANTIC ids and similarities: indexed lookups by id.

Each call takes a pooled connection for its statements; nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import sqlalchemy as sa

from ..types import MemoryEntry, MemoryTier
from . import _tables as t
from ._db import db_errors
from ._db_keyword import MEMORY, bm25_search, read_stats
from ._db_vectors import ann_index_exists, similarities, vector_search
from ._neighbours import Neighbours

__all__ = ["DatabaseNeighbours"]

_CHUNK = 500


class DatabaseNeighbours:
    """A `NeighbourSource` over one namespace's rows in PostgreSQL.

    Args:
        engine: The store's engine (PostgreSQL with the search tables).
        namespace: Whose entries.
        model_id: The embedding model whose vectors count (others wait in the re-embed queue).
        ann_min_ef: Smallest ``hnsw.ef_search`` of an ANN scan.
    """

    def __init__(
        self, engine: sa.Engine, namespace: str, *, model_id: str, ann_min_ef: int
    ) -> None:
        self._engine = engine
        self._namespace = namespace
        self._model_id = model_id
        self._ann_min_ef = ann_min_ef

    def nearest(self, entries: Sequence[MemoryEntry], k: int) -> Neighbours:
        m = t.memories.c
        out: Neighbours = {e.id: [] for e in entries}
        with db_errors("find contradiction candidates"), self._engine.connect() as conn:
            vectors = self._vectors(conn, list(out))
            ann: dict[int, bool] = {}
            for entry_id, vector in vectors.items():
                dim = int(vector.shape[-1])
                if dim not in ann:
                    ann[dim] = ann_index_exists(conn, self._namespace, dim)
                rows = vector_search(
                    conn, self._namespace, self._model_id, vector, k, [m.status == "active"],
                    [m.id], ann=ann[dim], ann_min_ef=self._ann_min_ef,
                )
                out[entry_id] = [(r.id, float(r.similarity)) for r in rows]
        return out

    def lexical(self, tokens: Sequence[str], k: int) -> list[str]:
        with db_errors("find contradiction candidates"), self._engine.connect() as conn:
            stats = read_stats(conn, self._namespace, tokens)
            rows = bm25_search(conn, self._namespace, tokens, stats, k, [], [t.memories.c.id])
        return [r.id for r in rows]

    def live_semantic(self, ids: Iterable[str]) -> set[str]:
        wanted = sorted(set(ids))
        m = t.memories.c
        out: set[str] = set()
        with db_errors("find contradiction candidates"), self._engine.connect() as conn:
            for start in range(0, len(wanted), _CHUNK):
                out.update(conn.execute(sa.select(m.id).where(
                    m.id.in_(wanted[start : start + _CHUNK]),
                    m.namespace == self._namespace,
                    m.status == "active",
                    m.tier == MemoryTier.SEMANTIC.value,
                    m.superseded_by.is_(None),
                )).scalars())
        return out

    def similarities(self, entry_id: str, ids: Sequence[str]) -> dict[str, float]:
        if not ids:
            return {}
        with db_errors("find contradiction candidates"), self._engine.connect() as conn:
            vector = self._vectors(conn, [entry_id]).get(entry_id)
            if vector is None:
                return {}
            return similarities(conn, self._namespace, self._model_id, vector, ids)

    def _vectors(self, conn: sa.Connection, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of the active entries among ``ids`` (the bytes the index loads)."""
        v, m = t.vectors.c, t.memories.c
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(ids), _CHUNK):
            rows = conn.execute(
                sa.select(v.owner_id, v.vector)
                .join_from(t.vectors, t.memories, m.id == v.owner_id)
                .where(
                    v.owner_id.in_(list(ids[start : start + _CHUNK])),
                    v.kind == MEMORY,
                    v.model_id == self._model_id,
                    m.namespace == self._namespace,
                    m.status == "active",
                )
            )
            out.update((r.owner_id, np.frombuffer(r.vector, dtype=np.float32)) for r in rows)
        return out
