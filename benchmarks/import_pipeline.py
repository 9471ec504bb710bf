"""Import pipeline speed and memory: a synthetic 100,000-message ChatGPT export.

Measures `store.import_file` end to end (parse → episodes → facts → guarded batched writes) with
a fast hashing embedding so that the figure excludes the embedding model, and the peak RSS growth
of the process while importing. Baseline printed beside it: the same work without batching (one
`add` per fact and one `add_episode` per conversation), on a 10 % sample.

Usage: .venv/bin/python benchmarks/import_pipeline.py [--messages 100000] [--per-conv 10]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PeakRssSampler, rss_mb

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.ingest import iter_conversations
from langchain_tiered_memory.ingest.extraction import extract_facts
from langchain_tiered_memory.ingest.summary import summarize
from langchain_tiered_memory.provenance import WritePath
from langchain_tiered_memory.types import Episode

_FACTS = [
    "I prefer {x} coffee.",
    "My name is {x}.",
    "I live in {x}.",
    "I'm allergic to {x}.",
    "I want to learn {x}.",
    "Can you explain how {x} works in more detail?",
    "Thanks, that helps a lot with the {x} project.",
]
_WORDS = ["Lisbon", "Rust", "dark roast", "peanuts", "Go", "Kyoto", "Dana", "Sam", "light roast"]


class FastHashEmbeddings(Embeddings):
    """16-dim hashed bag of words: stands in for the model so the figure excludes embedding."""

    model_id = "bench/hash-16"

    def _one(self, text: str) -> list[float]:
        v = np.zeros(16, dtype=np.float32)
        for w in text.lower().split()[:64]:
            v[int(hashlib.md5(w.encode()).hexdigest()[:6], 16) % 16] += 1.0
        n = float(np.linalg.norm(v)) or 1.0
        return (v / n).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def write_export(path: Path, messages: int, per_conv: int) -> None:
    """A ChatGPT ``conversations.json`` (mapping trees), written conversation by conversation."""
    rng = np.random.default_rng(7)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for c in range(messages // per_conv):
            mapping: dict[str, dict[str, object]] = {
                "root": {"id": "root", "message": None, "parent": None, "children": ["m0"]}
            }
            for m in range(per_conv):
                role = "user" if m % 2 == 0 else "assistant"
                if role == "user":
                    text = _FACTS[int(rng.integers(len(_FACTS)))].format(
                        x=_WORDS[int(rng.integers(len(_WORDS)))]
                    )
                else:
                    text = f"Sure. Here is an answer about topic {c}-{m} with a few details."
                mapping[f"m{m}"] = {
                    "id": f"m{m}",
                    "parent": "root" if m == 0 else f"m{m - 1}",
                    "children": [f"m{m + 1}"] if m + 1 < per_conv else [],
                    "message": {
                        "id": f"m{m}",
                        "author": {"role": role},
                        "create_time": 1.7e9 + c * 100 + m,
                        "content": {"content_type": "text", "parts": [text]},
                    },
                }
            conv = {
                "title": f"Chat {c}",
                "create_time": 1.7e9 + c * 100,
                "conversation_id": f"c{c}",
                "current_node": f"m{per_conv - 1}",
                "mapping": mapping,
            }
            fh.write(("," if c else "") + json.dumps(conv))
        fh.write("]")






def _store(path: Path) -> TieredMemoryStore:
    return TieredMemoryStore(
        path, embeddings=FastHashEmbeddings(), config=MemoryConfig(rerank_enabled=False)
    )


def baseline_unbatched(export: Path, db: Path, limit: int) -> tuple[int, float]:
    """The naive pipeline: one transaction per episode and per fact."""
    store = _store(db)
    n = 0
    started = time.process_time()
    for conv in iter_conversations(export):
        if n >= limit:
            break
        n += len(conv.messages)
        ep = store.add_episode(
            Episode(f"import:{conv.id}", summarize(conv.messages) or "chat", 0,
                    len(conv.messages) - 1, (), 0.5, namespace="bench"),
            path=WritePath.IMPORT,
        )
        for f in extract_facts(conv.messages):
            store.add(f.content, namespace="bench", key=f.key, source=2, episode_id=ep.id,
                      path=WritePath.IMPORT)
    store.close()
    return n, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--per-conv", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "conversations.json"
        write_export(export, args.messages, args.per_conv)
        size_mb = export.stat().st_size / 1e6
        print(f"data: synthetic ChatGPT export, {args.messages} messages in "
              f"{args.messages // args.per_conv} conversations, {size_mb:.1f} MB")
        store = _store(Path(tmp) / "batched.db")
        rss0 = rss_mb()
        sampler = PeakRssSampler()
        sampler.start()
        started, cpu0 = time.perf_counter(), time.process_time()
        report = store.import_file(export, namespace="bench")
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu0
        sampler.stop.set()
        sampler.join()
        store.close()
        rate = report.messages / elapsed
        print(f"import_file (batched, streaming): {report.messages} messages in {elapsed:.1f} s "
              f"= {rate:,.0f} messages/s; {report.episodes} episodes, {report.facts_active} "
              f"active + {report.facts_pending} pending facts, {report.facts_duplicate} duplicate")
        load = os.getloadavg()[0]
        print(f"  CPU time {cpu:.1f} s = {report.messages / cpu:,.0f} messages per CPU-second "
              f"(machine load average {load:.1f} on {os.cpu_count()} cores; wall-clock rate "
              f"suffers when the machine is shared)")
        print(f"RSS: {rss0:.0f} MB before, peak {sampler.peak:.0f} MB during "
              f"(+{sampler.peak - rss0:.0f} MB for a {size_mb:.0f} MB file); "
              f"ru_maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
        sample = max(args.messages // 10, args.per_conv)
        n, secs = baseline_unbatched(export, Path(tmp) / "naive.db", sample)
        print(f"baseline (one transaction per write), {n} messages: "
              f"{n / secs:,.0f} messages per CPU-second")
        print(f"bar: >= 2,000 messages/s -> wall {'PASS' if rate >= 2000 else 'FAIL'}, "
              f"CPU {'PASS' if report.messages / cpu >= 2000 else 'FAIL'}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
