"""The pushdown search as one prepared-once statement: statistics, BM25 and nearest vectors.

Building a statement of this size with SQLAlchemy Core costs more Python time than PostgreSQL
takes to run it, so it is built and compiled once per *shape* (which lists, which filters) with
named bound parameters, and each search only binds values: the namespace, the query's distinct
terms and their counts (arrays), the query vector, the filters. One round trip returns:

* the BM25 top ``k`` — idf and average length computed in SQL from ``tm_search_terms`` and
  ``tm_search_namespaces`` as the in-process index computes them (``ln(1 + x)`` here,
  ``log1p(x)`` there: the same to the last bit or two), each hit with its vector similarity;
* the exact nearest ``k`` vectors of the namespace (the caller uses the HNSW path instead for a
  namespace that has its own index, see `_db_vectors`);
* each hit's whole ``tm_memories`` row, and the statistics the engine needs (``n_docs``,
  ``total_len``, ``dfs``) and whether the namespace has a pending contradiction (``pending``),
  evaluated once per statement.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from . import _tables as t
from ._db_keyword import K1, MEMORY, B, KeywordStats

__all__ = [
    "RowFilter",
    "SearchShape",
    "bound_filter_clauses",
    "filter_clauses",
    "search_rows",
    "stats_from_row",
]

_DIALECT = PGDialect_psycopg()
# The vector list's count of pre-filter candidates (over-fetch only; NULL elsewhere).
_NO_COUNT = sa.cast(sa.null(), sa.BigInteger).label("n_inner")


class RowFilter(Protocol):
    """The recall filters (``store/_recall.py``'s ``_Filters``)."""

    tiers: set[str] | None
    types: set[str] | None
    tags: set[str]
    since: float | None
    until: float | None
    episode_id: str | None
    history: bool


@dataclass(frozen=True, slots=True)
class SearchShape:
    """What varies the statement's text: which lists, and which filters are set."""

    keyword: bool
    exact: bool
    similarity: bool
    history: bool
    tiers: bool
    types: bool
    tags: bool
    since: bool
    until: bool
    episode: bool
    overfetch: bool = False

    @staticmethod
    def of(
        filters: RowFilter, *, keyword: bool, exact: bool, similarity: bool,
        overfetch: bool = False,
    ) -> SearchShape:
        """The shape of one search."""
        return SearchShape(
            keyword, exact, similarity, filters.history, filters.tiers is not None,
            filters.types is not None, bool(filters.tags), filters.since is not None,
            filters.until is not None, filters.episode_id is not None, overfetch,
        )


def _param(name: str, type_: Any) -> Any:
    return sa.bindparam(name, type_=type_)


def filter_clauses(
    shape: SearchShape, values: dict[str, Any] | None = None
) -> list[sa.ColumnElement[bool]]:
    """The filters as conditions on ``tm_memories`` (the rules of ``_Filters.accept``).

    Without ``values`` the parameters are left for the executor to bind (the compiled
    statement); with them, they are bound now (statements built per query).
    """

    def param(name: str, type_: Any) -> Any:
        if values is None:
            return _param(name, type_)
        return sa.bindparam(name, value=values[name], type_=type_)

    m = t.memories.c
    where: list[sa.ColumnElement[bool]] = [
        m.namespace == param("ns", sa.String), m.status == "active"
    ]
    if not shape.history:
        where.append(m.superseded_by.is_(None))
    if shape.tiers:
        where.append(m.tier == sa.func.any(param("tiers", postgresql.ARRAY(sa.String))))
    if shape.types:
        where.append(m.type == sa.func.any(param("types", postgresql.ARRAY(sa.String))))
    if shape.tags:
        tags = sa.cast(param("tags", sa.String), postgresql.JSONB)
        where.append(sa.cast(m.tags, postgresql.JSONB).op("@>")(tags))
    when = sa.func.coalesce(m.event_at, m.created_at)
    if shape.since:
        where.append(when >= param("since", sa.Float))
    if shape.until:
        where.append(when < param("until", sa.Float))
    if shape.episode:
        where.append(m.episode_id == param("episode_id", sa.String))
    return where


def _stats_columns() -> list[Any]:
    tt, ns, c = t.search_terms.c, t.search_namespaces.c, t.contradictions.c
    here = (ns.namespace == _param("ns", sa.String), ns.kind == MEMORY)
    terms = _param("terms", postgresql.ARRAY(sa.Text))
    return [
        sa.select(ns.n_docs).where(*here).scalar_subquery().label("n_docs"),
        sa.select(ns.total_len).where(*here).scalar_subquery().label("total_len"),
        sa.select(sa.func.json_object_agg(tt.term, tt.df))
        .where(tt.namespace == _param("ns", sa.String), tt.kind == MEMORY,
               tt.term == sa.func.any(terms))
        .scalar_subquery()
        .label("dfs"),
        # Whether the namespace has a pending contradiction (`_lattice.PENDING`): when not, the
        # store skips the annotation's own read — a second connection and round trip per search.
        sa.exists()
        .where(c.namespace == _param("ns", sa.String),
               sa.or_(c.resolution.is_(None), c.resolution == "pending"))
        .label("pending"),
    ]


def _query_vector() -> Any:
    return sa.cast(_param("qvec", sa.String), t.PgVector())


def _keyword_part(shape: SearchShape, where: list[sa.ColumnElement[bool]]) -> sa.Select[Any]:
    p, m, tt, ns, v = (
        t.search_postings.c, t.memories.c, t.search_terms.c, t.search_namespaces.c,
        t.search_vectors.c,
    )
    here = (ns.namespace == _param("ns", sa.String), ns.kind == MEMORY)
    n_docs = sa.select(ns.n_docs).where(*here).scalar_subquery()
    total_len = sa.select(ns.total_len).where(*here).scalar_subquery()
    query = sa.func.unnest(
        sa.cast(_param("terms", postgresql.ARRAY(sa.Text)), postgresql.ARRAY(sa.Text)),
        sa.cast(_param("qtfs", postgresql.ARRAY(sa.Float)), postgresql.ARRAY(sa.Float)),
    ).table_valued("term", "qtf").render_derived(name="q")
    idf = sa.func.ln(1.0 + (n_docs - tt.df + 0.5) / (tt.df + 0.5))
    weights = (
        sa.select(tt.term, (query.c.qtf * idf).label("weight"))
        .select_from(query)
        .join(t.search_terms, sa.and_(tt.namespace == _param("ns", sa.String),
                                      tt.kind == MEMORY, tt.term == query.c.term))
        .where(tt.df > 0)
        .cte("weights")
    )
    tf = sa.cast(p.tf, sa.Float)
    avgdl = sa.cast(total_len, sa.Float) / sa.func.nullif(n_docs, 0)
    norm = K1 * (1.0 - B + B * sa.cast(p.doc_len, sa.Float) / avgdl)
    scored = (
        sa.select(p.doc_id,
                  sa.func.sum(weights.c.weight * (tf * (K1 + 1.0)) / (tf + norm)).label("score"))
        .select_from(t.search_postings)
        .join(weights, weights.c.term == p.term)
        .where(p.namespace == _param("ns", sa.String), p.kind == MEMORY,
               p.term == sa.func.any(_param("terms", postgresql.ARRAY(sa.Text))))
        .group_by(p.doc_id)
        .subquery("scored")
    )
    if shape.similarity:
        similarity: Any = (
            sa.select(-v.embedding.op("<#>")(_query_vector()))
            .where(v.owner_id == m.id, v.model_id == _param("model_id", sa.String),
                   v.dim == _param("dim", sa.Integer))
            .scalar_subquery()
        )
    else:
        similarity = sa.cast(sa.null(), sa.Float)
    if shape.overfetch:
        # The best ``over`` by score alone, then the filters' join on those only: joining every
        # matching document first costs a primary-key lookup each (most of the time in a
        # namespace of thousands). The caller checks it was enough (`search_rows`).
        scored = (
            sa.select(scored.c.doc_id, scored.c.score)
            .order_by(scored.c.score.desc(), scored.c.doc_id)
            .limit(_param("over", sa.Integer))
            .subquery("top")
        )
    ranked = (
        sa.select(m.id.label("hit_id"), similarity.label("similarity"), scored.c.score)
        .join_from(scored, t.memories, m.id == scored.c.doc_id)
        .where(*where)
        .order_by(scored.c.score.desc(), m.id)
        .limit(_param("k", sa.Integer))
        .subquery("kw")
    )
    return sa.select(ranked.c.hit_id, ranked.c.similarity, ranked.c.score,
                     sa.literal("kw").label("list"), _NO_COUNT)


def _vector_part(shape: SearchShape, where: list[sa.ColumnElement[bool]]) -> sa.Select[Any]:
    v, m = t.search_vectors.c, t.memories.c
    distance = v.embedding.op("<#>")(_query_vector())
    # No HNSW index covers this query (indexes are per large namespace, and the caller sends
    # those namespaces to the ANN path), so this is an exact scan of the namespace's vectors.
    here = (v.namespace == _param("ns", sa.String), v.kind == MEMORY,
            v.model_id == _param("model_id", sa.String), v.dim == _param("dim", sa.Integer))
    if shape.overfetch:
        cut = (
            sa.select(v.owner_id, distance.label("distance"))
            .where(*here)
            .order_by(distance, v.owner_id)
            .limit(_param("over", sa.Integer))
            .subquery("cut")
        )
        # Counted after the cut (a window over the scan would read every row twice).
        closest = sa.select(
            cut.c.owner_id, cut.c.distance, sa.func.count().over().label("n_inner")
        ).subquery("closest")
        nearest = (
            sa.select(m.id.label("hit_id"), (-closest.c.distance).label("similarity"),
                      closest.c.n_inner)
            .join_from(closest, t.memories, m.id == closest.c.owner_id)
            .where(*where)
            .order_by(closest.c.distance, closest.c.owner_id)
            .limit(_param("k", sa.Integer))
            .subquery("vec")
        )
        return sa.select(nearest.c.hit_id, nearest.c.similarity,
                         sa.cast(sa.null(), sa.Float).label("score"),
                         sa.literal("vec").label("list"), nearest.c.n_inner)
    nearest = (
        sa.select(m.id.label("hit_id"), (-distance).label("similarity"))
        .join_from(t.search_vectors, t.memories, m.id == v.owner_id)
        .where(v.namespace == _param("ns", sa.String), v.kind == MEMORY,
               v.model_id == _param("model_id", sa.String),
               v.dim == _param("dim", sa.Integer), *where)
        .order_by(distance, v.owner_id)
        .limit(_param("k", sa.Integer))
        .subquery("vec")
    )
    return sa.select(nearest.c.hit_id, nearest.c.similarity,
                     sa.cast(sa.null(), sa.Float).label("score"), sa.literal("vec").label("list"),
                     _NO_COUNT)


def filter_values(namespace: str, filters: RowFilter) -> dict[str, Any]:
    """The values of `filter_clauses`' parameters."""
    return {
        "ns": namespace,
        "tiers": sorted(filters.tiers) if filters.tiers is not None else None,
        "types": sorted(filters.types) if filters.types is not None else None,
        "tags": json.dumps(sorted(filters.tags)) if filters.tags else None,
        "since": filters.since,
        "until": filters.until,
        "episode_id": filters.episode_id,
    }


def bound_filter_clauses(namespace: str, filters: RowFilter) -> list[sa.ColumnElement[bool]]:
    """`filter_clauses` with their values bound, for statements built per query."""
    shape = SearchShape.of(filters, keyword=False, exact=False, similarity=False)
    return filter_clauses(shape, filter_values(namespace, filters))


@functools.lru_cache(maxsize=128)
def _compiled(shape: SearchShape) -> tuple[str, dict[str, Any], frozenset[str]]:
    """The statement's SQL text (pyformat parameters), its constants and parameter names."""
    where = filter_clauses(shape)
    parts = []
    if shape.keyword:
        parts.append(_keyword_part(shape, where))
    if shape.exact:
        parts.append(_vector_part(shape, where))
    m = t.memories.c
    hits = (sa.union_all(*parts) if len(parts) > 1 else parts[0]).subquery("hits")
    statement = (
        sa.select(t.memories, hits.c.similarity, hits.c.score, hits.c.list, hits.c.n_inner,
                  *_stats_columns())
        .join_from(hits, t.memories, m.id == hits.c.hit_id)
    )
    compiled = statement.compile(dialect=_DIALECT)
    constants = {k: v for k, v in compiled.params.items() if v is not None}
    return str(compiled), constants, frozenset(compiled.params)


def search_rows(
    conn: sa.Connection,
    shape: SearchShape,
    filters: RowFilter,
    *,
    namespace: str,
    tokens: Sequence[str],
    k: int,
    query_vector: str | None,
    dim: int,
    model_id: str,
    over: int = 0,
) -> list[Any]:
    """Run the search statement of ``shape``; rows carry ``list`` (``kw`` / ``vec``).

    With ``shape.overfetch`` each list ranks its best ``over`` candidates before the filters
    join; the caller must redo the search without it when a list came back short of ``k``
    while more than ``over`` candidates existed.
    """
    if not (shape.keyword or shape.exact):
        return []
    sql, constants, names = _compiled(shape)
    counts = Counter(tokens)
    terms = sorted(counts)
    values: dict[str, Any] = {
        **filter_values(namespace, filters),
        "terms": terms,
        "qtfs": [float(counts[x]) for x in terms],
        "k": k,
        "over": over,
        "qvec": query_vector,
        "dim": dim,
        "model_id": model_id,
    }
    params = {**constants, **{n: v for n, v in values.items() if n in names}}
    return list(conn.exec_driver_sql(sql, params))


def stats_from_row(row: Any) -> KeywordStats:
    """The statistics a search row carries."""
    dfs = row.dfs or {}
    return KeywordStats(int(row.n_docs or 0), int(row.total_len or 0),
                        {k: int(v) for k, v in dfs.items()})
