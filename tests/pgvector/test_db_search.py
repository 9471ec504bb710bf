"""Search pushed down to PostgreSQL + pgvector gives what in-process search gives."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import sqlalchemy as sa

from langchain_tiered_memory import MemoryConfig, MemoryTier, TieredMemoryStore
from langchain_tiered_memory.errors import StoreError
from langchain_tiered_memory.retrieval import KeywordIndex
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_function import FUNCTION
from langchain_tiered_memory.store._db_keyword import bm25_search, read_stats
from langchain_tiered_memory.store._db_search import DatabaseSearch
from langchain_tiered_memory.store._db_statement import SearchShape, search_rows, stats_from_row
from langchain_tiered_memory.store._db_vectors import (
    ann_index_exists,
    ann_index_name,
    vector_search,
)
from langchain_tiered_memory.store._index import meta_columns
from tests.pgvector.conftest import RandomEmbeddings

CORPUS = [
    "Alice prefers dark mode in every editor",
    "Bob drinks green tea every morning, tea tea tea",
    "the dark side of the moon is an album",
    "tea time is at five in the afternoon",
    "Carol moved to Paris in 2021 and loves the city",
    "the meeting moved to Thursday afternoon",
    "Alice and Bob share an office near the station",
    "dark chocolate and green tea are Carol's favourites",
    "a very long note about the quarterly report, the budget, the forecast and the report again",
    "moon landing documentary night",
]
QUERIES = ["dark mode", "tea", "green tea afternoon", "report", "Alice Bob", "moon", "Paris city"]


def _searches(s: TieredMemoryStore, ns: str, mode: str) -> list[list[tuple[str, float]]]:
    out = []
    for q in QUERIES:
        # k above the corpus size: equal scores may come in any order, the set is the same.
        hits = s.search(q, namespace=ns, k=50, mode=mode, reinforce=False, min_relevance=0.0)
        out.append([(h.entry.id, h.score) for h in hits])
    return out


def test_pushdown_is_chosen_with_the_extension_and_refused_without_it(open_pg, tmp_path):
    assert open_pg()._services.ctx.search_db is not None and open_pg()._services.ctx.search_db.pushdown
    assert open_pg(config={"memory.searchBackend": "process"})._services.ctx.search_db is not None
    with pytest.raises(StoreError, match="pgvector"):
        TieredMemoryStore(
            tmp_path / "m.db", embeddings=RandomEmbeddings(),
            config=MemoryConfig(search_backend="database"),
        )
    plain = TieredMemoryStore(tmp_path / "n.db", embeddings=RandomEmbeddings())
    assert plain._services.ctx.search_db is None
    plain.close()


def test_sql_bm25_equals_the_in_process_index(open_pg):
    s = open_pg()
    entries = s.add_many(CORPUS, namespace="a")
    s.update(entries[1].id, content="Bob drinks black coffee now", namespace="a")
    s.delete(entries[2].id, namespace="a")
    s.add("tea tea and more tea in another namespace", namespace="b")
    m = t.memories.c
    no_filter = SimpleNamespace(tiers=None, types=None, tags=set(), since=None, until=None,
                                episode_id=None, history=True)
    shape = SearchShape(keyword=True, exact=False, similarity=False)
    with s.engine.connect() as conn:
        rows = conn.execute(
            sa.select(m.id, m.terms).where(m.namespace == "a", m.status == "active")
        ).all()
        index = KeywordIndex()
        index.add_many((r.id, r.terms.split()) for r in rows)
        for q in [*QUERIES, "tea tea report", "nothing matches this"]:
            tokens = s_tokens(q)
            stats = read_stats(conn, "a", tokens)
            assert stats.n_docs == len(index)
            want = index.search(tokens, 50)
            order = [i for i, _ in sorted(want, key=lambda p: (-p[1], p[0]))]
            where = [m.status == "active"]
            got = bm25_search(conn, "a", tokens, stats, 50, where, meta_columns())
            assert {r.id: r.score for r in got} == pytest.approx(dict(want), rel=1e-12)
            assert [r.id for r in got] == order
            # The search statement, statistics and idf computed in SQL, scores the same.
            in_sql = search_rows(conn, shape, no_filter, namespace="a", tokens=tokens, k=50,
                                 query_vector=None, dim=0, model_id="")
            assert {r.id: r.score for r in in_sql} == pytest.approx(dict(want), rel=1e-12)
            assert [r.id for r in sorted(in_sql, key=lambda r: (-r.score, r.id))] == order
            if in_sql:
                assert stats_from_row(in_sql[0]) == stats
            for tok in tokens:
                assert stats.idf(tok) == pytest.approx(index.idf(tok), rel=1e-12)


def s_tokens(text: str) -> list[str]:
    from langchain_tiered_memory.text import tokenize

    return tokenize(text)


def test_pushdown_ranks_like_in_process_search(open_pg):
    db = open_pg()
    entries = db.add_many(CORPUS, namespace="a")
    db.add("Alice prefers light mode now", namespace="a", key="ui")
    db.add("Alice prefers dark mode now", namespace="a", key="ui")  # supersedes
    db.archive(entries[3].id, namespace="a")
    process = open_pg(config={"memory.searchBackend": "process"})
    for mode in ("hybrid", "keyword", "vector"):
        _same(_searches(db, "a", mode), _searches(process, "a", mode))


def _same(got: list[list[tuple[str, float]]], want: list[list[tuple[str, float]]]) -> None:
    assert any(want)  # the queries do find something
    for g, w in zip(got, want, strict=True):
        assert dict(g) == pytest.approx(dict(w), rel=1e-6)
        assert [x for _, x in g] == pytest.approx([x for _, x in w], rel=1e-6)  # same order


def test_writes_updates_deletes_archive_and_supersede_are_seen_by_the_next_search(open_pg):
    s = open_pg()

    def found(q: str, **kw) -> list[str]:
        return [h.entry.content for h in s.search(q, namespace="a", reinforce=False, **kw)]

    e = s.add("the espresso machine is broken", namespace="a", key="kitchen")
    assert found("espresso") == ["the espresso machine is broken"]
    s.update(e.id, content="the kettle is broken", namespace="a")
    assert found("espresso") == []
    assert found("espresso", history=True) == ["the espresso machine is broken"]
    live = found("kettle")
    assert live == ["the kettle is broken"]
    kettle = s.search("kettle", namespace="a", reinforce=False)[0].entry
    s.archive(kettle.id, namespace="a")
    assert found("kettle", tiers=[MemoryTier.SEMANTIC]) == []
    assert found("kettle") == ["the kettle is broken"]  # archived stays recallable
    s.delete(kettle.id, namespace="a")
    assert found("kettle") == []
    s.add("fresh tags", namespace="a", tags=["x", "y"])
    assert found("fresh", tags=["x"]) == ["fresh tags"]
    assert found("fresh", tags=["z"]) == []


def test_a_small_namespace_gets_k_results_beside_a_big_indexed_one(open_pg, pg_url):
    emb = RandomEmbeddings()
    s = open_pg(embeddings=emb)
    backend = s._services.ctx.search_db
    assert backend is not None
    backend.ann_min_rows = 300
    s.add_many([f"big note {i}" for i in range(400)], namespace="big")
    for n in range(5):
        s.add_many([f"small {n} note {i}" for i in range(6)], namespace=f"small{n}")
    with s.engine.connect() as conn:
        assert ann_index_exists(conn, "big", emb.dim)
        assert not ann_index_exists(conn, "small0", emb.dim)
    for n in range(5):
        hits = s.search("anything", namespace=f"small{n}", k=6, mode="vector", min_relevance=0.0,
                        reinforce=False)
        assert len(hits) == 6 and all(h.entry.namespace == f"small{n}" for h in hits)
    hits = s.search("anything", namespace="big", k=10, mode="vector", min_relevance=0.0,
                    reinforce=False)
    assert len(hits) == 10


def test_ann_recall_against_exact_is_at_least_095(open_pg):
    emb = RandomEmbeddings()
    s = open_pg(embeddings=emb)
    assert isinstance(s._services.ctx.search_db, DatabaseSearch)
    s._services.ctx.search_db.ann_min_rows = 1000
    s.add_many([f"memory number {i}" for i in range(1200)], namespace="big")
    s.add_many([f"other {i}" for i in range(300)], namespace="other")
    m = t.memories.c
    where = [m.namespace == "big", m.status == "active"]
    hit = total = 0
    with s.engine.connect() as conn, conn.begin():
        assert ann_index_exists(conn, "big", emb.dim)
        for q in range(30):
            vec = np.asarray(emb.embed_query(f"query {q}"), dtype=np.float32)
            args = (conn, "big", emb.model_id, vec, 10, where, meta_columns())
            ann = [r.id for r in vector_search(*args, ann=True, ann_min_ef=100)]
            exact = [r.id for r in vector_search(*args, ann=False, ann_min_ef=100)]
            assert len(ann) == len(exact) == 10
            hit += len(set(ann) & set(exact))
            total += 10
        # The ANN scan's settings are put back before the connection returns to the pool.
        assert conn.execute(sa.text("SHOW enable_sort")).scalar() == "on"
        assert conn.execute(sa.text("SHOW hnsw.ef_search")).scalar() == "40"
        conn.execute(sa.text("SELECT pg_stat_force_next_flush()"))
    assert hit / total >= 0.95
    with s.engine.connect() as conn:  # the ANN searches did walk the namespace's HNSW graph
        scans = conn.execute(
            sa.text("SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = :name"),
            {"name": ann_index_name("big", emb.dim)},
        ).scalar()
    assert scans is not None and scans >= 30


def test_namespaces_are_isolated(open_pg):
    s = open_pg()
    s.add("the launch code is 1234", namespace="alice")
    s.add("the launch code is 1234", namespace="bob")
    for mode in ("hybrid", "keyword", "vector"):
        hits = s.search("launch code", namespace="alice", mode=mode, min_relevance=0.0)
        assert [h.entry.namespace for h in hits] == ["alice"]
    assert s.search("launch code", namespace="carol", min_relevance=0.0) == []


def test_other_model_vectors_wait_for_reembed(open_pg, hash_embeddings):
    old = open_pg(embeddings=hash_embeddings)
    old.add("purple elephants dance", namespace="a")
    new = open_pg(embeddings=type(hash_embeddings)(model_id="test/hash-64-v2"))
    assert new.search("purple elephants", namespace="a", mode="vector", min_relevance=0.0) == []
    assert new.reembed_pending() == 1
    new.reembed()
    hits = new.search("purple elephants", namespace="a", mode="vector", min_relevance=0.0)
    assert [h.entry.content for h in hits] == ["purple elephants dance"]


def test_enabling_pushdown_backfills_rows_written_before(open_pg):
    before = open_pg(config={"memory.searchBackend": "process"})
    assert before._services.ctx.search_db is None  # nothing created on a fresh database
    before.add_many(CORPUS, namespace="a")
    after = open_pg()
    assert after._services.ctx.search_db is not None and after._services.ctx.search_db.pushdown
    _same(_searches(after, "a", "hybrid"), _searches(before, "a", "hybrid"))
    # From now on a process-search store keeps the tables current too.
    again = open_pg(config={"memory.searchBackend": "process"})
    again.add("the quarterly report is late", namespace="a")
    assert [h.entry.content for h in after.search("quarterly late", namespace="a", k=1)] == [
        "the quarterly report is late"
    ]


def test_every_filter_selects_what_in_process_search_selects(open_pg, clock):
    db = open_pg()
    first = db.add("tea notes from the first week", namespace="a", tags=["tea", "x"],
                   type="user", episode_id="ep1")
    clock.advance(days=3)
    middle = clock()
    db.add("tea notes from the second week", namespace="a", tags=["tea"], episode_id="ep2")
    clock.advance(days=3)
    late = db.add("tea notes from the third week", namespace="a", tags=["x"])
    db.archive(late.id, namespace="a")
    db.update(first.id, content="tea notes from the first week, revised", namespace="a")
    process = open_pg(config={"memory.searchBackend": "process"})
    cases = [
        {}, {"tiers": [MemoryTier.ARCHIVAL]}, {"tiers": ["semantic"]}, {"types": ["user"]},
        {"tags": ["tea"]}, {"tags": ["tea", "x"]}, {"since": middle}, {"until": middle},
        {"episode_id": "ep2"}, {"history": True}, {"history": True, "types": ["user"]},
    ]
    seen = set()
    for kw in cases:
        for mode in ("hybrid", "keyword", "vector"):
            got, want = (
                frozenset(h.entry.id for h in s.search("tea notes week", namespace="a",
                                                       mode=mode, reinforce=False,
                                                       min_relevance=0.0, **kw))
                for s in (db, process)
            )
            assert got == want, (kw, mode)
            seen.add(got)
    assert len(seen) >= 5  # the filters do select different entries


def test_filters_that_reject_the_best_candidates_still_get_k(open_pg):
    s = open_pg()
    # 190 entries outrank the 10 the filter wants, in both lists (tf 2, and the exact vector).
    s.add_many([{"content": "tea tea", "type": "environment"}] * 190
               + [{"content": f"tea note{i}", "type": "user"} for i in range(10)], namespace="a")
    for mode in ("keyword", "vector", "hybrid"):
        hits = s.search("tea", namespace="a", k=10, mode=mode, types=["user"], reinforce=False,
                        min_relevance=0.0)
        assert len(hits) == 10 and {h.entry.type.value for h in hits} == {"user"}, mode


def _count_statements(monkeypatch, keep) -> list[str]:  # type: ignore[no-untyped-def]
    """Statements that reach the driver's cursor and pass ``keep`` (the search statement
    itself bypasses SQLAlchemy's execution events, so they are counted at the driver)."""
    import psycopg

    seen: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(self, query, *args, **kwargs):  # type: ignore[no-untyped-def]
        if keep(str(query)):
            seen.append(str(query))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    return seen


