"""The pushdown search's lean path: a binary query vector and entries built from the rows' columns
give exactly what the text vector and the general row mapping give."""

from __future__ import annotations

import struct
from datetime import datetime, timezone
from types import SimpleNamespace

import numpy as np
import sqlalchemy as sa

from langchain_tiered_memory import MemoryTier
from langchain_tiered_memory.store._db_statement import SearchShape, VectorParameter, search_rows
from langchain_tiered_memory.store._db_vectors import query_literal
from langchain_tiered_memory.store._rows import entry_from_row
from langchain_tiered_memory.text import tokenize
from tests.pgvector.conftest import NO_FILTER

_QUERIES = ["dark mode", "green tea", "Paris city", "report budget", "zzz nothing"]


def _fill(store) -> None:  # type: ignore[no-untyped-def]
    store.add_many(["Alice prefers dark mode in every editor", "the dark side of the moon",
                    "the quarterly report, the budget and the report again"], namespace="a")
    store.add("Bob drinks green tea every morning", namespace="a", tags=["drink", "habit"],
              metadata={"from": "chat", "n": 2}, pinned=True, tier=MemoryTier.EPISODIC,
              event_at=datetime(2021, 5, 1, 12, 30, tzinfo=timezone.utc))
    store.add("Carol moved to Paris and loves the city", namespace="a", key="carol.city",
              source="user_stated")
    store.add("Carol moved to Lyon and loves the city", namespace="a", key="carol.city",
              source="user_stated")  # supersedes the Paris version


def test_vector_parameter_is_pgvectors_binary_form() -> None:
    vec = np.array([0.5, -1.25, 3.0], dtype=np.float64)
    raw = bytes(VectorParameter.of(vec))
    assert struct.unpack(">HH", raw[:4]) == (3, 0)
    assert np.array_equal(np.frombuffer(raw[4:], dtype=">f4"), vec.astype(np.float32))


def test_binary_vector_returns_the_rows_the_text_vector_returns(open_pg) -> None:
    store = open_pg()
    _fill(store)
    ctx = store._services.ctx
    with store.engine.connect() as conn:
        for exact, ann in ((True, False), (False, True)):
            shape = SearchShape(keyword=True, exact=exact, similarity=True, overfetch=True,
                                ann=ann)
            for query in _QUERIES:
                qvec = ctx.query_vector(query)
                args = dict(namespace="a", tokens=tokenize(query), k=3, dim=int(qvec.shape[-1]),
                            model_id=ctx.model_id, over=8, ef=40)
                as_text = search_rows(conn, shape, NO_FILTER, query_vector=query_literal(qvec),
                                      **args)
                as_binary = search_rows(conn, shape, NO_FILTER,
                                        query_vector=VectorParameter.of(qvec), **args)
                # Same rows, same similarities to the last bit (the same float32s are bound).
                assert [tuple(r) for r in as_binary] == [tuple(r) for r in as_text]
                assert as_binary or query == "zzz nothing"


def test_entries_from_search_rows_equal_entries_from_stored_rows(open_pg) -> None:
    store = open_pg()
    _fill(store)
    ctx = store._services.ctx
    shape = SearchShape(keyword=True, exact=True, similarity=True)
    seen = 0
    with store.engine.connect() as conn:
        history = SimpleNamespace(**{**vars(NO_FILTER), "history": True})
        for query in [*_QUERIES, "Carol city", "Bob tea"]:
            qvec = ctx.query_vector(query)
            rows = search_rows(conn, shape, history, namespace="a", tokens=tokenize(query), k=10,
                               query_vector=VectorParameter.of(qvec), dim=int(qvec.shape[-1]),
                               model_id=ctx.model_id)
            for row in rows:
                stored = conn.execute(sa.text("SELECT * FROM tm_memories WHERE id = :id"),
                                      {"id": row.id}).one()
                assert entry_from_row(row) == entry_from_row(stored)
                seen += 1
        m = sa.select(sa.func.count()).select_from(sa.table("tm_memories"))
        assert seen >= conn.execute(m).scalar_one()  # every kind of row was compared


def test_search_hits_keep_tags_metadata_and_times(open_pg) -> None:
    store = open_pg()
    _fill(store)
    hit = store.search("green tea", namespace="a", k=1, reinforce=False)[0]
    assert hit.entry == store.get(hit.entry.id, namespace="a")
    assert hit.entry.tags == ("drink", "habit") and hit.entry.metadata == {"from": "chat", "n": 2}
    assert hit.entry.pinned and hit.entry.event_at == datetime(2021, 5, 1, 12, 30,
                                                               tzinfo=timezone.utc)
