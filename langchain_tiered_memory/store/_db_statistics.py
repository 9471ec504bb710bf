"""The planner's statistics of the search tables, refreshed after a bulk write when stale.

The search function keeps one generic plan per session for each of its statements
(`_db_function`), planned from the tables' statistics. A database loaded in bulk and searched at
once has none yet: autovacuum analyses a table about a minute after it changes, and until then
the plans assume empty tables. Measured (10,000 memories written by ``add_many`` and searched at
once, a 1,927-memory namespace, p50): 71.3 ms per search before ``ANALYZE``, 5.0 ms after.

So once per `BULK_WRITE` entries a process writes (in one write or in many), the write that
reaches it checks, at the end of its transaction, whether any search table has never been
analysed or has more than doubled since; only those are analysed (``ANALYZE`` samples a fixed
number of rows: a few hundred milliseconds at a million memories, once per doubling). Rows the
transaction itself inserted count: ``ANALYZE`` samples them as live, and its statistics are
committed with the write.
"""

from __future__ import annotations

import sqlalchemy as sa

from . import _tables as t

__all__ = ["BULK_WRITE", "refresh_statistics"]

# How many entries a process writes between two checks of the statistics (a check is one
# catalog query: every write need not pay it).
BULK_WRITE = 500

_TABLES = (t.memories, t.search_docs, t.search_postings, t.search_terms, t.search_namespaces,
           t.search_vectors)

# Never analysed (``reltuples`` is -1), or the live rows (as the statistics collector last
# counted them, plus this transaction's inserts) more than twice what the planner believes.
_STALE = sa.text("""
    SELECT c.relname FROM pg_class c
    WHERE c.oid = ANY(CAST(:names AS regclass[]))
      AND (c.reltuples < 0
           OR pg_stat_get_live_tuples(c.oid) + pg_stat_get_xact_tuples_inserted(c.oid)
              > 2 * c.reltuples + 1000)
    ORDER BY c.relname""")


def refresh_statistics(conn: sa.Connection) -> list[str]:
    """Analyse the search tables whose statistics are missing or stale (in ``conn``'s
    transaction). Returns the tables analysed."""
    names = [table.name for table in _TABLES]
    stale = [str(name) for name in conn.execute(_STALE, {"names": names}).scalars()]
    preparer = conn.dialect.identifier_preparer
    for name in stale:
        # Never waits: a table another writer or autovacuum is analysing is skipped (that
        # analysis will do), so this lock can close no cycle with the write's own locks.
        conn.exec_driver_sql(f"ANALYZE (SKIP_LOCKED) {preparer.quote(name)}")
    return stale
