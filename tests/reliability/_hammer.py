"""One process of the concurrency test: threads writing and searching the same namespaces."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

NAMESPACES = ("shared-a", "shared-b")
KEYS = tuple(f"k{i}" for i in range(6))


def _thread(store: Any, proc: int, th: int, seconds: float, out: dict[str, Any]) -> None:
    rng = random.Random(proc * 100 + th)
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        ns = rng.choice(NAMESPACES)
        token = f"tok{proc}x{th}x{n}"
        r = rng.random()
        try:
            if r < 0.3:  # a new version of a key every process writes: version contention
                e = store.add(f"fact {token} about the shared key", namespace=ns,
                              key=rng.choice(KEYS))
                out["acked"].append((e.id, ns))
                # history=True: another thread may already have written a newer version of the
                # shared key, and live-only recall rightly leaves this one out.
                hits = store.search(token, namespace=ns, mode="keyword", k=3, reinforce=False,
                                    history=True)
                if e.id not in {h.entry.id for h in hits}:
                    out["unseen"].append(e.id)  # read-your-writes within a process
                out["writes"] += 1
            elif r < 0.4:
                batch = store.add_many(
                    [f"batch {token} item {i} river stone" for i in range(3)], namespace=ns)
                out["acked"].extend((e.id, ns) for e in batch)
                out["writes"] += 1
            else:
                store.search(rng.choice(("shared key fact", "river stone", token)), namespace=ns,
                             k=5, reinforce=rng.random() < 0.3)
                out["searches"] += 1
        except Exception as exc:
            out["errors"].append(f"{type(exc).__name__}: {exc}")


def hammer_store(store: Any, proc: int, threads: int, seconds: float) -> dict[str, Any]:
    """Run ``threads`` threads for ``seconds`` on one store; return the tallies."""
    out: dict[str, Any] = {"acked": [], "unseen": [], "errors": [], "writes": 0, "searches": 0}
    workers = [threading.Thread(target=_thread, args=(store, proc, i, seconds, out))
               for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return out
