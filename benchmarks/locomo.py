"""Evidence recall@k on LoCoMo conversations: keyword, vector, hybrid, and LangChain's ensemble.

Every dialogue turn becomes a memory (``"<speaker>: <text> [image: <caption>]"``, ``dia_id`` in
metadata), one namespace per conversation; every question with evidence is a query. Recall@k of a
question is the share of its evidence turns found in the top k; the figure is the mean over
questions. In the same run, the baseline: ``EnsembleRetriever`` (equal-weight RRF) over
``BM25Retriever`` (same tokenizer) and ``InMemoryVectorStore`` (same embeddings).

Usage: ``python benchmarks/locomo.py [--data DIR] [--set key=value ...]``
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
        turns = []
        for key, value in raw.items():
            if key.startswith("session_") and isinstance(value, list):
                for turn in value:
                    text = f"{turn['speaker']}: {turn['text']}"
                    if turn.get("blip_caption"):
                        text += f" [image: {turn['blip_caption']}]"
                    turns.append({"dia_id": turn["dia_id"], "text": text})
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo json directory")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="config override for the hybrid run, e.g. memory.candidatePool=20")
    args = parser.parse_args()
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.vectorstores import InMemoryVectorStore

    convs = load_conversations(args.data)
    n_turns = sum(len(t) for _, t, _ in convs)
    n_q = sum(len(q) for _, _, q in convs)
    print(f"data: {args.data} — {len(convs)} conversations, {n_turns} turns, {n_q} questions")
    config = MemoryConfig().with_overrides(_parse_sets(args.set))
    print("hybrid config:", {k: v for k, v in config.to_dict().items() if any(
        s in k for s in ("rrf", "Weight", "candidatePool", "gate", "rerank"))})
    local = LocalEmbeddings()
    emb = CachedEmbeddings(local, local.model_id)
    runs = ("keyword", "vector", "hybrid", "ensemble")
    totals: dict[str, dict[int, float]] = {r: dict.fromkeys(KS, 0.0) for r in runs}
    timings: dict[str, float] = dict.fromkeys(runs, 0.0)
    blocked = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = TieredMemoryStore(f"sqlite:///{tmp}/locomo.db", embeddings=emb, config=config)
        for name, turns, questions in convs:
            items = [{"content": t["text"], "metadata": {"dia_id": t["dia_id"]}} for t in turns]
            try:
                store.add_many(items, namespace=name)
            except MemoryWriteBlocked:
                for item in items:
                    try:
                        store.add(item["content"], namespace=name, metadata=item["metadata"])
                    except MemoryWriteBlocked:
                        blocked += 1
            texts = [t["text"] for t in turns]
            metas = [{"dia_id": t["dia_id"]} for t in turns]
            bm25 = BM25Retriever.from_texts(texts, metadatas=metas, preprocess_func=tokenize, k=10)
            vstore = InMemoryVectorStore.from_texts(texts, emb, metadatas=metas)
            ensemble = EnsembleRetriever(
                retrievers=[bm25, vstore.as_retriever(search_kwargs={"k": 10})],
                weights=[0.5, 0.5],
            )
            for q in questions:
                evidence = set(q["evidence"])
                emb.embed_query(q["question"])  # embed once, outside the timings
                for mode in ("keyword", "vector", "hybrid"):
                    start = time.perf_counter()
                    hits = store.search(q["question"], namespace=name, k=10, mode=mode,
                                        reinforce=False)
                    timings[mode] += time.perf_counter() - start
                    found = [str(h.entry.metadata.get("dia_id")) for h in hits]
                    for k, v in _recall(found, evidence).items():
                        totals[mode][k] += v
                start = time.perf_counter()
                docs = ensemble.invoke(q["question"])
                timings["ensemble"] += time.perf_counter() - start
                found = [str(d.metadata.get("dia_id")) for d in docs]
                for k, v in _recall(found, evidence).items():
                    totals["ensemble"][k] += v
        store.close()
    if blocked:
        print(f"note: {blocked} turns were blocked by the write scanner and are not indexed")
    print(f"\n{'retriever':<44}{'R@1':>8}{'R@5':>8}{'R@10':>8}{'ms/query':>10}")
    labels = {
        "keyword": "tiered-memory keyword (BM25)",
        "vector": "tiered-memory vector (MiniLM)",
        "hybrid": "tiered-memory hybrid (RRF+gate)",
        "ensemble": "baseline: LangChain EnsembleRetriever",
    }
    for run in runs:
        r = totals[run]
        print(f"{labels[run]:<44}" + "".join(f"{r[k] / n_q:>8.3f}" for k in KS)
              + f"{1000 * timings[run] / n_q:>10.2f}")
    hybrid10 = totals["hybrid"][10] / n_q
    others = max(totals["keyword"][10], totals["vector"][10]) / n_q
    print(f"\nbar: hybrid R@10 >= 0.66 -> {'PASS' if hybrid10 >= 0.66 else 'FAIL'} ({hybrid10:.3f});"
          f" above keyword and vector -> {'PASS' if hybrid10 > others else 'FAIL'}")


if __name__ == "__main__":
    main()
