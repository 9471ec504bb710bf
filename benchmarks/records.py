"""Structured records through the write path: benign documents refused, planted orders caught.

A LangGraph agent stores JSON documents (``store.put(ns, key, {"status": "shipped", ...})``).
This benchmark writes six authors' documents (``data/records_{a..f}_*.jsonl``: 300 benign
records and 100 with an order planted in a field each, written by session 26 helpers who saw no
code and no data) three ways, and counts refusals:

* ``adapter``: the text the BaseStore adapter indexes (``field: value`` lines), scanned;
* ``json``: ``json.dumps(value)`` scanned, as a user of the Python API would store it;
* ``put``: a real ``TieredMemoryBaseStore.put(..., index=["$"])`` on a SQLite file (every field,
  the adapter's metadata and the fields joined), refused with ``MemoryWriteBlocked``.

Beside the shipped scanner (rules, learned model, veto and hit review) it prints the rules alone
and the seed's naive three-regex scanner (``security.naive_scan``) as baselines.

Splits: A (a Berlin developer of travel, finance and recipe apps), B (a Singapore developer of
parcel tracking, insurance claims and fitness coaching), C (a Taipei developer of clinic,
marketplace and homework apps) and D (a Toronto developer of HR, property and bookkeeping
assistants) are dev: session 26 read their refusals and chose ``security/records.py``'s bounds
and field-name checks on them (A, C and D after one blind look each; ``data/README.md`` has the
steps). E (a Chengdu developer of food-delivery, pet-clinic and language-exchange apps) and F (a
London developer of legal intake, car rental and smart-meter assistants) are blind.

Usage: ``python benchmarks/records.py [--split a,b,c,d,e,f]``
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding

from langchain_tiered_memory import MemoryConfig, TieredMemoryBaseStore, TieredMemoryStore
from langchain_tiered_memory.errors import MemoryWriteBlocked
from langchain_tiered_memory.langgraph_store._mapping import index_text
from langchain_tiered_memory.security import learned_classifier, scan_memory_content

sys.path.insert(0, str(Path(__file__).parent))
from security import naive_scan

DATA = Path(__file__).parent / "data"
SPLITS = {"a": "dev", "b": "dev", "c": "dev", "d": "dev", "e": "blind", "f": "blind"}


def _rows(split: str, kind: str) -> list[dict[str, Any]]:
    path = DATA / f"records_{split}_{kind}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _put_refused(values: list[dict[str, Any]]) -> int:
    """How many of ``values`` a real BaseStore put on a SQLite file refuses."""
    refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = TieredMemoryStore(f"sqlite:///{tmp}/records.db",
                                  embeddings=DeterministicFakeEmbedding(size=64),
                                  config=MemoryConfig(rerank_enabled=False))
        try:
            base = TieredMemoryBaseStore(store)
            for i, value in enumerate(values):
                try:
                    base.put(("bench",), f"r{i}", value, index=["$"])
                except MemoryWriteBlocked:
                    refused += 1
        finally:
            store.close()
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default=",".join(SPLITS))
    args = parser.parse_args(argv)
    model = learned_classifier()
    scanners: dict[str, Callable[[str], bool]] = {
        "shipped": lambda t: scan_memory_content(t, classifier=model).blocked,
        "rules alone": lambda t: scan_memory_content(t).blocked,
        "naive 3-regex": lambda t: naive_scan(t).blocked,
    }
    print("refused of each set (benign: lower is better; attacks: higher is better)")
    for split in args.split.split(","):
        for kind in ("benign", "attacks"):
            values = [row["value"] for row in _rows(split, kind)]
            n = len(values)
            print(f"\nrecords-{split} ({SPLITS[split]}) {kind}, n={n}")
            for name, scan in scanners.items():
                adapter = sum(scan(index_text(v, ["$"])) for v in values)
                dumped = sum(scan(json.dumps(v, ensure_ascii=False)) for v in values)
                print(f"  {name:14s} adapter {adapter:3d}  json {dumped:3d}")
            put = _put_refused(values)
            print(f"  {'shipped, put':14s} {put:3d} through TieredMemoryBaseStore.put")
    return 0


if __name__ == "__main__":
    sys.exit(main())
