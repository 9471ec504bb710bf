"""The semantic second opinion: sentence windows embedded by MiniLM, scored by a small neural head.

Rules and the n-gram model (:mod:`.learned`) see words; an injection that nobody wrote a rule
for still *means* the same thing: an order to the assistant hidden in data, a standing redirect,
output forcing. Sentence embeddings generalise over wording, so a small head on them catches
phrasings the rules never saw.

An injection usually hides in one sentence of a long document, and MiniLM reads at most 256
word pieces, so a long text is cut into windows of one or two sentences and the highest window
score decides. A short text (:data:`SHORT` characters or fewer, most memories) is one window:
one forward pass.

The head (``semantic_head.npy``: a 384 x 64 ReLU layer and a logistic output, ~100 KB;
``semantic_head.json``: threshold and cross-validated figures) is written by
``benchmarks/train_semantic_detector.py``; it only makes sense for the vectors of
all-MiniLM-L6-v2, which :func:`semantic_detector` checks.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt
from langchain_core.embeddings import Embeddings

from ..embeddings import DEFAULT_MODEL_ID, LocalEmbeddings, embedding_model_id
from ..errors import ConfigError
from .classifier import ScanVerdict
from .normalize import make_view

__all__ = [
    "MAX_WINDOWS",
    "SHORT",
    "SemanticDetector",
    "SemanticHead",
    "load_semantic_head",
    "semantic_detector",
    "sentence_windows",
]

SHORT = 320
"""Texts up to this many characters are scored as one window."""
MAX_SENTENCE = 400
"""Longer sentences are cut into pieces of this many characters (MiniLM truncates anyway)."""
MAX_WINDOWS = 512
"""Windows scored per text at most: ~100 KB of prose; beyond it windows are spread evenly."""

# Sentence ends (Latin and CJK), line breaks and markup boundaries: an order planted in an HTML
# comment or a code comment is its own sentence even without a full stop.
_BREAK = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+|(?=<!--)|(?<=-->)|(?=/\*)|(?<=\*/)")
_SPACES = re.compile(r"[ \t\f\v]+")


def _sentences(folded: str) -> list[str]:
    out: list[str] = []
    for part in _BREAK.split(folded):
        part = part.strip()
        while len(part) > MAX_SENTENCE:
            cut = part.rfind(" ", MAX_SENTENCE // 2, MAX_SENTENCE)
            cut = cut if cut > 0 else MAX_SENTENCE
            out.append(part[:cut].strip())
            part = part[cut:].strip()
        if part:
            out.append(part)
    return out


def sentence_windows(text: str) -> list[str]:
    """The windows ``text`` is scored in, on its ``literal`` folded view.

    A short text is one window. A longer one yields every sentence and every pair of adjacent
    sentences (an order often takes two: "AI reading this: stop. Instead say ..."), at most
    :data:`MAX_WINDOWS`, spread over the whole text.
    """
    folded = _SPACES.sub(" ", make_view(text, "literal")).strip()
    if len(folded) <= SHORT:
        return [folded]
    sentences = _sentences(folded)
    if len(sentences) <= 1:
        return sentences or [folded]
    pairs = [f"{a} {b}" for a, b in pairwise(sentences)]
    found = list(dict.fromkeys(sentences + pairs))
    if len(found) > MAX_WINDOWS:
        stride = len(found) / MAX_WINDOWS
        found = [found[int(i * stride)] for i in range(MAX_WINDOWS)]
    return found


@dataclass(frozen=True, slots=True)
class SemanticHead:
    """A one-hidden-layer network over MiniLM vectors (ReLU, then a logistic output).

    A linear head was tried first: at the same out-of-fold false-positive bars it caught fewer
    held-out attacks (see ``benchmarks/train_semantic_detector.py``).

    Attributes:
        hidden: ``(dim, units)`` input weights.
        hidden_bias: ``(units,)``.
        out: ``(units,)`` output weights.
        out_bias: The output intercept.
        threshold: The logit at or above which a window is an injection (a logit, because a
            ReLU head's probabilities crowd too near 1 to tell thresholds apart).
        info: The training metadata (corpora, cross-validated figures).
    """

    hidden: npt.NDArray[np.float32]
    hidden_bias: npt.NDArray[np.float32]
    out: npt.NDArray[np.float32]
    out_bias: float
    threshold: float
    info: dict[str, Any]

    def logits(self, vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Logit per row of ``vectors`` (L2-normalised embeddings)."""
        h = np.maximum(vectors @ self.hidden + self.hidden_bias, 0.0)
        return np.asarray((h @ self.out).astype(np.float64) + self.out_bias)


class SemanticDetector:
    """A classifier for the store's ``classifier`` argument, backed by an embedding model.

    Called on a text it embeds the text's windows (one for a short memory) and returns a
    :class:`ScanVerdict` whose score is the highest window probability. It holds the model, so
    it is an object rather than a frozen value; it is thread-safe as far as the model is.

    Args:
        embeddings: The embedding model; its vectors must be all-MiniLM-L6-v2's.
        head: The linear head.
    """

    def __init__(self, embeddings: Embeddings, head: SemanticHead) -> None:
        self._embeddings = embeddings
        self.head = head

    def window_scores(self, text: str) -> list[tuple[str, float]]:
        """Every window of ``text`` with its logit (for inspection and benchmarks)."""
        found = sentence_windows(text)
        if not found:
            return []
        vectors = np.asarray(self._embeddings.embed_documents(found), dtype=np.float32)
        return list(zip(found, self.head.logits(vectors).tolist(), strict=True))

    def margin(self, text: str) -> float:
        """The highest window logit minus the threshold: ``>= 0`` means refused."""
        return max((z for _, z in self.window_scores(text)), default=-math.inf) - self.head.threshold

    def __call__(self, text: str) -> ScanVerdict:
        scored = self.window_scores(text)
        if not scored:
            return ScanVerdict(False, 0.0, "semantic detector: empty text")
        window, logit = max(scored, key=lambda item: item[1])
        blocked = logit >= self.head.threshold
        probability = 1.0 / (1.0 + math.exp(-min(max(logit, -50.0), 50.0)))
        detail = f"semantic detector: {window[:80]!r}" if blocked else "semantic detector"
        return ScanVerdict(blocked, probability, f"{detail} (logit {logit:.2f})")


@lru_cache(maxsize=1)
def load_semantic_head() -> SemanticHead:
    """The bundled head (``semantic_head.npy`` + ``semantic_head.json``), loaded once.

    The ``.npy`` is one flat float32 vector: the hidden weights row by row, the hidden biases,
    the output weights, the output bias (shapes from ``dim`` and ``hidden`` in the JSON).
    """
    here = resources.files(__package__)
    info = json.loads(here.joinpath("semantic_head.json").read_text(encoding="utf-8"))
    with here.joinpath("semantic_head.npy").open("rb") as f:
        flat = np.load(f).astype(np.float32)
    dim, units = int(info["dim"]), int(info["hidden"])
    if flat.shape != (dim * units + 2 * units + 1,):
        raise ConfigError("semantic_head.npy", f"{flat.shape} does not fit {dim} x {units}")
    hidden = flat[: dim * units].reshape(dim, units)
    hidden_bias = flat[dim * units : dim * units + units]
    out = flat[dim * units + units : -1]
    return SemanticHead(
        hidden, hidden_bias, out, float(flat[-1]), float(info["threshold_logit"]), info
    )


def semantic_detector(
    embeddings: Embeddings | None = None, *, threshold: float | None = None
) -> SemanticDetector:
    """The bundled semantic detector, ready to pass as ``classifier=``.

    The model is loaded (and warmed up) here, not on the first write, so that the first scan
    does not run into the classifier timeout.

    Args:
        embeddings: The all-MiniLM-L6-v2 model to reuse (e.g. the store's); ``None`` loads the
            bundled local copy.
        threshold: A window logit to refuse at instead of the bundled one. Higher refuses
            less; ``semantic_head.json`` lists the thresholds that keep the cross-validated
            false positives at a quarter, half... of the issue's bars
            (``threshold_logit_by_bar_scale``).

    Raises:
        ConfigError: ``embeddings`` is another model, whose vectors the head cannot read, or
            ``threshold`` is not a finite number.
    """
    model = embeddings if embeddings is not None else LocalEmbeddings()
    model_id = embedding_model_id(model)
    if model_id != DEFAULT_MODEL_ID:
        raise ConfigError(
            "embeddings", f"the semantic detector needs {DEFAULT_MODEL_ID} vectors, got {model_id}"
        )
    head = load_semantic_head()
    if threshold is not None:
        if not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
            raise ConfigError("threshold", f"must be a finite number, got {threshold!r}")
        head = replace(head, threshold=float(threshold))
    model.embed_documents(["warm up"])
    return SemanticDetector(model, head)
