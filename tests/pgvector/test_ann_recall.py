"""The shipped ANN width finds the exact nearest neighbours of real sentence vectors.

``ef_search`` is ``max(ann_min_ef, 2k)`` with ``ann_min_ef = 40``: every page the scan touches is
one a namespace's first search reads from disk. ``benchmarks/ann_recall.py`` measures the width
on 10,000 MiniLM vectors (recall@15 0.992 at 40, 0.998 at 100, half the pages); this test holds
the store's own search path to it on the real model.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_tiered_memory.store._db_vectors import ann_index_exists
from tests.pgvector.test_db_search import store_recall_of_exact

_TEXTS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "benign_everyday_en.jsonl"


def test_ann_recall_of_sentences_at_the_shipped_width_is_at_least_095(open_pg, minilm):
    texts = [json.loads(line)["text"] for line in _TEXTS.read_text(encoding="utf-8").splitlines()]
    corpus, queries = texts[:600], texts[940:]
    # The learned injection model refuses one of these chat turns (a false positive of the
    # scanner, issue 13's business); recall is what is measured here.
    s = open_pg(embeddings=minilm, config={"injection_model": "off"})
    backend = s._services.ctx.search_db
    assert backend is not None and backend.ann_min_ef == 40
    backend.ann_min_rows = 300
    s.add_many(corpus, namespace="chat")
    with s.engine.connect() as conn:
        assert ann_index_exists(conn, "chat", 384)
    assert store_recall_of_exact(s, minilm, "chat", queries) >= 0.95
