"""Coherence across processes: a write in one process is seen by another's next search.

Two spawned processes (A writes, B keeps one long-lived store and searches) share one SQLite file
or one PostgreSQL database. B never reopens: its in-memory indexes catch up from the audit log.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from langchain_tiered_memory.store._db_function import FUNCTION
from tests.reliability._checks import consistency_problems
from tests.reliability._procs import StoreProcess, open_store


@pytest.fixture(scope="module", params=["sqlite-file", "postgres", "postgres-pgvector"])
def pair(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, workers
) -> Iterator[tuple[str, StoreProcess, StoreProcess]]:
    """``(url, A, B)``: two worker processes, each with one long-lived store on one database."""
    if request.param == "postgres":
        url = str(request.getfixturevalue("pg_cluster").new_database())
    elif request.param == "postgres-pgvector":  # B searches in the database, holds no index
        url = str(request.getfixturevalue("pgvector_cluster").new_database())
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('coherence') / 'memory.db'}"
    open_store(url).close()  # create the schema once, before two processes race to
    a, b = workers[0].open(url), workers[1].open(url)
    yield url, a, b
    a.call("close"), b.call("close")


def ids(hits: list[tuple[str, float]]) -> set[str]:
    return {i for i, _ in hits}


def test_processes_are_distinct(pair) -> None:
    _, a, b = pair
    assert a.pid != b.pid


def test_add_in_a_is_found_by_b(pair) -> None:
    _, a, b = pair
    assert b.call("search", "zebra", namespace="add", mode="keyword") == []  # index loaded
    e = a.call("add", "the zebra crossing is on Elm street", namespace="add")
    assert ids(b.call("search", "zebra", namespace="add", mode="keyword")) == {e["id"]}
    assert ids(b.call("search", "zebra crossing Elm", namespace="add", mode="vector")) == {e["id"]}
    many = a.call("add_many", [f"zebra herd number {i}" for i in range(5)], namespace="add")
    found = ids(b.call("search", "zebra", namespace="add", mode="keyword", k=20))
    assert found == {e["id"]} | {m["id"] for m in many}


def test_supersession_in_a_is_seen_by_b(pair) -> None:
    _, a, b = pair
    v1 = a.call("add", "the office is in giraffe tower", namespace="sup", key="office")
    assert ids(b.call("search", "giraffe", namespace="sup", mode="keyword")) == {v1["id"]}
    v2 = a.call("add", "the office moved to okapi house", namespace="sup", key="office")
    assert v2["version"] == 2
    assert ids(b.call("search", "okapi", namespace="sup", mode="keyword")) == {v2["id"]}
    old = b.call("get", v1["id"])
    assert old["superseded_by"] == v2["id"] and old["tier"] == "archival"
    # B writes the next version itself: its versioning reads the database, not its cache.
    v3 = b.call("update", v2["id"], content="the office is now in quokka hall")
    assert v3["version"] == 3
    assert ids(a.call("search", "quokka", namespace="sup", mode="keyword")) == {v3["id"]}


def test_in_place_update_in_a_is_seen_by_b(pair) -> None:
    _, a, b = pair
    e = a.call("add", "lunch at the noodle bar", namespace="upd")
    assert b.call("search", "walrus", namespace="upd", mode="keyword") == []
    a.call("update", e["id"], tags=["walrus"])
    assert ids(b.call("search", "walrus", namespace="upd", mode="keyword")) == {e["id"]}


def test_delete_in_a_disappears_from_b(pair) -> None:
    _, a, b = pair
    keep = a.call("add", "the heron nests by the lake", namespace="del")
    gone = a.call("add", "the heron fishes at dawn", namespace="del")
    assert ids(b.call("search", "heron", namespace="del", mode="keyword")) == {
        keep["id"], gone["id"]}
    a.call("delete", gone["id"])
    assert ids(b.call("search", "heron", namespace="del", mode="keyword")) == {keep["id"]}
    assert ids(b.call("search", "heron fishes dawn", namespace="del", mode="vector")) == {
        keep["id"]}


def test_reembedding_in_a_is_seen_by_b(pair) -> None:
    url, a, b = pair
    # A third process (this one) writes with another model: B cannot vector-search that entry.
    other = open_store(url, model_id="test/other-32", dim=32)
    try:
        legacy = other.add("the narwhal tusk is a tooth", namespace="emb")
    finally:
        other.close()
    assert ids(b.call("search", "narwhal tusk tooth", namespace="emb", mode="keyword")) == {
        legacy.id}
    assert b.call("search", "narwhal tusk tooth", namespace="emb", mode="vector") == []
    assert a.call("reembed_once") >= 1
    assert ids(b.call("search", "narwhal tusk tooth", namespace="emb", mode="vector")) == {
        legacy.id}
    assert consistency_problems(url) == []


def _queries(statements: list[str]) -> list[str]:
    """Statements that touch data (SQLite's explicit BEGIN is transaction control)."""
    return [s for s in statements if s.split()[0].upper() in ("SELECT", "INSERT", "UPDATE",
                                                               "DELETE", "WITH")]


def _audit_reads(statements: list[str]) -> list[str]:
    return [s for s in _queries(statements) if "tm_audit_log" in s]


def test_search_with_no_change_costs_one_catch_up_query(pair, request) -> None:
    _, a, b = pair
    if request.node.callspec.params["pair"] == "postgres-pgvector":
        # Pushdown: nothing to catch up, the search reads the database's search tables.
        a.call("add_many", [f"otter fact {i}" for i in range(50)], namespace="cheap")
        b.call("statements")
        assert len(b.call("search", "otter", namespace="cheap", reinforce=False)) >= 1
        searched = _queries(b.call("statements"))
        assert not _audit_reads(searched)
        # One statement: the search function (which reads the postings and vectors).
        assert [q for q in searched if FUNCTION in q], searched
        return
    a.call("add_many", [f"otter fact {i}" for i in range(50)], namespace="cheap")
    b.call("search", "otter", namespace="cheap", reinforce=False)  # load + catch up
    b.call("statements")  # reset the counter
    b.call("search", "otter", namespace="cheap", reinforce=False)
    quiet = b.call("statements")
    # Keeping the index current costs one indexed read of the change log; nothing reloads the
    # namespace or reads vectors. (Other statements are the search's own work on its hits.)
    assert len(_audit_reads(quiet)) == 1
    assert not [s for s in _queries(quiet) if "tm_vectors" in s or "max(" in s
                or "tm_memories.namespace =" in s or "tm_episodes.namespace =" in s], quiet
    a.call("add", "otter number fifty one", namespace="cheap")
    b.call("statements")
    assert len(b.call("search", "otter fifty one", namespace="cheap", reinforce=False)) >= 1
    changed = b.call("statements")
    assert len(_audit_reads(changed)) == 1
    assert len(_queries(changed)) > len(_queries(quiet))  # the changed entry's row and vector are read


def test_catch_up_query_uses_the_audit_index(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        with store.engine.connect() as conn:
            plan = " ".join(
                str(r[-1]) for r in conn.exec_driver_sql(
                    "EXPLAIN QUERY PLAN SELECT seq, entry_id, action FROM tm_audit_log "
                    "WHERE namespace = 'x' AND seq > 5 ORDER BY seq"
                )
            )
    finally:
        store.close()
    assert "ix_tm_audit_ns_seq" in plan and "TEMP B-TREE" not in plan.upper()
    assert sa.__version__  # the plan above is SQLite's; PostgreSQL uses the same index
