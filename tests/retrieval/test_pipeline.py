"""rank_candidates: RRF → gate → rerank → importance × tier weight, on a hand-computed example."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.retrieval import RankedCandidate, rank_candidates

KW = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
VEC = [("b", 0.9), ("d", 0.8), ("a", 0.1)]
TOKENS = {"a": ["cat", "x"], "b": ["common"], "c": ["common"], "d": ["y"]}
IDF = {"cat": 2.0, "common": 0.1, "x": 2.0, "y": 2.0}
TEXT = {d: f"text of {d}" for d in TOKENS}
# The hand-computed examples are for classic RRF; the top-rank bonus has its own test.
_CLASSIC: dict[str, Any] = {"fusion": "rrf", "rrf_rank1_bonus": 0.0, "rrf_top3_bonus": 0.0}
CFG = MemoryConfig(gate_min_similarity=0.3, gate_min_idf_ratio=0.2, rerank_top_k=2, **_CLASSIC)
# Fused: a = 1/61 + 1/63, b = 1/62 + 1/61, c = 1/63, d = 1/62  ->  b, a, d, c
F = {"a": 1 / 61 + 1 / 63, "b": 1 / 62 + 1 / 61, "c": 1 / 63, "d": 1 / 62}


class FakeReranker:
    def __init__(self, scores: dict[str, float] | None) -> None:
        self.scores = scores
        self.calls: list[tuple[str, list[str]]] = []

    def rerank(self, query: str, texts: Sequence[str]) -> list[float] | None:
        self.calls.append((query, list(texts)))
        if self.scores is None:
            return None
        return [self.scores[t.removeprefix("text of ")] for t in texts]


def _rank(**kwargs: Any) -> list[RankedCandidate]:
    args: dict[str, Any] = {
        "config": CFG, "idf": lambda t: IDF.get(t, 0.0), "max_idf": 2.0, "doc_tokens": TOKENS,
    }
    args.update(kwargs)
    return rank_candidates(["cat", "common"], KW, VEC, **args)


def test_rrf_then_gate() -> None:
    out = _rank()
    # "c" only matches "common" (idf 0.1 < 0.2 * 2.0) and has no known similarity: gated out.
    assert [c.id for c in out] == ["b", "a", "d"]
    assert [c.score for c in out] == pytest.approx([F["b"], F["a"], F["d"]])
    b = out[0].scores
    assert b["rrf"] == pytest.approx(F["b"])
    assert b["bm25"] == 2.0 and b["vector"] == 0.9
    assert b["importance"] == 1.0 and b["tier_weight"] == 1.0
    assert "rerank" not in b and "bm25" not in out[2].scores


def test_gate_off_keeps_everything() -> None:
    assert [c.id for c in _rank(gate=False)] == ["b", "a", "d", "c"]


def test_similarity_lookup_rescues_keyword_only_candidate() -> None:
    out = _rank(similarity={"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.8})
    assert [c.id for c in out] == ["b", "a", "d", "c"]
    assert out[-1].scores["vector"] == 0.5


def test_importance_and_tier_weight_multiply() -> None:
    out = _rank(importance={"b": 0.5}, tier_weight=lambda d: 0.5 if d == "d" else None)
    # a = F[a]; b = F[b] * 0.5; d = F[d] * 0.5
    assert [c.id for c in out] == ["a", "b", "d"]
    assert [c.score for c in out] == pytest.approx([F["a"], F["b"] * 0.5, F["d"] * 0.5])
    assert out[1].scores["importance"] == 0.5
    assert out[2].scores["tier_weight"] == 0.5


def test_rerank_reorders_top_k_only_and_keeps_score_scale() -> None:
    reranker = FakeReranker({"a": 0.9, "b": 0.1, "d": 5.0})
    out = _rank(reranker=reranker, query_text="q", doc_text=TEXT)
    # Only the top 2 (b, a) are reranked; d keeps its RRF place even with a higher rerank score.
    assert reranker.calls == [("q", ["text of b", "text of a"])]
    assert [c.id for c in out] == ["a", "b", "d"]
    assert [c.score for c in out] == pytest.approx([F["b"], F["a"], F["d"]])
    assert out[0].scores["rerank"] == 0.9 and "rerank" not in out[2].scores


def test_rerank_none_keeps_rrf_order() -> None:
    out = _rank(reranker=FakeReranker(None), query_text="q", doc_text=TEXT)
    assert [c.id for c in out] == ["b", "a", "d"]


def test_rerank_disabled_or_without_texts_is_not_called() -> None:
    reranker = FakeReranker({"a": 0.9, "b": 0.1})
    _rank(reranker=reranker, query_text="q", doc_text=TEXT,
          config=MemoryConfig(rerank_enabled=False, rerank_top_k=2, **_CLASSIC))
    _rank(reranker=reranker, query_text=None, doc_text=TEXT)
    assert reranker.calls == []


def test_rerank_min_score_drops_low_unless_all() -> None:
    cfg = MemoryConfig(rerank_top_k=2, rerank_min_score=0.5, **_CLASSIC)
    out = _rank(reranker=FakeReranker({"a": 0.9, "b": 0.1}), query_text="q", doc_text=TEXT,
                config=cfg)
    assert [c.id for c in out] == ["a", "d"]
    out = _rank(reranker=FakeReranker({"a": 0.2, "b": 0.1}), query_text="q", doc_text=TEXT,
                config=cfg)
    assert [c.id for c in out] == ["a", "b", "d"]


def test_pool_weights_limit_and_empty() -> None:
    cfg = MemoryConfig(candidate_pool=1, keyword_weight=2.0, vector_weight=1.0, **_CLASSIC)
    out = _rank(config=cfg, gate=False)
    assert [c.id for c in out] == ["a", "b"]
    assert out[0].score == pytest.approx(2 / 61)
    assert len(_rank(limit=1)) == 1
    assert rank_candidates([], [], [], config=CFG, idf=lambda t: 0.0, max_idf=0.0,
                           doc_tokens={}) == []


def test_top_rank_bonus_keeps_a_confident_first_hit_on_top() -> None:
    # "solo" is BM25's first hit and absent from the vector list; "both" is third in each.
    kw = [("solo", 9.0), ("x", 5.0), ("both", 4.0)]
    vec = [("y", 0.9), ("z", 0.8), ("both", 0.7)]
    tokens = {"solo": {"t"}, "x": {"t"}, "both": {"t"}, "y": {"t"}, "z": {"t"}}

    def run(cfg: MemoryConfig) -> list[str]:
        ranked = rank_candidates(["t"], kw, vec, config=cfg, idf=lambda _t: 1.0, max_idf=1.0,
                                 doc_tokens=tokens, gate=False)
        return [c.id for c in ranked]

    # Classic RRF: both = 2/63 = 0.0317 beats solo = 1/61 = 0.0164.
    assert run(MemoryConfig(**_CLASSIC))[0] == "both"
    # With the bonus: solo = 1/61 + 0.05 = 0.0664; both = 2 * (1/63 + 0.02) = 0.0717; y = 0.0664.
    cfg = MemoryConfig(fusion="rrf", rrf_rank1_bonus=0.05, rrf_top3_bonus=0.02)
    ranked = rank_candidates(["t"], kw, vec, config=cfg, idf=lambda _t: 1.0, max_idf=1.0,
                             doc_tokens=tokens, gate=False)
    scores = {c.id: c.scores["rrf"] for c in ranked}
    assert abs(scores["solo"] - (1 / 61 + 0.05)) < 1e-12
    assert abs(scores["both"] - 2 * (1 / 63 + 0.02)) < 1e-12
    assert abs(scores["x"] - (1 / 62 + 0.02)) < 1e-12
