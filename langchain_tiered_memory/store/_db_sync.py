"""Keeping the BM25 tables current on writes: one PL/pgSQL call per write, not one per step.

A write's sync deletes what its entries had in ``tm_search_docs`` / ``tm_search_postings``,
re-reads them from ``tm_memories`` (or ``tm_episodes``), inserts what they have now and applies
the deltas to ``tm_search_namespaces`` / ``tm_search_terms``. Sent statement by statement that
was seven or eight round trips per write, a third of a checked ``add``'s statements (counted at
the driver: 25 per add). Inside a function it is one.

The function splits the stored ``terms`` on single spaces: they are `text.tokenize`'s tokens
(word characters or CJK runs, never whitespace) joined by one space, so this is the Python
``terms.split()`` the in-process index uses. Each step is its own statement because rows
deleted and re-inserted under the same key must be deleted first, an order the sub-statements
of one ``WITH`` do not guarantee. Deltas are applied in (namespace, term) order, so concurrent
writers lock rows in one order. The function is named by a hash of its body, like the search
function, so two releases can share a database.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import sqlalchemy as sa

from ._db import function_exists

__all__ = ["SYNC_FUNCTION", "ensure_sync_function", "has_sync_function", "sync_postings"]

# The documents ``p_ids`` are now: live memories, or episodes; their tokens as an array.
_SOURCE = """
        SELECT m.id, m.namespace, array_remove(string_to_array(coalesce(m.terms, ''), ' '), '') AS toks
        FROM tm_memories m
        WHERE p_kind = 'memory' AND m.id = ANY(p_ids) AND m.status = 'active'
        UNION ALL
        SELECT e.id, e.namespace, array_remove(string_to_array(coalesce(e.terms, ''), ' '), '')
        FROM tm_episodes e
        WHERE p_kind = 'episode' AND e.id = ANY(p_ids)"""

_BODY = """
CREATE OR REPLACE FUNCTION {name}(p_ids text[], p_kind text)
RETURNS TABLE(r_namespace text, r_n_docs int)
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $fn$
DECLARE
    v_old_ns text[];
    v_old_len int[];
    v_gone_ns text[];
    v_gone_term text[];
    v_new_ns text[];
    v_new_len int[];
    v_add_ns text[];
    v_add_term text[];
