"""Context assembly: the L0-L3 system-prompt block."""

from __future__ import annotations

from ._core import StoreCore


class ContextMixin(StoreCore):
    """Context assembly: the L0-L3 system-prompt block."""
