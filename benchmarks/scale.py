"""A million memories over ten thousand namespaces: search cost, cold namespaces and RSS at scale.

Data (``--scale 1``): 1,000,000 memories over 10,000 namespaces whose sizes follow Zipf (s = 1, the
largest about 100,000); fake 384-d hashed bag-of-words embeddings (so the model is not what is
measured, and costs microseconds per query on every backend alike). Queries pick a namespace by
a second, independent Zipf (activity) and ask for one of its memories by its unique token plus
two of its words. ``--scale 0.05`` runs 50,000 memories over 500 namespaces.

Backends, on the same data, measured in the same run, each in a fresh process (RSS):

* ``sqlite``: this package on a SQLite file, in-process search, ``memory.indexCacheBytes`` bound;
* ``pushdown``: this package on PostgreSQL 16 + pgvector (``pgserver``), search in the database;
* ``langgraph``: LangGraph's own ``PostgresStore`` (pgvector HNSW index, cosine) on the same
  cluster, same vectors, ``search(namespace, query=…, limit=10)``.

Printed: p50/p95 search latency overall and per namespace-size decade (how cost grows with
size), the p50/p95 of the same queries run a second time (the gap is what a namespace's first
touch costs: reading its pages into shared buffers), the first search of a cold ~10,000-memory
namespace against that namespace's warm p50, results per query (LangGraph's filtered HNSW returns fewer than k for small namespaces), target
found in the top 10, and RSS over the run.

Each backend runs on a restarted cluster (empty shared buffers) and, by default, after its own
files have been read once through the OS page cache (``--os-cache warm``: a server whose data
fits in memory; the warm-up's size and time are printed). ``--os-cache cold`` drops the page cache
instead (root), so every first touch reads the disk. Before session 24 neither was done, and the
backend built or measured last found its pages in the page cache: at 1M, LangGraph (built last)
p95 5.55 ms against pushdown 11.03 ms; with both warmed, 3.40 against 4.52 ms.

The cold namespace is the one closest to 10,000 memories that no query of the run asks, searched
after the run's queries, on a cluster restarted before each backend's run (its shared buffers hold
none of it; its pages come from the OS page cache, or from disk with ``--drop-caches``). A second
figure times a namespace's first search on a new connection warmed by a single search, as this
benchmark did before session 12: on PostgreSQL that also times the new server process mapping each
shared buffer it touches for the first time (about 3,500 page faults, some 30 ms here, on the first
search of an 8,000-memory namespace), a cost of the connection that a server's pooled connections
pay once, not a cost of the namespace. The dataset (SQLite file, PostgreSQL data directory
with both stores loaded, built indexes) is cached under ``--cache`` between runs.

Usage: ``python benchmarks/scale.py [--scale 0.05] [--queries 2000] [--backends sqlite,pushdown,langgraph]``
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pgserver
import psycopg
from langgraph.store.base import PutOp
from langgraph.store.postgres import PostgresStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _page_cache as page_cache
from _common import WORDS, FakeEmbeddings, rss_mb

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore

K = 10


@dataclass(frozen=True)
class Dataset:
    """Namespace sizes and the query plan, derived from the scale and a seed."""

    sizes: list[int]
    queries: list[tuple[int, int]]  # (namespace index, memory index)

    @staticmethod
    def make(scale: float, n_queries: int, seed: int = 11) -> Dataset:
        n_ns = max(20, round(10_000 * scale))
        total = round(1_000_000 * scale)
        weights = 1.0 / np.arange(1, n_ns + 1)
        sizes = np.maximum(1, np.floor(weights / weights.sum() * total)).astype(int).tolist()
        rng = np.random.default_rng(seed)
        activity = rng.permutation(n_ns)  # activity rank independent of size rank
        probs = weights / weights.sum()
        picks = activity[rng.choice(n_ns, size=n_queries, p=probs)]
        queries = [(int(n), int(rng.integers(sizes[n]))) for n in picks]
        return Dataset(sizes, queries)


def text(n: int, i: int) -> str:
    rng = np.random.default_rng(n * 1_000_003 + i)
    words = rng.choice(WORDS, size=int(rng.integers(6, 14)))
    return f"item{n}x{i} " + " ".join(words)


def query_text(n: int, i: int) -> str:
    return f"item{n}x{i} " + " ".join(text(n, i).split()[1:3])


# -- building (cached) ---------------------------------------------------------------------


def _build_ours(url: str, sizes: list[int]) -> None:
    # Setup, not what is measured: no on-write contradiction checks, and the scanner's rules
    # without its learned model, which refuses about 1 in 1,300 of these random-word texts
    # (measured at 2.11.0: 41 of 53,231, e.g. "item2x184 pasta dog dinner rust bug feature
    # release novel dinner migration", score 0.916).
    store = TieredMemoryStore(url, embeddings=FakeEmbeddings(),
                              config=MemoryConfig(rerank_enabled=False, injection_model="off"))
    store.write_check_limit = 0
    start = time.perf_counter()
    done = 0
    for n, size in enumerate(sizes):
        # One write per namespace: a namespace over the HNSW threshold then gets its index
        # built once over all its vectors, not grown row by row from the write that crossed it
        # (that ran at about 120 rows/s; a 1M build took about 2 h).
        store.add_many([text(n, i) for i in range(size)], namespace=f"ns{n}")
        done += size
        if n % max(1, len(sizes) // 10) == 0:
            print(f"    {url.split(':')[0]}: {done:,} memories in {time.perf_counter() - start:.0f}s",
                  flush=True)
    store.close()


def _build_langgraph(conninfo: str, sizes: list[int]) -> None:
    """Bulk-load LangGraph's own tables: through its API a million memories would take hours.

    Its migrations create the ``store`` / ``store_vectors`` tables and the HNSW index; the index is
    dropped, rows and vectors are COPYed in (the same ``text`` field, the same fake embedding our
    store gets), and the index is rebuilt from its own definition. ``check_langgraph_load`` shows
    that search then answers as when loaded through ``PutOp``.
    """
    emb = FakeEmbeddings()
    index = {"dims": emb.dim, "embed": emb, "fields": ["text"], "distance_type": "cosine"}
    with PostgresStore.from_conn_string(conninfo, index=index) as store:  # type: ignore[arg-type]
        store.setup()
    start = time.perf_counter()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        indexdef = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = "
                                "'store_vectors_embedding_idx'").fetchone()
        conn.execute("DROP INDEX IF EXISTS store_vectors_embedding_idx")
        # Superuser bulk load: the FK trigger is redundant (both tables come from one loop).
        conn.execute("SET session_replication_role = replica")
        done = 0
        for n, size in enumerate(sizes):
            for lo in range(0, size, 5_000):
                keys = range(lo, min(size, lo + 5_000))
                texts = [text(n, i) for i in keys]
                vectors = emb.embed_documents(texts)
                with conn.transaction():
                    cur = conn.cursor()
                    with cur.copy("COPY store (prefix, key, value) FROM STDIN") as copy:
                        for i, t in zip(keys, texts, strict=True):
                            copy.write_row((f"ns{n}", str(i), json.dumps({"text": t})))
                    with cur.copy("COPY store_vectors (prefix, key, field_name, embedding) "
                                  "FROM STDIN") as copy:
                        for i, v in zip(keys, vectors, strict=True):
                            copy.write_row((f"ns{n}", str(i), "text",
                                            "[" + ",".join(map(repr, v)) + "]"))
            done += size
            if n % max(1, len(sizes) // 10) == 0:
                print(f"    langgraph: {done:,} rows in {time.perf_counter() - start:.0f}s",
                      flush=True)
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute("ANALYZE store")
        conn.execute("ANALYZE store_vectors")
        if indexdef:
            t0 = time.perf_counter()
            conn.execute(indexdef[0])
            print(f"    langgraph: HNSW index built in {time.perf_counter() - t0:.0f}s", flush=True)


def _build_langgraph_api(conninfo: str, sizes: list[int]) -> None:
    """The slow reference load, through ``PostgresStore.batch`` (``--check-load`` only)."""
    emb = FakeEmbeddings()
    index = {"dims": emb.dim, "embed": emb, "fields": ["text"], "distance_type": "cosine"}
    with PostgresStore.from_conn_string(conninfo, index=index) as store:  # type: ignore[arg-type]
        store.setup()
        for n, size in enumerate(sizes):
            for lo in range(0, size, 1_000):
                store.batch([PutOp((f"ns{n}",), str(i), {"text": text(n, i)})
                             for i in range(lo, min(size, lo + 1_000))])


def check_langgraph_load(cache: Path, data: Dataset) -> None:
    """Load PostgresStore both ways on the same data; compare what its search returns."""
    cache.mkdir(parents=True, exist_ok=True)
    server = _pg(cache)
    _, api = _database(server, "lg_api", vector=True)
    _, bulk = _database(server, "lg_bulk", vector=True)
    t0 = time.perf_counter()
    _build_langgraph_api(api, data.sizes)
    t_api = time.perf_counter() - t0
    with psycopg.connect(api, autocommit=True) as conn:  # as autovacuum soon would; the COPY does
        conn.execute("ANALYZE store")
        conn.execute("ANALYZE store_vectors")
    t0 = time.perf_counter()
    _build_langgraph(bulk, data.sizes)
    t_bulk = time.perf_counter() - t0
    emb = FakeEmbeddings()
    index = {"dims": emb.dim, "embed": emb, "fields": ["text"], "distance_type": "cosine"}
    stats: dict[str, list[float]] = {}
    with PostgresStore.from_conn_string(api, index=index) as a, \
            PostgresStore.from_conn_string(bulk, index=index) as b:  # type: ignore[arg-type]
        for mode in ("ef 40", "ef 1000"):
            if mode == "ef 1000":  # a wide HNSW search: both near-exact, so they must agree
                for s in (a, b):
                    s.conn.execute("SET hnsw.ef_search = 1000")
            same = found_a = found_b = n_a = n_b = 0
            for n, i in data.queries:
                q = query_text(n, i)
                ra = a.search((f"ns{n}",), query=q, limit=K)
                rb = b.search((f"ns{n}",), query=q, limit=K)
                # Fake embeddings tie often: compare the score sequences, not tied keys' order.
                same += [round(x.score or 0, 5) for x in ra] == [round(x.score or 0, 5) for x in rb]
                found_a += str(i) in {x.key for x in ra}
                found_b += str(i) in {x.key for x in rb}
                n_a += len(ra)
                n_b += len(rb)
            m = len(data.queries)
            stats[mode] = [same / m, found_a / m, found_b / m, n_a / m, n_b / m]
    print(f"PostgresStore loaded by API in {t_api:.0f}s, by COPY in {t_bulk:.0f}s; {len(data.queries)} "
          "searches (same score list; target found API / COPY; results per query API / COPY):")
    for mode, (same_, fa, fb, na, nb) in stats.items():
        print(f"  {mode:<7} {same_:6.1%}   found {fa:6.1%} / {fb:6.1%}   results {na:5.2f} / {nb:5.2f}")


def _pg(cache: Path) -> object:
    return pgserver.get_server(cache / "pg", cleanup_mode="stop")


def _database(server: object, name: str, *, vector: bool) -> tuple[str, str]:
    """(SQLAlchemy URL, psycopg conninfo) of a database, created on first use."""
    host = str(server.pgdata)  # type: ignore[attr-defined]
    with psycopg.connect(f"host={host} user=postgres dbname=postgres", autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            c.execute(f"CREATE DATABASE {name}")
    if vector:
        with psycopg.connect(f"host={host} user=postgres dbname={name}", autocommit=True) as c:
            c.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return (f"postgresql+psycopg://postgres@/{name}?host={host}",
            f"postgresql://postgres@/{name}?host={host}")


def build(cache: Path, data: Dataset, backends: list[str]) -> dict[str, str]:
    """Load every backend once (kept under ``cache``); return their URLs."""
    cache.mkdir(parents=True, exist_ok=True)
    urls = {"sqlite": f"sqlite:///{cache / 'memory.db'}"}
    server = _pg(cache)
    urls["pushdown"], conninfo = _database(server, "tiered", vector=True)
    with psycopg.connect(conninfo, autocommit=True) as c:
        # As LangGraph's load below sets for its own index build: the HNSW graphs fit in memory.
        c.execute("ALTER DATABASE tiered SET maintenance_work_mem = '2GB'")
    _, urls["langgraph"] = _database(server, "langgraph", vector=True)
    for name in backends:
        done = cache / f"{name}.built"
        if done.exists():
            continue
        print(f"  building {name} (cached in {cache})...", flush=True)
        start = time.perf_counter()
        if name == "langgraph":
            _build_langgraph(urls[name], data.sizes)
        else:
            _build_ours(urls[name], data.sizes)
        done.write_text(f"{time.perf_counter() - start:.0f}s\n")
        print(f"  built {name} in {time.perf_counter() - start:.0f}s", flush=True)
    return urls


# -- measuring (one fresh process per backend) ----------------------------------------------


def _searcher(name: str, url: str, cache_bytes: int):  # type: ignore[no-untyped-def]
    """(search(namespace, query) -> result ids, close)."""
    if name == "langgraph":
        emb = FakeEmbeddings()
        index = {"dims": emb.dim, "embed": emb, "fields": ["text"], "distance_type": "cosine"}
        ctx = PostgresStore.from_conn_string(url, index=index)  # type: ignore[arg-type]
        store = ctx.__enter__()

        def lg_search(ns: int, q: str) -> list[str]:
            return [f"item{ns}x{it.key}" for it in store.search((f"ns{ns}",), query=q, limit=K)]

        return lg_search, lambda: ctx.__exit__(None, None, None)
    ours = TieredMemoryStore(url, embeddings=FakeEmbeddings(), config=MemoryConfig(
        rerank_enabled=False, index_cache_bytes=cache_bytes,
        search_backend="database" if name == "pushdown" else "process"))

    def our_search(ns: int, q: str) -> list[str]:
        hits = ours.search(q, namespace=f"ns{ns}", k=K, reinforce=False)
        return [h.entry.content.split()[0] for h in hits]

    return our_search, ours.close


def _cold_namespaces(data: Dataset) -> tuple[int, int]:
    """(cold, fresh): the two namespaces closest to 10,000 memories that no query of the run asks."""
    asked = {n for n, _ in data.queries}
    near = sorted((i for i in range(len(data.sizes)) if i not in asked),
                  key=lambda i: abs(data.sizes[i] - 10_000))
    return near[0], near[1]


def _files(cache: Path, name: str, url: str) -> list[Path]:
    """The files holding one backend's data: the SQLite file, or its database's directory."""
    if name == "sqlite":
        return [p for p in cache.glob("memory.db*") if p.is_file()]
    return page_cache.database_files(cache / "pg", url.replace("+psycopg", ""))


def _first_and_warm(search, ns: int, size: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(first search, warm p50 of the next 20) on namespace ``ns``; query texts made off the clock."""
    text0 = query_text(ns, 0)
    t0 = time.perf_counter()
    search(ns, text0)
    first = time.perf_counter() - t0
    warm = []
    for i in range(1, 21):
        text_i = query_text(ns, i % size)
        t0 = time.perf_counter()
        search(ns, text_i)
        warm.append(time.perf_counter() - t0)
    return first, float(np.median(warm))


