"""Ingest throughput and open time of the store.

Prints, in one run:
* ``add_many`` of 10,000 entries with a deterministic fake embedding (store cost alone; target
  >= 5,000 entries/s);
* ``add_many`` with the real local MiniLM, and the share of the time that is the store rather than
  the model (target <= 10 %), against a baseline of the model alone embedding the same texts;
* open time of a 100,000-entry file: constructing the store plus the first search (which loads the
  namespace's indexes), target <= 3 s.

Usage: python benchmarks/ingest.py [--n 10000] [--minilm-n 2000] [--open-n 100000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import FakeEmbeddings, peak_rss_mb, synthetic_texts

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore


def bench_fake(n: int, tmp: Path) -> float:
    texts = synthetic_texts(n)
    store = TieredMemoryStore(tmp / "fake.db", embeddings=FakeEmbeddings(),
                              config=MemoryConfig(rerank_enabled=False))
    emb_start = time.perf_counter()
    store.embeddings.embed_documents(texts)
    emb = time.perf_counter() - emb_start
    start = time.perf_counter()
    store.add_many(texts, namespace="bench")
    elapsed = time.perf_counter() - start
    store.close()
    rate = n / elapsed
    print(f"add_many  fake-embedding  n={n:>6}  {elapsed:6.2f} s  {rate:8.0f} entries/s"
          f"  (of which fake embedding ~{emb:.2f} s)  target >= 5000/s  "
          f"{'OK' if rate >= 5000 else 'MISS'}")
    return rate


def bench_minilm(n: int, tmp: Path) -> None:
    from langchain_tiered_memory.embeddings import LocalEmbeddings

    texts = synthetic_texts(n, seed=11)
    model = LocalEmbeddings()
    model.embed_documents(["warm up"])
    start = time.perf_counter()
    model.embed_documents(texts)
    model_only = time.perf_counter() - start
    store = TieredMemoryStore(tmp / "minilm.db", embeddings=model,
                              config=MemoryConfig(rerank_enabled=False))
    start = time.perf_counter()
    store.add_many(texts, namespace="bench")
    total = time.perf_counter() - start
    store.close()
    overhead = max(0.0, total - model_only) / total
    print(f"add_many  MiniLM          n={n:>6}  {total:6.2f} s  {n / total:8.0f} entries/s"
          f"  baseline model alone {model_only:.2f} s -> store overhead {overhead:.1%}"
          f"  target <= 10%  {'OK' if overhead <= 0.10 else 'MISS'}")


def bench_open(n: int, tmp: Path) -> None:
    path = tmp / "open.db"
    store = TieredMemoryStore(path, embeddings=FakeEmbeddings(),
                              config=MemoryConfig(rerank_enabled=False))
    texts = synthetic_texts(n, seed=3)
    for start in range(0, n, 20_000):
        store.add_many(texts[start : start + 20_000], namespace="bench")
    store.close()
    start = time.perf_counter()
    reopened = TieredMemoryStore(path, embeddings=FakeEmbeddings(),
                                 config=MemoryConfig(rerank_enabled=False))
    constructed = time.perf_counter() - start
    reopened.search("coffee in berlin", namespace="bench", reinforce=False)
    total = time.perf_counter() - start
    start = time.perf_counter()
    reopened.search("piano lessons", namespace="bench", reinforce=False)
    warm = time.perf_counter() - start
    reopened.close()
    print(f"open      n={n:>6}  construct {constructed * 1000:.0f} ms, + first search (index load)"
          f" = {total:.2f} s  target <= 3 s  {'OK' if total <= 3 else 'MISS'};"
          f"  a warm search {warm * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--minilm-n", type=int, default=2_000)
    parser.add_argument("--open-n", type=int, default=100_000)
    parser.add_argument("--skip-minilm", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        bench_fake(args.n, tmp)
        if not args.skip_minilm:
            bench_minilm(args.minilm_n, tmp)
        bench_open(args.open_n, tmp)
    print(f"peak RSS {peak_rss_mb():.0f} MiB")


if __name__ == "__main__":
    main()
