"""Memory search pushed down to PostgreSQL + pgvector: the backend and its `CandidateSource`.

With it the application process holds no per-namespace memory index: a search sends one
statement (`_db_statement`; one snapshot, so a concurrent write is seen whole or not at all)
that returns the top BM25 hits and the nearest vectors with the caller's filters applied in SQL,
and hands the few candidates, with their rows and the namespace's statistics, to the one recall
engine. Fusion, gate, floor, rerank and importance run unchanged in Python. A namespace with its
own HNSW index (`_db_vectors`) runs its ANN scan inside the same function call.

The search tables are kept by `DatabaseSearch.sync`, which each write path calls with the ids it
touched, in its own transaction. Once the tables exist every store opening the database keeps
them current, whatever its ``memory.searchBackend``; the first store that enables pushdown on an
existing database back-fills them from ``tm_memories`` and ``tm_vectors``. Episodes are kept in
the same tables (`_db_episodes`), and the write-time contradiction check and linking read their
neighbours here too (`_db_neighbours`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..types import MemoryEntry
from . import _tables as t
from ._db import autocommit_engine, db_errors
from ._db_episodes import sync_episodes
from ._db_keyword import MEMORY, KeywordStats, read_stats, score_terms
from ._db_statement import (
    RowFilter,
    SearchShape,
    VectorParameter,
    bound_filter_clauses,
    search_rows,
    stats_from_row,
)
from ._db_statistics import BULK_WRITE, refresh_statistics
from ._db_sync import sync_postings
from ._db_vectors import (
    ann_index_name,
    ann_index_names,
    ensure_ann_index,
    similarities,
    sync_vectors,
)
from ._index import RowMeta
from ._rows import entry_from_row

__all__ = ["DatabaseCandidates", "DatabaseSearch", "RowFilter"]

logger = logging.getLogger("langchain_tiered_memory")

_ANN_REFRESH = 30.0
# With filters, each list ranks at least this many candidates before their join (see `_short`).
_MIN_OVERFETCH = 64
_BACKFILL_CHUNK = 2_000


class DatabaseSearch:
    """The search tables of one database: their upkeep on writes, and searches over them.

    Args:
        engine: The store's PostgreSQL engine.
        pushdown: Whether searches run here (``False``: only keep the tables current).
        ann_min_rows: Namespace size from which vector search uses a per-namespace HNSW index
            instead of an exact scan (see `_db_vectors`).
        ann_min_ef: Smallest ``hnsw.ef_search`` of an ANN scan. 40 (pgvector's default):
            recall@15 against exact 0.992 on 10,000 MiniLM sentence vectors (0.998 at 100),
            with 535 pages per scan instead of 1,027, and the pages are what a namespace's
            first search reads from disk (`benchmarks/ann_recall.py`).
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        pushdown: bool,
        ann_min_rows: int = 5_000,
        ann_min_ef: int = 40,
    ) -> None:
        self.engine = engine
        # Searches read through an engine of their own, in autocommit: one statement needs no
        # transaction (no BEGIN, no ROLLBACK), and its connections stay in autocommit instead
        # of being switched at each checkout (`autocommit_engine`). `close` disposes of it.
        self.reader = autocommit_engine(engine)
        self.pushdown = pushdown
        self.ann_min_rows = ann_min_rows
        self.ann_min_ef = ann_min_ef
        # Names of partial HNSW indexes known to exist: a few large namespaces, never dropped.
        self._ann_built: set[tuple[str, int]] = set()
        self._ann_names: set[str] = set()
        self._ann_listed = -float("inf")
        self._unchecked = 0

    def close(self) -> None:
        """Release the search's own connections (the store's engine is the store's to close)."""
        self.reader.dispose()

    # -- upkeep -----------------------------------------------------------------------------

    def sync(self, conn: sa.Connection, ids: Iterable[str]) -> None:
        """Bring the search rows of ``ids`` in line with ``tm_memories`` / ``tm_vectors``.

        Call it in the transaction that wrote them: a rollback then drops both together.
        """
        id_list = sorted(set(ids))
        if not id_list:
            return
        changed = sync_postings(conn, id_list, kind=MEMORY)
        written = sync_vectors(conn, id_list)
        for namespace, n_docs in sorted(changed.items()):
            dims = {d for ns, d in written if ns == namespace}
            # A write that added no vectors there (a delete, an archive) needs no new index.
            if dims and n_docs >= self.ann_min_rows:
                self._maybe_build_ann(conn, namespace, dims)
        # Checked once per BULK_WRITE entries written by this process, in one write or many.
        self._unchecked += len(id_list)
        if self._unchecked >= BULK_WRITE:
            refresh_statistics(conn)
            self._unchecked = 0

    def sync_episodes(self, conn: sa.Connection, ids: Iterable[str]) -> None:
        """`sync` for episodes (`_db_episodes`): call it in the transaction that wrote them."""
        sync_episodes(conn, ids)

    def _maybe_build_ann(self, conn: sa.Connection, namespace: str, dims: set[int]) -> None:
        """Build the HNSW index of a namespace over the threshold for each of its dimensions.

        ``dims`` are the dimensions just written: when this process knows each has its index,
        the namespace's other dimensions were settled when it crossed the threshold, and the
        scan of its vectors for their dimensions (a read of every row) is skipped.
        """
        if all((namespace, d) in self._ann_built for d in dims):
            return
        s = t.search_vectors.c
        found = conn.execute(
            sa.select(s.dim).where(s.namespace == namespace, s.kind == MEMORY).distinct()
        ).scalars()
        for dim in found:
            if (namespace, dim) not in self._ann_built:
                # Inside the write: the build takes seconds once, when the namespace crosses the
                # threshold; afterwards pgvector keeps the graph current row by row.
                ensure_ann_index(conn, namespace, int(dim))
                self._ann_built.add((namespace, int(dim)))
                self._ann_names.add(ann_index_name(namespace, int(dim)))

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
        tokens: Sequence[str],
        query_vector: np.ndarray | None,
        keyword: bool = True,
    ) -> Iterator[DatabaseCandidates]:
        """A `CandidateSource` over one namespace for one query, valid inside the ``with``.

        Statistics and both lists come from one statement, so from one snapshot: a
        concurrent write is seen whole or not at all (the HNSW scan of a large namespace
        included).

        Args:
            namespace: Whose memories.
            filters: The caller's filters (applied in SQL).
            model_id: The embedding model whose vectors are searched.
            tokens: The query's tokens.
            query_vector: The query's unit vector (``None``: no vector list).
            keyword: Whether the keyword list is wanted.
        """
        with db_errors("search memories"), self.reader.connect() as conn:
            yield DatabaseCandidates(
                conn,
                _Query(namespace, filters, model_id, tokens, query_vector, keyword),
                ann=lambda dim: self.has_ann_index(conn, namespace, dim),
                ann_min_ef=self.ann_min_ef,
            )

    def has_ann_index(self, conn: sa.Connection, namespace: str, dim: int) -> bool:
        """Whether the namespace has its HNSW index (names re-listed every ``_ANN_REFRESH`` s).

        Another process may build one; until this process sees it, it scans exactly (right,
        only slower).
        """
        now = time.monotonic()
        if now - self._ann_listed > _ANN_REFRESH:
            self._ann_names = ann_index_names(conn)
            self._ann_listed = now
        return ann_index_name(namespace, dim) in self._ann_names