def test_pending_contradictions_are_marked_and_skipped_reads_only_when_none(
    open_pg, clock, monkeypatch
):
    from langchain_tiered_memory import ProvenanceLevel
    from tests.lifecycle.test_store_contradictions import Unsure

    s = open_pg()
    s.contradiction_verifier = Unsure()
    a = s.add("I work at Acme", namespace="u")
    clock.advance(days=1)
    b = s.add("I work at Globex", namespace="u", source=ProvenanceLevel.CONSOLIDATED)
    s.add("I work at Acme too", namespace="v")
    assert len(s.contradictions("u", pending_only=True)) == 1
    # The search function checks for pending pairs inside the search statement.
    reads = _count_statements(
        monkeypatch, lambda statement: "tm_contradictions" in statement or FUNCTION in statement
    )
    hits = s.search("work at Acme", namespace="u", k=1, reinforce=False)
    # The pair comes back together, both marked (as in-process search does).
    assert {h.entry.id for h in hits} == {a.id, b.id}
    assert all(h.scores["pending_contradiction"] == 1.0 for h in hits)
    in_u = len(reads)
    plain = s.search("work at Acme", namespace="v", k=1, reinforce=False)
    assert plain and all("pending_contradiction" not in h.scores for h in plain)
    # Namespace v has none pending: only the search statement itself looked (no own read).
    assert len(reads) - in_u == 1
    assert in_u == 2  # u: the statement saw one pending, so the annotation read the pairs


