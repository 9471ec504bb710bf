"""BM25 in PostgreSQL: postings and per-namespace term statistics, kept in the writer's transaction.

The scores are those of the in-process `KeywordIndex`, to the last bit that float64 summation
order allows: Okapi BM25 with Lucene's never-negative idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``,
k1 = 1.2, b = 0.75, over the namespace's live (``status = 'active'``) entries, a document's
length being its token count. Three tables carry it (``store/_tables.py``):

* ``tm_search_docs`` — one row per indexed entry (or episode): namespace and length;
* ``tm_search_postings`` — one row per (entry, distinct term) with the term frequency and the
  document length, keyed ``(namespace, kind, term, doc_id)`` so a query reads only its terms;
* ``tm_search_terms`` / ``tm_search_namespaces`` — document frequency per term and
  ``(N, total length)`` per namespace, updated by deltas.

`_db_sync.sync_postings` keeps them current: it is called with the ids a write touched, inside
that write's transaction; it deletes what the entries had, re-reads them from ``tm_memories``
and adds what they have now, so inserts, content edits, status changes and deletes all go
through one path. Writers hold the store's advisory write lock, so the delta updates never race.

Episodes live in the same tables under ``kind = 'episode'`` (`EPISODE`): every episode of a
namespace, EPISODIC or ARCHIVAL, is one document, as in the in-process episode index. Each
function takes the ``kind``; memory is the default.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from . import _tables as t

__all__ = [
    "EPISODE",
    "K1",
    "B",
    "KeywordStats",
    "bm25_search",
    "bm25_select",
    "read_stats",
    "score_terms",
]

# The in-process index's defaults (`retrieval.keyword.KeywordIndex`).
K1 = 1.2
B = 0.75
MEMORY = "memory"
EPISODE = "episode"
_CHUNK = 500


@dataclass(frozen=True, slots=True)
class KeywordStats:
    """A namespace's BM25 statistics as one query needs them.

    Attributes:
        n_docs: Live documents in the namespace.
        total_len: Their summed token counts.
        df: Document frequency of each query token (0 when absent).
    """

    n_docs: int
    total_len: int
    df: Mapping[str, int]

    @property
    def avgdl(self) -> float:
        """Average document length (1.0 for an empty namespace, as the in-process index)."""
        return (self.total_len / self.n_docs) if self.n_docs else 1.0

    def idf(self, token: str) -> float:
        """Lucene's non-negative idf; 0 for a token in no live document."""
        df = self.df.get(token, 0)
        if df <= 0:
            return 0.0
        return math.log1p((self.n_docs - df + 0.5) / (df + 0.5))

    def max_idf(self) -> float:
        """The idf of a token found in exactly one document."""
        return math.log1p((self.n_docs - 0.5) / 1.5) if self.n_docs else 0.0


def read_stats(
    conn: sa.Connection, namespace: str, tokens: Iterable[str], *, kind: str = MEMORY
) -> KeywordStats:
    """N, total length and the document frequencies of ``tokens`` in one namespace."""
    ns, terms = t.search_namespaces.c, t.search_terms.c
    # One round trip: the namespace row, joined to the query's terms that it has.
    rows = conn.execute(
        sa.select(ns.n_docs, ns.total_len, terms.term, terms.df)
        .select_from(t.search_namespaces)
        .outerjoin(
            t.search_terms,
            sa.and_(
                terms.namespace == ns.namespace,
                terms.kind == ns.kind,
                terms.term.in_(sorted(set(tokens))),
            ),
        )
        .where(ns.namespace == namespace, ns.kind == kind)
    ).all()
    if not rows:
        return KeywordStats(0, 0, {})
    df = {r.term: int(r.df) for r in rows if r.term is not None}
    return KeywordStats(int(rows[0].n_docs), int(rows[0].total_len), df)


def score_terms(tokens: Sequence[str], doc_terms: Sequence[str], stats: KeywordStats) -> float:
    """BM25 of one document (its full token list) for a query, as `KeywordIndex` scores it."""
    if not stats.n_docs:
        return 0.0
    tf_of = Counter(doc_terms)
    norm = K1 * (1.0 - B + B * len(doc_terms) / stats.avgdl)
    score = 0.0
    for term, qtf in Counter(tokens).items():
        tf = tf_of.get(term, 0)
        idf = stats.idf(term)
        if tf and idf:
            score += (qtf * idf) * (tf * (K1 + 1.0) / (tf + norm))
    return score


def bm25_search(
    conn: sa.Connection,
    namespace: str,
    tokens: Sequence[str],
    stats: KeywordStats,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
    *,
    kind: str = MEMORY,
) -> list[Any]:
    """Run `bm25_select` (no rows when no query token is in the namespace)."""
    query = bm25_select(namespace, tokens, stats, limit, where, columns, kind=kind)
    return [] if query is None else list(conn.execute(query))


def bm25_select(
    namespace: str,
    tokens: Sequence[str],
    stats: KeywordStats,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
    *,
    kind: str = MEMORY,
) -> sa.Select[Any] | None:
    """The ``limit`` best entries matching a query token and the filters ``where``.

    Args:
        namespace: Whose entries.
        tokens: The query tokens (repeats weigh the term that many times).
        stats: The namespace's statistics for these tokens (`read_stats`).
        limit: How many rows at most.
        where: Conditions on ``tm_memories`` (status, tiers, tags...), or on ``tm_episodes``.
        columns: Columns of that table to return beside the score (labelled ``score``).
        kind: ``memory`` or ``episode`` (`EPISODE`): which documents, joined to which table.

    Returns:
        A query for rows with ``columns`` and ``score``, best first (ties by id); ``None``
        when no query token is in the namespace.
    """
    weights = {
        term: qtf * stats.idf(term)
        for term, qtf in Counter(tokens).items()
        if stats.idf(term) > 0.0
    }
    if not weights or limit <= 0:
        return None
    p = t.search_postings.c
    table = t.episodes if kind == EPISODE else t.memories
    tf = sa.cast(p.tf, sa.Float)
    norm = K1 * (1.0 - B + B * sa.cast(p.doc_len, sa.Float) / stats.avgdl)
    weight = sa.case(weights, value=p.term, else_=0.0)
    scored = (
        sa.select(p.doc_id, sa.func.sum(weight * (tf * (K1 + 1.0)) / (tf + norm)).label("score"))
        .where(p.namespace == namespace, p.kind == kind, p.term.in_(sorted(weights)))
        .group_by(p.doc_id)
        .subquery("scored")
    )
    return (
        sa.select(*columns, scored.c.score)
        .join_from(scored, table, table.c.id == scored.c.doc_id)
        .where(*where)
        .order_by(scored.c.score.desc(), table.c.id)
        .limit(limit)
    )
