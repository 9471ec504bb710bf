"""How many of the exact nearest neighbours a namespace's HNSW index finds, by ``hnsw.ef_search``.

A namespace of 5,000 memories or more is searched through its own partial HNSW index
(``store/_db_vectors.py``); ``ef_search`` is ``max(DatabaseSearch.ann_min_ef, 2 k)``. Each page
the scan touches is a page the namespace's first search reads from disk, so ``ef_search`` trades
recall against a cold search's cost. Printed, per ``ef_search`` and k: mean recall@k against an
exact scan, the 5th-percentile query's recall, and the pages (shared buffers) per scan, with the
store's default and the earlier default (100) marked.

Data (nothing of it is printed):

* **sentences**: real all-MiniLM-L6-v2 vectors (the store's `LocalEmbeddings`) of English texts:
  the LoCoMo dev conversations' turns, observations and summaries (``--locomo``), the everyday
  benign chat turns, and the older security sets' texts (``security_attacks``,
  ``security_benign``, ``security_fresh_<a-z>``: dev sets, used here only as sentences).
  Deduplicated, 20-1,000 characters, shuffled (seed 0); 200 held out of the corpus as queries,
  beside up to 300 LoCoMo questions. Namespaces of the first 5,000 and 10,000 texts.
* **random**: 10,000 Gaussian unit vectors and 300 random queries: HNSW's worst case (no
  structure to walk), printed so that nobody reads the sentence figures as a property of the index.

The table and its partial indexes are built like the store's (``vector_ip_ops`` on
``embedding::vector(384)``, ``WHERE`` the namespace; pgvector's defaults m = 16,
ef_construction = 64) in a throwaway pgserver cluster (PostgreSQL 16, pgvector 0.6).

Run: ``HF_HUB_OFFLINE=1 python benchmarks/ann_recall.py`` (about 5 minutes, most of it embedding
about 12,000 texts on two cores; ``--cache DIR`` keeps the vectors between runs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pgserver
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.store._db_search import DatabaseSearch

DATA = Path(__file__).resolve().parent / "data"
LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo-dev"
EFS = (15, 20, 30, 40, 60, 100)
KS = (10, 15)
DIM = 384
EARLIER_DEFAULT = 100


def _keep(text: object) -> bool:
    return isinstance(text, str) and 20 <= len(text.strip()) <= 1000


def _locomo(folder: Path) -> tuple[list[str], list[str]]:
    texts: list[object] = []
    questions: list[object] = []
    for path in sorted(folder.glob("*.json")):
        conv = json.loads(path.read_text(encoding="utf-8"))
        for key, value in conv.items():
            if key.startswith("session_") and isinstance(value, list):
                texts += [turn.get("text") for turn in value if isinstance(turn, dict)]
            elif key.endswith("_observation") and isinstance(value, dict):
                texts += [item[0] for items in value.values() for item in items if item]
            elif key.endswith("_summary") and isinstance(value, str):
                texts.append(value)
            elif key == "qa":
                questions += [q.get("question") for q in value if isinstance(q, dict)]
    return ([t.strip() for t in texts if isinstance(t, str) and _keep(t)],
            [q.strip() for q in questions if isinstance(q, str) and _keep(q)])


def sentences(locomo: Path, corpus: int, held: int, qa: int) -> tuple[list[str], list[str]]:
    """(corpus texts, query texts): distinct texts, shuffled with seed 0."""
    turns, questions = _locomo(locomo)
    files = [DATA / "benign_everyday_en.jsonl", DATA / "security_attacks.jsonl",
             DATA / "security_benign.jsonl", *sorted(DATA.glob("security_fresh_[a-z]_*.jsonl"))]
    others: list[object] = [json.loads(line).get("text") for f in files
              for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    pool = list(dict.fromkeys(turns + [t.strip() for t in others if isinstance(t, str) and _keep(t)]))
    rng = random.Random(0)
    rng.shuffle(pool)
    questions = list(dict.fromkeys(questions))
    return pool[held:held + corpus], pool[:held] + rng.sample(questions, min(qa, len(questions)))


def _embed(texts: list[str], cache: Path | None) -> np.ndarray:
    key = hashlib.sha256("\0".join(texts).encode()).hexdigest()[:16]
    path = cache / f"ann_recall_{key}.npy" if cache else None
    if path is not None and path.exists():
        return np.load(path)
    vectors = np.asarray(LocalEmbeddings().embed_documents(texts), dtype=np.float32)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.standard_normal((n, DIM))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _literal(v: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.9g}" for x in v.tolist()) + "]"


def _load(conn: psycopg.Connection, ns: str, vectors: np.ndarray) -> None:
    with conn.cursor() as cur, cur.copy("COPY v (id, ns, embedding) FROM STDIN") as copy:
        for i, row in enumerate(vectors):
            copy.write_row((i, ns, _literal(row)))
    conn.execute("SET maintenance_work_mem = '1GB'")
    conn.execute(f"CREATE INDEX v_{ns} ON v USING hnsw ((embedding::vector({DIM})) vector_ip_ops)"
                 f" WHERE ns = '{ns}'")
    conn.commit()


def measure(conn: psycopg.Connection, ns: str, vectors: np.ndarray,
            queries: np.ndarray) -> list[tuple[int, int, float, float, float]]:
    """(k, ef, mean recall@k, 5th-percentile recall, pages per scan) for each k and ef."""
    exact = np.argsort(-(queries @ vectors.T), axis=1, kind="stable")
    literals = [_literal(q) for q in queries]
    conn.execute("SET enable_sort = off")  # as the store's scan: the planner keeps to the index
    out = []
    for k in KS:
        sql = (f"SELECT id FROM v WHERE ns = '{ns}'"
               f" ORDER BY embedding::vector({DIM}) <#> %s::vector({DIM}) LIMIT {k}")
        explain = "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) " + sql
        for ef in EFS:
            conn.execute(f"SET hnsw.ef_search = {ef}")
            recalls, pages = [], []
            for qi, lit in enumerate(literals):
                plan = conn.execute(explain, (lit,)).fetchone()[0][0]["Plan"]  # type: ignore[index]
                assert "Index Scan" in json.dumps(plan), "the scan is not the HNSW index's"
                got = {int(r[0]) for r in conn.execute(sql, (lit,))}
                recalls.append(len(got & set(exact[qi, :k].tolist())) / k)
                pages.append(plan["Shared Hit Blocks"] + plan["Shared Read Blocks"])
            out.append((k, ef, float(np.mean(recalls)), float(np.percentile(recalls, 5)),
                        float(np.mean(pages))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--cache", type=Path, default=None, help="keep the vectors here")
    args = parser.parse_args()
    default = int((DatabaseSearch.__init__.__kwdefaults__ or {})["ann_min_ef"])
    corpus, queries = sentences(args.locomo, 10_000, 200, 300)
    t0 = time.perf_counter()
    vectors = _embed(corpus + queries, args.cache)
    print(f"sentences: {len(corpus):,} texts, {len(queries)} queries (200 held-out texts, "
          f"{len(queries) - 200} LoCoMo questions); MiniLM vectors in "
          f"{time.perf_counter() - t0:.0f}s")
    sets = {"sentences 5,000": (vectors[:5_000], vectors[len(corpus):]),
            "sentences 10,000": (vectors[:10_000], vectors[len(corpus):])}
    rng = np.random.default_rng(1)
    sets["random 10,000"] = (_unit(rng, 10_000), _unit(rng, 300))
    with tempfile.TemporaryDirectory() as tmp:
        server = pgserver.get_server(tmp, cleanup_mode="stop")
        try:
            with psycopg.connect(server.get_uri()) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                conn.execute("CREATE TABLE v (id int, ns text, embedding vector)")
                conn.commit()
                names = {label: f"n{i}" for i, label in enumerate(sets)}
                for label, (data, _) in sets.items():
                    _load(conn, names[label], data)
                conn.execute("ANALYZE v")
                conn.commit()
                conn.autocommit = True
                print(f"\nrecall@k of the partial HNSW index against an exact scan; store default "
                      f"ef_search = max({default}, 2k) (*), earlier default {EARLIER_DEFAULT} (b)")
                print(f"  {'data':<17} {'k':>3} {'ef':>4}  {'recall':>6}  {'p5':>5}  {'pages':>6}")
                for label, (data, qs) in sets.items():
                    for k, ef, mean, p5, pages in measure(conn, names[label], data, qs):
                        mark = ("*" if ef == max(default, 2 * k) else
                                "b" if ef == max(EARLIER_DEFAULT, 2 * k) else " ")
                        print(f"  {label:<17} {k:>3} {ef:>4}{mark} {mean:6.3f}  {p5:5.2f}  "
                              f"{pages:6.0f}")
        finally:
            server.cleanup()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
