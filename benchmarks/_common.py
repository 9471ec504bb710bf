"""Shared bits of the benchmark scripts: a deterministic fake embedding and peak RSS."""

from __future__ import annotations

import hashlib
import os
import re
import resource
import sys
import threading

import numpy as np
from langchain_core.embeddings import Embeddings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class FakeEmbeddings(Embeddings):
    """Deterministic hashed bag-of-words vectors: costs microseconds, so a run times the store."""

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self.model_id = f"bench/hash-{dim}"

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
            v[h % self.dim] += 1.0
        n = np.linalg.norm(v)
        return v / n if n else v + 1.0 / np.sqrt(self.dim)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return np.stack([self._one(t) for t in texts]).tolist() if texts else []

    def embed_query(self, text: str) -> list[float]:
        return self._one(text).tolist()


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


WORDS = ["alice", "bob", "carol", "dana", "eve", "project", "deadline", "coffee", "tea", "python", "rust", "meeting", "berlin", "paris", "tokyo", "garden", "piano", "running", "marathon", "book", "novel", "movie", "dinner", "recipe", "pasta", "sushi", "budget", "invoice", "server", "database", "migration", "release", "bug", "feature", "design", "review", "holiday", "flight", "hotel", "museum", "guitar", "painting", "camera", "photo", "dog", "cat", "hiking", "mountain", "lake", "beach", "birthday", "anniversary", "gift"]


def synthetic_texts(n: int, seed: int = 7) -> list[str]:
    """``n`` varied short memory texts."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        words = rng.choice(WORDS, size=int(rng.integers(6, 16)))
        out.append(f"memory {i}: " + " ".join(words))
    return out


def rss_mb() -> float:
    """Resident set size of this process now, in MB (Linux)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class PeakRssSampler(threading.Thread):
    """Samples `rss_mb` every ``interval`` seconds until ``stop`` is set; ``peak`` is the max."""

    def __init__(self, interval: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.peak = rss_mb()
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.interval):
            self.peak = max(self.peak, rss_mb())