def _drop_other_connections(pg_url: str) -> int:
    """Terminate every other backend of the test's database (a server restart, as seen by a pool)."""
    engine = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return len(conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).all())
    finally:
        engine.dispose()


def test_a_pooled_connection_is_pinged_only_after_idling(open_pg, pg_url, monkeypatch) -> None:
    from langchain_tiered_memory import StoreError
    from langchain_tiered_memory.store import _db

    s = open_pg()
    s.add("the otter sleeps", namespace="a")
    assert s.search("otter", namespace="a", reinforce=False)
    # Used a moment ago: handed out without a ping (a round trip saved per search), so a
    # connection the server dropped fails once, typed; the pool then reconnects.
    assert _drop_other_connections(pg_url) >= 1
    with pytest.raises(StoreError):
        s.search("otter", namespace="a", reinforce=False)
    assert s.search("otter", namespace="a", reinforce=False)
    # Idle longer than the ping interval: pinged at checkout, replaced, the search succeeds.
    monkeypatch.setattr(_db, "_PING_AFTER", 0.0)
    assert _drop_other_connections(pg_url) >= 1
    assert s.search("otter", namespace="a", reinforce=False)


def test_a_hybrid_search_is_one_statement(open_pg, monkeypatch) -> None:
    db = open_pg()
    db.add_many(CORPUS, namespace="a")
    db.search("warm up", namespace="a", reinforce=False)  # lists the namespaces' HNSW indexes
    statements = _count_statements(monkeypatch, lambda statement: True)
    for query in ("dark mode", "Alice works", "nothing matches zzz"):
        statements.clear()
        assert db.search(query, namespace="a", k=3, reinforce=False) is not None
        # Keyword and vector lists, the rows, the statistics, the BM25 of vector-only hits
        # and the pending-contradiction flag all come from the search function's call.
        assert len(statements) == 1 and FUNCTION in statements[0], statements


