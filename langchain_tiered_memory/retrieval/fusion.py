"""Fusion of the keyword and vector candidate lists: pure functions and the strategies built on them.

Two strategies, chosen by ``memory.fusion``:

* ``rrf`` — the spec's reciprocal rank fusion, ``Σ_i w_i / (k + rank_i)`` with k = 60. It only sees
  ranks, so a keyword hit that matches every rare word of the query weighs the same as one that
  matches a single common word.
* ``linear`` (the default) — a weighted sum of three features of each candidate, each in [0, 1]:
  its BM25 score and its vector similarity min-max normalised over the query's candidates, and its
  *coverage*, the share of the query's idf mass it contains. The weights ship in `MemoryConfig`;
  they were fitted on LoCoMo dev conversations and chosen by leave-one-conversation-out
  (``benchmarks/fusion_tuning.py`` prints the blind figures). A mostly Chinese query gives the
  similarity a smaller weight (``linear_cjk_vector_weight``): the bundled MiniLM was trained on
  English, and on the Chinese dev conversations its similarities carry less.

A strategy is any callable with the `FusionStrategy` signature; `fusion_strategy` maps a config to
one. Adding a method means one function here and one name in ``FusionName``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..config import MemoryConfig
from ..errors import InvalidInput

__all__ = [
    "FusionInput",
    "FusionStrategy",
    "coverage",
    "fusion_strategy",
    "linear_fusion",
    "min_max",
    "rrf",
]


def rrf(
    ranked_lists: Sequence[Sequence[str]],
    *,
    k: int = 60,
    weights: Sequence[float] | None = None,
    top_bonus: Sequence[float] = (),
) -> dict[str, float]:
    """Fuse ranked lists: ``score(d) = Σ_i w_i * (1 / (k + rank_i(d)) + bonus[rank_i(d)])``.

    Ranks start at 1. A list in which a document is absent adds nothing for it; a document
    repeated within one list counts at its best rank only. With the defaults (no weights, no
    bonus) this is the spec's formula exactly.

    Args:
        ranked_lists: Lists of ids, best first.
        k: The RRF constant (60 in the spec); larger flattens the rank differences.
        weights: One weight per list (default 1.0 each).
        top_bonus: Extra score for the first ranks of each list (``top_bonus[0]`` for rank 1, ...);
            empty for classic RRF.

    Returns:
        Fused score per id, in first-seen order (sort it yourself).

    Raises:
        InvalidInput: If ``weights`` does not have one entry per list, or ``k`` < 0.
    """
    if k < 0:
        raise InvalidInput("k", "must be >= 0")
    if weights is None:
        weights = [1.0] * len(ranked_lists)
    if len(weights) != len(ranked_lists):
        raise InvalidInput("weights", f"{len(weights)} weights for {len(ranked_lists)} ranked lists")
    fused: dict[str, float] = {}
    for ranked, weight in zip(ranked_lists, weights, strict=True):
        seen: set[str] = set()
        for rank, doc_id in enumerate(ranked, start=1):
            if doc_id in seen:
                continue
            seen.add(doc_id)
            bonus = top_bonus[rank - 1] if rank <= len(top_bonus) else 0.0
            fused[doc_id] = fused.get(doc_id, 0.0) + weight * (1.0 / (k + rank) + bonus)
    return fused


def min_max(values: Mapping[str, float]) -> dict[str, float]:
    """Scale scores to [0, 1] over the given ids; all-equal scores all become 1.0."""
    if not values:
        return {}
    lo, hi = min(values.values()), max(values.values())
    if hi - lo <= 1e-12:
        return dict.fromkeys(values, 1.0)
    return {d: (v - lo) / (hi - lo) for d, v in values.items()}


def coverage(
    query_terms: Sequence[str], doc_terms: frozenset[str] | set[str], idf: Callable[[str], float]
) -> float:
    """Share of the query's idf mass found in a document (0 when the query has none).

    Args:
        query_terms: The query's distinct content tokens (stop words already removed).
        doc_terms: The document's distinct tokens.
        idf: Idf of a token in the candidate's index.
    """
    total = 0.0
    found = 0.0
    for term in query_terms:
        weight = idf(term)
        total += weight
        if term in doc_terms:
            found += weight
    return found / total if total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class FusionInput:
    """What a fusion strategy sees of one query.

    Attributes:
        keyword: ``(id, bm25)`` best first (empty in vector-only recall).
        vector: ``(id, similarity)`` best first (empty in keyword-only recall).
        similarity: Vector similarity of every candidate when known (also keyword-only hits).
        coverage: `coverage` of every candidate.
        bm25: BM25 of every candidate when known (also vector-only hits, which may match the
            query below the keyword list's cut); defaults to the keyword list's scores.
        cjk: The query is mostly Chinese (``linear`` fusion then uses
            ``linear_cjk_vector_weight``).
    """

    keyword: Sequence[tuple[str, float]]
    vector: Sequence[tuple[str, float]]
    similarity: Mapping[str, float]
    coverage: Mapping[str, float]
    bm25: Mapping[str, float] | None = None
    cjk: bool = False


class FusionStrategy(Protocol):
    """Fused score per candidate id (higher is better); every candidate of either list appears."""

    def __call__(self, candidates: FusionInput, config: MemoryConfig) -> dict[str, float]: ...


def rrf_fusion(candidates: FusionInput, config: MemoryConfig) -> dict[str, float]:
    """The ``rrf`` strategy: `rrf` over the two lists with the configured k, weights and bonuses."""
    return rrf(
        [[d for d, _ in candidates.keyword], [d for d, _ in candidates.vector]],
        k=config.rrf_k,
        weights=[config.keyword_weight, config.vector_weight],
        top_bonus=(config.rrf_rank1_bonus, config.rrf_top3_bonus, config.rrf_top3_bonus),
    )


def linear_fusion(candidates: FusionInput, config: MemoryConfig) -> dict[str, float]:
    """The ``linear`` strategy: ``w_k·minmax(bm25) + w_v·minmax(similarity) + w_c·coverage``.

    A candidate whose BM25 is unknown counts as 0, and one without a known similarity as the
    lowest similarity of the query's candidates.
    """
    ids = list(dict.fromkeys([d for d, _ in candidates.keyword] + [d for d, _ in candidates.vector]))
    if not ids:
        return {}
    bm25 = dict(candidates.keyword) if candidates.bm25 is None else candidates.bm25
    kw_norm = min_max({d: bm25.get(d, 0.0) for d in ids}) if bm25 else dict.fromkeys(ids, 0.0)
    sims = {d: candidates.similarity[d] for d in ids if d in candidates.similarity}
    if sims:
        floor = min(sims.values())
        vec_norm = min_max({d: sims.get(d, floor) for d in ids})
    else:
        vec_norm = dict.fromkeys(ids, 0.0)
    wk, wv, wc = (
        config.linear_keyword_weight,
        config.linear_cjk_vector_weight if candidates.cjk else config.linear_vector_weight,
        config.linear_coverage_weight,
    )
    return {
        d: wk * kw_norm[d] + wv * vec_norm[d] + wc * candidates.coverage.get(d, 0.0) for d in ids
    }


_STRATEGIES: dict[str, FusionStrategy] = {"rrf": rrf_fusion, "linear": linear_fusion}


def fusion_strategy(config: MemoryConfig) -> FusionStrategy:
    """The strategy ``memory.fusion`` names."""
    return _STRATEGIES[config.fusion]
