"""Recall over the knowledge base: its own BM25 and vector indexes, merged with memory recall."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, cast

import numpy as np
import sqlalchemy as sa

from ..errors import InvalidInput
from ..retrieval import KeywordIndex
from ..retrieval.engine import IndexSource, RecallRequest, recall
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, SearchHit
from . import _tables as t
from ._db import db_errors, from_ts, loads, to_ts
from ._knowledge import Knowledge
from ._knowledge_files import (
    KNOWLEDGE_ACTIONS,
    _NamespaceKnowledge,
    merge_hits,
)
from ._recall import Recall, SearchMode
from ._rows import check_namespace
from ._shared import StoreContext
from ._tables import knowledge_chunks, knowledge_docs
from ._vectors import VectorMatrix

__all__ = ["KnowledgeSearch"]


class KnowledgeSearch:
    """`search_knowledge` and `search_with_knowledge` (memories and knowledge in one list)."""

    def __init__(self, ctx: StoreContext, knowledge: Knowledge, recall: Recall) -> None:
        self._ctx = ctx
        self._knowledge = knowledge
        self._recall = recall

    def _knowledge_index(self, namespace: str) -> _NamespaceKnowledge:
        """A namespace's chunk indexes, rebuilt when the audit log shows a knowledge change."""
        state = self._knowledge.state()
        with state.lock:
            index = state.indexes.setdefault(namespace, _NamespaceKnowledge())
        a = t.audit_log.c
        with index.lock, db_errors("load the knowledge index"), self._ctx.read() as conn:
            if index.seq < 0:
                latest = conn.execute(
                    sa.select(sa.func.max(a.seq)).where(a.namespace == namespace)
                ).scalar()
            else:
                changes = conn.execute(
                    sa.select(a.seq, a.action)
                    .where(a.namespace == namespace, a.seq > index.seq)
                    .order_by(a.seq)
                ).all()
                if not changes:
                    return index
                latest = changes[-1].seq
                if not any(c.action in KNOWLEDGE_ACTIONS for c in changes):
                    index.seq = int(latest)
                    return index
            c = knowledge_chunks.c
            rows = conn.execute(
                sa.select(c.id, c.terms, knowledge_docs.c.importance)
                .join(knowledge_docs, knowledge_docs.c.id == c.doc_id)
                .where(c.namespace == namespace)
            ).all()
            with state.lock:
                stored = self._knowledge.load_vectors(state).rows
            keyword = KeywordIndex()
            keyword.add_many((r.id, r.terms.split()) for r in rows)
            vectors = VectorMatrix()
            with_vec = [r.id for r in rows if r.id in stored and stored[r.id][0] == self._ctx.model_id]
            if with_vec:
                vectors.upsert_many(with_vec, np.stack([stored[i][1] for i in with_vec]))
            index.keyword, index.vectors = keyword, vectors
            index.importance = {r.id: float(r.importance) for r in rows}
            index.seq = int(latest or 0)
        return index

    def search_knowledge(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 4,
        mode: SearchMode = "hybrid",
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        rerank: bool | None = None,
    ) -> builtins.list[SearchHit]:
        """Recall the chunks of a namespace's knowledge base that best answer ``query``.

        The same pipeline as memories (BM25 + vectors → RRF → gate → rerank), weighted by the
        document's importance. Hits carry ``knowledge=True`` and a synthetic entry: its id is the
        chunk id, its metadata the document's plus ``doc_id``, ``chunk_index`` and ``source``.

        Args:
            query: Natural-language query.
            namespace: Whose knowledge base.
            k: How many chunks.
            mode: ``hybrid``, ``keyword`` or ``vector``.
            tags: Only documents carrying all these tags.
            since: Only documents added at or after this.
            until: Only documents added before this.
            rerank: Override ``memory.rerankEnabled`` for this call.
        """
        check_namespace(namespace)
        if not isinstance(query, str):
            raise InvalidInput("query", "must be a string")
        if mode not in ("hybrid", "keyword", "vector"):
            raise InvalidInput("mode", f"must be hybrid, keyword or vector, not {mode!r}")
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise InvalidInput("k", "must be a non-negative integer")
        if k == 0 or not query.strip():
            return []
        index = self._knowledge_index(namespace)
        if not len(index.keyword) and not len(index.vectors):
            return []
        allowed = None
        wanted = set(tags or ())
        if wanted or since is not None or until is not None:
            allowed = self._chunks_matching(namespace, wanted, since, until).__contains__
        qvec = self._ctx.query_vector(query) if mode != "keyword" else None
        use_rerank = self._ctx.config.rerank_enabled if rerank is None else rerank
        reranker = self._ctx.reranker() if use_rerank and mode == "hybrid" else None
        found: dict[str, MemoryEntry] = {}

        def read_texts(ids: Sequence[str]) -> dict[str, str]:
            found.update(self._chunk_entries(ids))
            return {i: e.content for i, e in found.items()}

        ranked = recall(
            IndexSource(index.keyword, index.vectors, index.lock),
            RecallRequest(tokenize(query), qvec, k, mode, allowed, query),
            config=self._ctx.config,
            importance=lambda ids: {i: index.importance.get(i, 0.5) for i in ids},
            reranker=reranker,
            texts=read_texts if reranker is not None else None,
        )
        if not found:
            found = self._chunk_entries([c.id for c in ranked])
        return [
            SearchHit(found[c.id], c.score, dict(c.scores), knowledge=True)
            for c in ranked
            if c.id in found  # a chunk deleted by another process since the index was read
        ]

    def _chunks_matching(
        self, namespace: str, tags: set[str], since: datetime | None, until: datetime | None
    ) -> set[str]:
        d, c = knowledge_docs.c, knowledge_chunks.c
        query = sa.select(d.id, d.tags).where(d.namespace == namespace)
        if since is not None:
            query = query.where(d.created_at >= to_ts(since))
        if until is not None:
            query = query.where(d.created_at < to_ts(until))
        with db_errors("filter the knowledge base"), self._ctx.read() as conn:
            docs = [r.id for r in conn.execute(query) if tags.issubset(loads(r.tags, []))]
            out: set[str] = set()
            for start in range(0, len(docs), 500):
                part = docs[start : start + 500]
                out.update(r[0] for r in conn.execute(sa.select(c.id).where(c.doc_id.in_(part))))
        return out

    def _chunk_entries(self, ids: Sequence[str]) -> dict[str, MemoryEntry]:
        """Chunks as `MemoryEntry` values, so knowledge hits travel like memory hits."""
        out: dict[str, MemoryEntry] = {}
        c, d = knowledge_chunks.c, knowledge_docs.c
        with db_errors("read knowledge chunks"), self._ctx.read() as conn:
            for start in range(0, len(ids), 500):
                part = list(ids[start : start + 500])
                rows = conn.execute(
                    sa.select(
                        c.id,
                        c.doc_id,
                        c.chunk_index,
                        c.content,
                        c.namespace,
                        d.source,
                        d.importance,
                        d.provenance,
                        d.tags,
                        d.metadata,
                        d.created_at,
                        d.chunk_count,
                    )
                    .join(knowledge_docs, d.id == c.doc_id)
                    .where(c.id.in_(part))
                )
                for r in rows:
                    created = cast(datetime, from_ts(r.created_at))
                    meta = {
                        **loads(r.metadata, {}),
                        "source": r.source,
                        "doc_id": r.doc_id,
                        "chunk_index": r.chunk_index,
                        "chunk_count": r.chunk_count,
                    }
                    out[r.id] = MemoryEntry(
                        id=r.id,
                        type=MemoryType.ENVIRONMENT,
                        tier=MemoryTier.SEMANTIC,
                        key=f"kb:{r.doc_id}#{r.chunk_index}",
                        content=r.content,
                        tags=tuple(loads(r.tags, [])),
                        source_session="",
                        created_at=created,
                        updated_at=created,
                        importance=r.importance,
                        access_count=0,
                        last_accessed=created,
                        embedding_id=r.id,
                        episode_id=None,
                        version=1,
                        superseded_by=None,
                        source=ProvenanceLevel(r.provenance),
                        pinned=False,
                        namespace=r.namespace,
                        metadata=meta,
                    )
        return out

    def search_with_knowledge(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 10,
        mode: SearchMode = "hybrid",
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        reinforce: bool = True,
        rerank: bool | None = None,
        now: datetime | None = None,
        **memory_filters: Any,
    ) -> builtins.list[SearchHit]:
        """Recall memories and knowledge chunks together, merged by final score.

        ``tags``, ``since`` and ``until`` filter both; ``tiers``, ``types`` and ``episode_id``
        (passed through ``memory_filters`` to `search`) filter memories only. Only memory hits
        that make the final ``k`` are reinforced.
        """
        tags = None if tags is None else list(tags)
        memory = self._recall.search(
            query,
            namespace=namespace,
            k=k,
            mode=mode,
            tags=tags,
            since=since,
            until=until,
            reinforce=False,
            rerank=rerank,
            now=now,
            **memory_filters,
        )
        knowledge = self.search_knowledge(
            query,
            namespace=namespace,
            k=k,
            mode=mode,
            tags=tags,
            since=since,
            until=until,
            rerank=rerank,
        )
        hits = merge_hits(memory, knowledge, k)
        recalled = [h.entry.id for h in hits if not h.knowledge]
        if reinforce and recalled:
            self._recall.reinforce(recalled, namespace=namespace, now=now)
        return hits