def test_superseded_versions_above_the_cut_still_leave_k_unfiltered(open_pg) -> None:
    # Unfiltered searches cut each list at 2k before the join that drops superseded versions;
    # 40 versions of one key outrank the live entries in both lists, so the cut comes back
    # short and the search is redone without it.
    s = open_pg()
    for i in range(40):
        s.add(f"tea tea tea version {i}", namespace="a", key="drink")
    s.add_many([f"tea note {i}" for i in range(12)], namespace="a")
    process = open_pg(config={"memory.searchBackend": "process"})
    for mode in ("keyword", "vector", "hybrid"):
        got = s.search("tea tea tea", namespace="a", k=10, mode=mode, reinforce=False,
                       min_relevance=0.0)
        want = process.search("tea tea tea", namespace="a", k=10, mode=mode, reinforce=False,
                              min_relevance=0.0)
        # (Pending-contradiction pairs come back together, so a pair may add one beyond k.)
        assert len(got) >= 10 and all(h.entry.superseded_by is None for h in got), mode
        # Equal scores are ordered by id in SQL, by load order in process: compare as sets.
        assert {h.entry.id for h in got} == {h.entry.id for h in want}, mode


def test_store_search_walks_the_hnsw_index_with_recall_of_exact(open_pg):
    # The ANN scan runs inside the search function (planned per call for the namespace's
    # partial index); its settings are local to the call.
    emb = RandomEmbeddings()
    s = open_pg(embeddings=emb)
    s._services.ctx.search_db.ann_min_rows = 1000
    # Random vectors are HNSW's worst case (benchmarks/ann_recall.py: recall@15 0.57 at 10,000
    # of them even at ef_search 100); here the walk is checked at a width they need. The
    # shipped width is tested on sentences (test_ann_recall.py).
    s._services.ctx.search_db.ann_min_ef = 100
    s.add_many([f"memory number {i}" for i in range(1200)], namespace="big")
    s.add_many([f"other {i}" for i in range(300)], namespace="other")

    engines = (s.engine, s._services.ctx.search_db.reader)  # the store's, the search's own

    def scans() -> int:
        # Each pooled connection flushes its statistics (the searches ran on one of them).
        for engine in engines:
            with contextlib.ExitStack() as pooled:
                for _ in range(engine.pool.size()):  # type: ignore[attr-defined]
                    conn = pooled.enter_context(engine.connect())
                    conn.execute(sa.text("SELECT pg_stat_force_next_flush()"))
                    conn.commit()
        with s.engine.connect() as conn:
            return int(conn.execute(
                sa.text("SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = :name"),
                {"name": ann_index_name("big", emb.dim)},
            ).scalar() or 0)

    before = scans()
    assert store_recall_of_exact(s, emb, "big", [f"query {q}" for q in range(30)]) >= 0.95
    assert scans() - before >= 30
    for engine in engines:
        with engine.connect() as conn:  # nothing of the scan's settings outlives the call
            assert conn.execute(sa.text("SHOW enable_sort")).scalar() == "on"
            assert conn.execute(sa.text("SHOW hnsw.ef_search")).scalar() == "40"


