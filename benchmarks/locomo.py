"""Evidence recall@k on LoCoMo conversations: keyword, vector, hybrid, and LangChain's ensemble.

Every dialogue turn becomes a memory (``"<speaker>: <text> [image: <caption>]"``, ``dia_id`` in
metadata), one namespace per conversation; every question with evidence is a query. Recall@k of a
question is the share of its evidence turns found in the top k; the figure is the mean over
questions. In the same run, the baseline: ``EnsembleRetriever`` (equal-weight RRF) over
``BM25Retriever`` (same tokenizer) and ``InMemoryVectorStore`` (same embeddings).

``--backend pushdown`` runs this package's stores on PostgreSQL 16 + pgvector (``pgserver``), search
pushed down to the database, instead of SQLite files with in-process search.

Usage: ``python benchmarks/locomo.py [--data DIR] [--set key=value ...] [--backend sqlite|pushdown]``
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pgserver
import psycopg
from benign_memories import locomo_stored_turns
from langchain_core.embeddings import Embeddings

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.errors import MemoryWriteBlocked
from langchain_tiered_memory.text import tokenize

KS = (1, 5, 10)
DEFAULT_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo-dev"


class CachedEmbeddings(Embeddings):
    """Embeds each distinct text once, so the store and the baseline share the work."""

    def __init__(self, inner: Embeddings, model_id: str) -> None:
        self.inner = inner
        self.model_id = model_id
        self._cache: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            self._cache.update(zip(todo, self.inner.embed_documents(todo), strict=True))
        return [self._cache[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def load_conversations(data: Path) -> list[tuple[str, list[dict[str, str]], list[dict[str, Any]]]]:
    """``(name, turns, questions-with-evidence)`` per conversation file."""
    out = []
    for path in sorted(data.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        turns = locomo_stored_turns(path)
        qa = [q for q in raw.get("qa", []) if q.get("evidence")]
        out.append((path.stem, turns, qa))
    return out


def _recall(found: list[str], evidence: set[str]) -> dict[int, float]:
    return {k: len(evidence & set(found[:k])) / len(evidence) for k in KS}


def _parse_sets(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, _, raw = item.partition("=")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


RUNS = (
    # (label, mode, fusion, reinforce)
    ("keyword (BM25, same text, no floor)", "keyword", None, False),
    ("vector (MiniLM)", "vector", None, False),
    ("hybrid fusion=linear (default)", "hybrid", "linear", False),
    ("hybrid fusion=rrf (seed, k=60)", "hybrid", "rrf", False),
    ("keyword, reinforce on", "keyword", None, True),
    ("vector, reinforce on", "vector", None, True),
    ("hybrid linear, reinforce on (as users run it)", "hybrid", "linear", True),
    ("hybrid rrf, reinforce on", "hybrid", "rrf", True),
)
# The context lever: each turn stored with the turn it answers (same questions, same evidence).
CONTEXT_RUNS = (
    ("keyword, turn + previous turn", "keyword"),
    ("hybrid linear, turn + previous turn", "hybrid"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo json directory")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="config override for every run, e.g. memory.candidatePool=20")
    parser.add_argument("--backend", choices=("sqlite", "pushdown"), default="sqlite",
                        help="SQLite files (in-process search) or PostgreSQL + pgvector "
                             "(search pushed down)")
    args = parser.parse_args()
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.vectorstores import InMemoryVectorStore

    from langchain_tiered_memory import TieredMemoryRetriever

    convs = load_conversations(args.data)
    n_turns = sum(len(t) for _, t, _ in convs)
    n_q = sum(len(q) for _, _, q in convs)
    print(f"data: {args.data} — {len(convs)} conversations, {n_turns} turns, {n_q} questions")
    base = MemoryConfig().with_overrides(_parse_sets(args.set))
    print("config:", {k: v for k, v in base.to_dict().items() if any(
        s in k for s in ("fusion", "linear", "rrf", "candidatePool", "gate", "minRelevance"))})
    print(f"backend: {args.backend}")
    print("retrieval goes through TieredMemoryRetriever (k=10); each run has its own namespaces,"
          " so reinforcement in one run never reaches another")
    local = LocalEmbeddings()
    emb = CachedEmbeddings(local, local.model_id)
    labels = [r[0] for r in RUNS] + [r[0] for r in CONTEXT_RUNS] + [
        "LangChain BM25Retriever (same tokenizer)",
                                     "LangChain EnsembleRetriever (BM25 + vectors)"]
    totals = {label: dict.fromkeys(KS, 0.0) for label in labels}
    per_conv: dict[str, dict[str, dict[int, float]]] = {}
    timings = dict.fromkeys(labels, 0.0)
    blocked = 0
    with tempfile.TemporaryDirectory() as tmp:
        stores = {}
        for fusion in ("linear", "rrf"):
            config = base.with_overrides({"memory.fusion": fusion, "memory.rerankEnabled": False})
            stores[fusion] = TieredMemoryStore(
                _url(args.backend, tmp, fusion), embeddings=emb, config=config
            )
        for name, turns, questions in convs:
            items = [{"content": t["text"], "metadata": {"dia_id": t["dia_id"]}} for t in turns]
            retrievers = {}
            for label, mode, fusion, reinforce in RUNS:
                store = stores[fusion or "linear"]
                namespace = f"{name}-{mode}-{reinforce}"
                blocked += _fill(store, namespace, items)
                retrievers[label] = TieredMemoryRetriever(
                    store=store, namespace=namespace, k=10, mode=mode, reinforce=reinforce
                )
            with_prev = [
                {"content": (f"{turns[i - 1]['text']}\n" if i else "") + t["text"],
                 "metadata": {"dia_id": t["dia_id"]}}
                for i, t in enumerate(turns)
            ]
            for label, mode in CONTEXT_RUNS:
                namespace = f"{name}-{mode}-context"
                blocked += _fill(stores["linear"], namespace, with_prev)
                retrievers[label] = TieredMemoryRetriever(
                    store=stores["linear"], namespace=namespace, k=10, mode=mode
                )
            texts = [t["text"] for t in turns]
            metas = [{"dia_id": t["dia_id"]} for t in turns]
            bm25 = BM25Retriever.from_texts(texts, metadatas=metas, preprocess_func=tokenize, k=10)
            vstore = InMemoryVectorStore.from_texts(texts, emb, metadatas=metas)
            retrievers[labels[-2]] = bm25
            retrievers[labels[-1]] = EnsembleRetriever(
                retrievers=[bm25, vstore.as_retriever(search_kwargs={"k": 10})],
                weights=[0.5, 0.5],
            )
            conv_totals = {label: dict.fromkeys(KS, 0.0) for label in labels}
            for q in questions:
                evidence = set(q["evidence"])
                emb.embed_query(q["question"])  # embed once, outside the timings
                for label, retriever in retrievers.items():
                    start = time.perf_counter()
                    docs = retriever.invoke(q["question"])
                    timings[label] += time.perf_counter() - start
                    found = [str(d.metadata.get("dia_id")) for d in docs]
                    for k, v in _recall(found, evidence).items():
                        totals[label][k] += v
                        conv_totals[label][k] += v / len(questions)
            per_conv[name] = conv_totals
        for store in stores.values():
            store.close()
    if blocked:
        print(f"note: {blocked} turns were blocked by the write scanner and are not indexed")
    print(f"\n{'retriever':<50}{'R@1':>8}{'R@5':>8}{'R@10':>8}{'ms/query':>10}")
    for label in labels:
        r = totals[label]
        print(f"{label:<50}" + "".join(f"{r[k] / n_q:>8.3f}" for k in KS)
              + f"{1000 * timings[label] / n_q:>10.2f}")
    print("\nper conversation (hybrid linear, reinforce on | keyword):")
    for name, conv in per_conv.items():
        h, kw = conv[RUNS[6][0]], conv[RUNS[0][0]]
        print(f"  {name:<10}" + " ".join(f"R@{k} {h[k]:.3f}|{kw[k]:.3f}" for k in KS))
    hybrid = {k: totals[RUNS[6][0]][k] / n_q for k in KS}
    keyword = {k: totals[RUNS[0][0]][k] / n_q for k in KS}
    vector = {k: totals[RUNS[1][0]][k] / n_q for k in KS}
    ok = all(hybrid[k] >= keyword[k] and hybrid[k] >= vector[k] for k in KS)
    print(f"\nhybrid >= keyword and vector at R@1/5/10 on {args.data.name}: "
          f"{'PASS' if ok else 'FAIL'}" + "".join(
              f"; R@{k} {hybrid[k]:.3f} vs {keyword[k]:.3f}" for k in KS))
    if args.data == DEFAULT_DATA:
        print(f"bar (LoCoMo dev, tuning data): R@10 >= 0.69 -> "
              f"{'PASS' if hybrid[10] >= 0.69 else 'FAIL'} ({hybrid[10]:.3f}); the linear weights"
              " were fitted on these conversations: the blind (leave-one-conversation-out)"
              " figures are printed by benchmarks/fusion_tuning.py")


_SERVERS: list[Any] = []


def _url(backend: str, tmp: str, name: str) -> str:
    """A store URL: a SQLite file, or a new pgvector database on a throwaway ``pgserver``."""
    if backend == "sqlite":
        return f"sqlite:///{tmp}/locomo-{name}.db"
    if not _SERVERS:
        _SERVERS.append(pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop"))
    host = str(_SERVERS[0].pgdata)
    with psycopg.connect(f"host={host} user=postgres dbname=postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE locomo_{name}")
    with psycopg.connect(f"host={host} user=postgres dbname=locomo_{name}", autocommit=True) as c:
        c.execute("CREATE EXTENSION vector")
    return f"postgresql+psycopg://postgres@/locomo_{name}?host={host}"


def _fill(store: TieredMemoryStore, namespace: str, items: list[dict[str, Any]]) -> int:
    """Add the turns; returns how many the write scanner refused."""
    try:
        store.add_many(items, namespace=namespace)
        return 0
    except MemoryWriteBlocked:
        blocked = 0
        for item in items:
            try:
                store.add(item["content"], namespace=namespace, metadata=item["metadata"])
            except MemoryWriteBlocked:
                blocked += 1
        return blocked


if __name__ == "__main__":
    main()
