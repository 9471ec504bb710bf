"""Durable consolidation jobs with leases."""

from __future__ import annotations

from ._core import StoreCore


class JobsMixin(StoreCore):
    """Durable consolidation jobs with leases."""
