"""The pushdown search as one short statement: a call of the search function, joined to rows.

The work happens in the PL/pgSQL function of `_db_function` (plans cached per session); this
module binds its arguments (the namespace, the query's distinct terms and their counts as
arrays, the query vector, the filters) and joins each hit to its whole ``tm_memories`` row in
the same statement, so one round trip and one snapshot return, one row per candidate:

* the BM25 top ``k``, each hit with its vector similarity;
* the nearest ``k`` vectors of the namespace: exact, or through the namespace's own HNSW index
  once it has one (`_db_vectors`), both inside the function;
* the statistics the engine needs (``n_docs``, ``total_len``, ``dfs``) and whether the
  namespace has a pending contradiction (``pending``), on every row.

The statement is compiled once; its text stays short enough for the driver's own cache.
`bound_filter_clauses` gives the same filters as SQLAlchemy conditions for the statements still built
per query (a candidate's terms, the write-time neighbours).
"""

from __future__ import annotations

import collections
import functools
import json
import struct
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.engine.interfaces import DBAPIModule

from . import _tables as t
from ._db_function import FUNCTION, KEYWORD_DEPTH, RESULT_COLUMNS
from ._db_keyword import KeywordStats

__all__ = [
    "RowFilter",
    "SearchRow",
    "SearchShape",
    "VectorParameter",
    "bound_filter_clauses",
    "search_rows",
    "stats_from_row",
]

_DIALECT = PGDialect_psycopg()


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
    """Which lists one search wants, and whether each is cut before the filters' join."""

    keyword: bool
    exact: bool
    similarity: bool
    overfetch: bool = False
    ann: bool = False  # the vector list from the namespace's HNSW index (see `_db_vectors`)


class VectorParameter(bytes):
    """A query vector in pgvector's binary form (dimension, a zero, big-endian float4s).

    Bound as it is, the search's vector costs no text formatting (a ``%.9g`` per element, about
    0.13 ms for 384 of them) and no parsing in the server; the values are the same float32s the
    text form names exactly, so distances do not change.
    """

    __slots__ = ()

    @classmethod
    def of(cls, vector: np.ndarray) -> VectorParameter:
        values = np.asarray(vector, dtype=">f4").reshape(-1)
        return cls(struct.pack(">HH", values.shape[0], 0) + values.tobytes())


@functools.cache
def _vector_dumper() -> type[Any]:
    """psycopg's dumper of a `VectorParameter`: binary, its type left to the server (the call
    casts it to ``vector``). Imported on first use: psycopg is the PostgreSQL extra's."""
    from psycopg.adapt import Dumper
    from psycopg.pq import Format

    class _VectorDumper(Dumper):
        format = Format.BINARY
        oid = 0

        def dump(self, obj: Any) -> bytes:
            return bytes(obj)

    return _VectorDumper


# Where a pooled connection keeps the search's cursor: in the pool's record of it, whose
# ``info`` lives exactly as long as the driver connection (cleared when the pool reconnects).
_CURSOR_KEY = "tm_search_cursor"


def _search_cursor(conn: sa.Connection) -> Any:
    """The connection's search cursor, made once per driver connection.

    A fresh cursor per search set up its adapters again (dumpers for the arguments, loaders for
    the columns): about a third of the driver's own CPU per call (0.28-0.38 against 0.23-0.24
    ms, replaying 400 searches). A pooled connection serves one thread at a time, so its cursor
    does too. The connection's adapters learn `VectorParameter` when the cursor is made.
    """
    pooled = conn.connection
    driver: Any = pooled.driver_connection
    cursor: Any = pooled.info.get(_CURSOR_KEY)
    if cursor is None or cursor.closed or cursor.connection is not driver:
        driver.adapters.register_dumper(VectorParameter, _vector_dumper())
        cursor = pooled.info[_CURSOR_KEY] = driver.cursor()
    return cursor


def _param(name: str, type_: Any) -> Any:
    return sa.bindparam(name, type_=type_)


