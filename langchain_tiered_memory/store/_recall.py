"""Recall over the store: candidates from the in-memory indexes, ranked by the pure pipeline."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa

from ..decay import entry_effective_importance
from ..errors import InvalidInput
from ..retrieval import rank_candidates
from ..retrieval.rerank import Reranker
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, SearchHit
from . import _tables as t
from ._core import StoreCore
from ._db import db_errors, to_ts
from ._rows import check_namespace

SearchMode = Literal["hybrid", "keyword", "vector"]


class RecallMixin(StoreCore):
    """`search`: BM25 + vectors → RRF → gate → rerank → forgetting curve."""

    _reranker: Any = None

    def search(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 10,
        mode: SearchMode = "hybrid",
        tiers: Iterable[MemoryTier | str] | None = None,
        types: Iterable[MemoryType | str] | None = None,
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        episode_id: str | None = None,
        reinforce: bool = True,
        rerank: bool | None = None,
        now: datetime | None = None,
    ) -> list[SearchHit]:
        """Recall the ``k`` entries that best answer ``query`` in one namespace.

        Args:
            query: Natural-language query.
            namespace: Whose memories; nothing from another namespace is ever returned.
            k: How many hits.
            mode: ``hybrid`` (default), ``keyword`` (BM25 only) or ``vector`` (embeddings only).
            tiers: Only these tiers (default: all; ARCHIVAL is down-weighted).
            types: Only these memory types.
            tags: Only entries carrying all these tags.
            since: Only entries whose event time (or creation time) is at or after this.
            until: Only entries whose event time (or creation time) is before this.
            episode_id: Only entries extracted from this episode.
            reinforce: Count the hits as accesses (``access_count`` + 1, ``last_accessed`` = now).
            rerank: Override ``memory.rerankEnabled`` for this call.
            now: Override the clock (decay and reinforcement).

        Returns:
            Hits, best first, with the final score and every stage's score.
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
        when = self._now(now)
        index = self._index(namespace)
        tokens = tokenize(query)
        filters = _Filters(tiers, types, tags, since, until, episode_id)
        pool = max(self.config.candidate_pool, k * 3)
        qvec = self._query_vector(query) if mode != "keyword" else None
        while True:
            with index.lock:
                kw = index.keyword.search(tokens, pool) if mode != "vector" else []
                vec = index.vectors.search(qvec, pool) if qvec is not None else []
            ids = list(dict.fromkeys([i for i, _ in kw] + [i for i, _ in vec]))
            entries = self.get_many(ids, namespace=namespace)
            keep = {i for i, e in entries.items() if filters.accept(e)}
            exhausted = len(kw) < pool and len(vec) < pool
            if len(keep) >= k or exhausted or not filters.active:
                break
            pool *= 4
        kw = [(i, s) for i, s in kw if i in keep]
        vec = [(i, s) for i, s in vec if i in keep]
        with index.lock:
            doc_terms = {i: index.keyword.terms_of(i) for i in keep}
            vector_sims = dict(vec)
            if qvec is not None:
                missing = [i for i in keep if i not in vector_sims]
                vector_sims.update(index.vectors.similarities(qvec, missing))
            idf = {tok: index.keyword.idf(tok) for tok in set(tokens)}
            max_idf = index.keyword.max_idf()
        importance = {
            i: entry_effective_importance(entries[i], when, self.config.importance_decay_days)
            for i in keep
        }
        tier_weight = {
            i: self.config.archived_weight if entries[i].tier == MemoryTier.ARCHIVAL else 1.0
            for i in keep
        }
        use_rerank = self.config.rerank_enabled if rerank is None else rerank
        ranked = rank_candidates(
            tokens,
            kw,
            vec,
            config=self.config,
            idf=idf.__getitem__,
            max_idf=max_idf,
            doc_tokens=doc_terms,
            similarity=vector_sims,
            importance=importance,
            tier_weight=tier_weight,
            reranker=self._get_reranker() if use_rerank and mode == "hybrid" else None,
            query_text=query,
            doc_text={i: entries[i].content for i in keep},
            gate=mode == "hybrid",
        )
        hits = [SearchHit(entries[c.id], c.score, dict(c.scores)) for c in ranked[:k]]
        hits = _successors_first(hits)
        if reinforce and hits:
            self._reinforce([h.entry.id for h in hits], when)
        return hits

    def _get_reranker(self) -> Any:
        """The rerank stage, built on first use (the model itself loads lazily in it)."""
        if self._reranker is None:
            encoder = getattr(self, "_cross_encoder", None)
            if encoder is None and self.config.rerank_model is None:
                return None
            self._reranker = Reranker.from_config(self.config, encoder)
        return self._reranker

    def _reinforce(self, ids: Sequence[str], now: datetime) -> None:
        """One UPDATE: a hit is an access (it lengthens the half-life)."""
        m = t.memories.c
        with db_errors("reinforce recalled memories"), self._write() as conn, conn.begin():
            conn.execute(
                sa.update(t.memories)
                .where(m.id.in_(list(ids)))
                .values(access_count=m.access_count + 1, last_accessed=to_ts(now))
            )


class _Filters:
    def __init__(
        self,
        tiers: Iterable[MemoryTier | str] | None,
        types: Iterable[MemoryType | str] | None,
        tags: Iterable[str] | None,
        since: datetime | None,
        until: datetime | None,
        episode_id: str | None,
    ) -> None:
        self.tiers = {MemoryTier(x) for x in tiers} if tiers is not None else None
        self.types = {MemoryType(x) for x in types} if types is not None else None
        self.tags = set(tags or ())
        self.since = since
        self.until = until
        self.episode_id = episode_id
        self.active = any(
            x is not None for x in (self.tiers, self.types, since, until, episode_id)
        ) or bool(self.tags)

    def accept(self, entry: MemoryEntry) -> bool:
        if entry.status != "active":
            return False
        if self.tiers is not None and entry.tier not in self.tiers:
            return False
        if self.types is not None and entry.type not in self.types:
            return False
        if self.tags and not self.tags.issubset(entry.tags):
            return False
        when = entry.event_at or entry.created_at
        if self.since is not None and when < self.since:
            return False
        if self.until is not None and when >= self.until:
            return False
        return not (self.episode_id is not None and entry.episode_id != self.episode_id)


def _successors_first(hits: list[SearchHit]) -> list[SearchHit]:
    """A superseded entry never outranks its replacement when both are recalled."""
    position = {h.entry.id: i for i, h in enumerate(hits)}
    out = list(hits)
    for hit in hits:
        successor = hit.entry.superseded_by
        if successor in position and position[successor] > position[hit.entry.id]:
            out.remove(hit)
            out.insert(out.index(next(h for h in out if h.entry.id == successor)) + 1, hit)
    return out
