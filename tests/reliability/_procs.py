"""Long-lived store processes driven over a pipe, for the cross-process tests.

`StoreProcess` starts a fresh interpreter (multiprocessing "spawn": nothing inherited from the test
process, like a second worker on the same host) that opens one `TieredMemoryStore` and keeps it
for its whole life, so its in-memory indexes persist between commands exactly as in a server
worker. Commands are method calls on the store; results come back as plain data.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import traceback
from multiprocessing.connection import Connection
from typing import Any

_CTX = mp.get_context("spawn")


def open_store(url: str, *, model_id: str = "test/hash-64", dim: int = 64, **config: Any) -> Any:
    """A store with the deterministic test embedding (also used by the subprocess scripts)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
    from tests.helpers import HashEmbeddings

    config.setdefault("rerank_enabled", False)
    return TieredMemoryStore(
        url, embeddings=HashEmbeddings(dim, model_id), config=MemoryConfig(**config)
    )


def _plain(value: Any) -> Any:
    """Store results as picklable plain data: entries by id, hits as ``(id, score)``."""
    from langchain_tiered_memory.types import MemoryEntry, SearchHit

    if isinstance(value, SearchHit):
        return (value.entry.id, value.score)
    if isinstance(value, MemoryEntry):
        return {"id": value.id, "key": value.key, "version": value.version,
                "superseded_by": value.superseded_by, "tier": value.tier.value}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _count_search_statements(statements: list[str]) -> None:
    """Also record the pushdown search statement, which goes to psycopg's cursor directly
    (past SQLAlchemy's execution events)."""
    try:
        import psycopg
    except ImportError:  # no PostgreSQL driver: no pushdown either
        return
    from langchain_tiered_memory.store._db_function import FUNCTION

    execute = psycopg.Cursor.execute

    def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if FUNCTION in str(query):
            statements.append(str(query))
        return execute(self, query, *args, **kwargs)

    psycopg.Cursor.execute = counted  # type: ignore[method-assign]


def _serve(conn: Connection) -> None:
    import sqlalchemy as sa

    store: Any = None
    statements: list[str] = []

    def count(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        statements.append(statement)

    _count_search_statements(statements)

    conn.send(("ready", os.getpid()))
    while True:
        cmd, args, kw = conn.recv()
        try:
            out: Any = None
            if cmd == "exit":
                if store is not None:
                    store.close()
                conn.send(("ok", None))
                return
            if cmd == "open":
                if store is not None:
                    store.close()
                store = open_store(*args, **kw)
                statements.clear()
                sa.event.listen(store.engine, "before_cursor_execute", count)
            elif cmd == "close":
                if store is not None:
                    store.close()
                store = None
            elif cmd == "statements":
                out = list(statements)
                statements.clear()
            elif cmd == "hammer":
                from tests.reliability._hammer import hammer_store

                out = hammer_store(store, *args, **kw)
            elif cmd == "reembed_once":

                out = store.reembed(**kw)
            else:
                out = _plain(getattr(store, cmd)(*args, **kw))
            conn.send(("ok", out))
        except Exception as exc:
            conn.send(("err", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))


class StoreProcess:
    """A spawned worker process; `open` a store in it, then call store methods with `call`.

    The process outlives its stores, so a test session spawns a few workers once (spawning an
    interpreter that imports LangChain takes seconds on a busy machine) and reuses them.
    """

    def __init__(self) -> None:
        self._conn, child = _CTX.Pipe()
        self.process = _CTX.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        self.pid: int | None = None

    def wait_ready(self, timeout: float = 120.0) -> StoreProcess:
        if not self._conn.poll(timeout):
            raise TimeoutError("store process did not start")
        tag, self.pid = self._conn.recv()
        assert tag == "ready"
        return self

    def send(self, cmd: str, *args: Any, **kwargs: Any) -> None:
        """Start a command without waiting for it (pair with `result`)."""
        self._conn.send((cmd, args, kwargs))

    def result(self, timeout: float = 60.0) -> Any:
        if not self._conn.poll(timeout):
            raise TimeoutError(f"no answer within {timeout} s")
        tag, value = self._conn.recv()
        if tag == "err":
            raise RuntimeError(value)
        return value

    def call(self, cmd: str, *args: Any, timeout: float = 60.0, **kwargs: Any) -> Any:
        self.send(cmd, *args, **kwargs)
        return self.result(timeout)

    def open(self, url: str, **kwargs: Any) -> StoreProcess:
        self.call("open", url, **kwargs)
        return self

    def stop(self) -> None:
        if self.process.is_alive():
            try:
                self.call("exit", timeout=30)
            except Exception:
                self.process.kill()
        self.process.join(30)
