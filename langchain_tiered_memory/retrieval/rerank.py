"""The cross-encoder rerank stage, bounded in time and never a gate on recall.

Rules (seed 000): rerank runs when ``rerank_enabled`` on the top ``rerank_top_k`` fused candidates;
one call waits at most ``rerank_timeout_seconds`` and loading the model at most
``rerank_load_timeout_seconds``; any timeout or error means "no rerank" (the caller keeps RRF
order); with ``rerank_min_score`` > 0 low scores are dropped unless that would drop them all.

Model calls run in daemon worker threads so that a hung model can never hold a query (or the
interpreter's exit) past its timeout. A model that failed to load is retried only after an
exponentially growing back-off, not on every query.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from langchain_core.cross_encoders import BaseCrossEncoder

from .._runtime import run_in_thread
from ..config import MemoryConfig

__all__ = ["Reranker", "SentenceTransformersCrossEncoder", "apply_min_score", "load_cross_encoder"]

_log = logging.getLogger(__name__)


def apply_min_score(scores: Sequence[float], min_score: float) -> list[int]:
    """Positions to keep after the ``rerank_min_score`` rule.

    Args:
        scores: Rerank scores, one per candidate.
        min_score: Threshold; 0 or less keeps everything.

    Returns:
        Positions whose score is >= ``min_score``; every position if none (or the threshold is
        off) — a misconfigured threshold must not empty the recall.
    """
    everything = list(range(len(scores)))
    if min_score <= 0:
        return everything
    kept = [i for i, s in enumerate(scores) if s >= min_score]
    return kept or everything


class SentenceTransformersCrossEncoder(BaseCrossEncoder):
    """A LangChain cross encoder over a local sentence-transformers ``CrossEncoder``.

    Args:
        model: A loaded ``sentence_transformers.CrossEncoder``.
        batch_size: Pairs per forward pass.
    """

    def __init__(self, model: Any, *, batch_size: int = 32) -> None:
        self.model = model
        self.batch_size = batch_size

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        """Score each ``(query, document)`` pair; higher means more relevant."""
        if not text_pairs:
            return []
        out = self.model.predict(
            [list(p) for p in text_pairs], batch_size=self.batch_size, show_progress_bar=False
        )
        return [float(x) for x in out]


def load_cross_encoder(name_or_path: str) -> SentenceTransformersCrossEncoder:
    """Load a sentence-transformers ``CrossEncoder`` from a local path or the local HF cache.

    Never downloads: the hub is switched to offline mode and only local files are used.

    Raises:
        Exception: Whatever sentence-transformers raises when the model is not available locally.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(name_or_path, device="cpu", local_files_only=True)
    return SentenceTransformersCrossEncoder(model)


