"""Cheap pre-filter: which existing entries are worth checking against a new one.

The spec's first step ("heuristic pre-screening by key similarity and tag overlap"), widened with
subject overlap (both statements make a claim about the same slot) and, when the caller has them,
vector similarities. Only pairs that pass go to a verifier, so a store with thousands of entries
costs one verifier call per plausible conflict, not one per entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..config import MemoryConfig
from ..types import MemoryEntry
from ._text import en_words, has_cjk, jaccard, normalize_en, stem, zh_bigrams
from .claims import extract_claims

__all__ = ["Candidate", "find_candidates", "key_similarity"]

_KEY_SPLIT = re.compile(r"[\s._\-/:|#]+")
_EN_STOP = {"i", "my", "a", "an", "the", "is", "am", "are", "to", "of", "in", "and", "at", "on",
            "for", "it", "me", "was", "do", "not"}

# Weights of each signal in the ranking score; the same key dominates, then a shared claim slot.
_W_SAME_KEY = 1.0
_W_SUBJECT = 0.8
_W_KEY = 0.6
_W_VECTOR = 0.6
_W_TAGS = 0.3
_W_TEXT = 0.3
_KEY_MIN = 0.5
_TEXT_MIN = 0.3


@dataclass(frozen=True, slots=True)
class Candidate:
    """An existing entry that may contradict the new one.

    Attributes:
        entry: The existing entry.
        score: Ranking score (higher is checked first); a sum of the signals that fired.
        reasons: Which signals fired (``same_key``, ``key``, ``tags``, ``subject``, ``text``,
            ``vector``).
    """

    entry: MemoryEntry
    score: float
    reasons: tuple[str, ...]


def key_similarity(a: str, b: str) -> float:
    """Jaccard similarity of two keys split on ``. _ - / :`` (``user.home_city`` ~ ``home.city``)."""
    parts_a = {p for p in _KEY_SPLIT.split(a.lower()) if p}
    parts_b = {p for p in _KEY_SPLIT.split(b.lower()) if p}
    return jaccard(parts_a, parts_b)


# Pure functions of the text, cached: a stored entry is compared with every newcomer near it.
@lru_cache(maxsize=8192)
def _content_terms(text: str) -> frozenset[str]:
    if has_cjk(text):
        return frozenset(zh_bigrams(text))
    return frozenset(stem(w) for w in en_words(normalize_en(text)) if w not in _EN_STOP)


def _slots(entry: MemoryEntry) -> frozenset[str]:
    return _text_slots(entry.content)


@lru_cache(maxsize=8192)
def _text_slots(text: str) -> frozenset[str]:
    return frozenset(claim.slot for claim in extract_claims(text))


def _live(entry: MemoryEntry) -> bool:
    return not entry.superseded_by and entry.status not in ("deleted", "superseded")


def find_candidates(
    new: MemoryEntry,
    existing: Iterable[MemoryEntry],
    *,
    similarities: Mapping[str, float] | None = None,
    config: MemoryConfig | None = None,
    limit: int | None = 20,
) -> list[Candidate]:
    """Rank the existing entries that might contradict ``new``.

    An entry is a candidate when any signal fires: the same key; keys that share at least half
    their parts; a shared tag; a claim about the same slot (same subject); word overlap of at
    least 0.3; or a vector similarity (``similarities[entry.id]``) at or above
    ``config.contradiction_min_similarity``. Superseded entries, entries of other namespaces and
    ``new`` itself are skipped.

    Args:
        new: The entry being written.
        existing: Entries already stored (typically the same namespace's SEMANTIC tier).
        similarities: Optional cosine similarities of each existing entry id to ``new``.
        config: Supplies ``contradiction_min_similarity``; defaults otherwise.
        limit: Keep at most this many, best first (None keeps all).

    Returns:
        Candidates sorted by descending score (ties by entry id, for determinism).
    """
    cfg = config if config is not None else MemoryConfig()
    sims = similarities or {}
    new_terms = _content_terms(new.content)
    new_slots = _slots(new)
    new_tags = {t.lower() for t in new.tags}
    out: list[Candidate] = []
    for entry in existing:
        if entry.id == new.id or entry.namespace != new.namespace or not _live(entry):
            continue
        score = 0.0
        reasons: list[str] = []
        if new.key and entry.key and new.key.strip().lower() == entry.key.strip().lower():
            score += _W_SAME_KEY
            reasons.append("same_key")
        elif new.key and entry.key:
            similarity = key_similarity(new.key, entry.key)
            if similarity >= _KEY_MIN:
                score += _W_KEY * similarity
                reasons.append("key")
        tags = {t.lower() for t in entry.tags}
        if new_tags and tags and new_tags & tags:
            score += _W_TAGS * jaccard(new_tags, tags)
            reasons.append("tags")
        if new_slots and new_slots & _slots(entry):
            score += _W_SUBJECT
            reasons.append("subject")
        overlap = jaccard(new_terms, _content_terms(entry.content))
        if overlap >= _TEXT_MIN:
            score += _W_TEXT * overlap
            reasons.append("text")
        vector = sims.get(entry.id)
        if vector is not None and vector >= cfg.contradiction_min_similarity:
            score += _W_VECTOR * vector
            reasons.append("vector")
        if reasons:
            out.append(Candidate(entry, score, tuple(reasons)))
    out.sort(key=lambda c: (-c.score, c.entry.id))
    return out if limit is None else out[: max(0, limit)]
