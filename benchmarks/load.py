"""Load: N client processes against one store, 80 % recall / 20 % write, as N grows.

Every client is a separate process (multiprocessing "spawn") with its own `TieredMemoryStore`,
hence its own in-memory keyword and vector indexes, on one shared database: a SQLite file (WAL)
or a PostgreSQL database. The store is seeded with ``--seed`` entries; each client loads the
namespace index, waits at a barrier, then for ``--seconds`` picks recall (``search``, hybrid,
k=10, reinforce off so a recall stays a read) with probability 0.8, else a write (``add`` of a
new entry, which every other client then catches up with on its next search). Embeddings are a
deterministic hashed bag of words (`_common.FakeEmbeddings`, microseconds), so the run measures
the store, not a model. The baseline is the same workload with one process, in the same run.
Beside throughput it prints per-core efficiency (operations per CPU-second at 1, 2, 4 processes):
on a 2-core machine throughput stops at 2 cores, efficiency shows whether processes waste CPU.

Usage: ``python benchmarks/load.py [--clients 1,2,4] [--seconds 8] [--seed 2000]
[--backends sqlite,postgres]``
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import WORDS, FakeEmbeddings, synthetic_texts

NAMESPACE = "load"


def _open(url: str) -> Any:
    from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

    return TieredMemoryStore(url, embeddings=FakeEmbeddings(),
                             config=MemoryConfig(rerank_enabled=False))


def _client(url: str, seconds: float, write_share: float, seed: int, barrier: Any,
            out: Any) -> None:
    store = _open(url)
    rng = random.Random(seed)
    store.search("warm up the index", namespace=NAMESPACE, reinforce=False)
    # One-time costs of the write path (lazy imports of the checks) stay out of the timings.
    store.add(f"warm-up note of client {seed}", namespace=f"{NAMESPACE}-warmup-{seed}")
    lat: dict[str, list[float]] = {"recall": [], "write": []}
    barrier.wait()
    cpu0 = time.process_time()
    end = time.perf_counter() + seconds
    n = 0
    while True:
        start = time.perf_counter()
        if start >= end:
            break
        n += 1
        if rng.random() < write_share:
            words = " ".join(rng.choices(WORDS, k=10))
            store.add(f"client {seed} note {n}: {words}", namespace=NAMESPACE)
            lat["write"].append(time.perf_counter() - start)
        else:
            store.search(" ".join(rng.choices(WORDS, k=4)), namespace=NAMESPACE, k=10,
                         reinforce=False)
            lat["recall"].append(time.perf_counter() - start)
    lat["cpu"] = [time.process_time() - cpu0]
    store.close()
    out.put(lat)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(url: str, clients: int, seconds: float, write_share: float) -> dict[str, Any]:
    # One BLAS thread per client process, as a multi-process deployment runs it: otherwise a
    # single client's matrix products already take every core and N clients only contend.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(clients), ctx.Queue()
    procs = [ctx.Process(target=_client, args=(url, seconds, write_share, 1000 + i, barrier,
                                                out)) for i in range(clients)]
    for p in procs:
        p.start()
    results = [out.get(timeout=seconds + 300) for _ in procs]
    for p in procs:
        p.join(60)
    merged: dict[str, list[float]] = {"recall": [], "write": [], "cpu": []}
    for r in results:
        for k, v in r.items():
            merged[k].extend(v)
    stats: dict[str, Any] = {
        k: {"n": len(v), "rate": len(v) / seconds, "p50": _pct(v, 0.5), "p95": _pct(v, 0.95),
            "p99": _pct(v, 0.99)} for k, v in merged.items() if k != "cpu"}
    # Cores the clients kept busy: their CPU seconds over the wall time. At ~cpu_count the
    # clients are CPU-bound and more processes cannot add throughput.
    stats["cores"] = sum(merged["cpu"]) / seconds
    # Per-core efficiency: operations per CPU-second the clients spent. Throughput cannot grow
    # past the core count, but this must not fall as processes are added.
    cpu = sum(merged["cpu"]) or float("nan")
    stats["recall_per_cpu_s"] = len(merged["recall"]) / cpu
    stats["ops_per_cpu_s"] = (len(merged["recall"]) + len(merged["write"])) / cpu
    return stats


def seed_store(url: str, n: int) -> None:
    store = _open(url)
    texts = synthetic_texts(n)
    for start in range(0, n, 500):
        store.add_many(texts[start : start + 500], namespace=NAMESPACE)
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", default="1,2,4")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=2000, help="entries in the store at start")
    parser.add_argument("--writes", type=float, default=0.2, help="share of writes")
    parser.add_argument("--backends", default="sqlite,postgres")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    cluster = None
    print(f"load: {args.seed} seeded entries, {1 - args.writes:.0%} recall / {args.writes:.0%} "
          f"write, {args.seconds:.0f} s per run, clients {counts}, cpu_count={os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    try:
        for backend in args.backends.split(","):
            if backend == "postgres":
                from tests.pg import start_cluster

                cluster = cluster or start_cluster()
                url = cluster.new_database()
            else:
                url = f"sqlite:///{tempfile.mkdtemp(prefix='load-')}/memory.db"
            seed_store(url, args.seed)
            print(f"\n{backend}")
            print(f"{'clients':>7} {'op':>6} {'ops/s':>8} {'x base':>7} {'p50 ms':>8} "
                  f"{'p95 ms':>8} {'p99 ms':>8} {'client cores busy':>18}")
            base: dict[str, float] = {}
            efficiency: list[tuple[int, float, float]] = []
            for n in counts:
                res = run(url, n, args.seconds, args.writes)
                for op in ("recall", "write"):
                    r = res[op]
                    base.setdefault(op, r["rate"])
                    ratio = r["rate"] / base[op] if base[op] else float("nan")
                    print(f"{n:>7} {op:>6} {r['rate']:8.1f} {ratio:7.2f} {r['p50']:8.2f} "
                          f"{r['p95']:8.2f} {r['p99']:8.2f} {res['cores']:18.2f}", flush=True)
                efficiency.append((n, res["recall_per_cpu_s"], res["ops_per_cpu_s"]))
            print("per-core efficiency (operations per CPU-second of the clients):")
            first = efficiency[0][2] if efficiency else float("nan")
            for n, recall_eff, ops_eff in efficiency:
                print(f"  {n} process(es): recall {recall_eff:8.1f}/CPU-s, all ops "
                      f"{ops_eff:8.1f}/CPU-s ({ops_eff / first:.2f}x of {efficiency[0][0]})")
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
