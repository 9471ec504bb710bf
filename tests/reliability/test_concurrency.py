"""Concurrency: 4 processes x 4 threads writing and searching the same namespaces.

No lost write (every acknowledged id is there afterwards), no duplicate or missing version
number, one live version per key, no deadlock (every process finishes in time), and on SQLite
writers wait on the busy timeout instead of failing with "database is locked".
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa

from langchain_tiered_memory.store import _tables as t
from tests.reliability import _hammer
from tests.reliability._checks import consistency_problems
from tests.reliability._procs import open_store

PROCESSES, THREADS, SECONDS = 4, 4, 6.0


def hammer(url: str, workers: list[Any], seconds: float = SECONDS) -> list[dict[str, Any]]:
    """Run the processes; fail on a process that does not finish in time (a deadlock)."""
    open_store(url).close()
    procs = [w.open(url) for w in workers[:PROCESSES]]
    for p, w in enumerate(procs):
        w.send("hammer", p, THREADS, seconds)
    try:
        return [w.result(timeout=seconds + 60) for w in procs]
    except TimeoutError:
        raise AssertionError("a process did not finish: deadlock or hang") from None
    finally:
        for w in procs:
            w.call("close", timeout=60)


def test_concurrent_writers_and_readers(backend_url: str, workers) -> None:
    outs = hammer(backend_url, workers)
    errors = [e for o in outs for e in o["errors"]]
    assert errors == []  # on SQLite: no "database is locked", the busy timeout absorbs waits
    writes = sum(o["writes"] for o in outs)
    searches = sum(o["searches"] for o in outs)
    assert writes >= 20 and searches >= 50, (writes, searches)
    assert [u for o in outs for u in o["unseen"]] == []
    acked = [a for o in outs for a in o["acked"]]
    engine = sa.create_engine(backend_url)
    with engine.connect() as conn:
        m = t.memories.c
        rows = conn.execute(sa.select(m.id, m.namespace, m.key, m.version, m.superseded_by)).all()
    engine.dispose()
    present = {r.id: r.namespace for r in rows}
    assert [a for a in acked if present.get(a[0]) != a[1]] == []  # no lost write
    versions: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in rows:
        if r.key.startswith("k"):
            versions[(r.namespace, r.key)].append(r.version)
    for slot, vs in versions.items():
        assert sorted(vs) == list(range(1, len(vs) + 1)), slot  # no duplicate, no gap
    assert consistency_problems(backend_url) == []
    # A fresh process sees every acknowledged entry through search as well.
    store = open_store(backend_url)
    try:
        for ns in _hammer.NAMESPACES:
            with store._services.ctx.index(ns) as index:
                mine = {i for i, n in acked if n == ns}
                assert [i for i in mine if i not in index.keyword] == []
                assert [i for i in mine if i not in index.vectors] == []
    finally:
        store.close()
