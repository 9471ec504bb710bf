"""The keyword list of a large namespace reads a common term's best postings, not all of them."""

from __future__ import annotations

import psycopg
import pytest
import sqlalchemy as sa

from langchain_tiered_memory.retrieval import KeywordIndex
from langchain_tiered_memory.store import _db_statement
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_function import FUNCTION
from langchain_tiered_memory.store._db_statement import SearchShape, search_rows
from langchain_tiered_memory.text import tokenize
from tests.pgvector.conftest import NO_FILTER
from tests.pgvector.test_db_search import _count_statements

# With a pool of 3 the statement cuts each list at 6 and reads 4 x 6 = 24 postings of a term.
_CONFIG = {"candidate_pool": 3}
_DEPTH = 8


def _corpus() -> list[str]:
    # "tea" and "cake" are each in far more than 24 documents (and together in more than
    # 8 x 24); six longer documents have both, so exact BM25 ranks them first for "tea cake"
    # while each term's best postings by impact are the shorter documents that have one of them.
    short = [f"tea note{i}" for i in range(100)] + [f"cake note{i}" for i in range(100)]
    both = [f"tea cake w{i}x0 w{i}x1" for i in range(6)]
    # The unique token's document is longer than the short ones, so "tea" alone never reaches it.
    unique = ["tea zanzibar " + " ".join(f"filler{j}" for j in range(5))]
    return short + both + unique


