"""The search tables kept current by one PL/pgSQL call per write (`store/_db_sync.py`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_sync import SYNC_FUNCTION
from tests.pgvector.conftest import RandomEmbeddings
from tests.pgvector.test_db_search import _count_statements
from tests.pgvector.test_pushdown_checks import _episodes

TEXTS = [
    "Alice prefers dark mode, dark themes and dark chocolate",
    "Bob drinks green tea every morning, tea tea tea",
    "Carol moved to Paris in 2021 and loves the city",
    "我喜欢在周末去北京的公园散步，公园里有很多人",
    "naïve café résumé — l'été dernier à Montréal",
    "don't stop: O'Brien's café isn't open",
    "the and of",  # stop words only: a document of no tokens
    "!!! ???",
]


def _rebuilt(conn: sa.Connection, kind: str) -> dict[str, Any]:
    """What the search tables must hold for ``kind``, computed afresh from the source rows."""
    if kind == "memory":
        m = t.memories.c
        rows = conn.execute(sa.select(m.id, m.namespace, m.terms).where(m.status == "active"))
    else:
        e = t.episodes.c
        rows = conn.execute(sa.select(e.id, e.namespace, e.terms))
    docs, postings, df = {}, {}, Counter()
    namespaces: Counter[tuple[str, str]] = Counter()
    for doc_id, ns, terms in rows:
        tokens = terms.split()
        docs[doc_id] = (ns, len(tokens))
        namespaces[(ns, "n")] += 1
        namespaces[(ns, "len")] += len(tokens)
        for term, tf in Counter(tokens).items():
            postings[(ns, term, doc_id)] = (tf, len(tokens))
            df[(ns, term)] += 1
    return {"docs": docs, "postings": postings, "df": dict(df),
            "namespaces": {ns: (namespaces[(ns, "n")], namespaces[(ns, "len")])
                           for ns, _ in namespaces}}


def _held(conn: sa.Connection, kind: str) -> dict[str, Any]:
    d, p, tm, n = (x.c for x in (t.search_docs, t.search_postings, t.search_terms,
                                 t.search_namespaces))
    return {
        "docs": {r.doc_id: (r.namespace, r.length)
                 for r in conn.execute(sa.select(d.doc_id, d.namespace, d.length)
                                       .where(d.kind == kind))},
        "postings": {(r.namespace, r.term, r.doc_id): (r.tf, r.doc_len)
                     for r in conn.execute(sa.select(p.namespace, p.term, p.doc_id, p.tf,
                                                     p.doc_len).where(p.kind == kind))},
        "df": {(r.namespace, r.term): r.df
               for r in conn.execute(sa.select(tm.namespace, tm.term, tm.df)
                                     .where(tm.kind == kind))},
        "namespaces": {r.namespace: (r.n_docs, r.total_len)
                       for r in conn.execute(sa.select(n.namespace, n.n_docs, n.total_len)
                                             .where(n.kind == kind, n.n_docs != 0))},
    }


def _churn(s: TieredMemoryStore) -> None:
    a = s.add_many(TEXTS, namespace="a")
    b = s.add_many(TEXTS[:4], namespace="b")
    s.update(a[0].id, content="Alice now prefers light mode", namespace="a")
    s.update(a[3].id, content="周末 我们 去 上海", namespace="a")
    s.delete(a[1].id, namespace="a")
    s.archive(b[2].id, namespace="b")
    s.add("Alice now prefers the light theme", namespace="a", key="theme")
    s.add("Alice prefers the dark theme again", namespace="a", key="theme")  # supersedes
    for entry in b:
        s.delete(entry.id, namespace="b")  # the namespace empties


def test_tables_after_adds_edits_deletes_archives_and_versions_equal_a_rebuild(open_pg):
    s = open_pg()
    _churn(s)
    for episode in _episodes():
        s.add_episode(episode)
    with s.engine.connect() as conn:
        for kind in ("memory", "episode"):
            held, want = _held(conn, kind), _rebuilt(conn, kind)
            assert want["docs"]  # something to compare
            assert held == want
        # A term no live document holds any more has left the vocabulary.
        assert not conn.execute(sa.select(t.search_terms).where(t.search_terms.c.df <= 0)).all()


def test_a_write_syncs_the_keyword_tables_in_one_statement(open_pg, monkeypatch):
    s = open_pg()
    s.add_many(TEXTS, namespace="a")
    keyword_tables = ("tm_search_postings", "tm_search_docs", "tm_search_terms",
                      "tm_search_namespaces", SYNC_FUNCTION)
    seen = _count_statements(monkeypatch, lambda q: any(x in q for x in keyword_tables))
    s.add("Dave plays chess on Sundays", namespace="a")
    syncs = [q for q in seen if SYNC_FUNCTION in q]
    assert len(syncs) == 1
    # Nothing else writes those tables; reads by the write checks go through the search function.
    assert not [q for q in seen if q not in syncs and q.lstrip().upper().startswith(
        ("INSERT", "DELETE", "UPDATE"))]


def test_a_write_to_an_indexed_namespace_does_not_scan_its_vectors(open_pg, monkeypatch):
    s = open_pg(embeddings=RandomEmbeddings())
    backend = s._services.ctx.search_db
    assert backend is not None
    backend.ann_min_rows = 50
    s.add_many([f"note {i}" for i in range(60)], namespace="big")  # crosses: index built
    seen = _count_statements(monkeypatch, lambda q: "DISTINCT" in q.upper())
    for i in range(3):
        s.add(f"another note {i}", namespace="big")
    assert seen == []


def test_an_earlier_release_database_gets_the_sync_function_on_open(open_pg, pg_url):
    first = open_pg()
    first.add_many(TEXTS[:3], namespace="a")
    first.close()
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.exec_driver_sql(f"DROP FUNCTION {SYNC_FUNCTION}(text[], text)")
    # Both a store that only keeps the tables current and a pushdown store recreate it.
    for backend in ("process", "auto"):
        s = open_pg(config={"memory.searchBackend": backend})
        s.add(f"Erin likes {backend} jazz", namespace="a")
        with engine.connect() as conn:
            assert _held(conn, "memory") == _rebuilt(conn, "memory")
            conn.exec_driver_sql(f"DROP FUNCTION {SYNC_FUNCTION}(text[], text)")
            conn.commit()
    engine.dispose()
