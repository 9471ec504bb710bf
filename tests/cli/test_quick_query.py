"""The CLI's numpy query path gives the bundled model's vectors, without importing torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from langchain_tiered_memory.embeddings import DEFAULT_MODEL_ID, LocalEmbeddings
from langchain_tiered_memory.minilm import QuickQueryEmbeddings


@pytest.mark.parametrize(
    "text",
    ["what does she drink in the morning?", "这是中文", "x", "Ünïcödé " * 200],  # last: truncated
)
def test_same_vectors_as_sentence_transformers(minilm: LocalEmbeddings, text: str) -> None:
    quick = QuickQueryEmbeddings()
    a = np.asarray(minilm.embed_query(text))
    b = np.asarray(quick.embed_query(text))
    assert a.shape == b.shape == (384,)
    assert float(a @ b) > 0.99999
    assert quick.model_id == DEFAULT_MODEL_ID  # the store sees one model, not two


def test_a_query_loads_neither_torch_nor_transformers() -> None:
    code = (
        "import sys; from langchain_tiered_memory.minilm import QuickQueryEmbeddings; "
        "QuickQueryEmbeddings().embed_query('hello'); "
        "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
