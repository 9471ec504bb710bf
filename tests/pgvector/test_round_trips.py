"""What a warm pushdown search sends over the wire: one round trip, of a prepared statement.

Counted at the protocol, below the driver (libpq's own trace of every message the client sends),
so a transaction's BEGIN and ROLLBACK, a pool's ping, a ``SET``, a catalog read or a statement
parsed again all show, whichever layer issues them.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from psycopg import pq

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.store._db_function import FUNCTION
from tests.pgvector.test_db_search import CORPUS


@contextlib.contextmanager
def _wire(store: TieredMemoryStore, path: Path) -> Iterator[list[str]]:
    """The names of the messages the client sends on every connection either of the store's
    engines (its own, and the search's) checks out meanwhile (``Query`` is a simple-protocol
    statement: BEGIN, ROLLBACK, SET...; ``Sync`` ends each extended-protocol round trip)."""
    search_db = store._services.ctx.search_db
    assert search_db is not None
    engines = (store.engine, search_db.reader)
    sent: list[str] = []
    with path.open("w") as out:

        def on_checkout(dbapi_conn, _record, _proxy) -> None:  # type: ignore[no-untyped-def]
            dbapi_conn.pgconn.trace(out.fileno())
            dbapi_conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)

        def on_checkin(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
            if dbapi_conn is not None and not dbapi_conn.closed:
                dbapi_conn.pgconn.untrace()

        for engine in engines:
            # First among the checkout hooks, so a ping the pool's own hook sends is traced too.
            sa.event.listen(engine, "checkout", on_checkout, insert=True)
            sa.event.listen(engine, "checkin", on_checkin)
        try:
            yield sent
        finally:
            for engine in engines:
                sa.event.remove(engine, "checkout", on_checkout)
                sa.event.remove(engine, "checkin", on_checkin)
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and fields[0] == "F":
            sent.append(fields[2])


def _warm(store: TieredMemoryStore) -> None:
    # Enough searches for every pooled connection to have prepared the statement (the driver
    # prepares one on its fifth execution on a connection) and for the HNSW index list to be read.
    for i in range(30):
        store.search(f"dark mode {i % 3}", namespace="a", reinforce=False)


def test_a_warm_search_is_one_round_trip_of_a_prepared_statement(open_pg, tmp_path) -> None:
    store = open_pg()
    store.add_many(CORPUS, namespace="a")
    _warm(store)
    with _wire(store, tmp_path / "trace.txt") as sent:
        for query in ("dark mode", "green tea afternoon", "nothing matches zzz"):
            assert store.search(query, namespace="a", k=3, reinforce=False) is not None
    counts = collections.Counter(sent)
    # Per search: Bind, Describe, Execute, Sync of the prepared call. No Parse (not parsed and
    # planned again), no Query (no BEGIN/ROLLBACK: autocommit; no ping; no SET), nothing else.
    assert counts == {"Bind": 3, "Describe": 3, "Execute": 3, "Sync": 3}, sent


def test_a_search_after_other_reads_and_writes_is_still_one_round_trip(open_pg, tmp_path) -> None:
    # Reads and writes end their transactions on the store's pool; a ROLLBACK makes the driver
    # drop the connection's prepared statements. The search's own pool never sees one, so the
    # search that follows is still its prepared statement alone (sharing the pool, it was
    # parsed and planned again for its next five executions on that connection).
    store = open_pg()
    store.add_many(CORPUS, namespace="a")
    _warm(store)
    store.add("Dana likes dark roast", namespace="a")
    store.search("dark roast", namespace="a", k=3)  # reinforced: an UPDATE follows the search
    store.list(namespace="a")
    with _wire(store, tmp_path / "trace.txt") as sent:
        store.search("dark roast", namespace="a", k=3, reinforce=False)
    assert collections.Counter(sent) == {"Bind": 1, "Describe": 1, "Execute": 1, "Sync": 1}, sent


def test_the_traced_statement_is_the_search_function(open_pg, tmp_path) -> None:
    # The trace sees the statement's text when it is prepared: it is the search function's call.
    store = open_pg()
    store.add_many(CORPUS, namespace="a")
    search_db = store._services.ctx.search_db
    assert search_db is not None
    search_db.reader.dispose()  # fresh connections: the statement is parsed again on each
    with _wire(store, tmp_path / "trace.txt"):
        store.search("dark mode", namespace="a", reinforce=False)
    assert FUNCTION in (tmp_path / "trace.txt").read_text()
