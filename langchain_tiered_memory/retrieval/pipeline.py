"""The recall pipeline after the two searches: fusion → gate and floor → rerank → importance.

`rank_candidates` is pure apart from calling the reranker it is given (which bounds its own time):
`engine.recall` runs the keyword and vector searches over a candidate source, then hands their
hits and lookups here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from ..config import MemoryConfig
from ..text import is_mostly_cjk, is_stop_word
from .fusion import FusionInput, coverage, fusion_strategy
from .gate import discriminative_tokens, passes_gate
from .rerank import apply_min_score

__all__ = ["RankedCandidate", "SupportsRerank", "rank_candidates"]

_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class RankedCandidate:
    """One recalled document with its final score and the score of each stage.

    Attributes:
        id: Document (memory entry) id.
        score: Final score: the fused (and possibly rerank-reordered) score times importance and
            tier weight. Higher is better; comparable within one query only.
        scores: Per-stage scores: ``fused`` (and ``rrf``, the same value, for older readers),
            ``coverage``, ``importance``, ``tier_weight`` always;
            ``bm25`` and ``vector`` when the document was in that list (``vector`` is the
            similarity, also when only known from ``similarity``); ``rerank`` when reranked.
    """

    id: str
    score: float
    scores: Mapping[str, float]


class SupportsRerank(Protocol):
    """What the pipeline needs from a reranker (`Reranker` fits)."""

    def rerank(self, query: str, texts: Sequence[str]) -> list[float] | None:
        """Scores for ``texts`` (higher is better), or None to keep the current order."""
        ...


def _lookup(
    source: Mapping[str, _V] | Callable[[str], _V | None] | None,
) -> Callable[[str], _V | None]:
    if source is None:
        return lambda _id: None
    if isinstance(source, Mapping):
        return source.get
    return source


RecallMode = Literal["hybrid", "keyword", "vector"]

# Effective importance is rounded before it weights a score: reinforcement and the clock move it
# by float noise between queries, and noise must not reorder hits whose relevance is equal.
_IMPORTANCE_DECIMALS = 3


def rank_candidates(
    query_tokens: Sequence[str],
    keyword_hits: Sequence[tuple[str, float]],
    vector_hits: Sequence[tuple[str, float]],
    *,
    config: MemoryConfig,
    idf: Callable[[str], float],
    max_idf: float,
    doc_tokens: Mapping[str, Collection[str]] | Callable[[str], Collection[str] | None],
    similarity: Mapping[str, float] | Callable[[str], float | None] | None = None,
    importance: Mapping[str, float] | Callable[[str], float | None] | None = None,
    tier_weight: Mapping[str, float] | Callable[[str], float | None] | None = None,
    reranker: SupportsRerank | None = None,
    query_text: str | None = None,
    doc_text: Mapping[str, str] | Callable[[str], str | None] | None = None,
    gate: bool = True,
    limit: int | None = None,
    mode: RecallMode = "hybrid",
    floor: bool | None = None,
    document_frequency: Callable[[str], int] | None = None,
    n_docs: int | None = None,
    bm25_of: Mapping[str, float] | None = None,
) -> list[RankedCandidate]:
    """Fuse, gate, rerank and weight the candidates of one query.

    Steps: the first ``max(config.candidate_pool, limit)`` hits of each list are fused by the
    strategy ``config.fusion`` names (in ``keyword`` or ``vector`` mode the one list's own scores
    stand); with ``gate``, a candidate sharing no discriminative query token is dropped unless its
    similarity reaches ``gate_min_similarity``; the relevance floor then (or alone, with ``floor``
    and no gate, or when the query has no discriminative token) drops a candidate that holds no
    query word and whose similarity is under ``min_relevance``; when ``config.rerank_enabled`` and a reranker,
    ``query_text`` and ``doc_text`` are given, the first ``rerank_top_k`` survivors are reordered by
    the reranker (keeping the top block's fused scores; ``rerank_min_score`` applies) and the rest
    keep fused order — a reranker returning None changes nothing; finally each score is multiplied
    by the document's effective importance (rounded to 3 decimals) and tier weight (1.0 if
    unknown). Equal final scores are ordered by relevance evidence: fused score, then BM25, then
    similarity, never by access history.

    Args:
        query_tokens: The tokenized query (`langchain_tiered_memory.text.tokenize`).
        keyword_hits: ``(id, bm25)`` best first; empty for vector-only recall.
        vector_hits: ``(id, similarity)`` best first; empty for keyword-only recall.
        config: Supplies the fusion, ``candidate_pool``, ``gate_*``, ``min_relevance`` and
            ``rerank_*`` settings.
        idf: Idf of a token in the keyword index (`KeywordIndex.idf`).
        max_idf: `KeywordIndex.max_idf` now.
        doc_tokens: Tokens of a candidate (a set or the stored token list).
        similarity: Vector similarity of any candidate, for keyword hits outside the vector list;
            defaults to the ``vector_hits`` scores. Unknown similarity counts as below the gate.
        importance: Effective (decayed) importance of a candidate.
        tier_weight: Tier multiplier of a candidate (``archived_weight`` for ARCHIVAL).
        reranker: Cross-encoder stage, e.g. `Reranker`.
        query_text: Raw query, for the reranker.
        doc_text: Raw text of a candidate, for the reranker.
        gate: Apply the discriminative-token gate (and the floor when the query has no
            discriminative token).
        floor: Apply the relevance floor: a candidate holding no query word needs
            ``min_relevance`` similarity (default: as ``gate``).
        limit: Return at most this many.
        mode: ``hybrid`` fuses; ``keyword`` and ``vector`` rank by their one list.
        document_frequency: Documents holding a token; with ``n_docs`` a token in most documents
            is never discriminative.
        n_docs: Live documents in the keyword index.
        bm25_of: BM25 of every candidate (also vector-only ones), for score-aware fusion.

    Returns:
        Candidates, best first.
    """
    # A caller asking for more than the pool still gets enough candidates to fill its page.
    pool = max(config.candidate_pool, limit or 0)
    kw = list(keyword_hits[:pool])
    vec = list(vector_hits[:pool])
    bm25 = dict(kw)
    vec_sim = dict(vec)
    sim_of = _lookup(similarity) if similarity is not None else vec_sim.get
    tokens_of = _lookup(doc_tokens)
    candidates = list(dict.fromkeys([d for d, _ in kw] + [d for d, _ in vec]))
    terms = {d: _as_set(tokens_of(d)) for d in candidates}
    content = [t for t in dict.fromkeys(query_tokens) if not is_stop_word(t)]
    cover = {d: coverage(content, terms[d], idf) for d in candidates}
    sims = {d: s for d in candidates if (s := sim_of(d)) is not None}
    if mode == "keyword":
        fused = {d: float(bm25.get(d, 0.0)) for d in candidates}
    elif mode == "vector":
        fused = {d: float(sims.get(d, 0.0)) for d in candidates}
    else:
        cjk = query_text is not None and is_mostly_cjk(query_text)
        fused = fusion_strategy(config)(FusionInput(kw, vec, sims, cover, bm25_of, cjk), config)
    evidence = {d: (fused[d], bm25.get(d, 0.0), sims.get(d, float("-inf"))) for d in candidates}
    order = sorted(candidates, key=lambda d: _descending(evidence[d]))

    if floor is None:
        floor = gate
    if (gate or floor) and order:
        if max_idf <= 0:
            disc = frozenset(content)
        else:
            disc = discriminative_tokens(
                query_tokens,
                idf=idf,
                max_idf=max_idf,
                min_idf_ratio=config.gate_min_idf_ratio,
                document_frequency=document_frequency,
                n_docs=n_docs,
            )
        if disc and gate:
            order = [
                d
                for d in order
                if passes_gate(terms[d], sims.get(d), discriminative=disc,
                               min_similarity=config.gate_min_similarity)
            ]
        elif config.min_relevance > 0:
            # The relevance floor: without the gate, or when no query word is rare enough to gate
            # on, a candidate still needs a query word or closeness in meaning. A vector index
            # ranks everything, so without this "qwertyuiop" would return its nearest neighbours.
            words = set(content)
            order = [
                d
                for d in order
                if not words.isdisjoint(terms[d])
                or sims.get(d, float("-inf")) >= config.min_relevance
            ]

    base = {d: fused[d] for d in order}
    rerank_scores: dict[str, float] = {}
    text_of = _lookup(doc_text)
    if (
        config.rerank_enabled
        and reranker is not None
        and query_text is not None
        and doc_text is not None
        and order
    ):
        top = order[: config.rerank_top_k]
        texts = [text_of(d) or "" for d in top]
        scores = reranker.rerank(query_text, texts)
        if scores is not None and len(scores) == len(top):
            keep = apply_min_score(scores, config.rerank_min_score)
            # Stable sort: equal rerank scores keep fused order.
            new_top = sorted(keep, key=lambda i: -scores[i])
            slots = sorted((fused[d] for d in top), reverse=True)
            for pos, i in enumerate(new_top):
                base[top[i]] = slots[pos]
                rerank_scores[top[i]] = float(scores[i])
            for i in set(range(len(top))) - set(keep):
                del base[top[i]]
            order = [top[i] for i in new_top] + order[len(top):]

    imp_of = _lookup(importance)
    tier_of = _lookup(tier_weight)
    out: list[RankedCandidate] = []
    for d in order:
        imp = imp_of(d)
        imp = 1.0 if imp is None else round(float(imp), _IMPORTANCE_DECIMALS)
        tw = tier_of(d)
        tw = 1.0 if tw is None else float(tw)
        stage: dict[str, float] = {
            "fused": fused[d],
            "rrf": fused[d],
            "coverage": cover[d],
            "importance": imp,
            "tier_weight": tw,
        }
        if d in bm25:
            stage["bm25"] = float(bm25[d])
        if d in sims:
            stage["vector"] = float(sims[d])
        if d in rerank_scores:
            stage["rerank"] = rerank_scores[d]
        out.append(RankedCandidate(d, base[d] * imp * tw, stage))
    # Stable: equal final scores keep the (rerank-adjusted) relevance order computed above.
    out.sort(key=lambda c: -c.score)
    return out if limit is None else out[:limit]


def _as_set(tokens: Collection[str] | None) -> frozenset[str] | set[str]:
    if tokens is None:
        return frozenset()
    if isinstance(tokens, (set, frozenset)):
        return tokens
    return set(tokens)


def _descending(evidence: tuple[float, float, float]) -> tuple[float, float, float]:
    return (-evidence[0], -evidence[1], -evidence[2])
