"""Episode search pushed down to PostgreSQL + pgvector: upkeep and a `CandidateSource`.

Episodes share the memory search tables under ``kind = 'episode'``: postings and term statistics
(`_db_keyword`, every episode of the namespace, EPISODIC or ARCHIVAL, as the in-process episode
index holds) and the pgvector mirror of their ``tm_vectors`` rows (`_db_vectors.sync_vectors`,
which copies any kind). Each write path that stores episodes or their vectors calls
`sync_episodes` in its transaction (`StoreContext.episodes_changed`); enabling pushdown on a
database that already has episodes back-fills them (`backfill_episodes`).

`EpisodeCandidates` hands the one recall engine the two lists with plain statements in one
``REPEATABLE READ`` snapshot (a concurrent write is seen whole or not at all, like the lock of the
in-process index). The vector list is an exact scan of the namespace's episode vectors: episodes
are one per conversation, far fewer than memories, and the retention budget keeps most of them
ARCHIVAL rather than numerous and live.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import sqlalchemy as sa

from . import _tables as t
from ._db import db_errors
from ._db_keyword import EPISODE, KeywordStats, bm25_search, read_stats, score_terms
from ._db_sync import sync_postings
from ._db_vectors import query_literal, similarities, sync_vectors

__all__ = ["EpisodeCandidates", "backfill_episodes", "episode_candidates", "sync_episodes"]

_BACKFILL_CHUNK = 2_000


def sync_episodes(conn: sa.Connection, ids: Iterable[str]) -> None:
    """Bring the search rows of episodes ``ids`` in line with ``tm_episodes`` / ``tm_vectors``.

    Call it in the transaction that wrote them: a rollback then drops both together.
    """
    id_list = sorted(set(ids))
    if id_list:
        sync_postings(conn, id_list, kind=EPISODE)
        sync_vectors(conn, id_list)


def backfill_episodes(conn: sa.Connection) -> int:
    """Index every existing episode (pushdown enabled on a database that has some)."""
    e = t.episodes.c
    ids = list(conn.execute(sa.select(e.id).order_by(e.id)).scalars())
    for start in range(0, len(ids), _BACKFILL_CHUNK):
        sync_episodes(conn, ids[start : start + _BACKFILL_CHUNK])
    return len(ids)


@contextlib.contextmanager
def episode_candidates(
    engine: sa.Engine, namespace: str, *, model_id: str, tokens: Sequence[str]
) -> Iterator[EpisodeCandidates]:
    """A `CandidateSource` over one namespace's episodes for one query, valid inside the ``with``.

    Args:
        engine: The store's PostgreSQL engine.
        namespace: Whose episodes.
        model_id: The embedding model whose vectors are searched.
        tokens: The query's tokens.
    """
    with (
        db_errors("search episodes"),
        engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn,
        conn.begin(),
    ):
        yield EpisodeCandidates(conn, namespace, model_id=model_id, tokens=tokens)


class EpisodeCandidates:
    """One query's `CandidateSource` over a namespace's episodes, read from PostgreSQL.

    Args:
        conn: A connection in a snapshot transaction.
        namespace: Whose episodes.
        model_id: The embedding model whose vectors are searched.
        tokens: The query's tokens (the statistics are read for them).
    """

    def __init__(
        self, conn: sa.Connection, namespace: str, *, model_id: str, tokens: Sequence[str]
    ) -> None:
        self.conn = conn
        self.namespace = namespace
        self.model_id = model_id
        self.tokens = list(tokens)
        self._stats: KeywordStats | None = None
        self._terms: dict[str, list[str]] = {}
        self.keyword = _Keyword(self)
        self.vectors = _Vectors(self)
        self.lock: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()

    @property
    def stats(self) -> KeywordStats:
        """The namespace's episode statistics for the query's tokens (read once)."""
        if self._stats is None:
            self._stats = read_stats(self.conn, self.namespace, self.tokens, kind=EPISODE)
        return self._stats

    def bm25(self, tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        """The top-``k`` episodes by BM25, best first (ties by id)."""
        e = t.episodes.c
        stats = self.stats if list(tokens) == self.tokens else read_stats(
            self.conn, self.namespace, tokens, kind=EPISODE)
        rows = bm25_search(self.conn, self.namespace, tokens, stats, k, [], [e.id, e.terms],
                           kind=EPISODE)
        self._remember(rows)
        return [(r.id, float(r.score)) for r in rows]

    def nearest(self, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The ``k`` episodes nearest ``query`` (an exact scan), best first (ties by id)."""
        if k <= 0:
            return []
        s, e = t.search_vectors.c, t.episodes.c
        distance = s.embedding.op("<#>")(sa.cast(query_literal(query), t.PgVector()))
        rows = self.conn.execute(
            sa.select(e.id, e.terms, (-distance).label("similarity"))
            .join_from(t.search_vectors, t.episodes, e.id == s.owner_id)
            .where(
                s.namespace == self.namespace,
                s.kind == EPISODE,
                s.model_id == self.model_id,
                s.dim == int(query.shape[-1]),
            )
            .order_by(distance, s.owner_id)
            .limit(k)
        ).all()
        self._remember(rows)
        return [(r.id, float(r.similarity)) for r in rows]

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        """Similarity of ``query`` to each of ``ids`` that has a vector of the model."""
        wanted = list(ids)
        return similarities(self.conn, self.namespace, self.model_id, query, wanted,
                            kind=EPISODE) if wanted else {}

    def terms(self, ids: Iterable[str]) -> dict[str, list[str]]:
        """The token lists of episodes (read for those neither list returned)."""
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in self._terms]
        if missing:
            e = t.episodes.c
            self._remember(self.conn.execute(sa.select(e.id, e.terms).where(
                e.id.in_(missing), e.namespace == self.namespace)).all())
        return {i: self._terms[i] for i in wanted if i in self._terms}

    def _remember(self, rows: Iterable[Any]) -> None:
        for row in rows:
            self._terms.setdefault(row.id, row.terms.split())


class _Keyword:
    """The engine's keyword index over episodes, answered by SQL."""

    def __init__(self, source: EpisodeCandidates) -> None:
        self._source = source

    def __len__(self) -> int:
        return self._source.stats.n_docs

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        return self._source.bm25(query_tokens, k)

    def score_ids(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        src = self._source
        return {i: score_terms(query_tokens, terms, src.stats)
                for i, terms in src.terms(ids).items()}

    def terms_of(self, doc_id: str) -> frozenset[str]:
        return frozenset(self._source.terms([doc_id]).get(doc_id, ()))

    def idf(self, token: str) -> float:
        return self._source.stats.idf(token)

    def document_frequency(self, token: str) -> int:
        return self._source.stats.df.get(token, 0)

    def max_idf(self) -> float:
        return self._source.stats.max_idf()


class _Vectors:
    """The engine's vector index over episodes, answered by pgvector."""

    def __init__(self, source: EpisodeCandidates) -> None:
        self._source = source

    def search(
        self, query: np.ndarray, k: int, *, allowed: Callable[[str], bool] | None = None
    ) -> list[tuple[str, float]]:
        hits = self._source.nearest(query, k)
        return [(i, s) for i, s in hits if allowed is None or allowed(i)]

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        return self._source.similarities(query, ids)