class Reranker:
    """Time-bounded cross-encoder reranking with lazy loading and load back-off.

    Either pass a ready ``cross_encoder`` (any `BaseCrossEncoder`), or a ``model`` name/path that is
    loaded on first use with ``loader`` (default: `load_cross_encoder`).

    Args:
        cross_encoder: A ready cross encoder.
        model: Name or path of a local sentence-transformers CrossEncoder, loaded lazily.
        enabled: ``rerank_enabled``; when False `rerank` always returns None.
        timeout: ``rerank_timeout_seconds``, the longest wait for one scoring call.
        load_timeout: ``rerank_load_timeout_seconds``, the longest wait for loading.
        loader: How to load ``model``.
        backoff_initial: Seconds before retrying a failed load; doubles on each failure.
        backoff_max: Cap of the retry delay.
        max_in_flight: Scoring calls allowed to run at once (timed-out calls still count while
            their thread runs); beyond it `rerank` skips at once rather than queueing.
        clock: Monotonic clock, injectable for tests.
    """

    def __init__(
        self,
        cross_encoder: BaseCrossEncoder | None = None,
        *,
        model: str | None = None,
        enabled: bool = True,
        timeout: float = 5.0,
        load_timeout: float = 30.0,
        loader: Callable[[str], BaseCrossEncoder] = load_cross_encoder,
        backoff_initial: float = 30.0,
        backoff_max: float = 3600.0,
        max_in_flight: int = 2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.enabled = enabled
        self.timeout = timeout
        self.load_timeout = load_timeout
        self.model = model
        self._encoder = cross_encoder
        self._loader = loader
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._clock = clock
        # Re-entrant: a load that finishes instantly runs its done-callback under this lock.
        self._lock = threading.RLock()
        self._loading: Future[BaseCrossEncoder] | None = None
        self._failures = 0
        self._retry_at = 0.0
        self._slots = threading.BoundedSemaphore(max_in_flight)
        self.last_error: str | None = None

    @classmethod
    def from_config(
        cls, config: MemoryConfig, cross_encoder: BaseCrossEncoder | None = None, **kwargs: Any
    ) -> Reranker:
        """Build from a `MemoryConfig` (``rerank_*`` keys); extra kwargs go to the constructor."""
        return cls(
            cross_encoder,
            model=config.rerank_model,
            enabled=config.rerank_enabled,
            timeout=config.rerank_timeout_seconds,
            load_timeout=config.rerank_load_timeout_seconds,
            **kwargs,
        )

    @property
    def configured(self) -> bool:
        """Whether there is anything to rerank with (an encoder or a model to load)."""
        return self.enabled and (self._encoder is not None or self.model is not None)

    @property
    def loaded(self) -> bool:
        """Whether a cross encoder is ready."""
        return self._encoder is not None

    # -- loading --------------------------------------------------------------------------------

    def _encoder_or_none(self) -> BaseCrossEncoder | None:
        """The cross encoder, loading it (bounded by ``load_timeout``) if needed."""
        if self._encoder is not None:
            return self._encoder
        if self.model is None:
            return None
        with self._lock:
            if self._encoder is not None:
                return self._encoder
            fut = self._loading
            if fut is None:
                if self._clock() < self._retry_at:
                    return None  # still backing off after a failed load
                name = self.model
                fut = self._loading = run_in_thread(
                    lambda: self._loader(name), name="tiered-memory-rerank-load"
                )
                fut.add_done_callback(self._load_done)
                wait = self.load_timeout
            else:
                wait = 0.0  # another query already waited for this load; don't wait again
        try:
            return fut.result(timeout=wait) if wait > 0 or fut.done() else None
        except FutureTimeout:
            self.last_error = f"loading {self.model!r} timed out after {self.load_timeout}s"
            _log.warning("rerank disabled for now: %s", self.last_error)
            return None
        except Exception:
            return None  # recorded by _load_done

    def _load_done(self, fut: Future[BaseCrossEncoder]) -> None:
        with self._lock:
            self._loading = None
            exc = fut.exception()
            if exc is None:
                self._encoder = fut.result()
                self._failures = 0
                return
            self._failures += 1
            delay = min(self._backoff_max, self._backoff_initial * 2 ** (self._failures - 1))
            self._retry_at = self._clock() + delay
            self.last_error = f"loading {self.model!r} failed: {exc!r}"
        _log.warning("rerank disabled for %.0fs: %s", delay, self.last_error)

    # -- scoring --------------------------------------------------------------------------------

    def rerank(self, query: str, texts: Sequence[str]) -> list[float] | None:
        """Score ``texts`` against ``query``.

        Returns:
            One finite score per text (higher is more relevant), or None when reranking is off,
            unavailable, too slow or failed — the caller then keeps its own order.
        """
        if not self.enabled or not texts:
            return None
        encoder = self._encoder_or_none()
        if encoder is None:
            return None
        if not self._slots.acquire(blocking=False):
            self.last_error = "rerank skipped: earlier calls still running"
            return None
        pairs = [(query, t) for t in texts]

        def _call() -> list[float]:
            try:
                return list(encoder.score(pairs))
            finally:
                self._slots.release()

        try:
            fut = run_in_thread(_call, name="tiered-memory-rerank")
        except BaseException:  # the thread never started: ``_call`` will not release the slot
            self._slots.release()
            raise
        try:
            scores = fut.result(timeout=self.timeout)
        except FutureTimeout:
            self.last_error = f"rerank timed out after {self.timeout}s"
            _log.warning(self.last_error)
            return None
        except Exception as exc:
            self.last_error = f"rerank failed: {exc!r}"
            _log.warning(self.last_error)
            return None
        try:
            out = [float(s) for s in scores]
        except (TypeError, ValueError) as exc:
            self.last_error = f"rerank returned non-numeric scores: {exc!r}"
            return None
        if len(out) != len(texts) or not all(math.isfinite(s) for s in out):
            self.last_error = f"rerank returned {len(out)} scores for {len(texts)} texts or NaN"
            return None
        return out
