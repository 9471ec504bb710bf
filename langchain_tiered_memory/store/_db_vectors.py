"""Vectors in pgvector: a mirror of ``tm_vectors`` and the search strategy over it.

``tm_vectors`` stays the store's record (bytes tagged with the embedding ``model_id``, the
re-embed queue works on it unchanged); ``tm_search_vectors`` mirrors its rows as pgvector
``vector`` values, synced in the same transaction as each write (`sync_vectors`).

Why not one HNSW index over the whole table: pgvector 0.6 has no iterative index scans. An
HNSW scan yields at most ``hnsw.ef_search`` (≤ 1,000) rows and the namespace filter is applied
after it, so a namespace holding 0.1 % of a million vectors would get about one row back instead
of k. The strategy, per namespace, chosen by its live-entry count:

* **below** ``ann_min_rows`` (default 5,000): an exact scan. The ``(namespace, kind, model_id,
  dim)`` B-tree finds the namespace's rows and they are sorted by inner product; no HNSW index
  can serve the query (there is no global one), so it is exact and returns k whenever k exist.
  Measured (384-d, one statement each, p50): exact 6.4 / 13.2 / 28.4 ms at 1,051 / 2,453 / 7,360
  rows, HNSW 8.2 / 9.6 / 8.1 ms (measured when the ANN scan was a second statement beside the
  keyword one; it now runs inside the search function, `_db_function`), so it pays from about
  5,000 rows.
* **at or above** it: a partial HNSW index for that namespace alone
  (``WHERE namespace = '…' AND kind = 'memory' AND dim = d``, on ``embedding::vector(d)``),
  built when a write brings the namespace over the threshold. The scan then walks only that
  namespace's graph, so ``hnsw.ef_search`` rows all belong to it; ``ef_search`` is set to
  ``max(ann_min_ef, 2 × wanted)`` for the query (recall against exact ≥ 0.95 on sentence
  vectors, tested; `benchmarks/ann_recall.py` prints it by width). The
  outer query applies the caller's filters; if they leave fewer than wanted, the search is
  redone exactly, so a filtered search still returns k when k exist.

The search's own ANN scan is dynamic SQL inside the search function, planned per call with the
namespace as a literal. `vector_search` (the write-time neighbours, `_db_neighbours`) forces
custom plans (``plan_cache_mode``) so a prepared statement never falls back to a generic plan
that cannot prove the partial index's namespace predicate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from . import _tables as t

__all__ = [
    "ann_index_exists",
    "ann_index_name",
    "ann_index_names",
    "ensure_ann_index",
    "ensure_vectors_inline",
    "exact_select",
    "query_literal",
    "similarities",
    "sync_vectors",
    "vector_search",
    "vectors_inline",
]

_CHUNK = 500
MEMORY = "memory"
# How each column of ``tm_search_vectors`` is stored (``pg_attribute.attstorage``): see
# `vectors_inline`. The key columns are short and bounded (at most 255 characters).
_STORAGE = {"owner_id": "PLAIN", "namespace": "PLAIN", "kind": "PLAIN", "model_id": "PLAIN",
            "embedding": "MAIN"}
_SET_INLINE = f"ALTER TABLE {t.search_vectors.name} " + ", ".join(
    f"ALTER COLUMN {column} SET STORAGE {storage}" for column, storage in _STORAGE.items())


def vectors_inline(conn: sa.Connection) -> bool:
    """Whether new rows of ``tm_search_vectors`` stay whole in the table (no TOAST).

    The default storage moves a value out of a row over about 2 kB (a vector of more than
    about 500 dimensions): the vector (``vector`` is ``EXTERNAL``), or with the vector kept
    in the row (``MAIN``), the next largest value, the 36-character owner id. The exact scan
    of a namespace then reads each hit through the TOAST index and table. With the vector
    ``MAIN`` and the short keys ``PLAIN`` a row stays whole while it fits a page (up to about
    2,000 dimensions). Measured (30,000 rows, 36-character ids, 500 per namespace
    interleaved, top 30 of one namespace, p50): 768-d 7.65 ms by default, 4.20 with the vector
    ``MAIN`` alone, 3.38 with the keys ``PLAIN`` too (1,843 -> 502 buffers); 1,536-d 11.67 /
    6.00 / 5.24 ms. A 384-d row fits either way (0.99 / 0.88 ms).
    """
    a = sa.table("pg_attribute", sa.column("attrelid"), sa.column("attname"),
                 sa.column("attstorage"))
    rows = conn.execute(
        sa.select(a.c.attname, a.c.attstorage).where(
            a.c.attrelid == sa.cast(t.search_vectors.name, postgresql.REGCLASS),
            a.c.attname.in_(sorted(_STORAGE)),
        )
    ).all()
    found = {str(name): str(storage) for name, storage in rows}
    return all(found.get(column) == storage[0].lower() for column, storage in _STORAGE.items())


def ensure_vectors_inline(conn: sa.Connection) -> None:
    """Keep the rows of ``tm_search_vectors`` written from now on whole (`vectors_inline`).

    Rows written before keep their TOASTed values until rewritten (a re-embedding rewrites
    them); the setting costs no rewrite of the table.
    """
    if not vectors_inline(conn):
        conn.exec_driver_sql(_SET_INLINE)


def query_literal(vector: np.ndarray) -> str:
    """A vector's text form, as bound for pgvector."""
    return t.vector_text(vector)


