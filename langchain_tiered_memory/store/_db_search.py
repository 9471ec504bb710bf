"""Memory search pushed down to PostgreSQL + pgvector: the backend and its `CandidateSource`.

With it the application process holds no per-namespace memory index: a search opens one
read-only REPEATABLE READ transaction (one snapshot, so a concurrent write is seen whole or not
at all), asks the database for the top BM25 hits (`_db_keyword`) and the nearest vectors
(`_db_vectors`) with the caller's filters applied in SQL, and hands the few candidates, with
their ranking metadata, to the one recall engine. Fusion, gate, floor, rerank and importance run
unchanged in Python.

The search tables are kept by `DatabaseSearch.sync`, which each write path calls with the ids it
touched, in its own transaction. Once the tables exist every store opening the database keeps
them current, whatever its ``memory.searchBackend``; the first store that enables pushdown on an
existing database back-fills them from ``tm_memories`` and ``tm_vectors``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import numpy as np
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from ..config import MemoryConfig
from ..errors import StoreError
from . import _tables as t
from ._db import db_errors
from ._db_keyword import KeywordStats, bm25_search, read_stats, score_terms, sync_postings
from ._db_vectors import ann_index_exists, ensure_ann_index, similarities, sync_vectors
from ._db_vectors import vector_search as _vector_search
from ._index import RowMeta, meta_columns

__all__ = ["DatabaseCandidates", "DatabaseSearch", "RowFilter", "open_search_backend"]

logger = logging.getLogger("langchain_tiered_memory")

_MARKER = "search_pushdown"
_BACKFILL_CHUNK = 2_000


class RowFilter(Protocol):
    """The recall filters, as parsed by the store (``store/_recall.py``'s ``_Filters``)."""

    tiers: set[str] | None
    types: set[str] | None
    tags: set[str]
    since: float | None
    until: float | None
    episode_id: str | None
    history: bool


def filter_clauses(namespace: str, filters: RowFilter) -> list[sa.ColumnElement[bool]]:
    """The filters as conditions on ``tm_memories`` (the same rules as ``_Filters.accept``)."""
    m = t.memories.c
    where: list[sa.ColumnElement[bool]] = [m.namespace == namespace, m.status == "active"]
    if not filters.history:
        where.append(m.superseded_by.is_(None))
    if filters.tiers is not None:
        where.append(m.tier.in_(sorted(filters.tiers)))
    if filters.types is not None:
        where.append(m.type.in_(sorted(filters.types)))
    if filters.tags:
        where.append(sa.cast(m.tags, postgresql.JSONB).contains(sorted(filters.tags)))
    when = sa.func.coalesce(m.event_at, m.created_at)
    if filters.since is not None:
        where.append(when >= filters.since)
    if filters.until is not None:
        where.append(when < filters.until)
    if filters.episode_id is not None:
        where.append(m.episode_id == filters.episode_id)
    return where


class DatabaseSearch:
    """The search tables of one database: their upkeep on writes, and searches over them.

    Args:
        engine: The store's PostgreSQL engine.
        pushdown: Whether searches run here (``False``: only keep the tables current).
        ann_min_rows: Namespace size from which vector search uses a per-namespace HNSW index
            instead of an exact scan (see `_db_vectors`).
        ann_min_ef: Smallest ``hnsw.ef_search`` of an ANN scan.
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        pushdown: bool,
        ann_min_rows: int = 10_000,
        ann_min_ef: int = 100,
    ) -> None:
        self.engine = engine
        self.pushdown = pushdown
        self.ann_min_rows = ann_min_rows
        self.ann_min_ef = ann_min_ef
        # Names of partial HNSW indexes known to exist: a few large namespaces, never dropped.
        self._ann_built: set[tuple[str, int]] = set()

    # -- upkeep -----------------------------------------------------------------------------

    def sync(self, conn: sa.Connection, ids: Iterable[str]) -> None:
        """Bring the search rows of ``ids`` in line with ``tm_memories`` / ``tm_vectors``.

        Call it in the transaction that wrote them: a rollback then drops both together.
        """
        id_list = sorted(set(ids))
        if not id_list:
            return
        grown = sync_postings(conn, id_list)
        sync_vectors(conn, id_list)
        for namespace in sorted(grown):
            self._maybe_build_ann(conn, namespace)

    def _maybe_build_ann(self, conn: sa.Connection, namespace: str) -> None:
        stats = read_stats(conn, namespace, ())
        if stats.n_docs < self.ann_min_rows:
            return
        s = t.search_vectors.c
        dims = conn.execute(
            sa.select(s.dim).where(s.namespace == namespace, s.kind == "memory").distinct()
        ).scalars()
        for dim in dims:
            if (namespace, dim) not in self._ann_built:
                # Inside the write: the build takes seconds once, when the namespace crosses the
                # threshold; afterwards pgvector keeps the graph current row by row.
                ensure_ann_index(conn, namespace, int(dim))
                self._ann_built.add((namespace, int(dim)))

    def backfill(self, conn: sa.Connection) -> int:
        """Index every existing memory (enabling pushdown on a database that has rows)."""
        m = t.memories.c
        ids = list(conn.execute(sa.select(m.id).order_by(m.id)).scalars())
        for start in range(0, len(ids), _BACKFILL_CHUNK):
            self.sync(conn, ids[start : start + _BACKFILL_CHUNK])
        return len(ids)

    # -- search -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def candidates(
        self,
        namespace: str,
        filters: RowFilter,
        *,
        model_id: str,
    ) -> Any:
        """A `CandidateSource` over one namespace, valid inside the ``with`` block.

        The block is one read-only snapshot of the database.
        """
        with db_errors("search memories"), self.engine.connect() as conn:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                conn.execute(sa.text("SET TRANSACTION READ ONLY"))
                yield DatabaseCandidates(
                    conn, namespace, filter_clauses(namespace, filters), model_id=model_id,
                    ann=lambda dim: self._ann_ready(conn, namespace, dim),
                    ann_min_ef=self.ann_min_ef,
                )

    def _ann_ready(self, conn: sa.Connection, namespace: str, dim: int) -> bool:
        if (namespace, dim) in self._ann_built:
            return True
        if ann_index_exists(conn, namespace, dim):
            self._ann_built.add((namespace, dim))
            return True
        return False


class DatabaseCandidates:
    """One query's `CandidateSource`: keyword and vector lists read from PostgreSQL.

    Everything the engine asks after the two searches (terms, BM25 of a candidate, idf, ranking
    metadata) is answered from the rows those searches returned and one statistics query.
    """

    def __init__(
        self,
        conn: sa.Connection,
        namespace: str,
        where: list[sa.ColumnElement[bool]],
        *,
        model_id: str,
        ann: Callable[[int], bool],
        ann_min_ef: int,
    ) -> None:
        self.conn = conn
        self.namespace = namespace
        self.where = where
        self.model_id = model_id
        self.rows: dict[str, RowMeta] = {}
        self._terms: dict[str, list[str]] = {}
        self._stats: KeywordStats | None = None
        self._stats_tokens: set[str] = set()
        self._ann = ann
        self._ann_min_ef = ann_min_ef
        self.keyword = _Keyword(self)
        self.vectors = _Vectors(self)
        self.lock: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()

    def stats(self, tokens: Iterable[str]) -> KeywordStats:
        """The namespace's statistics, read once per query (more tokens: read again)."""
        wanted = set(tokens)
        if self._stats is None or not wanted <= self._stats_tokens:
            self._stats_tokens |= wanted
            self._stats = read_stats(self.conn, self.namespace, self._stats_tokens)
        return self._stats

    def remember(self, rows: Iterable[Any]) -> None:
        """Keep the ranking metadata and terms of returned rows."""
        for row in rows:
            if row.id not in self.rows:
                self.rows[row.id] = RowMeta(row)
                self._terms[row.id] = row.terms.split()

    def terms(self, doc_id: str) -> list[str]:
        """The token list of a candidate (read if neither search returned it)."""
        if doc_id not in self._terms:
            m = t.memories.c
            self.remember(
                self.conn.execute(
                    sa.select(*meta_columns()).where(m.id == doc_id, *self.where)
                )
            )
        return self._terms.get(doc_id, [])


class _Keyword:
    """The engine's keyword index, answered by SQL and the source's cached rows."""

    def __init__(self, source: DatabaseCandidates) -> None:
        self._source = source

    def __len__(self) -> int:
        return self._source.stats(()).n_docs

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        src = self._source
        rows = bm25_search(
            src.conn, src.namespace, query_tokens, src.stats(query_tokens), k, src.where,
            meta_columns(),
        )
        src.remember(rows)
        return [(r.id, float(r.score)) for r in rows]

    def score_ids(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        src = self._source
        stats = src.stats(query_tokens)
        return {i: score_terms(query_tokens, src.terms(i), stats) for i in ids if src.terms(i)}

    def terms_of(self, doc_id: str) -> frozenset[str]:
        return frozenset(self._source.terms(doc_id))

    def idf(self, token: str) -> float:
        return self._source.stats((token,)).idf(token)

    def document_frequency(self, token: str) -> int:
        return self._source.stats((token,)).df.get(token, 0)

    def max_idf(self) -> float:
        return self._source.stats(()).max_idf()


class _Vectors:
    """The engine's vector index, answered by pgvector."""

    def __init__(self, source: DatabaseCandidates) -> None:
        self._source = source

    def search(
        self, query: np.ndarray, k: int, *, allowed: Callable[[str], bool] | None = None
    ) -> list[tuple[str, float]]:
        src = self._source
        dim = int(query.shape[-1])
        rows = _vector_search(
            src.conn, src.namespace, src.model_id, query, k, src.where, meta_columns(),
            ann=src._ann(dim), ann_min_ef=src._ann_min_ef,
        )
        src.remember(rows)
        out = [(r.id, float(r.similarity)) for r in rows]
        return [(i, s) for i, s in out if allowed is None or allowed(i)]

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        src = self._source
        return similarities(src.conn, src.namespace, src.model_id, query, list(ids))


def has_vector_extension(engine: sa.Engine) -> bool:
    """Whether the database is PostgreSQL with the ``vector`` extension installed."""
    if engine.dialect.name != "postgresql":
        return False
    with db_errors("check for pgvector"), engine.connect() as conn:
        found: object = conn.execute(
            sa.select(sa.literal_column("1"))
            .select_from(sa.table("pg_extension", sa.column("extname")))
            .where(sa.column("extname") == "vector")
        ).scalar()
    return found is not None


def open_search_backend(engine: sa.Engine, config: MemoryConfig) -> DatabaseSearch | None:
    """The database search of a store, or ``None`` when search stays in the process.

    ``auto`` pushes down when the database is PostgreSQL with the ``vector`` extension;
    ``database`` requires it; ``process`` searches in-process but, if another store already
    created the search tables, still keeps them current.

    Raises:
        StoreError: ``database`` was asked for and the database cannot do it.
    """
    choice = config.search_backend
    if choice == "process" and engine.dialect.name != "postgresql":
        return None
    available = has_vector_extension(engine)
    if choice == "database" and not available:
        raise StoreError(
            "memory.searchBackend is 'database' but the store is not on PostgreSQL with the "
            "pgvector extension (CREATE EXTENSION vector); use 'auto' or 'process'"
        )
    if not available:
        return None
    backend = DatabaseSearch(engine, pushdown=choice != "process")
    with db_errors("prepare the search tables"), engine.connect() as conn:
        ready = conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == _MARKER)).first()
    if ready is not None:
        return backend
    if not backend.pushdown:
        return None
    with (
        db_errors("prepare the search tables"),
        engine.connect().execution_options(write=True) as conn,
        conn.begin(),
    ):
        # Checked again under the write lock: another process may have just done it.
        if conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == _MARKER)).first() is None:
            t.search_metadata.create_all(conn)
            count = backend.backfill(conn)
            conn.execute(sa.insert(t.meta).values(key=_MARKER, value="1"))
            logger.info("search pushdown enabled; %d memories indexed", count)
    return backend
