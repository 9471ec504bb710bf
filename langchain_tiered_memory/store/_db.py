"""Engine creation, SQLite pragmas, schema creation and upgrades, and error translation."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.pool import StaticPool

from ..errors import StoreError
from . import _tables as t

__all__ = [
    "autocommit_engine",
    "create_engine",
    "db_errors",
    "dumps",
    "from_ts",
    "function_exists",
    "loads",
    "prepare_schema",
    "to_ts",
]


def normalise_url(url: str | os.PathLike[str]) -> str:
    """Accept a SQLAlchemy URL or a plain file path (which means a SQLite file)."""
    text = os.fspath(url)
    if "://" in text:
        return text
    return f"sqlite:///{text}"


def create_engine(url: str, *, busy_timeout: float) -> sa.Engine:
    """Create an engine; SQLite files get WAL, foreign keys, a busy timeout and BEGIN IMMEDIATE."""
    try:
        parsed = sa.engine.make_url(url)
        parsed.get_dialect()
    except (exc.ArgumentError, exc.NoSuchModuleError) as error:
        raise StoreError(
            f"cannot open the store: {url!r} is not a usable SQLAlchemy URL ({error}); use "
            "sqlite:///path/to/memory.db, a file path, or postgresql+psycopg://user@host/db",
            original=error,
        ) from error
    except ImportError as error:
        raise StoreError(
            f"cannot open the store: the database driver for {url!r} is not installed ({error}); "
            "for PostgreSQL: pip install 'langchain-tiered-memory[postgres]'",
            original=error,
        ) from error
    if parsed.get_backend_name() == "postgresql":
        return _postgres_engine(url)
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True)
    memory = parsed.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if memory:
        kwargs["poolclass"] = StaticPool
    else:
        kwargs["connect_args"]["timeout"] = busy_timeout
    engine = sa.create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" hook below decide how transactions start.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # Writers take the lock up front: a deferred transaction that upgrades from read to write
        # fails with "database is locked" instead of waiting for the busy timeout.
        if conn.get_execution_options().get("write"):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")

    return engine


# Arbitrary constant naming the store's write lock among the cluster's advisory locks.
_WRITE_LOCK_KEY = 0x7469_6572_6564
# Seconds a pooled PostgreSQL connection may sit idle and still be handed out without a ping.
_PING_AFTER = 10.0


def autocommit_engine(engine: sa.Engine) -> sa.Engine:
    """A second PostgreSQL engine on ``engine``'s database whose connections are in autocommit
    for good: the pushdown search's, one statement per checkout, so no transaction to open.

    Its own pool, because switching a shared pool's connection into autocommit and back costs
    on every checkout: SQLAlchemy's isolation-level option sets it and resets it through the
    driver each time, about 30 of the 45 us a checkout took in a loop, and 5-7 % of a warm
    search's wall time on the ``scale.py`` data (0.1-0.25 ms, interleaved runs). Here it is set
    once per new connection. Same pool limits and idle ping as ``engine``; dispose of both.
    """
    return _postgres_engine(engine.url, autocommit=True)


def _postgres_engine(url: str | sa.URL, *, autocommit: bool = False) -> sa.Engine:
    # A ping on every checkout is a round trip per search (~0.3 ms, a tenth of a pushed-down
    # search); a connection used within the last `_PING_AFTER` seconds is trusted instead. If
    # the server went away inside that window, the one operation fails (a StoreError), SQLAlchemy
    # discards the pool's connections, and the next operation connects afresh.
    options: dict[str, Any] = {"isolation_level": "AUTOCOMMIT"} if autocommit else {}
    engine = sa.create_engine(url, pool_size=10, max_overflow=20, **options)

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_conn: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < _PING_AFTER:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as error:
            # The pool retries the checkout with a new connection.
            raise exc.DisconnectionError(f"stale pooled connection: {error}") from error

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # Writers queue on one transaction-scoped advisory lock. Audit sequence numbers are then
        # committed in order, so a reader that has applied seq N never misses a later commit
        # of a smaller seq (the in-memory indexes catch up by "seq > N").
        if conn.get_execution_options().get("write"):
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_WRITE_LOCK_KEY})")

    return engine


def function_exists(conn: sa.Connection, name: str) -> bool:
    """Whether the PostgreSQL database has a function called ``name``."""
    found: object = conn.execute(
        sa.select(sa.literal_column("1"))
        .select_from(sa.table("pg_proc", sa.column("proname")))
        .where(sa.column("proname") == name)
    ).scalar()
    return found is not None


@contextlib.contextmanager
def db_errors(action: str) -> Iterator[None]:
    """Translate driver errors into `StoreError` with a message a user can act on."""
    try:
        yield
    except exc.SQLAlchemyError as error:
        text = str(getattr(error, "orig", error)).lower()
        if "locked" in text or "busy" in text:
            hint = "the database stayed locked longer than the busy timeout"
        elif "readonly" in text or "read-only" in text or "read only" in text:
            hint = "the database file is read-only"
        elif "disk" in text and "full" in text:
            hint = "the disk is full"
        elif "malformed" in text or "not a database" in text or "corrupt" in text:
            hint = "the database file is corrupt"
        elif isinstance(error, exc.IntegrityError):
            hint = (
                "a row with the same id (or the same key and version) is already stored "
                f"({getattr(error, 'orig', error)})"
            )
        else:
            hint = str(getattr(error, "orig", error))
        raise StoreError(f"cannot {action}: {hint}", original=error) from error


def prepare_schema(engine: sa.Engine) -> int:
    """Create missing tables and upgrade an older schema in place; return the schema version."""
    # Read first: a current schema needs no write transaction, so a read-only file still opens.
    with db_errors("open the store"), engine.connect() as conn:
        existing = set(sa.inspect(conn).get_table_names())
        current = None
        if "tm_meta" in existing:
            row = conn.execute(
                sa.select(t.meta.c.value).where(t.meta.c.key == "schema_version")
            ).first()
            current = int(row[0]) if row else None
    if current == t.SCHEMA_VERSION and set(t.metadata.tables) <= existing:
        return current
    with (
        db_errors("open the store"),
        engine.connect().execution_options(write=True) as conn,
        conn.begin(),
    ):
        insp = sa.inspect(conn)
        existing = set(insp.get_table_names())
        version = t.SCHEMA_VERSION
        if "tm_meta" in existing:
            row = conn.execute(
                sa.select(t.meta.c.value).where(t.meta.c.key == "schema_version")
            ).first()
            version = int(row[0]) if row else t.SCHEMA_VERSION
        if version > t.SCHEMA_VERSION:
            raise StoreError(
                f"the store file has schema {version}, newer than this library "
                f"({t.SCHEMA_VERSION}); upgrade langchain-tiered-memory"
            )
        if "tm_memories" in existing:
            while version < t.SCHEMA_VERSION:
                t.UPGRADES[version](conn)
                version += 1
        t.metadata.create_all(conn)
        conn.execute(sa.delete(t.meta).where(t.meta.c.key == "schema_version"))
        conn.execute(sa.insert(t.meta).values(key="schema_version", value=str(version)))
    return version


def to_ts(value: datetime | None) -> float | None:
    """A datetime as epoch seconds (naive datetimes are taken as UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.timestamp()


def from_ts(value: float | None) -> datetime | None:
    """Epoch seconds as an aware UTC datetime."""
    return None if value is None else datetime.fromtimestamp(value, tz=timezone.utc)


def dumps(value: Any) -> str:
    """Compact, deterministic JSON."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def loads(value: str | None, default: Any) -> Any:
    """Parse JSON, falling back to ``default`` for NULL."""
    return default if not value else json.loads(value)
