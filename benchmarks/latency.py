"""Recall latency at 1k / 10k / 100k memories, beside LangChain and LangGraph baselines.

Embeddings are ``DeterministicFakeEmbedding(size=384)`` behind a cache, and every query is embedded
before the clock starts, so the figures are recall alone (search + fusion + gate + weighting + the
SQL fetch of the hits), not the embedding model. Baselines in the same run, on the same texts:
``EnsembleRetriever`` (BM25Retriever + InMemoryVectorStore, equal-weight RRF) and LangGraph's
``InMemoryStore`` vector search. Also: the latency of a query right after a write (the index
catches up with the write first), and peak RSS.

Usage: ``python benchmarks/latency.py [--sizes 1000,10000,100000] [--queries 200]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.text import tokenize

_WORDS = [
    "alice", "bob", "project", "deadline", "python", "coffee", "meeting", "garden", "painting",
    "guitar", "marathon", "budget", "kubernetes", "database", "vacation", "paris", "tokyo",
    "birthday", "dog", "cat", "recipe", "pasta", "violin", "novel", "hiking", "camera", "stock",
    "invoice", "design", "review", "release", "bug", "feature", "customer", "dentist", "flight",
]


class CachedEmbeddings(Embeddings):
    """Caches vectors by text so queries can be embedded before timing starts."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_id = "fake-384"
        self._cache: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = []
        for t in texts:
            v = self._cache.get(t)
            if v is None:
                v = self._cache[t] = self.inner.embed_query(t)
            out.append(v)
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def forget_documents(self) -> None:
        self._cache.clear()


def make_texts(n: int, seed: int = 0) -> list[str]:
    """Deterministic chat-like sentences over a Zipf-ish vocabulary (common words + rare ids)."""
    rng = random.Random(seed)
    vocab = _WORDS + [f"term{i}" for i in range(20_000)]
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(vocab))]
    out = []
    for i in range(n):
        words = rng.choices(vocab, weights=weights, k=rng.randrange(8, 20))
        out.append(f"Note {i}: the user said " + " ".join(words) + ".")
    return out