def filter_values(namespace: str, filters: RowFilter) -> dict[str, Any]:
    """The filters as the search function's arguments."""
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
    """The filters as bound conditions on ``tm_memories`` (the rules of ``_Filters.accept``).

    For the statements built per query (a candidate's terms, the write-time neighbours); the search
    function applies the same rules in SQL.
    """
    m = t.memories.c
    where: list[sa.ColumnElement[bool]] = [m.namespace == namespace, m.status == "active"]
    if not filters.history:
        where.append(m.superseded_by.is_(None))
    if filters.tiers is not None:
        where.append(m.tier.in_(sorted(filters.tiers)))
    if filters.types is not None:
        where.append(m.type.in_(sorted(filters.types)))
    if filters.tags:
        tags = sa.cast(json.dumps(sorted(filters.tags)), postgresql.JSONB)
        where.append(sa.cast(m.tags, postgresql.JSONB).op("@>")(tags))
    when = sa.func.coalesce(m.event_at, m.created_at)
    if filters.since is not None:
        where.append(when >= filters.since)
    if filters.until is not None:
        where.append(when < filters.until)
    if filters.episode_id is not None:
        where.append(m.episode_id == filters.episode_id)
    return where


_ARGUMENTS: tuple[tuple[str, Any], ...] = (
    ("ns", sa.Text),
    ("terms", postgresql.ARRAY(sa.Text)),
    ("qtfs", postgresql.ARRAY(sa.Float)),
    ("qvec", t.PgVector()),
    ("model_id", sa.Text),
    ("dim", sa.Integer),
    ("k", sa.Integer),
    ("over", sa.Integer),
    ("keyword", sa.Boolean),
    ("exact", sa.Boolean),
    ("history", sa.Boolean),
    ("tiers", postgresql.ARRAY(sa.Text)),
    ("types", postgresql.ARRAY(sa.Text)),
    ("tags", postgresql.JSONB),
    ("since", sa.Float),
    ("until", sa.Float),
    ("episode_id", sa.Text),
    ("ann", sa.Boolean),
    ("ef", sa.Integer),
    ("depth", sa.Integer),
)
_LABELS = ("id", "similarity", "score", "kw_rank", "vec_rank", "n_inner", "n_docs", "total_len",
           "dfs", "pending")


