"""Hybrid recall: BM25, fusion strategies, discriminative-token gate and floor, rerank, the engine.

Nothing here does I/O; the store feeds these stages with what it holds. Recall is
``engine.recall(source, request, config=...)`` over any `CandidateSource`.
"""

from .engine import CandidateSource, IndexSource, RecallRequest, VectorSearch, recall
from .fusion import FusionInput, FusionStrategy, fusion_strategy, linear_fusion, rrf
from .gate import discriminative_tokens, passes_gate
from .keyword import KeywordIndex
from .pipeline import RankedCandidate, SupportsRerank, rank_candidates
from .rerank import Reranker, SentenceTransformersCrossEncoder, apply_min_score, load_cross_encoder

__all__ = [
    "CandidateSource",
    "FusionInput",
    "FusionStrategy",
    "IndexSource",
    "KeywordIndex",
    "RankedCandidate",
    "RecallRequest",
    "Reranker",
    "SentenceTransformersCrossEncoder",
    "SupportsRerank",
    "VectorSearch",
    "apply_min_score",
    "discriminative_tokens",
    "fusion_strategy",
    "linear_fusion",
    "load_cross_encoder",
    "passes_gate",
    "rank_candidates",
    "recall",
    "rrf",
]