def sync_vectors(conn: sa.Connection, ids: Iterable[str]) -> set[tuple[str, int]]:
    """Make the pgvector rows of ``ids`` match their ``tm_vectors`` rows (same transaction).

    Returns:
        The (namespace, dimension) pairs of the memory vectors written.
    """
    id_list = sorted(set(ids))
    v, s = t.vectors.c, t.search_vectors.c
    written: set[tuple[str, int]] = set()
    for start in range(0, len(id_list), _CHUNK):
        chunk = id_list[start : start + _CHUNK]
        conn.execute(sa.delete(t.search_vectors).where(s.owner_id.in_(chunk)))
        rows = [
            {
                "owner_id": r.owner_id,
                "namespace": r.namespace,
                "kind": r.kind,
                "model_id": r.model_id,
                "dim": r.dim,
                "embedding": query_literal(np.frombuffer(r.vector, dtype=np.float32)),
            }
            for r in conn.execute(
                sa.select(v.owner_id, v.namespace, v.kind, v.model_id, v.dim, v.vector).where(
                    v.owner_id.in_(chunk)
                )
            )
        ]
        if rows:
            conn.execute(sa.insert(t.search_vectors), rows)
        written.update((r["namespace"], int(r["dim"])) for r in rows if r["kind"] == "memory")
    return written


def ann_index_name(namespace: str, dim: int) -> str:
    """The partial HNSW index of one namespace and dimension (a digest: names are ≤ 63 bytes)."""
    digest = hashlib.sha1(namespace.encode("utf-8")).hexdigest()[:20]
    return f"ix_tm_search_ann_{dim}_{digest}"


def ann_index_exists(conn: sa.Connection, namespace: str, dim: int) -> bool:
    """Whether the namespace's partial HNSW index for ``dim`` has been built."""
    found: object = conn.execute(
        sa.select(sa.literal_column("1"))
        .select_from(sa.table("pg_indexes", sa.column("indexname")))
        .where(sa.column("indexname") == ann_index_name(namespace, dim))
    ).scalar()
    return found is not None


def ann_index_names(conn: sa.Connection) -> set[str]:
    """Names of every per-namespace HNSW index of the search tables."""
    name: sa.ColumnClause[str] = sa.column("indexname")
    return set(
        conn.execute(
            sa.select(name)
            .select_from(sa.table("pg_indexes", name, sa.column("tablename")))
            .where(sa.column("tablename") == t.search_vectors.name,
                   name.startswith("ix_tm_search_ann_"))
        ).scalars()
    )


def ensure_ann_index(conn: sa.Connection, namespace: str, dim: int) -> None:
    """Build the namespace's partial HNSW index for ``dim`` unless it exists."""
    s = t.search_vectors.c
    index = sa.Index(
        ann_index_name(namespace, dim),
        sa.cast(s.embedding, t.PgVector(dim)).label("embedding_d"),
        postgresql_using="hnsw",
        postgresql_ops={"embedding_d": "vector_ip_ops"},
        # Rendered as literals by the DDL compiler (quoted and escaped): a predicate the
        # planner can prove must name the namespace itself.
        postgresql_where=sa.and_(s.namespace == namespace, s.kind == MEMORY, s.dim == dim),
    )
    # An Index attaches itself to its table; detached, the schema's ``create_all`` never sees it.
    t.search_vectors.indexes.discard(index)
    conn.execute(sa.schema.CreateIndex(index, if_not_exists=True))


def vector_search(
    conn: sa.Connection,
    namespace: str,
    model_id: str,
    query: np.ndarray,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
    *,
    ann: bool,
    ann_min_ef: int,
) -> list[Any]:
    """The ``limit`` entries nearest ``query`` (inner product of unit vectors = cosine).

    Args:
        conn: The search's read transaction.
        namespace: Whose entries.
        model_id: Only vectors of this embedding model (others wait in the re-embed queue).
        query: The query's unit vector.
        limit: How many rows at most.
        where: Conditions on ``tm_memories``.
        columns: ``tm_memories`` columns to return beside ``similarity``.
        ann: Use the namespace's partial HNSW index (it must exist).
        ann_min_ef: Smallest ``hnsw.ef_search`` for an ANN scan.

    Returns:
        Rows with ``columns`` and ``similarity``, best first.
    """
    if limit <= 0:
        return []
    dim = int(query.shape[-1])
    literal = query_literal(query)
    if ann and limit <= 500:
        ef = max(ann_min_ef, 2 * limit)
        rows = _ann(conn, namespace, model_id, literal, dim, limit, ef, where, columns)
        if len(rows) >= limit:
            return rows
        # Filters (status, tiers, tags, another model's rows) took more than the slack: exact.
    return _exact(conn, namespace, model_id, literal, dim, limit, where, columns)


