"""Import sources (sha256, platform, stats) and the import pipeline's writes."""

from __future__ import annotations

from ._core import StoreCore


class SourcesMixin(StoreCore):
    """Import sources (sha256, platform, stats) and the import pipeline's writes."""
