"""RRF fusion and the discriminative-token gate against hand-computed examples."""

from __future__ import annotations

import pytest

from langchain_tiered_memory.retrieval import discriminative_tokens, passes_gate, rrf


def test_rrf_hand_computed() -> None:
    fused = rrf([["a", "b", "c"], ["b", "d"]], k=60)
    assert fused == pytest.approx(
        {"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 63, "d": 1 / 62}
    )
    assert max(fused, key=fused.__getitem__) == "b"


def test_rrf_weights_and_k() -> None:
    fused = rrf([["a", "b"], ["b", "a"]], k=1, weights=[2.0, 0.5])
    assert fused["a"] == pytest.approx(2.0 / 2 + 0.5 / 3)
    assert fused["b"] == pytest.approx(2.0 / 3 + 0.5 / 2)


def test_rrf_duplicates_count_once_and_empty_lists() -> None:
    assert rrf([["a", "a", "b"]], k=0) == pytest.approx({"a": 1.0, "b": 1 / 3})
    assert rrf([[], []]) == {}
    assert rrf([]) == {}


def test_rrf_rejects_bad_weights() -> None:
    with pytest.raises(ValueError):
        rrf([["a"], ["b"]], weights=[1.0])
    with pytest.raises(ValueError):
        rrf([["a"]], k=-1)


IDF = {"cat": 5.0, "user": 0.5, "mat": 1.0}


def test_discriminative_tokens_uses_idf_ratio_and_stop_words() -> None:
    disc = discriminative_tokens(
        ["cat", "user", "mat", "the", "unknown"], idf=lambda t: IDF.get(t, 0.0),
        max_idf=5.0, min_idf_ratio=0.2,
    )
    # floor = 1.0: "mat" (1.0) is kept, "user" (0.5) is not, "the" is a stop word, unknown has 0.
    assert disc == frozenset({"cat", "mat"})


def test_stop_word_never_discriminative_even_with_high_idf() -> None:
    disc = discriminative_tokens(
        ["the"], idf=lambda t: 9.0, max_idf=9.0, min_idf_ratio=0.2
    )
    assert disc == frozenset()


@pytest.mark.parametrize(
    ("doc", "sim", "expected"),
    [
        ({"cat", "sat"}, None, True),  # discriminative match, no vector needed
        ({"user"}, 0.1, False),  # only a weak token and a distant vector: dropped
        ({"user"}, None, False),  # unknown similarity counts as low
        ({"user"}, 0.3, True),  # close enough vector keeps it (>= threshold)
        (set(), 0.29, False),  # vector-only candidate below the threshold
        (set(), 0.9, True),
    ],
)
def test_passes_gate(doc: set[str], sim: float | None, expected: bool) -> None:
    assert passes_gate(doc, sim, discriminative={"cat"}, min_similarity=0.3) is expected


def test_rrf_top_bonus_is_weighted_and_per_rank() -> None:
    fused = rrf([["a", "b"], ["b", "c"]], k=10, weights=[2.0, 1.0], top_bonus=(0.5, 0.1))
    assert fused["a"] == 2.0 * (1 / 11 + 0.5)
    assert fused["b"] == 2.0 * (1 / 12 + 0.1) + 1.0 * (1 / 11 + 0.5)
    assert fused["c"] == 1.0 * (1 / 12 + 0.1)
