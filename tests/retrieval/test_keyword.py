"""KeywordIndex: Okapi BM25 with Lucene's non-negative idf, incremental writes, removal, filters.

The reference is rank-bm25's BM25Okapi scoring with its idf replaced by Lucene's
``ln(1 + (N - df + 0.5) / (df + 0.5))`` (BM25Okapi's own idf goes negative for common words).
"""

from __future__ import annotations

import math
import random

import pytest
from rank_bm25 import BM25Okapi

from langchain_tiered_memory.retrieval import KeywordIndex

CORPUS = {
    "a": ["cat", "sat", "mat"],
    "b": ["dog", "sat", "log", "dog"],
    "c": ["cat", "dog", "play"],
    "d": ["bird", "fly", "sky", "sat"],
    "e": ["fish", "swim"],
}


class _LuceneIdfBM25(BM25Okapi):
    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log1p((self.corpus_size - freq + 0.5) / (freq + 0.5))


def _reference(corpus: dict[str, list[str]], query: list[str]) -> dict[str, float]:
    ids = list(corpus)
    ref = _LuceneIdfBM25([corpus[i] for i in ids], k1=1.2, b=0.75)
    return dict(zip(ids, (float(s) for s in ref.get_scores(query)), strict=True))


def test_hand_computed_score() -> None:
    index = KeywordIndex()
    index.add_many(CORPUS.items())
    # N=5, avgdl=16/5=3.2. "cat" is in 2 docs: idf = ln(1 + 3.5/2.5) = ln 2.4 = 0.875469.
    assert index.idf("cat") == pytest.approx(0.875468737)
    # doc "a": tf=1, |d|=3 -> idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / 3.2)) = 0.898440
    expected_a = 0.875468737 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / 3.2))
    assert expected_a == pytest.approx(0.8984402, abs=1e-6)
    hits = dict(index.search(["cat"], 10))
    assert set(hits) == {"a", "c"}
    assert hits["a"] == pytest.approx(expected_a)


def test_idf_is_never_negative_and_falls_with_document_frequency() -> None:
    index = KeywordIndex()
    index.add_many(CORPUS.items())
    # "sat" is in 3 of 5 docs: BM25Okapi's raw idf ln(2.5/3.5) < 0; Lucene's is ln(1 + 2.5/3.5).
    assert index.idf("sat") == pytest.approx(math.log(1 + 2.5 / 3.5))
    assert 0 < index.idf("sat") < index.idf("cat") < index.idf("fish") == index.max_idf()
    assert index.idf("unknown") == 0.0


def test_small_namespace_scores_stay_positive() -> None:
    """Regression: with BM25Okapi a 2-document index gave every match a negative score."""
    index = KeywordIndex()
    index.add("light", ["alice", "prefer", "light", "mode"])
    index.add("lyon", ["alice", "live", "lyon"])
    hits = index.search(["alice", "prefer"], 10)
    assert [d for d, _ in hits] == ["light", "lyon"]
    assert all(score > 0 for _, score in hits)


@pytest.mark.parametrize("query", [["cat"], ["dog", "sat"], ["sat", "sat", "fish"], ["zzz"]])
def test_scores_match_rank_bm25(query: list[str]) -> None:
    index = KeywordIndex()
    index.add_many(CORPUS.items())
    assert index.scores(query) == pytest.approx(_reference(CORPUS, query))


def test_random_corpus_with_updates_and_removals_matches_rank_bm25() -> None:
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(40)]
    corpus: dict[str, list[str]] = {}
    index = KeywordIndex()
    for step in range(600):
        doc_id = f"d{rng.randrange(150)}"
        if doc_id in corpus and rng.random() < 0.3:
            del corpus[doc_id]
            assert index.remove(doc_id)
        else:
            head = vocab[: rng.randrange(3, 40)]
            tokens = [rng.choice(head) for _ in range(rng.randrange(1, 12))]
            corpus[doc_id] = tokens
            index.add(doc_id, tokens)
        if step % 50 == 0 and corpus:
            query = [rng.choice(vocab) for _ in range(3)]
            assert index.scores(query) == pytest.approx(_reference(corpus, query))
    assert len(index) == len(corpus)
    query = ["w1", "w5", "w30"]
    ref = _reference(corpus, query)
    hits = index.search(query, 10)
    matching = {d for d, toks in corpus.items() if set(toks) & set(query)}
    best = sorted((ref[d] for d in matching), reverse=True)[:10]
    assert [score for _, score in hits] == pytest.approx(best)
    assert all(score == pytest.approx(ref[doc]) for doc, score in hits)


def test_compaction_keeps_scores() -> None:
    index = KeywordIndex()
    corpus = {f"d{i}": [f"t{i % 7}", f"u{i % 13}", "common"] for i in range(10_000)}
    index.add_many(corpus.items())
    for i in range(0, 9_000):
        index.remove(f"d{i}")
        del corpus[f"d{i}"]
    assert len(index._slot_ids) < 10_000  # compacted at least once
    query = ["t3", "u5", "common"]
    assert index.scores(query) == pytest.approx(_reference(corpus, query))


def test_search_returns_only_matching_sorted_and_k() -> None:
    index = KeywordIndex()
    index.add_many(CORPUS.items())
    hits = index.search(["dog", "cat"], 2)
    assert len(hits) == 2
    assert hits[0][1] >= hits[1][1]
    assert all(doc in {"a", "b", "c"} for doc, _ in hits)
    assert index.search(["nothing"], 5) == []
    assert index.search(["cat"], 0) == []


def test_allowed_filter_and_replace_and_remove() -> None:
    index = KeywordIndex()
    index.add_many(CORPUS.items())
    hits = index.search(["dog"], 5, allowed=lambda d: d != "b")
    assert [d for d, _ in hits] == ["c"]
    index.add("c", ["cow"])  # replace: "c" no longer mentions dog
    assert [d for d, _ in index.search(["dog"], 5)] == ["b"]
    assert "c" in index and len(index) == 5
    assert index.remove("b") and not index.remove("b")
    assert index.search(["dog"], 5) == []
    assert "b" not in index
    assert index.terms_of("c") == frozenset({"cow"})
    assert index.document_frequency("cow") == 1


def test_filter_rejecting_most_candidates_still_fills_k() -> None:
    index = KeywordIndex()
    index.add_many((f"d{i}", ["x"] * (1 + i % 5)) for i in range(200))
    hits = index.search(["x"], 3, allowed=lambda d: d in {"d3", "d150", "d199"})
    assert sorted(d for d, _ in hits) == ["d150", "d199", "d3"]


def test_empty_index() -> None:
    index = KeywordIndex()
    assert len(index) == 0
    assert index.search(["a"], 3) == []
    assert index.max_idf() == 0.0
    index.add("empty", [])
    assert "empty" in index and index.search(["a"], 3) == []