def store_recall_of_exact(s: TieredMemoryStore, emb: Any, namespace: str,
                          queries: list[str]) -> float:
    """Share of the exact 10 nearest that the store's vector search returns, over ``queries``."""
    m = t.memories.c
    where = [m.namespace == namespace, m.status == "active"]
    hit = 0
    for text in queries:
        got = [h.entry.id for h in s.search(text, namespace=namespace, k=10, mode="vector",
                                             min_relevance=0.0, reinforce=False)]
        vec = np.asarray(emb.embed_query(text), dtype=np.float32)
        with s.engine.connect() as conn:
            exact = [r.id for r in vector_search(conn, namespace, emb.model_id, vec, 10, where,
                                                 meta_columns(), ann=False, ann_min_ef=100)]
        assert len(got) == len(exact) == 10
        hit += len(set(got) & set(exact))
    return hit / (10 * len(queries))


@pytest.mark.parametrize("over", [64, 3])
def test_vector_only_hits_score_their_bm25_whether_the_keyword_list_is_cut_or_not(
    open_pg, over
):
    # Uncut (every document holding a query term is in the keyword aggregate), a vector-only
    # hit scores 0 without its postings being read; cut at ``over``, a vector-only hit may hold
    # the terms, and its BM25 is read. Both agree with the in-process index.
    from langchain_tiered_memory.store._db_vectors import query_literal

    s = open_pg()
    s.add_many(CORPUS, namespace="a")
    m = t.memories.c
    no_filter = SimpleNamespace(tiers=None, types=None, tags=set(), since=None, until=None,
                                episode_id=None, history=False)
    shape = SearchShape(keyword=True, exact=True, similarity=True, overfetch=True)
    ctx = s._services.ctx
    with s.engine.connect() as conn:
        rows = conn.execute(
            sa.select(m.id, m.terms).where(m.namespace == "a", m.status == "active")
        ).all()
        index = KeywordIndex()
        index.add_many((r.id, r.terms.split()) for r in rows)
        vector_only = 0
        for q in QUERIES:
            tokens = s_tokens(q)
            qvec = ctx.query_vector(q)
            got = search_rows(conn, shape, no_filter, namespace="a", tokens=tokens, k=2,
                              query_vector=query_literal(qvec), dim=int(qvec.shape[-1]),
                              model_id=ctx.model_id, over=over)
            want = index.score_ids(tokens, [r.id for r in got])
            for r in got:
                vector_only += r.kw_rank is None
                assert r.score == pytest.approx(want.get(r.id, 0.0), rel=1e-12, abs=1e-12)
        assert vector_only  # the case under test happened
