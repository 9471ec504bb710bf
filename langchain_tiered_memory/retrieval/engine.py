"""The one recall engine: candidates from a source → fusion → gate and floor → rerank → importance.

Memories, knowledge-base chunks and episodes are all searched through `recall`. Each plugs in as a
`CandidateSource`: a keyword index (BM25 hits with scores, idf, document frequencies, a document's
terms) and a vector index (hits with similarities), plus a lock under which both are read. What
differs between them — which rows a filter accepts, how important a row is, where its text lives —
is passed in as plain callables, so the engine never knows about SQL or tables.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..config import MemoryConfig
from .keyword import KeywordIndex
from .pipeline import RankedCandidate, RecallMode, SupportsRerank, rank_candidates

__all__ = [
    "CandidateSource",
    "IndexSource",
    "KeywordSearch",
    "RecallRequest",
    "VectorSearch",
    "recall",
]


class KeywordSearch(Protocol):
    """What the engine needs of a keyword index (`KeywordIndex` fits; so does a database's)."""

    def __len__(self) -> int:
        """Live documents (the BM25 ``N``)."""
        ...

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[str, float]]:
        """Top-``k`` ``(id, BM25)`` pairs matching a query token, best first."""
        ...

    def score_ids(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        """BM25 of the given documents."""
        ...

    def terms_of(self, doc_id: str) -> frozenset[str]:
        """A document's distinct tokens."""
        ...

    def idf(self, token: str) -> float:
        """A token's (never negative) idf."""
        ...

    def document_frequency(self, token: str) -> int:
        """How many live documents hold a token."""
        ...

    def max_idf(self) -> float:
        """The idf of a token found in exactly one document."""
        ...


class VectorSearch(Protocol):
    """What the engine needs of a vector index (the store's ``VectorMatrix`` fits)."""

    def search(
        self, query: np.ndarray, k: int, *, allowed: Callable[[str], bool] | None = None
    ) -> list[tuple[str, float]]:
        """Top-``k`` ``(id, cosine similarity)`` pairs, best first."""
        ...

    def similarities(self, query: np.ndarray, ids: Iterable[str]) -> dict[str, float]:
        """Similarity of ``query`` to each of ``ids`` that has a vector."""
        ...


class CandidateSource(Protocol):
    """A searchable collection: its keyword index, its vector index, and their lock."""

    @property
    def keyword(self) -> KeywordSearch:
        """BM25 over the collection's terms."""
        ...

    @property
    def vectors(self) -> VectorSearch:
        """Vectors of the collection's items."""
        ...

    @property
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """Held while both indexes are read, so a concurrent write is seen whole or not at all."""
        ...


@dataclass(frozen=True, slots=True)
class IndexSource:
    """A `CandidateSource` over two indexes that are already in memory."""

    keyword: KeywordIndex
    vectors: VectorSearch
    lock: contextlib.AbstractContextManager[Any] = field(default_factory=threading.RLock)


@dataclass(frozen=True, slots=True)
class RecallRequest:
    """One query, as the engine sees it.

    Attributes:
        tokens: The tokenized query.
        query_vector: The query's unit vector (``None`` in keyword mode or without embeddings).
        k: How many results.
        mode: ``hybrid`` fuses both lists; ``keyword`` / ``vector`` rank by one list, ungated.
        accept: Which candidate ids the caller's filters allow (``None``: all).
        query_text: The raw query, for the reranker.
    """

    tokens: Sequence[str]
    query_vector: np.ndarray | None
    k: int
    mode: RecallMode = "hybrid"
    accept: Callable[[str], bool] | None = None
    query_text: str | None = None


def recall(
    source: CandidateSource,
    request: RecallRequest,
    *,
    config: MemoryConfig,
    importance: Callable[[Sequence[str]], Mapping[str, float]] | None = None,
    tier_weight: Callable[[Sequence[str]], Mapping[str, float]] | None = None,
    reranker: SupportsRerank | None = None,
    texts: Callable[[Sequence[str]], Mapping[str, str]] | None = None,
) -> list[RankedCandidate]:
    """Rank a source's items for one query.

    Each list contributes ``max(candidate_pool, k)`` candidates that pass ``request.accept``;
    when the filter rejects many, the search widens (4× per round) until the pool is full or the
    index is exhausted, so a filtered query still gets its ``k`` when they exist.

    Args:
        source: Where the candidates come from.
        request: The query.
        config: Pool size, fusion, gate, floor and rerank settings.
        importance: Effective importance of candidate ids (read under the source's lock).
        tier_weight: Tier multiplier of candidate ids (read under the source's lock).
        reranker: The rerank stage, used in hybrid mode only; needs ``texts``.
        texts: Text of candidate ids for the reranker (called outside the lock; may do I/O).

    Returns:
        At most ``request.k`` candidates, best first.
    """
    if request.k <= 0:
        return []
    pool = max(config.candidate_pool, request.k)
    with source.lock:
        kw, vec = _gather(source, request, pool)
        keep = list(dict.fromkeys([i for i, _ in kw] + [i for i, _ in vec]))
        keyword = source.keyword
        similarity = dict(vec)
        if request.query_vector is not None:
            missing = [i for i in keep if i not in similarity]
            similarity.update(source.vectors.similarities(request.query_vector, missing))
        doc_terms = {i: keyword.terms_of(i) for i in keep}
        bm25 = keyword.score_ids(request.tokens, keep) if request.mode == "hybrid" else None
        idf = {tok: keyword.idf(tok) for tok in set(request.tokens)}
        df = {tok: keyword.document_frequency(tok) for tok in idf}
        max_idf = keyword.max_idf()
        n_docs = len(keyword)
        weights = importance(keep) if importance is not None else None
        tiers = tier_weight(keep) if tier_weight is not None else None
    use_reranker = reranker if request.mode == "hybrid" and texts is not None else None
    doc_text = texts(keep) if use_reranker is not None and texts is not None else None
    return rank_candidates(
        request.tokens,
        kw,
        vec,
        config=config,
        idf=lambda tok: idf.get(tok, 0.0),
        max_idf=max_idf,
        doc_tokens=doc_terms,
        similarity=similarity,
        importance=weights,
        tier_weight=tiers,
        reranker=use_reranker,
        query_text=request.query_text,
        doc_text=doc_text,
        gate=request.mode == "hybrid",
        floor=request.mode != "keyword",
        limit=request.k,
        mode=request.mode,
        document_frequency=lambda tok: df.get(tok, 0),
        n_docs=n_docs,
        bm25_of=bm25,
    )


def _gather(
    source: CandidateSource, request: RecallRequest, pool: int
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """Up to ``pool`` accepted hits from each list (call under the source's lock)."""
    accept = request.accept
    qvec = request.query_vector if request.mode != "keyword" else None
    fetch = pool
    while True:
        kw = source.keyword.search(request.tokens, fetch) if request.mode != "vector" else []
        vec = source.vectors.search(qvec, fetch) if qvec is not None else []
        if accept is None:
            return kw[:pool], vec[:pool]
        kw_ok = [(i, s) for i, s in kw if accept(i)]
        vec_ok = [(i, s) for i, s in vec if accept(i)]
        # A list is done when it filled the pool or had nothing more to give.
        if (len(kw_ok) >= pool or len(kw) < fetch) and (len(vec_ok) >= pool or len(vec) < fetch):
            return kw_ok[:pool], vec_ok[:pool]
        fetch *= 4
