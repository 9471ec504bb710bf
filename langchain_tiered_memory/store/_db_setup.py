"""Opening a database's search pushdown: the backend a store gets, and the upgrade on open.

The first store that enables pushdown on a database creates the search tables and back-fills
them from ``tm_memories`` / ``tm_episodes`` / ``tm_vectors`` under the write lock; a database made
searchable by an earlier release gets this release's functions (named by their bodies, so the
earlier release's processes keep theirs).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import sqlalchemy as sa

from ..config import MemoryConfig
from ..errors import StoreError
from . import _tables as t
from ._db import db_errors
from ._db_episodes import backfill_episodes
from ._db_function import ensure_search_function, has_search_function
from ._db_search import DatabaseSearch
from ._db_sync import ensure_sync_function, has_sync_function
from ._db_vectors import ensure_vectors_inline, vectors_inline

__all__ = ["has_vector_extension", "open_search_backend"]

logger = logging.getLogger("langchain_tiered_memory")

_MARKER = "search_pushdown"
# Set once the episodes are in the search tables too (a database made searchable before them
# back-fills its episodes when a pushdown store next opens it).
_EPISODES_MARKER = "search_pushdown_episodes"


def has_vector_extension(conn: sa.Connection) -> bool:
    """Whether ``conn``'s database is PostgreSQL with the ``vector`` extension installed."""
    if conn.dialect.name != "postgresql":
        return False
    found: object = conn.execute(
        sa.select(sa.literal_column("1"))
        .select_from(sa.table("pg_extension", sa.column("extname")))
        .where(sa.column("extname") == "vector")
    ).scalar()
    return found is not None


def _marked(conn: sa.Connection, key: str) -> bool:
    return conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == key)).first() is not None


@contextlib.contextmanager
def _writing(engine: sa.Engine, action: str) -> Iterator[sa.Connection]:
    """A write transaction (the store's write lock held), errors as `StoreError`."""
    with db_errors(action), engine.connect().execution_options(write=True) as conn, conn.begin():
        yield conn


def open_search_backend(engine: sa.Engine, config: MemoryConfig) -> DatabaseSearch | None:
    """The database search of a store, or ``None`` when search stays in the process.

    ``auto`` pushes down when the database is PostgreSQL with the ``vector`` extension;
    ``database`` requires it; ``process`` searches in-process but, if another store already
    created the search tables, still keeps them current.

    Raises:
        StoreError: ``database`` was asked for and the database cannot do it.
    """
    choice = config.search_backend
    if choice == "process" and engine.dialect.name != "postgresql":
        return None
    with db_errors("check for pgvector"), engine.connect() as conn:
        available = has_vector_extension(conn)
        ready = available and _marked(conn, _MARKER)
        synced = ready and has_sync_function(conn)
        current = (synced and has_search_function(conn) and _marked(conn, _EPISODES_MARKER)
                   and vectors_inline(conn))
    if choice == "database" and not available:
        raise StoreError(
            "memory.searchBackend is 'database' but the store is not on PostgreSQL with the "
            "pgvector extension (CREATE EXTENSION vector); use 'auto' or 'process'"
        )
    if not available:
        return None
    backend = DatabaseSearch(engine, pushdown=choice != "process")
    if current or (synced and not backend.pushdown):
        return backend
    if not backend.pushdown:
        if not ready:
            return None
        # Another release made the tables: keeping them current needs this release's sync.
        with _writing(engine, "prepare the search functions") as conn:
            ensure_sync_function(conn)
        return backend
    with _writing(engine, "prepare the search tables") as conn:
        # The back-fills below write through it (PL/pgSQL resolves tables when first run).
        ensure_sync_function(conn)
        # Checked again under the write lock: another process may have just done it.
        if not _marked(conn, _MARKER):
            t.search_metadata.create_all(conn)
            ensure_vectors_inline(conn)  # before the back-fill writes the vectors
            count = backend.backfill(conn)
            conn.execute(sa.insert(t.meta).values(key=_MARKER, value="1"))
            logger.info("search pushdown enabled; %d memories indexed", count)
        if not _marked(conn, _EPISODES_MARKER):
            count = backfill_episodes(conn)
            conn.execute(sa.insert(t.meta).values(key=_EPISODES_MARKER, value="1"))
            logger.info("episode search pushed down; %d episodes indexed", count)
        # A database made searchable by an earlier release lacks this release's function and
        # stores large vectors out of line.
        ensure_search_function(conn)
        ensure_vectors_inline(conn)
    return backend
