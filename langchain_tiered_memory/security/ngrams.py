"""Hashed character n-grams: the features both bundled models read.

Features are the counts of character 2- to 5-grams of the ``literal`` matching view (the same
folding the rules see: case, width, confusables, traditional Chinese), with runs of white space
squeezed, numbers of two or more digits read as zeros and runs of one character cut to three,
hashed into :data:`DIM` buckets, log-scaled and L2-normalised. Long texts are read in
overlapping windows (at most :data:`MAX_WINDOWS`); texts too short to judge (:func:`too_short`)
are left to the rules.
"""

from __future__ import annotations

import json
import math
import re
from importlib import resources
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from .normalize import make_view

__all__ = [
    "DIM",
    "MIN_CHARS",
    "MIN_DISTINCT",
    "featurize",
    "is_language",
    "load_weights",
    "probability",
    "too_short",
    "windows",
]

DIM = 1 << 18
NGRAMS = (2, 3, 4, 5)
WINDOW = 512
STEP = 384
MAX_WINDOWS = 32
_SHIFT = np.uint64(64 - 18)
_MULT = np.uint64(0x9E3779B97F4A7C15)
_BASE = np.uint64(1_000_003)
# One salt per n-gram length, so that "ab" and the bigram part of "abc" hash apart.
_SALTS = {n: np.uint64((n * 0x9E3779B97F4A7C15) % 2**64) for n in range(1, 9)}
_SPACES = re.compile(r"\s+")
_BLANK = frozenset(" \t\n\r")
_RUNS = re.compile(r"(.)\1{3,}", re.DOTALL)
# Numbers read as zeros: which digits a timestamp, an id or a price holds says nothing about
# intent, and hashed they gave arbitrary n-grams (a timestamp once scored 0.87). A lone digit
# stays: it may stand for a letter ("1gn0r3").
_NUMBERS = re.compile(r"[0-9]{2,}")


def _zeros(match: re.Match[str]) -> str:
    return "0" * (match.end() - match.start())


# Texts with fewer non-space characters than this are left to the rules: a handful of n-grams
# is too little evidence to score ("hello", "note 31", a key; "note 3 about snow and red"
# scored 0.91), and an injection that short is a phrase the rules know.
MIN_CHARS = 24
# A window of fewer distinct characters than this ("xxxx…", "====", "ababab") is not language:
# its few n-grams say nothing, and it is not scored.
MIN_DISTINCT = 6
# ... and a text of fewer words than this (runs of three or more letters, any script) is not
# language either: "2026-12-02T04:06:56.589807+00:00" once scored 0.87 (session 11).
MIN_WORDS = 2
_WORD = re.compile(r"[^\W\d_]{3,}")


def _hashes(cps: npt.NDArray[np.uint64], n: int) -> npt.NDArray[np.uint64]:
    count = len(cps) - n + 1
    h = np.zeros(count, dtype=np.uint64)
    for k in range(n):
        h = h * _BASE + cps[k : k + count]  # wraps modulo 2**64, as intended
    h ^= _SALTS[n]
    return (h * _MULT) >> _SHIFT


def featurize(text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Hashed n-gram features of one window of text: ``(bucket indices, values)``."""
    folded = " " + _SPACES.sub(" ", make_view(text, "literal")).strip() + " "
    # A run's length carries no meaning ("xxxxxxxx", "=====", "!!!!"): three of a kind stand for
    # any run, so a long one cannot outweigh the words around it.
    folded = _NUMBERS.sub(_zeros, folded)
    folded = _RUNS.sub(r"\1\1\1", folded)
    cps = np.frombuffer(folded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    parts = [_hashes(cps, n) for n in NGRAMS if len(cps) >= n]
    idx, counts = np.unique(np.concatenate(parts).astype(np.int64), return_counts=True)
    values = np.log1p(counts).astype(np.float32)
    values /= max(float(np.linalg.norm(values)), 1e-6)
    return idx, values



def too_short(text: str) -> bool:
    """Whether ``text`` is too little to judge (left to the rules): fewer than `MIN_CHARS`
    non-space characters, or fewer than `MIN_WORDS` words of three or more letters, a run of
    six or more counting as two (a timestamp, a uuid, a number: their digits hash to arbitrary
    n-grams)."""
    if len(text) < MIN_CHARS or (len(text) < 256 and len(_SPACES.sub("", text)) < MIN_CHARS):
        return True
    # (a run of six or more letters counts twice: Chinese and squeezed text have no spaces)
    words = (1 if m.end() - m.start() < 6 else 2 for m in _WORD.finditer(text))
    return sum(islice(words, MIN_WORDS)) < MIN_WORDS


def windows(text: str) -> list[str]:
    """The windows a text is scored in (the whole text when it is short)."""
    if len(text) <= WINDOW:
        return [text]
    starts = list(range(0, len(text) - WINDOW + STEP, STEP))
    if len(starts) > MAX_WINDOWS:
        # Spread the windows over the text rather than reading only its head.
        stride = len(starts) / MAX_WINDOWS
        starts = [starts[int(i * stride)] for i in range(MAX_WINDOWS)]
    return [text[s : s + WINDOW] for s in starts]


def is_language(window: str) -> bool:
    """Whether a window has at least `MIN_DISTINCT` distinct characters besides white space
    ("xxxx…", "====", "ababab" have too few n-grams to say anything)."""
    return len(set(window) - _BLANK) >= MIN_DISTINCT


def probability(logit: float) -> float:
    """The logistic of ``logit`` (0 far below, where ``exp`` would overflow)."""
    return 1.0 / (1.0 + math.exp(-logit)) if logit > -700 else 0.0


def load_weights(stem: str) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
    """A bundled model's weights (``<stem>.npy``, one per bucket) and metadata (``<stem>.json``)."""
    here = resources.files(__package__)
    info = json.loads(here.joinpath(f"{stem}.json").read_text(encoding="utf-8"))
    with here.joinpath(f"{stem}.npy").open("rb") as f:
        weights = np.load(f).astype(np.float32)
    if weights.shape != (DIM,):
        raise ConfigError(f"{stem}.npy", f"expected {DIM} weights, got {weights.shape}")
    return weights, info
