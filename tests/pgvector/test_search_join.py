"""The search's rows are joined to ``tm_memories`` by primary key, however small the database.

A set-returning function is estimated at 1,000 rows; against that estimate the planner joined
the search function's 10-30 rows to ``tm_memories`` by hashing a sequential scan of the whole
table whenever the table was small enough (measured: a 37-memory namespace's search cost 12 ms
in a 10,000-memory database, 10 of them the scan; 2.3 ms by key). The row is now read in a
lateral subquery the planner cannot flatten.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from langchain_tiered_memory.store._db_function import FUNCTION
from tests.pgvector.test_db_search import CORPUS


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    found = [plan]
    for child in plan.get("Plans", []):
        found += _nodes(child)
    return found


def test_a_small_namespace_search_reads_memories_by_key_in_a_bigger_database(
    open_pg, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_pg()
    store.add_many([f"filler note {i} about weather and errands" for i in range(1_500)],
                   namespace="big")
    store.add_many(CORPUS, namespace="a")
    with store.engine.begin() as conn:
        conn.execute(sa.text("ANALYZE tm_memories"))
    seen: list[tuple[psycopg.Cursor[Any], str, Any]] = []
    execute = psycopg.Cursor.execute

    def spy(self, query, params=None, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(query, str) and FUNCTION in query:
            seen.append((self, query, params))
        return execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy)
    assert store.search("dark mode", namespace="a", k=3, reinforce=False)
    monkeypatch.undo()
    cursor, query, params = seen[-1]
    cursor.execute("EXPLAIN (FORMAT JSON) " + query, params, binary=True)
    (plan,) = cursor.fetchone()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    nodes = _nodes(plan[0]["Plan"])
    scans = [(n["Node Type"], n.get("Index Name")) for n in nodes
             if n.get("Relation Name") == "tm_memories"]
    assert scans == [("Index Scan", "tm_memories_pkey")], nodes