BEGIN
    WITH d AS (
        DELETE FROM tm_search_docs x WHERE x.doc_id = ANY(p_ids) AND x.kind = p_kind
        RETURNING x.namespace, x.length)
    SELECT array_agg(d.namespace), array_agg(d.length) INTO v_old_ns, v_old_len FROM d;
    WITH d AS (
        DELETE FROM tm_search_postings x WHERE x.doc_id = ANY(p_ids) AND x.kind = p_kind
        RETURNING x.namespace, x.term)
    SELECT array_agg(d.namespace), array_agg(d.term) INTO v_gone_ns, v_gone_term FROM d;
    WITH i AS (
        INSERT INTO tm_search_docs (doc_id, namespace, kind, length)
        SELECT s.id, s.namespace, p_kind, cardinality(s.toks) FROM ({src}) s
        RETURNING namespace, length)
    SELECT array_agg(i.namespace), array_agg(i.length) INTO v_new_ns, v_new_len FROM i;
    WITH i AS (
        INSERT INTO tm_search_postings (namespace, kind, term, doc_id, tf, doc_len)
        SELECT s.namespace, p_kind, w.term, s.id, count(*), cardinality(s.toks)
        FROM ({src}) s, unnest(s.toks) AS w(term)
        GROUP BY s.id, s.namespace, w.term, cardinality(s.toks)
        -- In document order: a search rescores a candidate from its own postings (by doc_id),
        -- and a batch's hash aggregate otherwise spreads one document's postings over as many
        -- heap pages as it has terms (measured on a bulk-loaded 10,000-memory namespace: 690
        -- of a cold search's 2,600 page reads).
        ORDER BY s.id, w.term
        RETURNING namespace, term)
    SELECT array_agg(i.namespace), array_agg(i.term) INTO v_add_ns, v_add_term FROM i;
    -- Namespaces: N and total length by delta; the ones whose N changed go back to the caller.
    RETURN QUERY
    WITH delta AS (
        SELECT q.ns, sum(q.dn)::int AS dn, sum(q.dl)::bigint AS dl
        FROM (SELECT o.ns, -1 AS dn, -o.len AS dl FROM unnest(v_old_ns, v_old_len) AS o(ns, len)
              UNION ALL
              SELECT n.ns, 1, n.len FROM unnest(v_new_ns, v_new_len) AS n(ns, len)) q
        GROUP BY q.ns
        HAVING sum(q.dn) <> 0 OR sum(q.dl) <> 0),
    up AS (
        INSERT INTO tm_search_namespaces AS t (namespace, kind, n_docs, total_len)
        SELECT delta.ns, p_kind, delta.dn, delta.dl FROM delta ORDER BY delta.ns
        ON CONFLICT (namespace, kind) DO UPDATE
            SET n_docs = t.n_docs + excluded.n_docs, total_len = t.total_len + excluded.total_len
        RETURNING t.namespace, t.n_docs)
    SELECT up.namespace::text, up.n_docs FROM up JOIN delta ON delta.ns = up.namespace
    WHERE delta.dn <> 0;
    -- Terms: df by delta; a term no live document holds any more leaves the vocabulary.
    INSERT INTO tm_search_terms AS t (namespace, kind, term, df)
    SELECT q.ns, p_kind, q.term, sum(q.d)::int
    FROM (SELECT g.ns, g.term, -1 AS d FROM unnest(v_gone_ns, v_gone_term) AS g(ns, term)
          UNION ALL
          SELECT a.ns, a.term, 1 FROM unnest(v_add_ns, v_add_term) AS a(ns, term)) q
    GROUP BY q.ns, q.term
    HAVING sum(q.d) <> 0
    ORDER BY q.ns, q.term
    ON CONFLICT (namespace, kind, term) DO UPDATE SET df = t.df + excluded.df;
    DELETE FROM tm_search_terms t
    USING unnest(v_gone_ns, v_gone_term) AS g(ns, term)
    WHERE t.namespace = g.ns AND t.kind = p_kind AND t.term = g.term AND t.df <= 0;
END
$fn$
"""

_BODY = _BODY.replace("{src}", _SOURCE)
SYNC_FUNCTION = "tm_sync_" + hashlib.sha256(_BODY.encode()).hexdigest()[:12]
_DDL = _BODY.replace("{name}", SYNC_FUNCTION)
_CALL = sa.text(
    f"SELECT r_namespace, r_n_docs FROM {SYNC_FUNCTION}(CAST(:ids AS text[]), CAST(:kind AS text))"
)


def has_sync_function(conn: sa.Connection) -> bool:
    """Whether the database has this release's sync function."""
    return function_exists(conn, SYNC_FUNCTION)


def ensure_sync_function(conn: sa.Connection) -> None:
    """Create the sync function if missing (in the caller's transaction, serialised by a
    transaction-scoped advisory lock, as `_db_function.ensure_search_function` is)."""
    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(SYNC_FUNCTION))))
    if not has_sync_function(conn):
        conn.exec_driver_sql(_DDL)


def sync_postings(conn: sa.Connection, ids: Iterable[str], *, kind: str) -> dict[str, int]:
    """Make the postings and statistics of ``ids`` match their ``tm_memories`` rows now
    (``tm_episodes`` rows for ``kind = 'episode'``), in one statement.

    Call it in the transaction that changed the rows.

    Returns:
        The namespaces whose document count changed, with their new count.
    """
    id_list = sorted(set(ids))
    if not id_list:
        return {}
    return {ns: int(n) for ns, n in conn.execute(_CALL, {"ids": id_list, "kind": kind})}
