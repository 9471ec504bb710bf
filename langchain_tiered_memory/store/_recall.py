"""Recall over the store: candidates from the in-memory indexes, ranked by the pure pipeline."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Literal, Protocol

import sqlalchemy as sa

from ..decay import effective_importance
from ..errors import InvalidInput, StoreError
from ..retrieval.engine import CandidateSource, IndexSource, RecallRequest, recall
from ..retrieval.pipeline import RankedCandidate
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, SearchHit
from . import _tables as t
from ._db import db_errors, to_ts
from ._index import RowMeta
from ._reads import Reads
from ._rows import check_enum, check_ids, check_namespace, check_time
from ._shared import StoreContext

logger = logging.getLogger("langchain_tiered_memory")

SearchMode = Literal["hybrid", "keyword", "vector"]


class HitAnnotator(Protocol):
    """Adjusts a search's hits after ranking (registered with `Recall.annotate_with`)."""

    def annotate(
        self, hits: list[SearchHit], *, namespace: str, k: int, pending: bool | None = None
    ) -> list[SearchHit]:
        """The hits to return, at most ``k`` unless pairs must stay together.

        ``pending``: whether the namespace has a pending contradiction, when the search already
        read it (the pushdown statement does); ``None`` when unknown.
        """
        ...


class Recall:
    """`search`: BM25 + vectors → fusion → gate and floor → rerank → forgetting curve.

    The ranking itself is `retrieval.engine.recall`; this service feeds it a namespace's
    candidates and reads, filters, annotates and reinforces around it.
    """

    def __init__(self, ctx: StoreContext, reads: Reads) -> None:
        self._ctx = ctx
        self._reads = reads
        self._annotators: list[HitAnnotator] = []

    def annotate_with(self, annotator: HitAnnotator) -> None:
        """Run ``annotator`` on every search's hits, in registration order."""
        self._annotators.append(annotator)

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
        history: bool = False,
        min_relevance: float | None = None,
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
            history: Also return superseded versions of rewritten keys (each hit's entry says
                which: ``superseded_by`` is set on an old version). By default only the live
                version of a key is recalled.
            min_relevance: Override ``memory.minRelevance`` for this call (0 turns the relevance
                floor off, so a query ranks every candidate).

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
        if not isinstance(history, bool):
            raise InvalidInput("history", "must be a boolean")
        config = self._ctx.config
        if min_relevance is not None:
            if isinstance(min_relevance, bool) or not isinstance(min_relevance, (int, float)) or (
                not 0.0 <= min_relevance <= 1.0
            ):
                raise InvalidInput("min_relevance", "must be a number between 0 and 1")
            config = replace(config, min_relevance=float(min_relevance))
        when = self._ctx.now(now)
        filters = _Filters(tiers, types, tags, since, until, episode_id, history=history)
        if k == 0 or not query.strip():
            return []
        qvec = self._ctx.query_vector(query) if mode != "keyword" else None
        base = config.importance_decay_days
        now_ts = to_ts(when) or 0.0
        archived = config.archived_weight
        meta: dict[str, RowMeta] = {}
        rows: Mapping[str, RowMeta] = {}  # ranking metadata of the candidates' source

        def accept(i: str) -> bool:
            row = rows.get(i)
            return row is not None and filters.accept(row)

        def importance(ids: Sequence[str]) -> dict[str, float]:
            meta.update({i: rows[i] for i in ids})
            return {i: _effective(meta[i], now_ts, base) for i in ids}

        def tier_weight(ids: Sequence[str]) -> dict[str, float]:
            return {i: archived if rows[i].tier == MemoryTier.ARCHIVAL.value else 1.0 for i in ids}

        texts: dict[str, MemoryEntry] = {}

        def read_texts(ids: Sequence[str]) -> dict[str, str]:
            texts.update(self._reads.get_many(list(ids), namespace=namespace))
            return {i: e.content for i, e in texts.items()}

        use_rerank = config.rerank_enabled if rerank is None else rerank
        reranker = self._ctx.reranker() if use_rerank and mode == "hybrid" else None
        search_db = self._ctx.search_db
        pushdown = search_db if search_db is not None and search_db.pushdown else None
        tokens = tokenize(query)
        found: dict[str, MemoryEntry] = {}  # pushdown: the hits' rows, already read
        pending: bool | None = None  # pushdown: whether a contradiction waits in the namespace
        with contextlib.ExitStack() as scope:
            source: CandidateSource
            if pushdown is not None:  # search pushdown hook: filtered in SQL (store/_db_search.py)
                db = scope.enter_context(pushdown.candidates(
                    namespace, filters, model_id=self._ctx.model_id, tokens=tokens,
                    query_vector=qvec, keyword=mode != "vector",
                ))
                source, rows, accept_ids = db, db.rows, None
            else:
                index = scope.enter_context(self._ctx.index(namespace))
                source, rows = IndexSource(index.keyword, index.vectors, index.lock), index.meta
                accept_ids = accept
            ranked = recall(
                source,
                RecallRequest(tokens, qvec, k, mode, accept_ids, query),
                config=config,
                importance=importance,
                tier_weight=tier_weight,
                reranker=reranker,
                texts=read_texts if reranker is not None else None,
            )
            if pushdown is not None:  # search pushdown hook: rows came with the candidates
                found = db.entries(c.id for c in ranked)
                pending = db.pending
        if history:
            ranked = _successors_first(ranked, meta)
        entries = texts or found or self._reads.get_many([c.id for c in ranked], namespace=namespace)
        hits = [
            SearchHit(entries[c.id], c.score, dict(c.scores)) for c in ranked if c.id in entries
        ]
        for annotator in self._annotators:
            hits = annotator.annotate(hits, namespace=namespace, k=k, pending=pending)
        if reinforce and hits:
            self._reinforce(namespace, [h.entry.id for h in hits], when)
        return hits

    def reinforce(self, ids: Sequence[str], *, namespace: str, now: datetime | None = None) -> None:
        """Count entries as accessed (``access_count`` + 1, ``last_accessed`` = now).

        `search` does this for its hits unless ``reinforce=False``; integrations that filter hits
        afterwards call it for what they actually return.
        """
        check_namespace(namespace)
        ids = check_ids(ids, "ids")
        if ids:
            self._reinforce(namespace, ids, self._ctx.now(now))

    def _reinforce(self, namespace: str, ids: Sequence[str], now: datetime) -> None:
        """One UPDATE: a hit is an access (it lengthens the half-life)."""
        # Reinforcement is not a content change, so it writes no audit row; this process's
        # ranking metadata is updated here, other processes see it when they next reload.
        index = self._ctx.indexes.get(namespace)
        if index is not None:
            with index.lock:
                for i in ids:
                    row = index.meta.get(i)
                    if row is not None:
                        row.access_count += 1
                        row.last_accessed = to_ts(now) or row.last_accessed
        try:
            self._reinforce_rows(namespace, ids, now)
        except StoreError:
            # Reinforcement is bookkeeping: a read-only or busy database must not fail recall.
            logger.warning("could not record recall hits as accesses", exc_info=True)

    def _reinforce_rows(self, namespace: str, ids: Sequence[str], now: datetime) -> None:
        m = t.memories.c
        with db_errors("reinforce recalled memories"), self._ctx.write() as conn, conn.begin():
            conn.execute(
                sa.update(t.memories)
                .where(m.id.in_(list(ids)), m.namespace == namespace)
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
        *,
        history: bool = False,
    ) -> None:
        # Bad filters are refused with a typed error (a bare string is not a list of them).
        for name, value in (("tiers", tiers), ("types", types), ("tags", tags)):
            if isinstance(value, str):
                raise InvalidInput(name, "must be a list, not a string")
        self.tiers = (
            {check_enum(MemoryTier, x, "tiers").value for x in tiers} if tiers is not None else None
        )
        self.types = (
            {check_enum(MemoryType, x, "types").value for x in types} if types is not None else None
        )
        self.tags = set(tags or ())
        self.since = to_ts(check_time(since, "since"))
        self.until = to_ts(check_time(until, "until"))
        self.episode_id = episode_id
        self.history = history
        self.active = any(
            x is not None for x in (self.tiers, self.types, since, until, episode_id)
        ) or bool(self.tags)

    def accept(self, row: RowMeta) -> bool:
        if not self.history and row.superseded_by is not None:
            return False
        if self.tiers is not None and row.tier not in self.tiers:
            return False
        if self.types is not None and row.type not in self.types:
            return False
        if self.tags and not self.tags.issubset(row.tags):
            return False
        if self.since is not None and row.when < self.since:
            return False
        if self.until is not None and row.when >= self.until:
            return False
        return not (self.episode_id is not None and row.episode_id != self.episode_id)


def _effective(row: RowMeta, now_ts: float, base_days: float) -> float:
    """Effective importance from the in-memory row (USER and pinned entries never decay)."""
    if row.type == MemoryType.USER.value or row.pinned:
        return row.importance
    days = max(0.0, (now_ts - row.last_accessed) / 86400.0)
    return effective_importance(row.importance, row.access_count, days, base_days)


def _successors_first(
    ranked: list[RankedCandidate], meta: dict[str, RowMeta]
) -> list[RankedCandidate]:
    """A superseded entry never outranks its replacement when both are recalled."""
    out = list(ranked)
    for cand in ranked:
        successor = meta[cand.id].superseded_by if cand.id in meta else None
        ids = [c.id for c in out]
        if successor in ids and ids.index(successor) > ids.index(cand.id):
            out.remove(cand)
            after = ids.index(successor)  # the successor moved up by one when cand was removed
            capped = min(cand.score, out[after - 1].score)
            out.insert(after, RankedCandidate(cand.id, capped, cand.scores))
    return out
