"""Disk full, read-only and corrupt databases: a clear `StoreError`, and the data that was there
stays readable.

How the faults are made without privileges (the tests run as root, where ``chmod`` does not stop
writes, and mounting needs capabilities a container lacks):

- disk full: every new connection gets ``PRAGMA max_page_count`` = the file's current size, so
  SQLite answers SQLITE_FULL ("database or disk is full") exactly as on a full disk;
- read-only (running store): every new connection gets ``PRAGMA query_only = ON`` (SQLite) or
  ``SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`` (PostgreSQL);
- read-only (file): the URI ``sqlite:///file:<path>?mode=ro&uri=true``, which SQLite enforces
  for root too;
- corrupt: bytes overwritten in the file (header, or a page in the middle).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from langchain_tiered_memory.errors import StoreError, TieredMemoryError
from tests.reliability._checks import consistency_problems
from tests.reliability._procs import open_store


def on_connect(store: Any, *statements: str) -> None:
    """Run ``statements`` on every new connection of the store, then drop the pooled ones."""

    @sa.event.listens_for(store.engine, "connect")
    def _apply(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        for sql in statements:
            cur.execute(sql)
        cur.close()
        dbapi_conn.commit()  # psycopg opened a transaction for the SET: keep it

    store.engine.dispose()


@pytest.fixture
def filled(backend_url: str) -> Iterator[tuple[str, Any, list[str]]]:
    store = open_store(backend_url)
    ids = [e.id for e in store.add_many(
        [{"content": f"note {i} about owls", "key": f"k{i % 5}"} for i in range(20)])]
    yield backend_url, store, ids
    store.close()


def still_readable(store: Any, ids: list[str]) -> None:
    assert len(store.get_many(ids, namespace="default")) == len(ids)
    assert store.count() == 20
    assert len(store.history("k3")) == 4
    hits = store.search("owls", k=5, mode="keyword", reinforce=False)
    assert len(hits) == 5 and {h.entry.id for h in hits} <= set(ids)


def test_disk_full_is_a_store_error_and_data_stays(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'full.db'}")
    try:
        ids = [e.id for e in store.add_many(
            [{"content": f"note {i} about owls", "key": f"k{i % 5}"} for i in range(20)])]
        with store.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
        on_connect(store, f"PRAGMA max_page_count = {pages}")
        big = [f"{'owl ' * 2000} number {i}" for i in range(50)]
        with pytest.raises(StoreError, match="disk is full"):
            store.add_many(big)
        with pytest.raises(StoreError, match="disk is full"):
            store.add("the disk is still full " * 500, key="k1")
        still_readable(store, ids)
    finally:
        store.close()
    assert consistency_problems(f"sqlite:///{tmp_path / 'full.db'}") == []


def test_read_only_database_is_a_store_error_and_data_stays(filled) -> None:
    url, store, ids = filled
    if url.startswith("sqlite"):
        on_connect(store, "PRAGMA query_only = ON")
    else:
        on_connect(store, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    for write in (lambda: store.add("a new owl"), lambda: store.delete(ids[0]),
                  lambda: store.update(ids[-1], content="changed owl")):
        with pytest.raises(StoreError, match="read-only"):
            write()
    still_readable(store, ids)
    assert consistency_problems(url) == []


def test_read_only_file_opens_for_reading(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    store = open_store(f"sqlite:///{path}")
    ids = [e.id for e in store.add_many(
        [{"content": f"note {i} about owls", "key": f"k{i % 5}"} for i in range(20)])]
    store.close()
    ro = open_store(f"sqlite:///file:{path}?mode=ro&uri=true")
    try:
        with pytest.raises(StoreError, match="read-only"):
            ro.add("a new owl")
        still_readable(ro, ids)
        assert ro.search("owls")  # reinforcement is best effort on a read-only store
    finally:
        ro.close()


def test_garbage_file_is_a_store_error_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    body = b"this is not a database, but somebody's notes\n" * 200
    path.write_bytes(body)
    with pytest.raises(StoreError, match="corrupt"):
        open_store(f"sqlite:///{path}")
    assert path.read_bytes() == body  # nothing overwritten: the user's file survives


def test_damaged_pages_give_typed_errors_only(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    store = open_store(f"sqlite:///{path}")
    store.add_many([f"note {i} about owls " + "padding " * 200 for i in range(200)])
    with store.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096 * 4] = b"\xff" * (4096 * 4)
    path.write_bytes(bytes(data))
    outcomes = []
    try:
        damaged = open_store(f"sqlite:///{path}")
    except StoreError as exc:
        outcomes.append(str(exc))
    else:
        try:
            for op in (damaged.count, lambda: damaged.list(limit=500),
                       lambda: damaged.search("owls", reinforce=False),
                       lambda: damaged.add("a new owl")):
                try:
                    op()
                    outcomes.append("ok")
                except TieredMemoryError as exc:  # anything untyped fails the test
                    assert isinstance(exc, StoreError)
                    outcomes.append(str(exc))
        finally:
            damaged.close()
    assert any("corrupt" in o for o in outcomes), outcomes
