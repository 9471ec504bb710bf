"""Reranker: timeouts, failures, min score, load timeout and back-off, a real tiny CrossEncoder."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from langchain_core.cross_encoders import BaseCrossEncoder

from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.retrieval import (
    Reranker,
    apply_min_score,
    load_cross_encoder,
    rank_candidates,
)


class LengthEncoder(BaseCrossEncoder):
    """Scores a pair by the document's length."""

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        return [float(len(doc)) for _, doc in text_pairs]


class SlowEncoder(BaseCrossEncoder):
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.release = threading.Event()

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        self.release.wait(self.delay)
        return [1.0] * len(text_pairs)


class FailingEncoder(BaseCrossEncoder):
    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        raise RuntimeError("model exploded")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_scores_with_ready_encoder() -> None:
    r = Reranker(LengthEncoder())
    assert r.configured and r.loaded
    assert r.rerank("q", ["aa", "a", "aaa"]) == [2.0, 1.0, 3.0]
    assert r.rerank("q", []) is None


def test_disabled_returns_none() -> None:
    assert Reranker(LengthEncoder(), enabled=False).rerank("q", ["a"]) is None
    assert not Reranker(None).configured
    assert Reranker(None).rerank("q", ["a"]) is None


def test_slow_encoder_falls_back_within_timeout() -> None:
    slow = SlowEncoder(delay=5.0)
    r = Reranker(slow, timeout=0.2)
    start = time.monotonic()
    assert r.rerank("q", ["a", "b"]) is None
    assert time.monotonic() - start < 0.2 + 0.3
    assert r.last_error is not None and "timed out" in r.last_error
    slow.release.set()


def test_slow_encoder_keeps_rrf_order_in_pipeline() -> None:
    slow = SlowEncoder(delay=5.0)
    cfg = MemoryConfig(rerank_timeout_seconds=0.2)
    start = time.monotonic()
    out = rank_candidates(
        ["x"], [("a", 2.0), ("b", 1.0)], [], config=cfg, idf=lambda t: 1.0, max_idf=1.0,
        doc_tokens={"a": ["x"], "b": ["x"]}, reranker=Reranker.from_config(cfg, slow),
        query_text="x", doc_text={"a": "A", "b": "B"},
    )
    assert time.monotonic() - start < 0.2 + 0.3
    assert [c.id for c in out] == ["a", "b"]
    slow.release.set()


def test_busy_reranker_skips_instead_of_queueing() -> None:
    slow = SlowEncoder(delay=5.0)
    r = Reranker(slow, timeout=0.05, max_in_flight=1)
    assert r.rerank("q", ["a"]) is None  # times out, call still running
    start = time.monotonic()
    assert r.rerank("q", ["a"]) is None
    assert time.monotonic() - start < 0.05
    slow.release.set()
    time.sleep(0.05)
    slow.delay = 0.0
    assert r.rerank("q", ["a"]) == [1.0]


def test_failing_encoder_returns_none() -> None:
    r = Reranker(FailingEncoder())
    assert r.rerank("q", ["a"]) is None
    assert r.last_error is not None and "exploded" in r.last_error


def test_bad_scores_return_none() -> None:
    class Short(BaseCrossEncoder):
        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            return [1.0]

    class NaN(BaseCrossEncoder):
        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            return [float("nan")] * len(text_pairs)

    assert Reranker(Short()).rerank("q", ["a", "b"]) is None
    assert Reranker(NaN()).rerank("q", ["a"]) is None


def test_apply_min_score() -> None:
    assert apply_min_score([0.9, 0.1, 0.6], 0.5) == [0, 2]
    assert apply_min_score([0.1, 0.2], 0.5) == [0, 1]  # would drop all: keep all
    assert apply_min_score([0.1, 0.2], 0.0) == [0, 1]


def test_lazy_load_then_use() -> None:
    calls: list[str] = []

    def loader(name: str) -> BaseCrossEncoder:
        calls.append(name)
        return LengthEncoder()

    r = Reranker(model="tiny", loader=loader)
    assert calls == [] and not r.loaded
    assert r.rerank("q", ["ab"]) == [2.0]
    assert r.rerank("q", ["abc"]) == [3.0]
    assert calls == ["tiny"]


def test_load_timeout_returns_none_and_does_not_wait_again() -> None:
    gate = threading.Event()

    def loader(name: str) -> BaseCrossEncoder:
        gate.wait(5.0)
        return LengthEncoder()

    r = Reranker(model="slow", loader=loader, load_timeout=0.2)
    start = time.monotonic()
    assert r.rerank("q", ["a"]) is None
    assert time.monotonic() - start < 0.2 + 0.3
    assert r.last_error is not None and "timed out" in r.last_error
    start = time.monotonic()
    assert r.rerank("q", ["a"]) is None  # still loading: no second wait
    assert time.monotonic() - start < 0.1
    gate.set()
    deadline = time.monotonic() + 2.0
    while not r.loaded and time.monotonic() < deadline:
        time.sleep(0.01)
    assert r.rerank("q", ["ab"]) == [2.0]  # the load that finished late is used


def test_failed_load_backs_off_exponentially() -> None:
    clock = Clock()
    calls = []

    def loader(name: str) -> BaseCrossEncoder:
        calls.append(clock.now)
        raise OSError("no such model")

    r = Reranker(model="missing", loader=loader, clock=clock, backoff_initial=30.0)
    for _ in range(3):
        assert r.rerank("q", ["a"]) is None
    assert len(calls) == 1
    assert r.last_error is not None and "no such model" in r.last_error
    clock.now += 31
    assert r.rerank("q", ["a"]) is None
    assert len(calls) == 2
    clock.now += 31  # second failure doubled the delay to 60 s
    assert r.rerank("q", ["a"]) is None
    assert len(calls) == 2
    clock.now += 30
    assert r.rerank("q", ["a"]) is None
    assert len(calls) == 3


def _tiny_cross_encoder(path: Path) -> None:
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "cat", "dog", "mat", "sat", "the"]
    vocab = path / "vocab.txt"
    path.mkdir(parents=True, exist_ok=True)
    vocab.write_text("\n".join(words) + "\n", encoding="utf-8")
    tokenizer = BertTokenizer(str(vocab))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(words), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=1,
    )
    BertForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)


def test_real_loader_on_tiny_local_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model_dir = tmp_path / "tiny-ce"
    _tiny_cross_encoder(model_dir)
    encoder = load_cross_encoder(str(model_dir))
    scores = encoder.score([("the cat", "the cat sat"), ("the cat", "dog")])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores)
    r = Reranker(model=str(model_dir), load_timeout=60.0)
    out = r.rerank("the cat", ["the cat sat", "dog", "mat"])
    assert out is not None and len(out) == 3
    assert out[0] == pytest.approx(scores[0], abs=1e-5)


def test_real_loader_missing_model_fails_without_download(tmp_path: Path) -> None:
    r = Reranker(model=str(tmp_path / "nope"), load_timeout=30.0)
    assert r.rerank("q", ["a"]) is None
    assert r.last_error is not None and "failed" in r.last_error
