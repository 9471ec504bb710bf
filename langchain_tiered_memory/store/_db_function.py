"""The search as a PL/pgSQL function: planned once per session, not once per query.

The search's SQL joins statistics, postings, vectors and the filters; planned afresh for every
query (custom plans) it cost 1-2.5 ms of planning per search, more than running it in a small
namespace, and a generic plan of it as one statement chose nested loops that cost 30-120 ms at a
few thousand rows. Inside this function each step is a small statement whose best plan does not
depend on the values (index scans on one namespace's rows, one aggregate, one top-N sort), so
PL/pgSQL keeps one generic plan per session for each (``plan_cache_mode`` is set on the
function) and a call costs the execution alone. JIT is off inside the function: its statements
are index scans over one namespace, and compiling them cost more than running them (measured:
p50 5.9 ms with JIT against 4.0 ms without, namespaces of 1,000-5,000 memories).

Three details keep the generic plans right and the lists cheap:

* The query terms' idf weights are computed first, into an array; each posting finds its weight
  by ``array_position`` instead of a join, so the aggregate reads the postings once, whatever
  the planner believes about their number.
* A candidate of both lists is one row carrying both scores and its rank in each list, so a
  score another list already computed is never looked up again, and no row is sent twice.
  The BM25 of a vector-only hit is read from its postings only when the keyword aggregate was
  cut (``v_kw_n``, its size before the cut, is above ``p_over``): uncut, every document holding a
  query term is in it, so a hit outside it scores 0 (in a small namespace that saved one
  index probe per query term and vector-only hit, about 0.2 of 1.3 ms per call).
* When the list is cut (``p_over``), a query term is in more than ``p_depth`` documents and
  the terms have more than ``8 p_depth`` postings in all, each term's postings are read best
  impact first (``tm_search_postings``' impact index, see `_tables`) and only ``p_depth`` of
  them; the best ``4 p_over`` documents by the score of what was read are rescored exactly
  from their own postings. A large namespace's keyword list then costs O(depth x terms), not
  O(postings). The candidates are an approximation (a document far down every term's impact
  order is missed); their scores are exact, and the list is exact below those thresholds.
* The scores use the in-process index's formula (``ln(1 + x)`` for ``log1p(x)``, float8
  throughout), so BM25 agrees with `retrieval` to the last bit or two.

Each statement of the function costs an executor start and end, and each node of a plan is set
up at every call even when a one-time filter skips it: the namespace's statistics, its pending
flag and the terms' statistics are one statement; the keyword list (deep or not) is computed
into arrays by its own statement, so the final statement plans neither the deep path nor a
materialised list (about 2 % of a small namespace's call, measured interleaved; results
identical row for row on 1,000 scale queries in nine shapes).

The function is named by a hash of its body (`FUNCTION`): a change of body is a new name, so
processes of two releases can share a database while it rolls out.
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa

from . import _tables as t
from ._db import function_exists
from ._db_keyword import K1, MEMORY, B

__all__ = [
    "FUNCTION",
    "KEYWORD_DEPTH",
    "RESULT_COLUMNS",
    "ensure_search_function",
    "has_search_function",
]

# How many postings of one query term the keyword list reads, best impact first, when the term
# is in more documents than that (and the list is cut, see `_db_statement`); below it every
# posting is read and the list is exact.
KEYWORD_DEPTH = 256


# (name, SQL type) of what the function returns per hit; the names are prefixed so PL/pgSQL
# never confuses them with the tables' columns.
RESULT_COLUMNS = (
    ("r_id", "varchar"),
    ("r_similarity", "float8"),
    ("r_score", "float8"),
    ("r_kw_rank", "bigint"),  # rank in the keyword list (NULL: not in it)
    ("r_vec_rank", "bigint"),  # rank in the exact vector list (NULL: not in it)
    ("r_n_inner", "bigint"),
    ("r_n_docs", "int"),
    ("r_total_len", "bigint"),
    ("r_dfs", "text"),  # JSON, parsed once by the caller rather than by the driver per row
    ("r_pending", "bool"),
)

_FILTERS = """
        m.namespace = p_ns AND m.status = 'active'
        AND (p_history OR m.superseded_by IS NULL)
        AND (p_tiers IS NULL OR m.tier = ANY(p_tiers))
        AND (p_types IS NULL OR m.type = ANY(p_types))
        AND (p_tags IS NULL OR m.tags::jsonb @> p_tags)
        AND (p_since IS NULL OR coalesce(m.event_at, m.created_at) >= p_since)
        AND (p_until IS NULL OR coalesce(m.event_at, m.created_at) < p_until)
        AND (p_episode IS NULL OR m.episode_id = p_episode)"""


def _bm25(weight: str) -> str:
    """A document's BM25 over the postings ``p`` in scope, ``weight`` giving each posting's
    query-term weight (qtf x idf)."""
    return f"""sum({weight}
                           * (p.tf::float8 * {K1 + 1.0!r})
                           / (p.tf::float8 + {K1!r} * (1.0::float8 - {B!r}
                                                 + {B!r} * p.doc_len::float8 / v_avgdl)))"""


# Weighted through ``v_weights`` (each query term's qtf x idf, in ``v_terms``' order).
_BM25 = _bm25("v_weights[array_position(v_terms, p.term)]")



def _doc_bm25(doc: str) -> str:
    """A document's exact BM25, read from all its own postings by its id (a handful); a term
    that is not the query's has no weight (``array_position`` is NULL) and adds nothing.

    Not by ``term = ANY(v_terms) AND doc_id = …``: a generic plan estimates one posting per
    (namespace, term) and may probe the impact index, whose doc_id follows the impact, so each
    probe read every posting of the term (measured: 57.6 ms for 120 documents of a
    10,000-memory namespace, 2.5 ms by the doc_id index).
    """
    return f"""(SELECT {_BM25} FROM tm_search_postings p
                 WHERE p.doc_id = {doc} AND p.namespace = p_ns AND p.kind = '{MEMORY}')"""


_RESCORE = _doc_bm25("d.id")

_BODY = f"""
CREATE OR REPLACE FUNCTION {{name}}(
    p_ns text, p_terms text[], p_qtfs float8[], p_qvec vector, p_model text, p_dim int,
    p_k int, p_over int, p_keyword bool, p_exact bool, p_history bool, p_tiers text[],
    p_types text[], p_tags jsonb, p_since float8, p_until float8, p_episode text,
    p_ann bool, p_ef int, p_depth int)