def measure(name: str, url: str, data: Dataset, cache_bytes: int, drop_cache: bool,
            out: dict) -> None:  # type: ignore[type-arg]
    base = rss_mb()
    search, close = _searcher(name, url, cache_bytes)
    cold, fresh = _cold_namespaces(data)
    # A new connection, warmed by one search of another namespace (compiled statements), then
    # the first search of `fresh`. On PostgreSQL this also times the new server process mapping
    # the shared buffers it touches for the first time (about 3,500 page faults on the first
    # search of an 8,000-memory namespace, measured): a cost of the connection, not the namespace.
    warmup = min(range(len(data.sizes)), key=lambda i: abs(data.sizes[i] - 1_000))
    search(warmup, query_text(warmup, 0))
    fresh_first, fresh_warm = _first_and_warm(search, fresh, data.sizes[fresh])
    lat: list[float] = []
    sizes: list[int] = []
    found = returned = 0
    rss: list[tuple[int, float]] = []
    for q, (n, i) in enumerate(data.queries):
        text_q = query_text(n, i)
        t0 = time.perf_counter()
        got = search(n, text_q)
        lat.append(time.perf_counter() - t0)
        sizes.append(data.sizes[n])
        found += f"item{n}x{i}" in got
        returned += len(got) >= min(K, data.sizes[n])
        if q % max(1, len(data.queries) // 5) == 0:
            rss.append((q, rss_mb()))
    rss.append((len(data.queries), rss_mb()))
    # The same queries again: each namespace's pages are now in shared buffers (or the process
    # cache), so the gap to the first pass is what first touches cost.
    again: list[float] = []
    for n, i in data.queries:
        text_q = query_text(n, i)
        t0 = time.perf_counter()
        search(n, text_q)
        again.append(time.perf_counter() - t0)
    # The cold namespace: after the run's queries (the process and its connections are warm, as
    # a server's are), the first search of a namespace no query asked, on a server restarted
    # before this backend's run (its shared buffers held none of it); with --drop-caches the OS
    # page cache is dropped first, so its pages come from disk.
    dropped = drop_cache and page_cache.drop()
    first, warm = _first_and_warm(search, cold, data.sizes[cold])
    close()
    out[name] = {"first": first, "warm": warm, "cold_size": data.sizes[cold], "dropped": dropped,
                 "fresh_first": fresh_first, "fresh_warm": fresh_warm,
                 "fresh_size": data.sizes[fresh],
                 "lat": lat, "again": again, "sizes": sizes, "found": found / len(lat),
                 "full": returned / len(lat), "rss": rss, "base": base}


def _restart(cache: Path) -> None:
    """Stop the cluster and start it again: each backend is measured from empty shared buffers.

    (This process holds the only handle: ``cleanup`` stops the server, ``_pg`` starts it.)
    """
    _pg(cache).cleanup()  # type: ignore[attr-defined]
    _pg(cache)


def report(results: dict) -> None:  # type: ignore[type-arg]
    ms = 1000.0
    print("\nsearch latency (ms), all queries:")
    # "k returned": searches with min(k, size) hits. This store's hybrid gate drops a candidate
    # that shares no discriminative query word unless its similarity reaches
    # `gate_min_similarity`: with the fake embeddings' near-random vectors, few unrelated ones do.
    print(f"  {'backend':<10} {'p50':>7} {'p95':>7}  {'found@10':>8}  {'k returned':>10}")
    for name, r in results.items():
        lat = np.asarray(r["lat"]) * ms
        print(f"  {name:<10} {np.percentile(lat, 50):7.2f} {np.percentile(lat, 95):7.2f}  "
              f"{r['found']:8.1%}  {r['full']:10.1%}")
    print("  the same queries a second time (each namespace touched before; p50 / p95):")
    for name, r in results.items():
        again = np.asarray(r["again"]) * ms
        print(f"  {name:<10} {np.percentile(again, 50):7.2f} {np.percentile(again, 95):7.2f}")
    print("\nhow cost grows with namespace size (p50 / p95 ms, queries):")
    edges = [1, 10, 100, 1_000, 10_000, 100_000, 10**9]
    header = "  " + f"{'size':<16}" + "".join(f"{n:>22}" for n in results)
    print(header)
    for lo, hi in itertools.pairwise(edges):
        row = f"  {f'{lo:,}-{hi - 1:,}' if hi < 10**9 else f'>= {lo:,}':<16}"
        any_q = False
        for r in results.values():
            sel = [x * ms for x, s in zip(r["lat"], r["sizes"], strict=True) if lo <= s < hi]
            if sel:
                any_q = True
                row += f"{np.percentile(sel, 50):>9.2f} / {np.percentile(sel, 95):6.2f} ({len(sel):>3})"
            else:
                row += f"{'-':>22}"
        if any_q:
            print(row)
    print("\ncold namespace: first search vs warm p50 of the same namespace (ms), after the run's "
          "queries, server restarted before the backend's run"
          + (", OS page cache dropped:" if any(r["dropped"] for r in results.values()) else ":"))
    for name, r in results.items():
        print(f"  {name:<10} {r['cold_size']:>7,} memories: first {r['first'] * ms:8.1f}, "
              f"warm p50 {r['warm'] * ms:6.2f}  (x{r['first'] / r['warm']:.1f})")
    print("  on a new connection (one search before), another namespace:")
    for name, r in results.items():
        print(f"  {name:<10} {r['fresh_size']:>7,} memories: first {r['fresh_first'] * ms:8.1f}, "
              f"warm p50 {r['fresh_warm'] * ms:6.2f}  (x{r['fresh_first'] / r['fresh_warm']:.1f})")
    print("\nRSS over the run (MB; queries done: RSS):")
    for name, r in results.items():
        trail = ", ".join(f"{q}: {m:.0f}" for q, m in r["rss"])
        print(f"  {name:<10} at start {r['base']:.0f}; {trail}")
    if "pushdown" in results and "langgraph" in results:
        ours = np.percentile(results["pushdown"]["lat"], 95)
        theirs = np.percentile(results["langgraph"]["lat"], 95)
        print(f"\npushdown p95 / LangGraph PostgresStore p95 = {ours / theirs:.2f} (bar <= 0.5)")
        ours2 = np.percentile(results["pushdown"]["again"], 95)
        theirs2 = np.percentile(results["langgraph"]["again"], 95)
        print(f"  second pass: {ours2 / theirs2:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--backends", default="sqlite,pushdown,langgraph")
    parser.add_argument("--cache-mb", type=int, default=1024,
                        help="memory.indexCacheBytes of the sqlite backend, in MB")
    parser.add_argument("--cache", type=Path, default=None,
                        help="where the built dataset lives (default /tmp/tm-scale-<scale>)")
    parser.add_argument("--os-cache", choices=("warm", "cold"), default="warm",
                        help="before each backend's run, read its files into the OS page cache "
                             "(warm) or drop the cache (cold, root); shared buffers start empty")
    parser.add_argument("--drop-caches", action="store_true",
                        help="drop the OS page cache before the cold namespace's search (root)")
    parser.add_argument("--check-load", action="store_true",
                        help="compare PostgresStore loaded by COPY with loaded by its API, then exit")
    args = parser.parse_args()
    backends = [b for b in args.backends.split(",") if b]
    cache = args.cache or Path(f"/tmp/tm-scale-{args.scale:g}")
    data = Dataset.make(args.scale, args.queries)
    if args.check_load:
        check_langgraph_load(cache, data)
        return
    print(f"data: {sum(data.sizes):,} memories over {len(data.sizes):,} namespaces (Zipf sizes, "
          f"largest {max(data.sizes):,}); {len(data.queries):,} queries, Zipf activity; fake "
          f"384-d embeddings; k = {K}")
    urls = build(cache, data, backends)
    spawn = multiprocessing.get_context("spawn")
    with spawn.Manager() as manager:
        results = manager.dict()
        for name in backends:
            print(f"  measuring {name}...", flush=True)
            _restart(cache)
            state = page_cache.prepare(_files(cache, name, urls[name]), args.os_cache)
            print(f"    {state}", flush=True)
            proc = spawn.Process(target=measure,
                                 args=(name, urls[name], data, args.cache_mb << 20,
                                       args.drop_caches, results))
            proc.start()
            proc.join()
        report(dict(results))


if __name__ == "__main__":
    main()
