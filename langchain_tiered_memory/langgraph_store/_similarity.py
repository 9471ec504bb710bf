"""Query scores on LangGraph's scale: cosine similarity against each indexed field's embedding.

`InMemoryStore` embeds every text its index paths yield (``$`` is the whole document) and scores
an item by the best cosine similarity between the query and any of those vectors. Filters such as
``score > 0.5`` are written against that scale, so the adapter scores the same way, with the
embedder of its ``index`` config (default: the store's own).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import get_text_at_path

from ..errors import EmbeddingError

_CAPACITY = 50_000


def field_texts(value: Mapping[str, Any], paths: Sequence[str]) -> list[str]:
    """The texts `InMemoryStore` embeds for a document and its index paths.

    ``$`` is the whole document as sorted JSON (non-ASCII kept readable for the embedder).
    """
    texts: list[str] = []
    for path in paths:
        if path == "$":
            texts.append(json.dumps(value, sort_keys=True, ensure_ascii=False))
        else:
            texts.extend(get_text_at_path(value, path))
    return texts


class FieldVectors:
    """Embeddings of field texts, computed on first use and kept (bounded, least recent out).

    Args:
        embeddings: The embedder for documents and queries.
        dims: Expected vector length, checked when given.
        capacity: How many distinct texts to keep.
    """

    def __init__(
        self, embeddings: Embeddings, *, dims: int | None = None, capacity: int = _CAPACITY
    ) -> None:
        self.embeddings = embeddings
        self._dims = dims
        self._capacity = capacity
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def dims(self) -> int:
        """Vector length (embeds one probe text when no ``dims`` was configured)."""
        if self._dims is None:
            self._dims = int(self.query("dims").shape[0])
        return self._dims

    def query(self, text: str) -> np.ndarray:
        """The unit vector of a query."""
        return self._unit(self.embeddings.embed_query(text), "query")

    def documents(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Unit vectors of ``texts``, embedding the missing ones in one call."""
        with self._lock:
            known = {t: self._cache[t] for t in texts if t in self._cache}
            for t in known:
                self._cache.move_to_end(t)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        fresh: dict[str, np.ndarray] = {}
        if missing:
            vectors = self.embeddings.embed_documents(missing)
            if len(vectors) != len(missing):
                raise EmbeddingError(
                    f"the embedder returned {len(vectors)} vectors for {len(missing)} texts"
                )
            fresh = {t: self._unit(v, "document") for t, v in zip(missing, vectors, strict=True)}
            with self._lock:
                self._cache.update(fresh)
                while len(self._cache) > self._capacity:
                    self._cache.popitem(last=False)
        return [known[t] if t in known else fresh[t] for t in texts]

    def scores(self, query: str, items: Sequence[Sequence[str]]) -> list[float | None]:
        """Per item, the best cosine similarity of the query with one of its texts (None: none)."""
        flat = [t for texts in items for t in texts]
        if not flat:
            return [None] * len(items)
        q = self.query(query)
        sims = np.stack(self.documents(flat)) @ q
        out: list[float | None] = []
        i = 0
        for texts in items:
            n = len(texts)
            out.append(float(sims[i : i + n].max()) if n else None)
            i += n
        return out

    def _unit(self, vector: Sequence[float], what: str) -> np.ndarray:
        v = np.asarray(vector, dtype=np.float32)
        if v.ndim != 1 or (self._dims is not None and v.shape[0] != self._dims):
            raise EmbeddingError(
                f"the {what} embedding has shape {v.shape}; index['dims'] is {self._dims}"
            )
        norm = float(np.linalg.norm(v))
        return v / norm if norm else v
