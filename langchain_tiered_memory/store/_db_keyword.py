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

`sync_postings` is called with the ids a write touched, inside that write's transaction: it
deletes what the entries had, re-reads them from ``tm_memories`` and adds what they have now, so
inserts, content edits, status changes and deletes all go through one path. Writers hold the
store's advisory write lock, so the delta updates never race.

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
from sqlalchemy.dialects import postgresql

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
    "sync_postings",
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


def _documents(kind: str, chunk: Sequence[str]) -> sa.Select[Any]:
    """``(id, namespace, terms)`` of the documents among ``chunk``: live memories, or episodes."""
    if kind == EPISODE:
        e = t.episodes.c
        return sa.select(e.id, e.namespace, e.terms).where(e.id.in_(chunk))
    m = t.memories.c
    return sa.select(m.id, m.namespace, m.terms).where(m.id.in_(chunk), m.status == "active")


def sync_postings(conn: sa.Connection, ids: Iterable[str], *, kind: str = MEMORY) -> set[str]:
    """Make the postings and statistics of ``ids`` match their ``tm_memories`` rows now
    (``tm_episodes`` rows for ``kind = 'episode'``).

    Call it in the transaction that changed the rows. Returns the namespaces whose document
    count changed.
    """
    id_list = sorted(set(ids))
    doc_delta: Counter[str] = Counter()
    len_delta: Counter[str] = Counter()
    df_delta: Counter[tuple[str, str]] = Counter()
    d, p = t.search_docs.c, t.search_postings.c
    for start in range(0, len(id_list), _CHUNK):
        chunk = id_list[start : start + _CHUNK]
        for ns, length in conn.execute(
            sa.delete(t.search_docs)
            .where(d.doc_id.in_(chunk), d.kind == kind)
            .returning(d.namespace, d.length)
        ):
            doc_delta[ns] -= 1
            len_delta[ns] -= length
        for ns, term in conn.execute(
            sa.delete(t.search_postings)
            .where(p.doc_id.in_(chunk), p.kind == kind)
            .returning(p.namespace, p.term)
        ):
            df_delta[(ns, term)] -= 1
        docs: list[dict[str, Any]] = []
        postings: list[dict[str, Any]] = []
        for doc_id, ns, terms in conn.execute(_documents(kind, chunk)):
            tokens = terms.split()
            docs.append({"doc_id": doc_id, "namespace": ns, "kind": kind, "length": len(tokens)})
            doc_delta[ns] += 1
            len_delta[ns] += len(tokens)
            for term, tf in Counter(tokens).items():
                postings.append(
                    {"namespace": ns, "kind": kind, "term": term, "doc_id": doc_id, "tf": tf,
                     "doc_len": len(tokens)}
                )
                df_delta[(ns, term)] += 1
        if docs:
            conn.execute(sa.insert(t.search_docs), docs)
        if postings:
            conn.execute(sa.insert(t.search_postings), postings)
    _apply_deltas(conn, kind, doc_delta, len_delta, df_delta)
    return {ns for ns, delta in doc_delta.items() if delta}


def _apply_deltas(
    conn: sa.Connection,
    kind: str,
    doc_delta: Counter[str],
    len_delta: Counter[str],
    df_delta: Counter[tuple[str, str]],
) -> None:
    changed = [
        {"namespace": ns, "kind": kind, "n_docs": doc_delta[ns], "total_len": len_delta[ns]}
        for ns in sorted(set(doc_delta) | set(len_delta))
        if doc_delta[ns] or len_delta[ns]
    ]
    if changed:
        ins = postgresql.insert(t.search_namespaces)
        conn.execute(
            ins.on_conflict_do_update(
                index_elements=["namespace", "kind"],
                set_={
                    "n_docs": t.search_namespaces.c.n_docs + ins.excluded.n_docs,
                    "total_len": t.search_namespaces.c.total_len + ins.excluded.total_len,
                },
            ),
            changed,
        )
    terms = [
        {"namespace": ns, "kind": kind, "term": term, "df": delta}
        for (ns, term), delta in sorted(df_delta.items())
        if delta
    ]
    if not terms:
        return
    ins_t = postgresql.insert(t.search_terms)
    conn.execute(
        ins_t.on_conflict_do_update(
            index_elements=["namespace", "kind", "term"],
            set_={"df": t.search_terms.c.df + ins_t.excluded.df},
        ),
        terms,
    )
    # A term no live document holds any more leaves the vocabulary (it would count as df 0).
    gone: dict[str, list[str]] = {}
    for (ns, term), delta in df_delta.items():
        if delta < 0:
            gone.setdefault(ns, []).append(term)
    tc = t.search_terms.c
    for ns, words in sorted(gone.items()):
        for start in range(0, len(words), _CHUNK):
            conn.execute(
                sa.delete(t.search_terms).where(
                    tc.namespace == ns,
                    tc.kind == kind,
                    tc.term.in_(sorted(words[start : start + _CHUNK])),
                    tc.df <= 0,
                )
            )
