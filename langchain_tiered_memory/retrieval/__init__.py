"""Pure stages of hybrid recall: BM25, RRF fusion, discriminative-token gate, rerank, ranking.

Nothing here does I/O; the store feeds these stages with what it holds. Recall is
``rank_candidates(query_tokens, KeywordIndex.search(...), vector hits, ...)``.
"""

from .fusion import rrf
from .gate import discriminative_tokens, passes_gate
from .keyword import KeywordIndex
from .pipeline import RankedCandidate, SupportsRerank, rank_candidates
from .rerank import Reranker, SentenceTransformersCrossEncoder, apply_min_score, load_cross_encoder

__all__ = [
    "KeywordIndex",
    "RankedCandidate",
    "Reranker",
    "SentenceTransformersCrossEncoder",
    "SupportsRerank",
    "apply_min_score",
    "discriminative_tokens",
    "load_cross_encoder",
    "passes_gate",
    "rank_candidates",
    "rrf",
]
