"""The recall pipeline after the two searches: RRF → gate → rerank → importance × tier weight.

`rank_candidates` is pure apart from calling the reranker it is given (which bounds its own time):
the store runs the keyword and vector searches, then hands their hits and lookups here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..config import MemoryConfig
from ..text import is_stop_word
from .fusion import rrf
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
        scores: Per-stage scores: ``rrf`` (fused), ``importance``, ``tier_weight`` always;
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
) -> list[RankedCandidate]:
    """Fuse, gate, rerank and weight the candidates of one query.

    Steps: the first ``max(config.candidate_pool, limit)`` hits of each list are fused with weighted RRF
    (``rrf_k``, ``keyword_weight``, ``vector_weight``); the discriminative-token gate drops
    candidates without a discriminative query token whose similarity is below
    ``gate_min_similarity``; when ``config.rerank_enabled`` and a reranker, ``query_text`` and
    ``doc_text`` are given, the first ``rerank_top_k`` survivors are reordered by the reranker
    (keeping the top-k block's fused scores, so they still outrank the rest; ``rerank_min_score``
    applies) and the rest keep RRF order — a reranker returning None changes nothing; finally each
    score is multiplied by the document's effective importance and tier weight (1.0 if unknown).

    Args:
        query_tokens: The tokenized query (`langchain_tiered_memory.text.tokenize`).
        keyword_hits: ``(id, bm25)`` best first; empty for vector-only recall.
        vector_hits: ``(id, similarity)`` best first; empty for keyword-only recall.
        config: Supplies the ``rrf_*``, ``*_weight``, ``candidate_pool``, ``gate_*`` and
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
        gate: Apply the discriminative-token gate.
        limit: Return at most this many.

    Returns:
        Candidates, best first.
    """
    # A caller asking for more than the pool still gets enough candidates to fill its page.
    pool = max(config.candidate_pool, limit or 0)
    kw = list(keyword_hits[:pool])
    vec = list(vector_hits[:pool])
    bm25 = dict(kw)
    vec_sim = dict(vec)
    fused = rrf(
        [[d for d, _ in kw], [d for d, _ in vec]],
        k=config.rrf_k,
        weights=[config.keyword_weight, config.vector_weight],
        top_bonus=(config.rrf_rank1_bonus, config.rrf_top3_bonus, config.rrf_top3_bonus),
    )
    # Highest fused score first; ties keep first-seen order (keyword list first).
    order = sorted(fused, key=lambda d: -fused[d])

    sim_of = _lookup(similarity) if similarity is not None else vec_sim.get
    tokens_of = _lookup(doc_tokens)
    if not gate:
        disc: frozenset[str] = frozenset()
    elif max_idf <= 0:
        # Under three documents BM25 idf is never positive: every content word of the query
        # counts as discriminative rather than none.
        disc = frozenset(t for t in query_tokens if not is_stop_word(t))
    else:
        disc = discriminative_tokens(
            query_tokens, idf=idf, max_idf=max_idf, min_idf_ratio=config.gate_min_idf_ratio
        )
    # A query without a single discriminative word gives the gate nothing to tell candidates
    # apart by: gating would only empty the result, so fusion order stands.
    if gate and order and disc:
        kept = []
        for d in order:
            toks = tokens_of(d) or ()
            if not isinstance(toks, (set, frozenset)):
                toks = set(toks)
            if passes_gate(toks, sim_of(d), discriminative=disc,
                           min_similarity=config.gate_min_similarity):
                kept.append(d)
        order = kept

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
            # Stable sort: equal rerank scores keep RRF order.
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
        imp = 1.0 if imp is None else float(imp)
        tw = tier_of(d)
        tw = 1.0 if tw is None else float(tw)
        stage: dict[str, float] = {"rrf": fused[d], "importance": imp, "tier_weight": tw}
        if d in bm25:
            stage["bm25"] = float(bm25[d])
        sim = sim_of(d)
        if sim is not None:
            stage["vector"] = float(sim)
        if d in rerank_scores:
            stage["rerank"] = rerank_scores[d]
        out.append(RankedCandidate(d, base[d] * imp * tw, stage))
    out.sort(key=lambda c: -c.score)  # stable: ties keep the fused/reranked order
    return out if limit is None else out[:limit]
