"""langchain-tests standard suites for the bundled local embedding model."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import Embeddings
from langchain_tests.integration_tests import EmbeddingsIntegrationTests
from langchain_tests.unit_tests import EmbeddingsUnitTests

from langchain_tiered_memory.embeddings import LocalEmbeddings


class TestLocalEmbeddingsUnit(EmbeddingsUnitTests):
    @property
    def embeddings_class(self) -> type[Embeddings]:
        return LocalEmbeddings

    @property
    def embedding_model_params(self) -> dict[str, object]:
        return {"batch_size": 8}


class TestLocalEmbeddingsIntegration(EmbeddingsIntegrationTests):
    @property
    def embeddings_class(self) -> type[Embeddings]:
        return LocalEmbeddings

    @pytest.fixture
    def model(self, minilm: LocalEmbeddings) -> Embeddings:
        # The session's loaded model: the suite would otherwise load it once per test.
        return minilm


def test_vectors_are_normalised_and_semantic(minilm: LocalEmbeddings) -> None:
    import numpy as np

    cat, kitten, tax = (np.array(v) for v in minilm.embed_documents(["cat", "kitten", "tax law"]))
    assert len(cat) == 384
    assert abs(np.linalg.norm(cat) - 1.0) < 1e-4
    assert cat @ kitten > cat @ tax