def make_queries(texts: list[str], n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = rng.choice(texts).split()[5:]
        out.append("what about " + " ".join(rng.sample(words, min(4, len(words)))) + "?")
    return out


def timed(fn: Callable[[str], object], queries: list[str]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    samples = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        samples.append(1000 * (time.perf_counter() - start))
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    return statistics.median(samples), p95


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_size(n: int, n_queries: int, baseline_queries: int, tmp: str) -> dict[str, float]:
    texts = make_texts(n, seed=n)
    queries = make_queries(texts, n_queries)
    emb = CachedEmbeddings(DeterministicFakeEmbedding(size=384))
    store = TieredMemoryStore(f"sqlite:///{tmp}/lat{n}.db", embeddings=emb, config=MemoryConfig())
    start = time.perf_counter()
    for i in range(0, n, 2000):
        store.add_many(texts[i : i + 2000], namespace="bench")
    ingest = time.perf_counter() - start
    emb.forget_documents()
    for q in queries:  # embed queries outside the timing
        emb.embed_query(q)
    store.search(queries[0], namespace="bench", k=10, reinforce=False)  # load the indexes
    res: dict[str, float] = {"ingest_s": ingest}
    # The floor for any exact vector search: one numpy dot product over the same matrix + top-k.
    import numpy as np

    # In chunks and without the cache: 100k vectors as Python lists would weigh over 1 GB.
    matrix = np.concatenate([
        np.array([emb.inner.embed_query(t) for t in texts[i : i + 5000]], dtype=np.float32)
        for i in range(0, len(texts), 5000)
    ])
    qvecs = {q: np.array(emb.embed_query(q), dtype=np.float32) for q in queries}

    def scan(q: str) -> object:
        sims = matrix @ qvecs[q]
        return np.argpartition(-sims, 10)[:10]

    res["scan_p50"], res["scan_p95"] = timed(scan, queries)
    for mode in ("hybrid", "keyword"):
        p50, p95 = timed(
            lambda q, m=mode: store.search(q, namespace="bench", k=10, mode=m, reinforce=False),
            queries,
        )
        res[f"{mode}_p50"], res[f"{mode}_p95"] = p50, p95

    # A query right after a write: the index catches up with the audit log first.
    after = []
    rng = random.Random(5)
    for i in range(20):
        text = f"fresh memory {i} about " + " ".join(rng.sample(_WORDS, 4))
        emb.embed_query(text)
        store.add(text, namespace="bench")
        q = queries[i % len(queries)]
        start = time.perf_counter()
        store.search(q, namespace="bench", k=10, reinforce=False)
        after.append(1000 * (time.perf_counter() - start))
    after.sort()
    res["after_write_p50"] = statistics.median(after)
    res["after_write_max"] = after[-1]
    store.close()
    res["rss_store_mb"] = peak_rss_mb()

    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.vectorstores import InMemoryVectorStore
    from langgraph.store.memory import InMemoryStore

    bq = queries[:baseline_queries]
    bm25 = BM25Retriever.from_texts(texts, preprocess_func=tokenize, k=10)
    vstore = InMemoryVectorStore(emb)
    vstore.add_texts(texts)
    ensemble = EnsembleRetriever(
        retrievers=[bm25, vstore.as_retriever(search_kwargs={"k": 10})], weights=[0.5, 0.5]
    )
    res["ensemble_p50"], res["ensemble_p95"] = timed(ensemble.invoke, bq)
    del ensemble, bm25, vstore
    lg = InMemoryStore(index={"dims": 384, "embed": emb, "fields": ["text"]})
    for i, text in enumerate(texts):
        lg.put(("bench",), str(i), {"text": text})
    res["langgraph_p50"], res["langgraph_p95"] = timed(
        lambda q: lg.search(("bench",), query=q, limit=10), bq
    )
    res["rss_all_mb"] = peak_rss_mb()
    return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--baseline-queries", type=int, default=0,
                        help="queries for the (slow) baselines; default min(queries, 1e6/size)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("data: synthetic chat-like notes (Zipf vocabulary), DeterministicFakeEmbedding(384); "
          "times exclude query embedding; k=10")
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            bq = args.baseline_queries or max(10, min(args.queries, 1_000_000 // n))
            rows[n] = r = bench_size(n, args.queries, bq, tmp)
            print(f"\n== {n:,} memories (ingest {r['ingest_s']:.1f}s, baselines on {bq} queries)")
            print(f"  tiered hybrid      p50 {r['hybrid_p50']:8.2f} ms   p95 {r['hybrid_p95']:8.2f} ms")
            print(f"  tiered keyword     p50 {r['keyword_p50']:8.2f} ms   p95 {r['keyword_p95']:8.2f} ms")
            print(f"  numpy exact scan   p50 {r['scan_p50']:8.2f} ms   p95 {r['scan_p95']:8.2f} ms")
            print(f"  EnsembleRetriever  p50 {r['ensemble_p50']:8.2f} ms   p95 {r['ensemble_p95']:8.2f} ms"
                  f"   (hybrid/ensemble p50 ratio {r['hybrid_p50'] / r['ensemble_p50']:.3f})")
            print(f"  LangGraph InMemoryStore p50 {r['langgraph_p50']:8.2f} ms   "
                  f"p95 {r['langgraph_p95']:8.2f} ms"
                  f"   (hybrid/langgraph p50 ratio {r['hybrid_p50'] / r['langgraph_p50']:.3f})")
            print(f"  query right after a write: p50 {r['after_write_p50']:.2f} ms, "
                  f"max {r['after_write_max']:.2f} ms")
            print(f"  peak RSS: {r['rss_store_mb']:.0f} MB after the store, "
                  f"{r['rss_all_mb']:.0f} MB with the baselines")
    print("\nbars:")
    if 10_000 in rows:
        r = rows[10_000]
        ok = r["hybrid_p50"] <= r["ensemble_p50"] / 10
        print(f"  10k p50 <= 1/10 of Ensemble: {'PASS' if ok else 'FAIL'} "
              f"({r['hybrid_p50']:.2f} vs {r['ensemble_p50']:.2f} ms)")
    if 100_000 in rows:
        r = rows[100_000]
        ratio = r["hybrid_p95"] / r["scan_p95"]
        print(f"  100k p95 <= 3x one exact numpy scan: {'PASS' if ratio <= 3 else 'FAIL'} "
              f"({r['hybrid_p95']:.2f} ms vs {r['scan_p95']:.2f} ms, {ratio:.1f}x)")
        print(f"  after-write at 100k <= 50 ms: "
              f"{'PASS' if r['after_write_max'] <= 50 else 'FAIL'} ({r['after_write_max']:.2f} ms)")


if __name__ == "__main__":
    main()