@pytest.fixture
def shallow(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(_db_statement, "KEYWORD_DEPTH", _DEPTH)


def _exact(conn: sa.Connection, namespace: str) -> KeywordIndex:
    m = t.memories.c
    rows = conn.execute(
        sa.select(m.id, m.terms).where(m.namespace == namespace, m.status == "active")
    ).all()
    index = KeywordIndex()
    index.add_many((r.id, r.terms.split()) for r in rows)
    return index


def _keyword_list(
    conn: sa.Connection, query: str, *, overfetch: bool, k: int = 3
) -> list[tuple[str, float]]:
    shape = SearchShape(keyword=True, exact=False, similarity=False, overfetch=overfetch)
    rows = search_rows(conn, shape, NO_FILTER, namespace="a", tokens=tokenize(query), k=k,
                       query_vector=None, dim=0, model_id="", over=2 * k)
    hits = [(r.id, float(r.score)) for r in rows if r.kw_rank is not None]
    return sorted(hits, key=lambda hit: (-hit[1], hit[0]))


def test_a_unique_token_ranks_first_past_the_depth_with_exact_scores(open_pg, shallow) -> None:
    s = open_pg(config=_CONFIG)
    entries = s.add_many(_corpus(), namespace="a")
    target = entries[-1].id
    for mode in ("keyword", "hybrid"):
        hits = s.search("tea cake zanzibar", namespace="a", k=3, mode=mode, reinforce=False)
        assert hits and hits[0].entry.id == target, mode
    with s.engine.connect() as conn:
        index = _exact(conn, "a")
        for query in ("tea cake zanzibar", "tea cake", "cake tea tea"):
            exact = dict(index.search(tokenize(query), 1_000))
            got = _keyword_list(conn, query, overfetch=True)
            assert got
            # Whatever the cut read, each listed document carries its exact BM25.
            assert dict(got) == pytest.approx({i: exact[i] for i, _ in got}, rel=1e-12)


def test_the_cut_reads_a_common_terms_best_postings_only(open_pg, shallow) -> None:
    # The documented approximation, pinned so that a cut that stops working shows: documents
    # holding both common terms, but far down each term's impact order, are found only by the
    # exact list (the one a short list is redone with).
    s = open_pg(config=_CONFIG)
    entries = s.add_many(_corpus(), namespace="a")
    both = {e.id for e in entries if e.content.startswith("tea cake")}
    with s.engine.connect() as conn:
        exact = _keyword_list(conn, "tea cake", overfetch=False, k=6)
        cut = _keyword_list(conn, "tea cake", overfetch=True)
    assert {i for i, _ in exact} == both
    assert not both & {i for i, _ in cut}


def test_a_search_past_the_depth_is_one_statement(open_pg, shallow, monkeypatch) -> None:
    s = open_pg(config=_CONFIG)
    s.add_many(_corpus(), namespace="a")
    s.search("warm up", namespace="a", reinforce=False)  # lists the namespaces' HNSW indexes
    statements = _count_statements(monkeypatch, lambda statement: True)
    for query in ("tea cake zanzibar", "tea cake", "cake tea note3"):
        statements.clear()
        assert s.search(query, namespace="a", k=3, reinforce=False)
        assert len(statements) == 1 and FUNCTION in statements[0], statements


def _index_names(conn: sa.Connection) -> set[str]:
    found = conn.execute(
        sa.select(sa.column("indexname"))
        .select_from(sa.table("pg_indexes", sa.column("indexname"), sa.column("tablename")))
        .where(sa.column("tablename") == t.search_postings.name)
    ).scalars()
    return set(found)


def test_an_older_database_gets_the_impact_index_and_loses_the_covering_one(open_pg) -> None:
    s = open_pg()
    s.add_many(_corpus(), namespace="a")
    with s.engine.connect() as conn, conn.begin():
        # As an earlier release left it: its covering index, not the impact one, nor this
        # release's function.
        conn.execute(sa.schema.DropIndex(t.postings_impact))
        conn.execute(sa.text(f"CREATE INDEX {t.POSTINGS_COVER} ON {t.search_postings.name} "
                             "(namespace, kind, term) INCLUDE (doc_id, tf, doc_len)"))
        conn.execute(sa.text(f"DROP FUNCTION {FUNCTION}"))
        assert t.POSTINGS_COVER in _index_names(conn)
    s.close()
    reopened = open_pg()
    with reopened.engine.connect() as conn:
        names = _index_names(conn)
    assert t.postings_impact.name in names and t.POSTINGS_COVER not in names
    hits = reopened.search("tea zanzibar", namespace="a", k=3, reinforce=False)
    assert hits and "zanzibar" in hits[0].entry.content


def _rescore_buffers(conn: sa.Connection, rescore: str, namespace: str, doc_ids: list[str]) -> int:
    """Shared buffers one document's rescore touches, as the function plans it: a generic plan
    (``plan_cache_mode = force_generic_plan``, as set on the function), its variables bound."""
    sql = (rescore.replace("v_weights", "$2").replace("v_terms", "$1").replace("v_avgdl", "$3")
           .replace("p_ns", "$4").replace("d.id", "$5"))
    raw = conn.connection.driver_connection
    assert raw is not None
    # Client-side binding: the statement's own $n placeholders go to the server as written.
    cur = psycopg.ClientCursor(raw)
    cur.execute("SET plan_cache_mode = force_generic_plan")
    cur.execute(f"PREPARE rescore(text[], float8[], float8, text, text) AS SELECT {sql}")
    total = 0
    for doc in doc_ids:
        cur.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE rescore"
                    "('{tea,cake}', '{1.0,1.0}', 3.0, %s, %s)", (namespace, doc))
        plan = cur.fetchone()[0][0]["Plan"]
        total += int(plan.get("Shared Hit Blocks", 0)) + int(plan.get("Shared Read Blocks", 0))
    cur.execute("DEALLOCATE rescore")
    return total // len(doc_ids)


def test_a_documents_rescore_reads_its_own_postings_not_the_terms(open_pg) -> None:
    # Regression (session 17), measured at a million memories: the rescore asked for
    # ``term = ANY(v_terms) AND doc_id = …``, and the generic plan probed the impact index, whose
    # doc_id comes after the impact, so each document's rescore read every posting of each query
    # term (57.6 of 62 ms of one search of a 10,000-memory namespace). A test database's
    # statistics do not lead the planner there (the old form reads 5 buffers here too); what
    # this pins is the rescore's own cost: by the document's id it reads a handful of buffers,
    # where a scan of a term's postings in this namespace would read dozens.
    from langchain_tiered_memory.store._db_function import _RESCORE

    s = open_pg(config=_CONFIG)
    corpus = [f"tea cake note{i} " + " ".join(f"w{j}" for j in range(i % 5)) for i in range(3_000)]
    entries = s.add_many(corpus, namespace="a")
    with s.engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE tm_search_postings")
        per_doc = _rescore_buffers(conn, _RESCORE, "a", [e.id for e in entries[::300]])
    assert per_doc <= 12, per_doc