def similarities(
    conn: sa.Connection,
    namespace: str,
    model_id: str,
    query: np.ndarray,
    ids: Sequence[str],
    *,
    kind: str = MEMORY,
) -> dict[str, float]:
    """Similarity of ``query`` to each of ``ids`` (memories, or episodes for ``kind =
    'episode'``) that has a vector of this model."""
    if not ids:
        return {}
    s = t.search_vectors.c
    dim = int(query.shape[-1])
    sim = -s.embedding.op("<#>")(sa.cast(query_literal(query), t.PgVector()))
    rows = conn.execute(
        sa.select(s.owner_id, sim.label("similarity")).where(
            s.owner_id.in_(list(ids)),
            s.namespace == namespace,
            s.kind == kind,
            s.model_id == model_id,
            s.dim == dim,
        )
    )
    return {r.owner_id: float(r.similarity) for r in rows}


def _exact(
    conn: sa.Connection,
    namespace: str,
    model_id: str,
    literal: str,
    dim: int,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
) -> list[Any]:
    return list(conn.execute(exact_select(namespace, model_id, literal, dim, limit, where, columns)))


def exact_select(
    namespace: str,
    model_id: str,
    literal: str,
    dim: int,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
) -> sa.Select[Any]:
    """An exact nearest-neighbour query (``literal``: the query vector's text form)."""
    s, m = t.search_vectors.c, t.memories.c
    distance = s.embedding.op("<#>")(sa.cast(literal, t.PgVector()))
    return (
        sa.select(*columns, (-distance).label("similarity"))
        .join_from(t.search_vectors, t.memories, m.id == s.owner_id)
        .where(
            s.namespace == namespace,
            s.kind == MEMORY,
            s.model_id == model_id,
            s.dim == dim,
            *where,
        )
        .order_by(distance, s.owner_id)
        .limit(limit)
    )


def _ann(
    conn: sa.Connection,
    namespace: str,
    model_id: str,
    literal: str,
    dim: int,
    limit: int,
    ef: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
) -> list[Any]:
    settings = {
        "hnsw.ef_search": str(min(ef, 1000)),
        "plan_cache_mode": "force_custom_plan",
        # Without this the planner may prefer the namespace B-tree plus a sort for a namespace
        # it believes small (stale statistics): exact, but not the scan this path is for.
        "enable_sort": "off",
    }
    before = _configure(conn, settings)
    try:
        return _ann_query(conn, namespace, model_id, literal, dim, ef, limit, where, columns)
    finally:
        _configure(conn, before)


def _configure(conn: sa.Connection, settings: dict[str, str]) -> dict[str, str]:
    """Set settings on this connection in one round trip; return their previous values.

    Session-wide (the search runs in autocommit mode, so ``SET LOCAL`` would not outlive its
    statement); the caller restores them before the connection goes back to the pool.
    """
    names = sorted(settings)
    row = conn.execute(
        sa.select(
            *[sa.func.current_setting(n).label(f"old{i}") for i, n in enumerate(names)],
            *[sa.func.set_config(n, settings[n], False).label(f"new{i}")
              for i, n in enumerate(names)],
        )
    ).one()
    return {n: str(row[i]) for i, n in enumerate(names)}


def _ann_query(
    conn: sa.Connection,
    namespace: str,
    model_id: str,
    literal: str,
    dim: int,
    ef: int,
    limit: int,
    where: Sequence[sa.ColumnElement[bool]],
    columns: Sequence[Any],
) -> list[Any]:
    s, m = t.search_vectors.c, t.memories.c
    distance = sa.cast(s.embedding, t.PgVector(dim)).op("<#>")(sa.cast(literal, t.PgVector(dim)))
    # The inner scan must be the index's: its WHERE is exactly the index predicate, its ORDER
    # BY the index expression. The caller's filters apply outside, on at most ``ef`` rows.
    nearest = (
        sa.select(s.owner_id, s.model_id, distance.label("distance"))
        .where(s.namespace == namespace, s.kind == MEMORY, s.dim == dim)
        .order_by(distance)
        .limit(min(ef, 1000))
        .subquery("nearest")
    )
    query = (
        sa.select(*columns, (-nearest.c.distance).label("similarity"))
        .join_from(nearest, t.memories, m.id == nearest.c.owner_id)
        .where(nearest.c.model_id == model_id, *where)
        .order_by(nearest.c.distance, nearest.c.owner_id)
        .limit(limit)
    )
    return list(conn.execute(query))
