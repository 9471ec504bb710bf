"""Decay pass, lifecycle transitions, GC, contradictions, lineage, as-of and links."""

from __future__ import annotations

from ._core import StoreCore


class LifecycleMixin(StoreCore):
    """Decay pass, lifecycle transitions, GC, contradictions, lineage, as-of and links."""
