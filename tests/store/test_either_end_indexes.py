"""Contradictions and links are read by either end without scanning every namespace's rows.

Schema 3 indexed ``tm_links`` by ``a`` only (its primary key) and ``tm_contradictions`` by
namespace only, so ``a = x OR b = x`` read the whole table on every delete, supersede, purge and
linked-context read: cost followed the database, not the memory (SQLite, 200,000 links: 59 ms a
read, 0.3 ms indexed). Schema 4 indexes each end, and a schema-3 file gains the indexes in place.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import sqlalchemy as sa

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.store import _tables

_WANTED = {
    "tm_links": {"ix_tm_links_b"},
    "tm_contradictions": {"ix_tm_contradictions_a", "ix_tm_contradictions_b"},
}


def _indexes(engine: sa.Engine, table: str) -> set[str]:
    with engine.connect() as conn:
        return {str(i["name"]) for i in sa.inspect(conn).get_indexes(table)}


def test_a_new_store_indexes_both_ends(store) -> None:
    for table, names in _WANTED.items():
        assert names <= _indexes(store.engine, table), table


def _seed(s: TieredMemoryStore) -> tuple[str, str, str]:
    """Three memories; links and contradictions between them, and many in another namespace."""
    a, b, c = (s.add(text, namespace="n").id for text in
               ("tea in the morning", "coffee after lunch", "cocoa at night"))
    rows_links: list[dict[str, Any]] = [
        {"namespace": "n", "a": a, "b": b, "relation": "related", "created_at": 1.0},
        {"namespace": "n", "a": c, "b": a, "relation": "related", "created_at": 2.0},
    ]
    rows_links += [{"namespace": "other", "a": f"x{i}", "b": f"y{i}", "relation": "related",
                    "created_at": 3.0} for i in range(300)]
    rows_c: list[dict[str, Any]] = [
        {"id": "c1", "namespace": "n", "entry_a_id": b, "entry_b_id": a, "description": "d",
         "confidence": 0.9, "resolution": None, "resolved_at": None, "created_at": 1.0},
    ]
    rows_c += [{"id": f"o{i}", "namespace": "other", "entry_a_id": f"x{i}", "entry_b_id": f"y{i}",
                "description": "d", "confidence": 0.9, "resolution": None, "resolved_at": None,
                "created_at": 1.0} for i in range(300)]
    with s.engine.begin() as conn:
        conn.execute(sa.insert(_tables.links), rows_links)
        conn.execute(sa.insert(_tables.contradictions), rows_c)
    return a, b, c


def test_reads_by_either_end_use_an_index(tmp_path, hash_embeddings, clock) -> None:
    s = TieredMemoryStore(tmp_path / "m.db", embeddings=hash_embeddings, clock=clock,
                          config=MemoryConfig(rerank_enabled=False))
    a, _, _ = _seed(s)
    seen: list[tuple[str, Any]] = []

    def capture(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if "tm_links" in statement or "tm_contradictions" in statement:
            seen.append((statement, parameters))

    sa.event.listen(s.engine, "before_cursor_execute", capture)
    block = s.context_block("n", "tea", links=True)
    s.delete(a, namespace="n")
    sa.event.remove(s.engine, "before_cursor_execute", capture)
    assert block.text and seen
    scans = []
    with sqlite3.connect(tmp_path / "m.db") as raw:
        for statement, parameters in seen:
            if statement.lstrip().upper().startswith("INSERT"):
                continue
            plan = raw.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
            scans += [(row[-1], statement) for row in plan
                      if row[-1].startswith(("SCAN tm_links", "SCAN tm_contradictions"))]
    raw.close()
    assert scans == []
    # The other namespace's rows are untouched; this one's went with the memory.
    with s.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(_tables.links)).scalar() == 300
        left = conn.execute(sa.select(sa.func.count()).select_from(_tables.contradictions))
        assert left.scalar() == 300
    s.close()


def test_a_schema_3_file_gains_the_indexes_in_place(tmp_path, hash_embeddings, clock) -> None:
    db = tmp_path / "old.db"
    s = TieredMemoryStore(db, embeddings=hash_embeddings, clock=clock,
                          config=MemoryConfig(rerank_enabled=False))
    a, b, _ = _seed(s)
    s.close()
    with sqlite3.connect(db) as conn:
        for names in _WANTED.values():
            for name in names:
                conn.execute(f"DROP INDEX {name}")
        conn.execute("UPDATE tm_meta SET value = '3' WHERE key = 'schema_version'")
    conn.close()
    s = TieredMemoryStore(db, embeddings=hash_embeddings, clock=clock,
                          config=MemoryConfig(rerank_enabled=False))
    assert s.schema_version == _tables.SCHEMA_VERSION == 4
    for table, names in _WANTED.items():
        assert names <= _indexes(s.engine, table), table
    assert s.get(a).content == "tea in the morning" and s.get(b).content == "coffee after lunch"
    s.close()
