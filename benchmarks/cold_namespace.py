"""A namespace's first search costs what the namespace holds, not what the database holds.

Builds (or reuses) two SQLite files of 100-memory namespaces with fake 384-d embeddings (the
model is not what is measured): a small one (``--small`` memories, default 5,000) and a big one
(``--big``, default 200,000). Then, alternating between the files, opens a fresh store (its index
cache empty) and times the first search of a random namespace, which loads that namespace's
keyword index, vectors and row metadata. Prints p50/p95 per file and the big/small ratio.

Bar (issue 16): the 100-memory namespace's first search in the 200k file costs <= 1.5x what it
costs in the 5k file, in the same run.

Usage: ``python benchmarks/cold_namespace.py [--small 5000] [--big 200000] [--trials 40]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.embeddings import DeterministicFakeEmbedding

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

PER = 100


def build(path: Path, total: int) -> None:
    if path.exists():
        return
    emb = DeterministicFakeEmbedding(size=384)
    store = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                              config=MemoryConfig(rerank_enabled=False))
    store.write_check_limit = 0  # setup, not what is measured
    start = time.perf_counter()
    for n in range(total // PER):
        store.add_many([f"tenant {n} remembers fact {i} about item{n}x{i} and the weather"
                        for i in range(PER)], namespace=f"t{n}")
    store.close()
    print(f"  built {path.name}: {total:,} memories in {time.perf_counter() - start:.0f}s")


def first_search_ms(path: Path, namespace: str, emb: DeterministicFakeEmbedding) -> float:
    store = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                              config=MemoryConfig(rerank_enabled=False))
    store.search("warm up the query cache", namespace="absent", k=1, reinforce=False)
    n = namespace[1:]
    start = time.perf_counter()
    hits = store.search(f"item{n}x7 weather", namespace=namespace, k=5, reinforce=False)
    elapsed = (time.perf_counter() - start) * 1000
    assert hits and f"item{n}x7" in hits[0].entry.content, "wrong result"
    store.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=5_000)
    parser.add_argument("--big", type=int, default=200_000)
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=Path("/tmp"))
    args = parser.parse_args()
    files = {size: args.dir / f"tiered-memory-cold-{size}.db" for size in (args.small, args.big)}
    for size, path in files.items():
        build(path, size)
    emb = DeterministicFakeEmbedding(size=384)
    rng = random.Random(3)
    times: dict[int, list[float]] = {size: [] for size in files}
    for _ in range(args.trials):
        for size, path in files.items():  # alternate, so machine noise hits both alike
            times[size].append(first_search_ms(path, f"t{rng.randrange(size // PER)}", emb))
    print(f"first search of a cold {PER}-memory namespace (load + search), {args.trials} trials each:")
    for size, ts in times.items():
        q = statistics.quantiles(ts, n=20)
        print(f"  {size:>9,}-memory file: p50 {statistics.median(ts):7.2f} ms   p95 {q[18]:7.2f} ms")
    ratio = statistics.median(times[args.big]) / statistics.median(times[args.small])
    print(f"  ratio big/small p50: {ratio:.2f} -> bar <= 1.5: {'PASS' if ratio <= 1.5 else 'FAIL'}")


if __name__ == "__main__":
    main()
