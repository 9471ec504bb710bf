"""Child process of the crash tests: starts a write, announces it is inside it, then waits to be
killed with SIGKILL.

``python -m tests.reliability._crash_child MODE URL [ARG]`` prints ``INSIDE`` once it is blocked
inside an open write transaction (rows of the interrupted work already sent to the database), or,
for ``loop``, ``COMMITTED <n> <ids>`` after every committed batch until it is killed.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import sqlalchemy as sa

from tests.reliability._procs import open_store

MESSAGES = [
    ("human", "My name is Carol and I prefer green tea."),
    ("ai", "Nice to meet you, Carol."),
    ("human", "I live in Oslo and I work as a nurse."),
    ("human", "My favorite color is teal."),
    ("human", "I have a dog called Rex."),
]


def batch(round_: int, size: int = 30) -> list[dict[str, Any]]:
    """Items overriding ten shared keys (so a batch supersedes the last one) plus unkeyed ones."""
    items: list[dict[str, Any]] = []
    for i in range(size):
        item: dict[str, Any] = {"content": f"round {round_} item {i} about maple {i % 10}"}
        if i < 20:
            item["key"] = f"k{i % 10}"  # twice per batch: supersession inside the batch too
        items.append(item)
    return items


def block_on(store: Any, prefix: str, after: int = 0) -> None:
    """From now on, the ``after``-th next statement starting with ``prefix`` blocks forever."""
    seen = [0]

    @sa.event.listens_for(store.engine, "before_cursor_execute")
    def _hang(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith(prefix):
            seen[0] += 1
            if seen[0] > after:
                print("INSIDE", flush=True)
                threading.Event().wait()


def main(mode: str, url: str, arg: str = "") -> None:
    store = open_store(url)
    if mode == "add_many":
        store.add_many(batch(1), namespace="crash")
        # Kill between the supersede UPDATEs / memory rows and the vector rows of round 2.
        block_on(store, "INSERT INTO TM_VECTORS")
        store.add_many(batch(2), namespace="crash")
    elif mode == "loop":
        n = 0
        while True:
            n += 1
            ids = [e.id for e in store.add_many(batch(n, 20), namespace="crash")]
            print("COMMITTED", n, ",".join(ids), flush=True)
    elif mode == "import":
        from langchain_tiered_memory.importer import import_file

        def progress(p: Any) -> None:
            if p.conversations >= 20:  # two batches of ten are in: die inside the third
                block_on(store, "INSERT INTO TM_MEMORIES")

        import_file(store, arg, namespace="imp", batch_size=10, progress=progress)
    elif mode == "consolidation":
        from langchain_tiered_memory.consolidation import enqueue_session, run_consolidation_job

        job, _ = enqueue_session(store, "carol", "s1", MESSAGES)
        print("JOB", job.id, flush=True)
        # The episode is committed, then the facts go in as one batch: die inside its transaction.
        block_on(store, "INSERT INTO TM_MEMORIES")
        run_consolidation_job(store, job.id, lease_seconds=600)
    elif mode == "reembed":

        def progress(done: int, _total: int) -> None:
            if done >= 20:
                block_on(store, "UPDATE TM_VECTORS")

        store.reembed(batch_size=10, progress=progress, lease_seconds=600)
    print("FINISHED", flush=True)  # the parent fails the test: it was supposed to die first


if __name__ == "__main__":
    main(*sys.argv[1:])