@dataclass(frozen=True, slots=True)
class _Query:
    namespace: str
    filters: RowFilter
    model_id: str
    tokens: Sequence[str]
    vector: np.ndarray | None
    keyword: bool

    def where(self) -> list[sa.ColumnElement[bool]]:
        """The filters as SQLAlchemy conditions, for the statements built per query.

        Built on demand: most searches need only the search function's statement.
        """
        return bound_filter_clauses(self.namespace, self.filters)


class DatabaseCandidates:
    """One query's `CandidateSource`: keyword and vector lists read from PostgreSQL.

    The first list asked for fetches both, with the namespace's statistics, in one statement
    (`_db_statement`; a namespace with its own HNSW index is scanned through it inside the
    same call, see `_db_vectors`). Keyword hits carry their vector similarity, so
    fusion needs no further query; BM25 of vector-only hits is computed from their terms with
    the same statistics. Rows come back whole, so the store builds its hits without reading
    them again (`entries`).
    """

    def __init__(
        self,
        conn: sa.Connection,
        query: _Query,
        *,
        ann: Callable[[int], bool],
        ann_min_ef: int,
    ) -> None:
        self.conn = conn
        self.query = query
        self.rows: dict[str, RowMeta] = {}
        self._full: dict[str, Any] = {}
        self._terms: dict[str, list[str]] = {}
        self._sims: dict[str, float] = {}
        self._bm25: dict[str, float] = {}
        self._stats: KeywordStats | None = None
        self._lists: tuple[int, list[tuple[str, float]], list[tuple[str, float]]] | None = None
        self._ann = ann
        self._ann_min_ef = ann_min_ef
        # Whether the namespace has a pending contradiction, as the statement saw it (None: no
        # statement ran, so unknown).
        self.pending: bool | None = None
        self.keyword = _Keyword(self)
        self.vectors = _Vectors(self)
        self.lock: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()

    @property
    def stats(self) -> KeywordStats:
        """The namespace's statistics for the query's tokens (read once)."""
        if self._stats is None:
            self._stats = read_stats(self.conn, self.query.namespace, self.query.tokens)
        return self._stats

    def entries(self, ids: Iterable[str]) -> dict[str, MemoryEntry]:
        """The entries of returned candidates, from the rows the search already read."""
        return {i: entry_from_row(self._full[i]) for i in ids if i in self._full}

    def lists(self, k: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The top-``k`` keyword and vector lists (fetched once per ``k``)."""
        if self._lists is None or self._lists[0] < k:
            kw, vec = self._fetch(k)
            self._lists = (k, kw, vec)
        return self._lists[1][:k], self._lists[2][:k]

    def _fetch(self, k: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        q = self.query
        literal = VectorParameter.of(q.vector) if q.vector is not None else None
        dim = int(q.vector.shape[-1]) if q.vector is not None else 0
        ann = q.vector is not None and k <= 500 and self._ann(dim)
        f = q.filters
        filtered = (f.tiers is not None or f.types is not None or bool(f.tags)
                    or f.since is not None or f.until is not None or f.episode_id is not None)
        # Unfiltered, only superseded versions (few) fall out at the join: a cut of 2k leaves
        # k almost always, and `_short` redoes the rare search it does not.
        over = max(4 * k, _MIN_OVERFETCH) if filtered else 2 * k
        ef = min(max(self._ann_min_ef, 2 * k), 1000)

        def run(overfetch: bool, *, ann: bool) -> list[Any]:
            shape = SearchShape(keyword=q.keyword, exact=literal is not None and not ann,
                                similarity=literal is not None, overfetch=overfetch, ann=ann)
            return search_rows(self.conn, shape, q.filters, namespace=q.namespace,
                               tokens=q.tokens, k=k, query_vector=literal, dim=dim,
                               model_id=q.model_id, over=over, ef=ef)

        rows = run(True, ann=ann)
        if ann and self._ann_short(rows, k):
            # The filters (status, tiers, tags, another model's rows) took more than the ANN
            # scan's slack: rank the namespace exactly.
            ann = False
            rows = run(True, ann=False)
        if self._short(rows, k, over, exact=not ann and literal is not None):
            # The filters left a list short while more candidates existed: rank them all.
            rows = run(False, ann=ann)
        kw_hits: list[tuple[str, float]] = []
        vec_hits: list[tuple[str, float]] = []
        for row in rows:
            self._remember(row)
            if self._stats is None and row.n_docs is not None:
                self._stats = stats_from_row(row)
            if row.pending is not None:
                self.pending = bool(row.pending)
            if row.similarity is not None:
                self._sims[row.id] = float(row.similarity)
            if row.score is not None:  # BM25, also on vector hits when keyword is wanted
                self._bm25[row.id] = float(row.score)
            if row.kw_rank is not None:
                kw_hits.append((row.id, float(row.score)))
            if row.vec_rank is not None:
                vec_hits.append((row.id, float(row.similarity)))
        # The SQL ranks: score, then id; distance (= -similarity), then id.
        kw_hits.sort(key=lambda hit: (-hit[1], hit[0]))
        vec_hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return kw_hits, vec_hits

    def _ann_short(self, rows: list[Any], k: int) -> bool:
        """Whether an ANN vector list came back with fewer than ``k`` rows after the filters."""
        if sum(1 for r in rows if r.vec_rank is not None) >= k:
            return False
        stats = stats_from_row(rows[0]) if rows else self.stats
        return stats.n_docs > 0

    def _short(self, rows: list[Any], k: int, over: int, *, exact: bool) -> bool:
        """Whether an over-fetched list may have lost candidates to its ``over`` cut."""
        q = self.query
        if q.keyword and sum(1 for r in rows if r.kw_rank is not None) < k:
            stats = stats_from_row(rows[0]) if rows else self.stats
            # At most sum(df) documents match; if that fits under the cut, none was cut.
            if sum(stats.df.get(term, 0) for term in set(q.tokens)) > over:
                return True
        if exact:
            vec = [r for r in rows if r.vec_rank is not None]
            if len(vec) < k:
                if not vec:
                    return (stats_from_row(rows[0]) if rows else self.stats).n_docs > 0
                # ``n_inner`` (the exact list's size before the join) is on each of its rows.
                return int(min(vec, key=lambda r: r.vec_rank).n_inner or 0) >= over
        return False

    def _remember(self, row: Any) -> None:
        if row.id not in self._full:
            self._full[row.id] = row
            self.rows[row.id] = RowMeta(row)
            self._terms[row.id] = row.terms.split()

    def terms(self, doc_id: str) -> list[str]:
        """The token list of a candidate (read if neither list returned it)."""
        if doc_id not in self._terms:
            m = t.memories.c
            for row in self.conn.execute(
                sa.select(t.memories).where(m.id == doc_id, *self.query.where())
            ):
                self._remember(row)
        return self._terms.get(doc_id, [])

    def bm25(self, query_tokens: Sequence[str], doc_id: str) -> float:
        """A candidate's BM25: as the search statement scored it, or from its terms."""
        if doc_id in self._bm25 and list(query_tokens) == list(self.query.tokens):
            return self._bm25[doc_id]
        return score_terms(query_tokens, self.terms(doc_id), self.stats)

    def bm25_of(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        """`bm25` of each candidate that has terms (the query compared once, not per id)."""
        scored = self._bm25 if list(query_tokens) == list(self.query.tokens) else {}
        out: dict[str, float] = {}
        for i in ids:
            terms = self.terms(i)
            if terms:
                score = scored.get(i)
                out[i] = score if score is not None else score_terms(query_tokens, terms,
                                                                     self.stats)
        return out

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        """Similarities of candidates, from the lists' rows when they carry them."""
        wanted = list(ids)
        missing = [i for i in wanted if i not in self._sims]
        if missing:
            q = self.query
            self._sims.update(similarities(self.conn, q.namespace, q.model_id, query, missing))
        return {i: self._sims[i] for i in wanted if i in self._sims}


class _Keyword:
    """The engine's keyword index, answered by SQL and the source's cached rows."""

    def __init__(self, source: DatabaseCandidates) -> None:
        self._source = source

    def __len__(self) -> int:
        return self._source.stats.n_docs

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        return self._source.lists(k)[0]

    def score_ids(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        return self._source.bm25_of(query_tokens, ids)

    def terms_of(self, doc_id: str) -> frozenset[str]:
        return frozenset(self._source.terms(doc_id))

    def idf(self, token: str) -> float:
        return self._source.stats.idf(token)

    def document_frequency(self, token: str) -> int:
        return self._source.stats.df.get(token, 0)

    def max_idf(self) -> float:
        return self._source.stats.max_idf()


class _Vectors:
    """The engine's vector index, answered by pgvector."""

    def __init__(self, source: DatabaseCandidates) -> None:
        self._source = source

    def search(
        self, query: np.ndarray, k: int, *, allowed: Callable[[str], bool] | None = None
    ) -> list[tuple[str, float]]:
        hits = self._source.lists(k)[1]
        return [(i, s) for i, s in hits if allowed is None or allowed(i)]

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        return self._source.similarities(query, ids)
