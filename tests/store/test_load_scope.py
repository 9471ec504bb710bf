"""A namespace's first search reads that namespace only: load cost follows it, not the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from tests.helpers import HashEmbeddings


def test_cold_load_queries_use_namespace_indexes(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    emb = HashEmbeddings()
    writer = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                               config=MemoryConfig(rerank_enabled=False))
    for ns in ("big", "small"):
        writer.add_many([f"{ns} note {i} about tea" for i in range(50)], namespace=ns)
    writer.close()

    reader = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                               config=MemoryConfig(rerank_enabled=False))
    statements: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, params))

    sa.event.listen(reader.engine, "before_cursor_execute", record)
    assert reader.search("tea", namespace="small", k=3)
    sa.event.remove(reader.engine, "before_cursor_execute", record)
    reader.close()

    raw = sqlite3.connect(path)
    plans = []
    for statement, params in statements:
        if "tm_vectors" in statement or "tm_memories" in statement:
            plan = " ".join(r[3] for r in raw.execute("EXPLAIN QUERY PLAN " + statement, params))
            plans.append(plan)
            # A plain SCAN, or the model-only vector index, reads rows of every namespace.
            assert not plan.startswith("SCAN"), (statement, plan)
            assert "ix_tm_vectors_model " not in plan + " ", (statement, plan)
    assert any("ix_tm_vectors_ns_kind_model" in p for p in plans)
