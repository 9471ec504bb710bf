"""A search of a namespace nobody has searched yet reads few pages: what it reads comes from disk.

Measured at 1,000,000 memories (``benchmarks/scale.py``): a cold search of a 10,000-memory
namespace read 2,600 pages, of which 690 were postings of the keyword rescore spread over the
heap by a batch write, and about 280 were vectors and memory rows of ANN hits it never returned.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sqlalchemy as sa

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._db_statement import SearchShape, VectorParameter, search_rows
from langchain_tiered_memory.store._db_vectors import ann_index_exists, ann_index_name
from langchain_tiered_memory.text import tokenize
from tests.pgvector.conftest import NO_FILTER, RandomEmbeddings


def _fetched(conn: sa.Connection, index: str) -> int:
    """Heap rows this transaction has fetched through ``index`` so far (counted on the index)."""
    return int(conn.execute(sa.text("SELECT pg_stat_get_xact_tuples_fetched(CAST(:i AS regclass))"),
                            {"i": index}).scalar_one())


def _indexed(open_pg: Any) -> tuple[TieredMemoryStore, RandomEmbeddings]:
    """A store whose namespace "big" (400 memories) has its own HNSW index."""
    emb = RandomEmbeddings()
    s = open_pg(embeddings=emb)
    backend = s._services.ctx.search_db
    assert backend is not None
    backend.ann_min_rows = 300
    s.add_many([f"note {i} about nothing" for i in range(400)], namespace="big")
    return s, emb


def test_an_ann_list_is_cut_at_the_overfetch_before_its_rows_are_read(open_pg):
    s, emb = _indexed(open_pg)
    query = np.asarray(emb.embed_query("a query"), dtype=np.float32)
    k, over, ef = 5, 10, 100
    with s.engine.connect() as conn, conn.begin():
        assert ann_index_exists(conn, "big", emb.dim)
        shape = SearchShape(keyword=False, exact=False, similarity=True, overfetch=True, ann=True)
        index = ann_index_name("big", emb.dim)
        before = _fetched(conn, index)
        rows = search_rows(conn, shape, NO_FILTER, namespace="big", tokens=[], k=k,
                           query_vector=VectorParameter.of(query), dim=emb.dim,
                           model_id=emb.model_id, over=over, ef=ef)
        fetched = _fetched(conn, index) - before
    assert sorted(r.vec_rank for r in rows) == list(range(1, k + 1))
    # The scan walks ef_search candidates; only the first ``over`` are read from the table
    # (it read all ``ef`` before).
    assert fetched <= over, fetched


def test_the_ann_cut_keeps_the_nearest_in_order(open_pg):
    s, emb = _indexed(open_pg)
    query = np.asarray(emb.embed_query("another query"), dtype=np.float32)
    shape = SearchShape(keyword=False, exact=False, similarity=True, overfetch=True, ann=True)
    uncut = SearchShape(keyword=False, exact=False, similarity=True, overfetch=False, ann=True)
    with s.engine.connect() as conn, conn.begin():
        args: dict[str, Any] = {"namespace": "big", "tokens": [], "k": 8, "dim": emb.dim,
                "query_vector": VectorParameter.of(query), "model_id": emb.model_id, "ef": 100}
        cut = search_rows(conn, shape, NO_FILTER, over=8, **args)
        whole = search_rows(conn, uncut, NO_FILTER, over=8, **args)
    ranked = sorted((r.vec_rank, r.id, r.similarity) for r in cut)
    assert ranked == sorted((r.vec_rank, r.id, r.similarity) for r in whole)
    assert len(ranked) == 8


def test_a_batch_writes_each_documents_postings_together(open_pg):
    s = open_pg()
    # Enough documents that the write's aggregate is hashed, each with a dozen terms, most
    # of them shared: grouped by term, one document's postings would land on a dozen pages.
    words = [f"w{j}" for j in range(40)]
    rng = np.random.default_rng(3)
    texts = [" ".join([f"doc{i}", *rng.choice(words, 11, replace=False)]) for i in range(1500)]
    ids = s.add_many(texts, namespace="bulk")
    assert len(ids) == 1500
    p = t.search_postings.c
    with s.engine.connect() as conn:
        blocks = conn.execute(
            sa.select(p.doc_id,
                      sa.func.count(sa.distinct(sa.text("(ctid::text::point)[0]"))).label("n"))
            .where(p.namespace == "bulk")
            .group_by(p.doc_id)
        ).all()
    assert len(blocks) == 1500
    # A document's twelve postings fit in one page; at a page boundary they take two.
    assert max(b.n for b in blocks) <= 2
    assert len(tokenize(texts[0])) == 12
