"""One LangGraph item as the adapter sees it: decoded from its entry, with its TTL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from langgraph.store.base import Item, SearchItem

from ..types import MemoryEntry


@dataclass(frozen=True, slots=True)
class Record:
    """One live LangGraph item, decoded from its entry."""

    entry: MemoryEntry
    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    order: int
    ttl: float | None = None
    expires_at: float | None = None
    deleted: bool = False

    @property
    def indexed(self) -> bool:
        """Whether the item's fields are searchable (not written with ``index=False``)."""
        return self.entry.status == "active"

    def item(self) -> Item:
        """As a LangGraph `Item`."""
        return Item(
            value=self.value,
            key=self.key,
            namespace=self.namespace,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )

    def search_item(self, score: float | None) -> SearchItem:
        """As a LangGraph `SearchItem` with ``score``."""
        return SearchItem(
            namespace=self.namespace,
            key=self.key,
            value=self.value,
            created_at=self.created_at,
            updated_at=self.updated_at,
            score=score,
        )


def expiry(now: datetime, ttl: float | None) -> float | None:
    """The expiry instant (epoch seconds) of an item written ``now`` with ``ttl`` minutes."""
    return None if ttl is None else (now + timedelta(minutes=float(ttl))).timestamp()


def expired(record: Record, now: datetime) -> bool:
    """Whether ``record`` has expired at ``now``."""
    return record.expires_at is not None and record.expires_at <= now.timestamp()
