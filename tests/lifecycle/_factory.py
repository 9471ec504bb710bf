"""Build MemoryEntry values for lifecycle tests without a store."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from langchain_tiered_memory.types import (
    MemoryEntry,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    new_id,
)

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def make_entry(content: str = "fact", **changes: Any) -> MemoryEntry:
    """An ENVIRONMENT/SEMANTIC entry created and last read at T0, with any field overridden."""
    fields: dict[str, Any] = {
        "id": new_id(),
        "type": MemoryType.ENVIRONMENT,
        "tier": MemoryTier.SEMANTIC,
        "key": "",
        "content": content,
        "tags": (),
        "source_session": "s1",
        "created_at": T0,
        "updated_at": T0,
        "importance": 0.5,
        "access_count": 0,
        "last_accessed": T0,
        "embedding_id": "",
        "episode_id": None,
        "version": 1,
        "superseded_by": None,
        "source": ProvenanceLevel.MODEL_INFERRED,
        "pinned": False,
    }
    fields.update(changes)
    return MemoryEntry(**fields)