RETURNS TABLE({", ".join(f"{name} {type_}" for name, type_ in RESULT_COLUMNS)})
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $fn$
DECLARE
    v_n int;
    v_total bigint;
    v_dfs text;
    v_pending bool;
    v_terms text[];
    v_weights float8[];
    v_avgdl float8;
    v_ann_ids text[];
    v_ann_d float8[];
    v_sort text;
    v_cast text;
    v_deep bool;
    v_kw_ids text[];
    v_kw_s float8[];
    v_kw_n bigint;
BEGIN
    -- One statement for the namespace's statistics, its pending contradiction and the query
    -- terms' statistics (the dfs for the caller, the weights here): each statement of a
    -- PL/pgSQL function costs an executor start and end.
    SELECT coalesce(s.n_docs, 0), coalesce(s.total_len, 0),
           EXISTS (SELECT 1 FROM tm_contradictions c
                   WHERE c.namespace = p_ns
                     AND (c.resolution IS NULL OR c.resolution = 'pending')),
           st.dfs, st.terms, st.weights, coalesce(st.deep, false)
        INTO v_n, v_total, v_pending, v_dfs, v_terms, v_weights, v_deep
        FROM (SELECT 1) AS one
        LEFT JOIN tm_search_namespaces s ON s.namespace = p_ns AND s.kind = '{MEMORY}'
        CROSS JOIN LATERAL (
            SELECT json_object_agg(q.term, t.df)::text AS dfs,
                   array_agg(q.term ORDER BY q.term) FILTER (WHERE t.df > 0) AS terms,
                   array_agg(q.qtf * ln(1.0::float8 + (s.n_docs - t.df + 0.5::float8)
                                        / (t.df + 0.5::float8)) ORDER BY q.term)
                       FILTER (WHERE t.df > 0) AS weights,
                   max(t.df) > p_depth AND sum(t.df) > 8 * p_depth
                       AND p_over IS NOT NULL AS deep
            FROM unnest(p_terms, p_qtfs) AS q(term, qtf)
            JOIN tm_search_terms t
              ON t.namespace = p_ns AND t.kind = '{MEMORY}' AND t.term = q.term
            WHERE s.n_docs > 0) AS st;
    IF v_n > 0 THEN
        v_avgdl := v_total::float8 / v_n;
    END IF;
    IF NOT p_keyword THEN
        v_terms := NULL;
    END IF;
    -- The keyword list, cut at p_over, into arrays: its own statement, so the final one plans
    -- neither the deep path nor a materialised list, and ``v_kw_n`` (the list's size before
    -- the cut) is a value rather than a subquery per row.
    IF v_terms IS NOT NULL AND v_deep THEN
        -- A term in more than p_depth documents, and more than 8 p_depth postings in all
        -- (below that, reading them all costs less: measured break-even about 2,000 at depth
        -- 256): each term's best p_depth postings by impact (the index's order), scored over
        -- what was read; the best 4 p_over by that lower bound are rescored exactly.
        SELECT array_agg(k.id ORDER BY k.s DESC, k.id), array_agg(k.s ORDER BY k.s DESC, k.id)
            INTO v_kw_ids, v_kw_s
            FROM (SELECT d.id, {_RESCORE} AS s
                  FROM (SELECT p.doc_id AS id
                        FROM unnest(v_terms, v_weights) AS u(term, w)
                        CROSS JOIN LATERAL (
                            SELECT p.doc_id, p.tf, p.doc_len FROM tm_search_postings p
                            WHERE p.namespace = p_ns AND p.kind = '{MEMORY}'
                              AND p.term = u.term
                            ORDER BY {t.IMPACT} DESC, p.doc_id
                            LIMIT p_depth) p
                        GROUP BY p.doc_id
                        ORDER BY {_bm25('u.w')} DESC, p.doc_id
                        LIMIT 4 * p_over) d
                  ORDER BY 2 DESC, 1
                  LIMIT p_over) k;
    ELSIF v_terms IS NOT NULL THEN
        SELECT array_agg(k.id ORDER BY k.s DESC, k.id), array_agg(k.s ORDER BY k.s DESC, k.id),
               max(k.n)
            INTO v_kw_ids, v_kw_s, v_kw_n
            FROM (SELECT p.doc_id AS id, count(*) OVER () AS n, {_BM25} AS s
                  FROM tm_search_postings p
                  WHERE p.namespace = p_ns AND p.kind = '{MEMORY}' AND p.term = ANY(v_terms)
                  GROUP BY p.doc_id
                  ORDER BY 3 DESC, 1
                  LIMIT p_over) k;
    END IF;
    IF p_ann AND p_qvec IS NOT NULL THEN
        -- The namespace's own HNSW index (partial on its name): only a plan made for this
        -- namespace's literal can use it, so this one scan is planned per call. Sorting off
        -- keeps the planner on the index when stale statistics call the namespace small.
        v_sort := current_setting('enable_sort');
        PERFORM set_config('hnsw.ef_search', p_ef::text, true);
        PERFORM set_config('enable_sort', 'off', true);
        -- Cut at p_over like the exact list: the scan orders its ef_search rows by distance
        -- either way, and each row kept costs a read of its vector's heap page and a join to
        -- its memory row (a cold search of a 10,000-memory namespace read 99 vector and 177
        -- memory pages with ef_search = 100 rows kept, 31 and 72 with 30).
        -- Built by concatenation, not format(): the driver reads a percent sign as a
        -- placeholder in the DDL.
        v_cast := '::vector(' || p_dim || ')';
        EXECUTE
            'SELECT array_agg(n.owner_id ORDER BY n.d, n.owner_id), '
            '       array_agg(n.d ORDER BY n.d, n.owner_id) '
            'FROM (SELECT v.owner_id, v.model_id, v.embedding' || v_cast || ' <#> $1' || v_cast
            || ' AS d FROM tm_search_vectors v WHERE v.namespace = ' || quote_literal(p_ns)
            || ' AND v.kind = ''{MEMORY}'' AND v.dim = ' || p_dim
            || ' ORDER BY v.embedding' || v_cast || ' <#> $1' || v_cast || ' LIMIT $2) n '
            'WHERE n.model_id = $3'
            INTO v_ann_ids, v_ann_d USING p_qvec, least(p_ef, coalesce(p_over, p_ef)), p_model;
        PERFORM set_config('enable_sort', v_sort, true);
    END IF;
    -- Each list is cut at p_over before the join to rows (the filters); a candidate of both
    -- lists is one row, with both scores, and each list's rank among the rows that passed.
    RETURN QUERY
    WITH kw AS (SELECT k.id, k.s FROM unnest(v_kw_ids, v_kw_s) AS k(id, s)),
    vec AS (
        SELECT v.id, v.d, count(*) OVER () AS c
        FROM ((SELECT v.owner_id AS id, v.embedding <#> p_qvec AS d FROM tm_search_vectors v
               WHERE p_exact AND p_qvec IS NOT NULL
                 AND v.namespace = p_ns AND v.kind = '{MEMORY}' AND v.model_id = p_model
                 AND v.dim = p_dim
               ORDER BY v.embedding <#> p_qvec, v.owner_id
               LIMIT p_over)
              UNION ALL
              SELECT a.id, a.d FROM unnest(v_ann_ids, v_ann_d) AS a(id, d)) v),
    live AS (
        SELECT m.id, kw.s, vec.d, vec.c
        FROM kw FULL JOIN vec ON vec.id = kw.id
        JOIN tm_memories m ON m.id = coalesce(kw.id, vec.id)
        WHERE {_FILTERS}),
    ranked AS (
        SELECT live.*,
               CASE WHEN live.s IS NOT NULL THEN
                   row_number() OVER (ORDER BY live.s DESC NULLS LAST, live.id) END AS rk,
               CASE WHEN live.d IS NOT NULL THEN
                   row_number() OVER (ORDER BY live.d NULLS LAST, live.id) END AS rv
        FROM live)
    SELECT r.id,
           CASE WHEN p_qvec IS NULL THEN NULL::float8
                WHEN r.d IS NOT NULL THEN -r.d
                ELSE (SELECT -(v.embedding <#> p_qvec) FROM tm_search_vectors v
                      WHERE v.owner_id = r.id AND v.model_id = p_model AND v.dim = p_dim)
           END,
           CASE WHEN NOT p_keyword THEN NULL::float8
                WHEN r.s IS NOT NULL THEN r.s
                WHEN v_terms IS NULL THEN 0.0::float8
                -- Every document holding a query term is in an uncut aggregate (``n``, counted
                -- before the cut): a hit outside it holds none, and its score is 0 unread.
                WHEN NOT v_deep AND (p_over IS NULL OR coalesce(v_kw_n, 0) <= p_over)
                    THEN 0.0::float8
                ELSE coalesce({_doc_bm25("r.id")}, 0.0::float8)
           END,
           r.rk, r.rv, r.c, v_n, v_total, v_dfs, v_pending
    FROM ranked r
    WHERE r.rk <= p_k OR r.rv <= p_k;
END
$fn$
"""


# Named by its body: a release that changes the body creates a function of another name.
FUNCTION = "tm_search_" + hashlib.sha256(_BODY.encode()).hexdigest()[:12]
_DDL = _BODY.replace("{name}", FUNCTION)


def has_search_function(conn: sa.Connection) -> bool:
    """Whether the database has this release's search function and the indexes it relies on."""
    indexed: object = conn.execute(
        sa.select(sa.literal_column("1"))
        .select_from(sa.table("pg_indexes", sa.column("indexname")))
        .where(sa.column("indexname") == t.postings_impact.name)
    ).scalar()
    return function_exists(conn, FUNCTION) and indexed is not None


def ensure_search_function(conn: sa.Connection) -> None:
    """Create the search function, and the indexes its plans rely on, if missing (in the
    caller's transaction).

    Serialised by a transaction-scoped advisory lock: two processes replacing one function at
    once fail with "tuple concurrently updated". A database made searchable by an earlier
    release gets the impact-ordered postings index here, once (it reads every posting), and
    loses the covering index it replaces (an earlier release's function still searching it
    falls back to the primary key: slower, not wrong).
    """
    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(FUNCTION))))
    if not has_search_function(conn):
        t.postings_impact.create(conn, checkfirst=True)
        conn.execute(sa.schema.DropIndex(sa.Index(t.POSTINGS_COVER), if_exists=True))
        conn.exec_driver_sql(_DDL)
