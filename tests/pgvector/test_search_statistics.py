"""The search function reads a namespace's statistics, its pending flag and the query terms'
statistics in one statement: what each row carries must equal what the tables hold, in live,
emptied and unknown namespaces alike."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from langchain_tiered_memory.retrieval import KeywordIndex
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_keyword import read_stats
from langchain_tiered_memory.store._db_statement import SearchShape, search_rows, stats_from_row
from langchain_tiered_memory.store._db_vectors import query_literal
from langchain_tiered_memory.text import tokenize
from tests.pgvector.conftest import NO_FILTER

_HYBRID = SearchShape(keyword=True, exact=True, similarity=True, overfetch=True)


def _rows(store, conn, namespace: str, query: str) -> list:
    ctx = store._services.ctx
    qvec = ctx.query_vector(query)
    return search_rows(conn, _HYBRID, NO_FILTER, namespace=namespace, tokens=tokenize(query),
                       k=10, query_vector=query_literal(qvec), dim=int(qvec.shape[-1]),
                       model_id=ctx.model_id, over=20)


def test_each_row_carries_the_tables_statistics_and_scores_like_the_index(open_pg) -> None:
    s = open_pg()
    entries = s.add_many(["tea with milk", "green tea", "black coffee", "a walnut cake",
                          "walnut bread with tea"], namespace="a")
    # "walnut" loses its last live document (and leaves the vocabulary): a query holding it
    # must score the other terms with their own weights (arrays aligned term by term).
    s.delete(entries[3].id, namespace="a")
    s.delete(entries[4].id, namespace="a")
    s.add("green tea again", namespace="b")
    m = t.memories.c
    with s.engine.connect() as conn:
        live = conn.execute(
            sa.select(m.id, m.terms).where(m.namespace == "a", m.status == "active")
        ).all()
        index = KeywordIndex()
        index.add_many((r.id, r.terms.split()) for r in live)
        for query in ("walnut tea", "tea coffee milk", "walnut", "nothing here"):
            tokens = tokenize(query)
            rows = _rows(s, conn, "a", query)
            assert rows  # the vector list always finds the namespace's entries
            want = read_stats(conn, "a", tokens)
            for row in rows:
                assert stats_from_row(row) == want
                assert row.pending is False
            scores = index.score_ids(tokens, [r.id for r in rows])
            assert {r.id: r.score for r in rows} == pytest.approx(
                {r.id: scores.get(r.id, 0.0) for r in rows}, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("namespace", ["emptied", "never-written"])
def test_a_namespace_without_live_entries_returns_nothing(open_pg, namespace) -> None:
    s = open_pg()
    for entry in s.add_many(["tea with milk", "green tea"], namespace="emptied"):
        s.delete(entry.id, namespace="emptied")
    with s.engine.connect() as conn:
        assert read_stats(conn, namespace, ["tea"]).n_docs == 0
        assert _rows(s, conn, namespace, "green tea") == []
    assert s.search("green tea", namespace=namespace, reinforce=False) == []
