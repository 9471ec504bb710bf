"""Reciprocal rank fusion (RRF) of ranked id lists."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rrf"]


def rrf(
    ranked_lists: Sequence[Sequence[str]],
    *,
    k: int = 60,
    weights: Sequence[float] | None = None,
    top_bonus: Sequence[float] = (),
) -> dict[str, float]:
    """Fuse ranked lists: ``score(d) = Σ_i w_i * (1 / (k + rank_i(d)) + bonus[rank_i(d)])``.

    Ranks start at 1. A list in which a document is absent adds nothing for it; a document
    repeated within one list counts at its best rank only. ``top_bonus`` is empty for classic RRF.

    Args:
        ranked_lists: Lists of ids, best first.
        k: The RRF constant (60 in the spec); larger flattens the rank differences.
        weights: One weight per list (default 1.0 each).
        top_bonus: Extra score for the first ranks of each list (``top_bonus[0]`` for rank 1,
            ...). With k = 60 plain RRF barely separates a list's first hit from its tenth, so a
            document that one path is sure of loses to one that both paths find mediocre; a small
            bonus keeps each path's conviction.

    Returns:
        Fused score per id, in first-seen order (sort it yourself).

    Raises:
        ValueError: If ``weights`` does not have one entry per list, or ``k`` < 0.
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    if weights is None:
        weights = [1.0] * len(ranked_lists)
    if len(weights) != len(ranked_lists):
        raise ValueError(f"{len(weights)} weights for {len(ranked_lists)} ranked lists")
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
