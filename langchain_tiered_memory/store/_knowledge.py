"""The knowledge base: user documents, chunked, with vectors in a .npz sidecar."""

from __future__ import annotations

from ._core import StoreCore


class KnowledgeMixin(StoreCore):
    """The knowledge base: user documents, chunked, with vectors in a .npz sidecar."""
