"""The discriminative-token gate: drop candidates held up only by uninformative matches.

A candidate survives when it shares at least one *discriminative* token with the query, or when
its vector similarity to the query reaches ``min_similarity``. A token is discriminative when it
is not a stop word, is found in at most half the memories (a word in most memories tells none of
them apart, whatever its idf), and its idf is at least ``min_idf_ratio`` times the largest idf the
index can give (that of a token found in one document) — so "user", present in 14 of 18 memories,
does not keep a memory in the results on its own, and neither does a vector neighbour that is not
close.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..text import is_stop_word

__all__ = ["discriminative_tokens", "passes_gate"]


def discriminative_tokens(
    query_tokens: Collection[str],
    *,
    idf: Callable[[str], float],
    max_idf: float,
    min_idf_ratio: float,
    document_frequency: Callable[[str], int] | None = None,
    n_docs: int | None = None,
) -> frozenset[str]:
    """The query tokens that count as evidence.

    Args:
        query_tokens: Tokens of the query.
        idf: The keyword index's idf of a token.
        max_idf: The largest idf in the index now.
        min_idf_ratio: Share of ``max_idf`` a token's idf must reach.
        document_frequency: How many documents hold a token; with ``n_docs``, a token in more than
            half of them is never discriminative (a lone document's words still are).
        n_docs: Live documents in the index.

    Returns:
        The distinct query tokens that are not stop words, are in the index, are not in most of
        its documents, and have idf >= ratio × max idf.
    """
    floor = min_idf_ratio * max_idf
    out = set()
    for t in set(query_tokens):
        if is_stop_word(t) or idf(t) <= 0 or idf(t) < floor:
            continue
        if document_frequency is not None and n_docs is not None:
            df = document_frequency(t)
            if df > 1 and 2 * df > n_docs:
                continue
        out.add(t)
    return frozenset(out)


def passes_gate(
    doc_tokens: Collection[str],
    similarity: float | None,
    *,
    discriminative: Collection[str],
    min_similarity: float,
) -> bool:
    """Whether a candidate stays in the results.

    Args:
        doc_tokens: The candidate's tokens (a set is fastest).
        similarity: Its vector similarity to the query, ``None`` when unknown (keyword-only
            recall, or no embedding); unknown counts as below ``min_similarity``.
        discriminative: Output of `discriminative_tokens` for the query.
        min_similarity: Similarity that keeps a candidate without discriminative support.

    Returns:
        False only when no discriminative query token is in the document AND the similarity is
        below ``min_similarity``.
    """
    if similarity is not None and similarity >= min_similarity:
        return True
    return any(t in doc_tokens for t in discriminative)