class SearchRow(tuple[Any, ...]):
    """A row of the search statement: its columns as attributes, and ``_mapping`` (like
    SQLAlchemy's ``Row``). Subclassed per statement by `_row_type` (a named tuple, so reading a
    column is an attribute lookup, not a call)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    @property
    def _mapping(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))


@functools.cache
def _row_type(names: tuple[str, ...]) -> Callable[[Iterable[Any]], SearchRow]:
    """A `SearchRow` class whose attributes are ``names``, as a maker of rows."""
    columns = collections.namedtuple("_Columns", names)  # type: ignore[misc]

    class _Row(columns, SearchRow):  # type: ignore[valid-type,misc]
        __slots__ = ()

    make: Callable[[Iterable[Any]], SearchRow] = _Row._make
    return make


@functools.cache
def _compiled() -> tuple[str, tuple[str, ...]]:
    """The call of the search function joined to the hits' rows (pyformat parameters), and the
    names of its columns in order.

    Every argument is cast, so the call resolves to the function whatever type the driver
    gives a ``None``.
    """
    call: sa.Function[Any] = sa.Function(
        FUNCTION, *[sa.cast(_param(name, type_), type_) for name, type_ in _ARGUMENTS]
    )
    hits = call.table_valued(*[sa.column(name) for name, _ in RESULT_COLUMNS]).render_derived(
        name="h"
    )
    columns = [hits.c[name].label(label) for (name, _), label in zip(RESULT_COLUMNS, _LABELS,
                                                                     strict=True)][1:]
    # Each hit's row by its key, in a lateral subquery the planner cannot flatten (``OFFSET 0``):
    # as a plain join it hashed a sequential scan of the whole table whenever the table was
    # small enough for that to look cheaper than the function's estimated rows' key probes
    # (measured: 10 of a 12 ms search in a 10,000-memory database, for a 37-memory namespace).
    row = (sa.select(t.memories).where(t.memories.c.id == hits.c.r_id)
           .offset(sa.literal_column("0")).lateral("m"))
    statement = sa.select(row, *columns).join_from(hits, row, sa.true())
    names = tuple(str(c.key) for c in statement.selected_columns)
    return str(statement.compile(dialect=_DIALECT)), names


def search_rows(
    conn: sa.Connection,
    shape: SearchShape,
    filters: RowFilter,
    *,
    namespace: str,
    tokens: Sequence[str],
    k: int,
    query_vector: VectorParameter | str | None,
    dim: int,
    model_id: str,
    over: int = 0,
    ef: int = 0,
) -> list[Any]:
    """Run the search function for ``shape``, one row per candidate.

    A row carries its rank in each list it belongs to (``kw_rank``, ``vec_rank``; ``None``
    when it is not in that list), its BM25 and similarity, and the namespace's statistics.

    With ``shape.overfetch`` each list ranks its best ``over`` candidates before the filters
    join; the caller must redo the search without it when a list came back short of ``k``
    while more than ``over`` candidates existed. With ``shape.ann`` the vector list is the
    ``ef`` nearest of the namespace's HNSW index before the filters (the caller redoes an ANN
    list that came back short as an exact one). ``query_vector`` is bound binary as a
    `VectorParameter`, or as pgvector's text form.
    """
    if not (shape.keyword or shape.exact or shape.ann):
        return []
    counts = Counter(tokens)
    terms = sorted(counts)
    values: dict[str, Any] = {
        **filter_values(namespace, filters),
        "terms": terms,
        "qtfs": [float(counts[x]) for x in terms],
        "qvec": query_vector if shape.similarity else None,
        "model_id": model_id,
        "dim": dim,
        "k": k,
        "over": over if shape.overfetch else None,
        "keyword": shape.keyword,
        "exact": shape.exact,
        "history": filters.history,
        "ann": shape.ann,
        "ef": ef,
        # Only a list cut at ``over`` may read a common term's best postings alone.
        "depth": max(KEYWORD_DEPTH, 4 * over) if shape.overfetch else None,
    }
    sql, names = _compiled()
    # On the driver's cursor: the search is the store's hottest statement, and SQLAlchemy's
    # result set-up (its column metadata, per execution) cost more than the rows' own decoding.
    # Errors still go through SQLAlchemy's translation (and a dropped connection is invalidated,
    # so the pool replaces it), as `db_errors` expects.
    driver_error: type[DBAPIModule.Error] = conn.dialect.loaded_dbapi.Error
    try:
        cursor = _search_cursor(conn)
        # Rows come back in binary: numbers are copied, not parsed from text (PostgreSQL's text
        # form of a float8 is exact, so the values are the same either way).
        cursor.execute(sql, values, binary=True)
        make = _row_type(names)
        return [make(row) for row in cursor.fetchall()]
    except driver_error as error:
        raise _translated(conn, sql, values, error, driver_error) from error


def _translated(
    conn: sa.Connection,
    sql: str,
    values: dict[str, Any],
    error: DBAPIModule.Error,
    driver_error: type[DBAPIModule.Error],
) -> sa.exc.StatementError:
    """SQLAlchemy's exception for a driver error, the connection invalidated if it broke."""
    broken = conn.dialect.is_disconnect(error, conn.connection.dbapi_connection, None)
    if broken:
        conn.invalidate(error)
    return sa.exc.DBAPIError.instance(
        sql, values, error, driver_error, connection_invalidated=broken, dialect=conn.dialect
    )


def stats_from_row(row: Any) -> KeywordStats:
    """The statistics a search row carries."""
    dfs = row.dfs or {}
    if isinstance(dfs, str):  # the search function's rows carry it as text
        dfs = json.loads(dfs)
    return KeywordStats(int(row.n_docs or 0), int(row.total_len or 0),
                        {k: int(v) for k, v in dfs.items()})
