"""Many tenants in one process: touch every namespace once under a bounded index cache.

Builds (or reuses) a SQLite file of ``--namespaces`` × ``--per`` memories with fake 384-d
embeddings (so the model is not what is measured, and it is never loaded), then searches every
namespace once in order with ``memory.indexCacheBytes`` = ``--budget-mb``, checking that each
search returns the memory it targets. Prints RSS as it goes, the cache counters, and the same
pass with an unbounded cache (the behaviour before the cache) beside it when ``--compare``.

Usage: ``python benchmarks/index_cache.py [--namespaces 10000] [--per 100] [--budget-mb 256]``
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import rss_mb
from langchain_core.embeddings import DeterministicFakeEmbedding

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore


def build(path: Path, namespaces: int, per: int) -> None:
    emb = DeterministicFakeEmbedding(size=384)
    # Building a million memories is setup, not what is measured: no on-write contradiction
    # checks (the scanner and the guarded write path still run).
    store = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                              config=MemoryConfig(rerank_enabled=False))
    store.write_check_limit = 0
    start = time.perf_counter()
    for n in range(namespaces):
        store.add_many([f"tenant {n} remembers fact {i} about item{n}x{i} and the weather"
                        for i in range(per)], namespace=f"t{n}")
        if n % 500 == 0:
            print(f"  built {n:,} namespaces in {time.perf_counter() - start:.0f}s", flush=True)
    store.close()


def touch_all(path: Path, namespaces: int, budget: int) -> None:
    emb = DeterministicFakeEmbedding(size=384)
    store = TieredMemoryStore(f"sqlite:///{path}", embeddings=emb,
                              config=MemoryConfig(rerank_enabled=False, index_cache_bytes=budget))
    base = rss_mb()
    wrong = 0
    start = time.perf_counter()
    for n in range(namespaces):
        target = f"item{n}x7"
        hits = store.search(target, namespace=f"t{n}", k=1, reinforce=False)
        if not hits or target not in hits[0].entry.content:
            wrong += 1
        if n % max(1, namespaces // 10) == 0 or n == namespaces - 1:
            s = store.index_cache_stats()
            print(f"  {n + 1:>6,} namespaces touched: RSS {rss_mb():7.0f} MB (+{rss_mb() - base:.0f}),"
                  f" cache {s.bytes / 2**20:6.1f} MB in {s.namespaces:,} namespaces,"
                  f" {s.evictions:,} evictions", flush=True)
    elapsed = time.perf_counter() - start
    s = store.index_cache_stats()
    print(f"  {namespaces:,} searches in {elapsed:.1f}s; wrong results: {wrong}; hits {s.hits:,},"
          f" misses {s.misses:,}, loads {s.loads:,}, evictions {s.evictions:,}")
    print(f"  peak-phase RSS {rss_mb():.0f} MB with a {budget / 2**20:.0f} MB budget "
          f"(model not loaded) -> bar RSS <= 700 MB: {'PASS' if rss_mb() <= 700 else 'FAIL'}")
    store.close()
    gc.collect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--namespaces", type=int, default=10_000)
    parser.add_argument("--per", type=int, default=100)
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--db", type=Path, default=Path("/tmp/tiered-memory-index-cache.db"))
    parser.add_argument("--compare", action="store_true",
                        help="also run with an unbounded cache (grows with every namespace)")
    args = parser.parse_args()
    print(f"data: {args.namespaces:,} namespaces x {args.per} memories, fake 384-d embeddings,"
          f" SQLite file {args.db}")
    # Each phase in a fresh process: RSS is never given back to the OS, so a phase run after
    # another would reuse its heap and under-report.
    spawn = multiprocessing.get_context("spawn")
    phases = [] if args.db.exists() else [(build, (args.db, args.namespaces, args.per), None)]
    phases.append((touch_all, (args.db, args.namespaces, args.budget_mb * 2**20),
                   f"bounded cache, memory.indexCacheBytes = {args.budget_mb} MB:"))
    if args.compare:
        phases.append((touch_all, (args.db, args.namespaces, 2**62),
                       "unbounded cache (every namespace stays loaded, as before the cache):"))
    for target, phase_args, title in phases:
        if title:
            print(title, flush=True)
        proc = spawn.Process(target=target, args=phase_args)
        proc.start()
        proc.join()


if __name__ == "__main__":
    main()
