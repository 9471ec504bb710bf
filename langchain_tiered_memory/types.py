"""Domain values: tiers, types, provenance, entries, episodes, contradictions.

Field names follow the spec to the letter; ``namespace``, ``metadata`` and ``event_at`` are the
additions that a multi-user library needs.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from .errors import InvalidInput

__all__ = [
    "Contradiction",
    "Episode",
    "MemoryEntry",
    "MemoryTier",
    "MemoryType",
    "ProvenanceLevel",
    "ScanResult",
    "SearchHit",
    "new_id",
    "utcnow",
]


def utcnow() -> datetime:
    """Timezone-aware current UTC time (the only clock the library reads by default)."""
    return datetime.now(timezone.utc)


def new_id(namespace: str | None = None) -> str:
    """A fresh UUID string; with ``namespace``, one that sorts beside the namespace's other ids.

    Without a namespace: a UUID4. With one: an RFC 9562 version-8 UUID whose first 32 bits are
    a BLAKE2b hash of the namespace and whose other 90 free bits are random. A namespace's ids
    then share a prefix, so the primary-key index keeps each namespace's entries together on a
    few leaf pages: a search's join from its candidates to their rows reads those pages, not one
    random leaf page per candidate (on PostgreSQL at a million memories, 13 of the 27 pages a
    first search of a 16-memory namespace read were primary-key leaves, one per candidate). The
    prefix says only which ids share a namespace, which the row says anyway.
    """
    if namespace is None:
        return str(uuid.uuid4())
    prefix = int.from_bytes(hashlib.blake2b(namespace.encode(), digest_size=4).digest(), "big")
    bits = (prefix << 96) | secrets.randbits(96)
    # Version 8 in bits 48-51 (from the left), variant 10 in bits 64-65.
    bits = (bits & ~(0xF << 76)) | (0x8 << 76)
    bits = (bits & ~(0x3 << 62)) | (0x2 << 62)
    return str(uuid.UUID(int=bits))


class MemoryTier(str, enum.Enum):
    """Where an entry lives, from short-lived to long-kept."""

    WORKING = "working"
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    ARCHIVAL = "archival"


class MemoryType(str, enum.Enum):
    """Decides decay: USER entries never decay, ENVIRONMENT entries do."""

    USER = "user"
    ENVIRONMENT = "environment"


class ProvenanceLevel(enum.IntEnum):
    """How much a memory is trusted; a lower level can never replace a higher one."""

    LEGACY = 0
    MODEL_INFERRED = 1
    CONSOLIDATED = 2
    USER_STATED = 3

    @property
    def label(self) -> str:
        """The spec's snake_case name (``user_stated``...)."""
        return self.name.lower()

    @classmethod
    def parse(cls, value: ProvenanceLevel | int | str) -> ProvenanceLevel:
        """Accept an enum member, its integer weight or its name (``"user_stated"``)."""
        if isinstance(value, ProvenanceLevel):
            return value
        if isinstance(value, bool):
            raise InvalidInput("source", f"not a provenance level: {value!r}")
        if isinstance(value, int):
            return cls(value)
        if isinstance(value, str):
            try:
                return cls[value.strip().upper()]
            except KeyError:
                raise InvalidInput("source", f"not a provenance level: {value!r}") from None
        raise InvalidInput("source", f"not a provenance level: {value!r}")


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One persistent memory: the spec's ``MemoryEntry`` plus namespace, metadata and event time."""

    id: str
    type: MemoryType
    tier: MemoryTier
    key: str
    content: str
    tags: tuple[str, ...]
    source_session: str
    created_at: datetime
    updated_at: datetime
    importance: float
    access_count: int
    last_accessed: datetime
    embedding_id: str
    episode_id: str | None
    version: int
    superseded_by: str | None
    source: ProvenanceLevel
    pinned: bool
    namespace: str = "default"
    metadata: Mapping[str, Any] = field(default_factory=dict)
    event_at: datetime | None = None
    superseded_at: datetime | None = None
    status: str = "active"

    def evolve(self, **changes: Any) -> MemoryEntry:
        """Return a copy with some fields changed."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (enums as values, datetimes as ISO strings)."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, datetime):
                value = value.isoformat()
            elif isinstance(value, ProvenanceLevel):
                value = value.label
            elif isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, Mapping):
                value = dict(value)
            out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class Episode:
    """A session summary in the EPISODIC tier.

    ``tier`` turns ARCHIVAL when the namespace holds more episodes than ``memory.episodeRetention``
    and this one is among the least important: it stays searchable (down-weighted) and restorable.
    """

    session_key: str
    summary: str
    message_range_start: int
    message_range_end: int
    entity_ids: tuple[str, ...]
    importance: float
    id: str = field(default_factory=new_id)
    namespace: str = "default"
    created_at: datetime = field(default_factory=utcnow)
    event_at: datetime | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    tier: MemoryTier = MemoryTier.EPISODIC


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Two entries that cannot both be true, and how (or whether) that was resolved."""

    entry_a_id: str
    entry_b_id: str
    description: str
    confidence: float
    resolution: str | None = None
    resolved_at: datetime | None = None
    id: str = field(default_factory=new_id)
    namespace: str = "default"
    created_at: datetime = field(default_factory=utcnow)

    @property
    def pending(self) -> bool:
        """True while neither rule decided and nobody resolved it."""
        return self.resolution is None or self.resolution == "pending"


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What the write-path scanner decided about one piece of text."""

    blocked: bool
    reason: str | None = None
    rule: str | None = None
    span: tuple[int, int] | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One recalled entry with its final score and the score of each pipeline stage."""

    entry: MemoryEntry
    score: float
    scores: Mapping[str, float] = field(default_factory=dict)
    knowledge: bool = False
