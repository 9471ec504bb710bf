"""Conversions between rows and domain values, and validation of what callers ask to write."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..config import MemoryConfig
from ..errors import InvalidInput
from ..types import Episode, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from ._db import dumps, from_ts, loads, to_ts

_ADD_FIELDS = {
    "content",
    "key",
    "type",
    "tier",
    "tags",
    "importance",
    "source",
    "source_session",
    "episode_id",
    "metadata",
    "event_at",
    "pinned",
    "namespace",
    "status",
}


@dataclass(slots=True)
class Draft:
    """A validated write request, before it gets an id and timestamps."""

    content: str
    namespace: str
    key: str | None = None
    type: MemoryType = MemoryType.ENVIRONMENT
    tier: MemoryTier = MemoryTier.SEMANTIC
    tags: tuple[str, ...] = ()
    importance: float = 0.5
    source: ProvenanceLevel = ProvenanceLevel.MODEL_INFERRED
    source_session: str = ""
    episode_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    event_at: datetime | None = None
    pinned: bool = False
    status: str = "active"


def _enum(cls: Any, value: Any, name: str, index: int | None) -> Any:
    if isinstance(value, cls):
        return value
    try:
        if isinstance(value, str):
            try:
                return cls(value.lower())
            except ValueError:
                return cls[value.upper()]
        return cls(value)
    except (ValueError, KeyError):
        choices = ", ".join(m.value for m in cls)
        raise InvalidInput(name, f"{value!r} is not one of {choices}", item_index=index) from None


# The statuses an entry can hold: live, waiting for review, rejected by a reviewer.
# "unindexed": stored for exact reads (the LangGraph adapter's index=False items), never recalled.
ENTRY_STATUSES = ("active", "pending", "rejected", "unindexed")


def check_enum(cls: Any, value: Any, name: str) -> Any:
    """``value`` as a member of the enum ``cls`` (by member, value or name), else `InvalidInput`."""
    return _enum(cls, value, name, None)


@dataclass(frozen=True, slots=True)
class WriteLimits:
    """The size limits of one write (see the ``memory.max*`` keys of `MemoryConfig`)."""

    content_bytes: int = 65_536
    key_chars: int = 512
    tags: int = 64
    tag_chars: int = 256
    metadata_depth: int = 16
    metadata_bytes: int = 65_536

    @classmethod
    def from_config(cls, config: MemoryConfig) -> WriteLimits:
        """The limits a `MemoryConfig` sets."""
        return cls(
            content_bytes=config.max_content_bytes,
            key_chars=config.max_key_chars,
            tags=config.max_tags,
            tag_chars=config.max_tag_chars,
            metadata_depth=config.max_metadata_depth,
            metadata_bytes=config.max_metadata_bytes,
        )


def make_draft(
    raw: Mapping[str, Any] | str,
    namespace: str,
    index: int | None = None,
    *,
    limits: WriteLimits = WriteLimits(),
) -> Draft:
    """Validate one write request (a string, or a mapping of `TieredMemoryStore.add` arguments)."""
    if isinstance(raw, str):
        raw = {"content": raw}
    if not isinstance(raw, Mapping):
        raise InvalidInput(
            "item", f"expected a str or a dict, got {type(raw).__name__}", item_index=index
        )
    unknown = set(raw) - _ADD_FIELDS
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "unknown field", item_index=index)
    content = _plain_str(raw.get("content"))
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content", "must be a non-empty string", item_index=index)
    check_size(content, "content", limits.content_bytes, index)
    ns = raw.get("namespace", namespace)
    check_namespace(ns, index)
    key = _plain_str(raw.get("key"))
    if key is not None and (
        not isinstance(key, str) or not key.strip() or len(key) > limits.key_chars
    ):
        raise InvalidInput(
            "key",
            f"must be a non-empty string of at most {limits.key_chars} characters",
            item_index=index,
        )
    tags = check_tags(raw.get("tags") or (), limits, index)
    importance = raw.get("importance", 0.5)
    if (
        isinstance(importance, bool)
        or not isinstance(importance, int | float)
        or not (math.isfinite(importance) and 0.0 <= importance <= 1.0)
    ):
        raise InvalidInput("importance", "must be a number between 0 and 1", item_index=index)
    metadata = check_metadata(raw.get("metadata") or {}, limits, index)
    event_at = raw.get("event_at")
    if event_at is not None and not isinstance(event_at, datetime):
        raise InvalidInput("event_at", "must be a datetime", item_index=index)
    episode_id = raw.get("episode_id")
    if episode_id is not None and (not isinstance(episode_id, str) or not episode_id.strip()):
        raise InvalidInput("episode_id", "must be a non-empty string", item_index=index)
    status = raw.get("status", "active")
    if status not in ENTRY_STATUSES:
        # Any other status would store an entry that no read, recall or review ever shows.
        raise InvalidInput(
            "status", f"must be one of {', '.join(ENTRY_STATUSES)}", item_index=index
        )
    session = raw.get("source_session") or ""
    if not isinstance(session, str):
        raise InvalidInput("source_session", "must be a string", item_index=index)
    pinned = raw.get("pinned", False)
    if not isinstance(pinned, bool):
        # bool("no") is True: a string or a number would pin by accident.
        raise InvalidInput("pinned", "must be True or False", item_index=index)
    for name, text in (("content", content), ("key", key or ""), ("source_session", session)):
        check_text(text, name, index)
    try:
        source = ProvenanceLevel.parse(raw.get("source", ProvenanceLevel.MODEL_INFERRED))
    except ValueError as exc:
        raise InvalidInput("source", str(exc), item_index=index) from None
    key = key.strip() if key else None
    if status == "pending" and key is not None:
        # A pending entry never supersedes anything until it is approved: it holds no key, only
        # the one it proposes, which `approve` gives it (superseding the live version then).
        metadata = {**metadata, "proposed_key": key}
        key = None
    return Draft(
        content=content,
        namespace=ns,
        key=key,
        type=_enum(MemoryType, raw.get("type", MemoryType.ENVIRONMENT), "type", index),
        tier=_enum(MemoryTier, raw.get("tier", MemoryTier.SEMANTIC), "tier", index),
        tags=tags,
        importance=float(importance),
        source=source,
        source_session=session,
        episode_id=episode_id,
        metadata=metadata,
        event_at=event_at,
        pinned=pinned,
        status=status,
    )


def check_size(text: str, name: str, max_bytes: int, index: int | None = None) -> None:
    """Refuse a text longer than ``max_bytes`` in UTF-8 (before it is scanned or embedded)."""
    # A character is at most 4 bytes: only texts near the limit are encoded to measure them.
    if len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise InvalidInput(name, f"is larger than {max_bytes} bytes", item_index=index)


def check_tags(tags: Any, limits: WriteLimits, index: int | None = None) -> tuple[str, ...]:
    """A list of non-empty tag strings within the limits, stripped and de-duplicated."""
    # A str or a dict is iterable but not a tag list: "abc" would become a, b, c; {"a": 1}, a.
    if isinstance(tags, str | bytes | Mapping) or not isinstance(tags, Sequence | set | frozenset):
        raise InvalidInput("tags", "must be a list of strings", item_index=index)
    if len(tags) > limits.tags:
        raise InvalidInput("tags", f"at most {limits.tags} tags", item_index=index)
    # One pass into a plain list: a subclass iterating differently on a second pass cannot
    # show the checks one list and the database another.
    tags = [_plain_str(tag) for tag in tags]
    for tag in tags:
        if not isinstance(tag, str) or not tag.strip():
            raise InvalidInput("tags", "every tag must be a non-empty string", item_index=index)
        if len(tag) > limits.tag_chars:
            raise InvalidInput(
                "tags", f"a tag has at most {limits.tag_chars} characters", item_index=index
            )
        check_text(tag, "tags", index)
    return tuple(dict.fromkeys(tag.strip() for tag in tags))


def check_metadata(
    metadata: Any, limits: WriteLimits, index: int | None = None, name: str = "metadata"
) -> dict[str, Any]:
    """A plain-dict copy of JSON metadata within the limits.

    The copy is what gets scanned and stored: a dict subclass that overrides ``values()`` or
    ``items()`` cannot show the scanner one thing and the database another.
    """
    if not isinstance(metadata, Mapping):
        raise InvalidInput(name, "must be a dict", item_index=index)
    plain = plain_json(metadata, name, limits.metadata_depth, index)
    try:
        size = len(json.dumps(plain, ensure_ascii=False, allow_nan=False).encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidInput(
            name, "must be valid Unicode (lone surrogate)", item_index=index
        ) from None
    if size > limits.metadata_bytes:
        raise InvalidInput(
            name, f"is larger than {limits.metadata_bytes} bytes as JSON", item_index=index
        )
    return plain  # type: ignore[no-any-return]


def plain_json(value: Any, name: str, max_depth: int, index: int | None = None) -> Any:
    """A copy of a JSON-like value made of plain dicts, lists, strings, finite numbers, bools
    and None; anything else, NaN, infinity, NUL, a lone surrogate, a key that is not a string or
    nesting deeper than ``max_depth`` (a dict or list at the top is depth 1) is `InvalidInput`.
    """

    def walk(item: Any, depth: int) -> Any:
        if isinstance(item, str):
            check_text(item, name, index)
            return _plain_str(item)
        if item is None or isinstance(item, bool | int):
            return item
        if isinstance(item, float):
            if not math.isfinite(item):
                raise InvalidInput(name, "must not contain NaN or infinity", item_index=index)
            return item
        if not isinstance(item, Mapping | list | tuple):
            raise InvalidInput(
                name,
                f"must be JSON-serialisable: {type(item).__name__} is not",
                item_index=index,
            )
        if depth >= max_depth:
            raise InvalidInput(name, f"is nested deeper than {max_depth} levels", item_index=index)
        if isinstance(item, Mapping):
            # dict.items reads the real storage of a dict subclass, whatever it overrides.
            pairs = dict.items(item) if isinstance(item, dict) else item.items()
            out: dict[str, Any] = {}
            for k, v in pairs:
                if not isinstance(k, str):
                    raise InvalidInput(name, "keys must be strings", item_index=index)
                check_text(k, name, index)
                out[_plain_str(k)] = walk(v, depth + 1)
            return out
        return [walk(v, depth + 1) for v in item]

    return walk(value, 0)


def _plain_str(value: Any) -> Any:
    """A str subclass as a plain str (what is checked is then exactly what is stored)."""
    return str.__str__(value) if isinstance(value, str) and type(value) is not str else value


def check_namespace(namespace: Any, index: int | None = None) -> str:
    """A namespace is a non-empty string of at most 255 characters."""
    if not isinstance(namespace, str) or not namespace or len(namespace) > 255:
        raise InvalidInput("namespace", "must be a non-empty string (max 255)", item_index=index)
    check_text(namespace, "namespace", index)
    return namespace


def check_time(value: Any, name: str) -> datetime | None:
    """A datetime or None; anything else (a string, a number) is refused before it reaches SQL."""
    if value is not None and not isinstance(value, datetime):
        raise InvalidInput(name, f"must be a datetime, not {type(value).__name__}")
    return value


def check_ids(ids: Any, name: str = "entry_ids") -> list[str]:
    """A list of id strings; a bare string would otherwise be read as one id per character."""
    if isinstance(ids, str) or not isinstance(ids, Iterable):
        raise InvalidInput(name, "must be a list of id strings")
    out = list(ids)
    if not all(isinstance(i, str) for i in out):
        raise InvalidInput(name, "every id must be a string")
    return out


# SQLite and PostgreSQL integers are signed 64-bit: a larger offset would overflow in the driver.
_SQL_INT_MAX = 2**63 - 1


def check_limit(
    value: Any, name: str, *, optional: bool = True, maximum: int = _SQL_INT_MAX
) -> int | None:
    """A non-negative integer up to ``maximum`` (or None when ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(name, "must be a non-negative integer")
    if value > maximum:
        raise InvalidInput(name, f"must be at most {maximum}")
    return value


def check_text(value: str, name: str, index: int | None = None) -> None:
    """Refuse text no database can store: NUL characters and lone surrogates."""
    if "\x00" in value:
        raise InvalidInput(name, "must not contain NUL characters", item_index=index)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(
            name, "must be valid Unicode (lone surrogate)", item_index=index
        ) from None


_TYPES = {x.value: x for x in MemoryType}
_TIERS = {x.value: x for x in MemoryTier}
_SOURCES = {x.value: x for x in ProvenanceLevel}


def _member(members: Mapping[Any, Any], kind: type[Any], value: Any) -> Any:
    """``kind(value)`` by a dict look-up (an unknown value still raises the enum's error)."""
    return members[value] if value in members else kind(value)


def entry_from_row(row: Any) -> MemoryEntry:
    """Build a `MemoryEntry` from a ``tm_memories`` row whose columns are attributes.

    SQLAlchemy's ``Row``, the pushdown search's rows and a dump's records alike. No mapping is
    built per row, and the empty JSON every row without tags or metadata stores is not parsed.
    """
    tags, metadata = row.tags, row.metadata
    return MemoryEntry(
        id=row.id,
        type=_member(_TYPES, MemoryType, row.type),
        tier=_member(_TIERS, MemoryTier, row.tier),
        key=row.key,
        content=row.content,
        tags=() if tags == "[]" else tuple(loads(tags, [])),
        source_session=row.source_session,
        created_at=from_ts(row.created_at),  # type: ignore[arg-type]
        updated_at=from_ts(row.updated_at),  # type: ignore[arg-type]
        importance=row.importance,
        access_count=row.access_count,
        last_accessed=from_ts(row.last_accessed),  # type: ignore[arg-type]
        embedding_id=row.embedding_id,
        episode_id=row.episode_id,
        version=row.version,
        superseded_by=row.superseded_by,
        source=_member(_SOURCES, ProvenanceLevel, row.source),
        pinned=bool(row.pinned),
        namespace=row.namespace,
        metadata={} if metadata == "{}" else loads(metadata, {}),
        event_at=from_ts(row.event_at),
        superseded_at=from_ts(row.superseded_at),
        status=row.status,
    )


def entry_to_row(entry: MemoryEntry, terms: str) -> dict[str, Any]:
    """The ``tm_memories`` row for an entry."""
    return {
        "id": entry.id,
        "namespace": entry.namespace,
        "type": entry.type.value,
        "tier": entry.tier.value,
        "key": entry.key,
        "content": entry.content,
        "tags": dumps(list(entry.tags)),
        "source_session": entry.source_session,
        "created_at": to_ts(entry.created_at),
        "updated_at": to_ts(entry.updated_at),
        "importance": entry.importance,
        "access_count": entry.access_count,
        "last_accessed": to_ts(entry.last_accessed),
        "embedding_id": entry.embedding_id,
        "episode_id": entry.episode_id,
        "version": entry.version,
        "superseded_by": entry.superseded_by,
        "superseded_at": to_ts(entry.superseded_at),
        "source": int(entry.source),
        "pinned": entry.pinned,
        "metadata": dumps(dict(entry.metadata)),
        "terms": terms,
        "event_at": to_ts(entry.event_at),
        "status": entry.status,
    }


def episode_from_row(row: Any) -> Episode:
    """Build an `Episode` from a ``tm_episodes`` row."""
    m = row._mapping
    return Episode(
        id=m["id"],
        namespace=m["namespace"],
        session_key=m["session_key"],
        summary=m["summary"],
        message_range_start=m["message_range_start"],
        message_range_end=m["message_range_end"],
        entity_ids=tuple(loads(m["entity_ids"], [])),
        importance=m["importance"],
        created_at=from_ts(m["created_at"]),  # type: ignore[arg-type]
        event_at=from_ts(m["event_at"]),
        metadata=loads(m["metadata"], {}),
        tier=MemoryTier(m.get("tier") or MemoryTier.EPISODIC.value),
    )


def vector_row(
    owner_id: str, kind: str, namespace: str, model_id: str, vector: np.ndarray
) -> dict[str, Any]:
    """The ``tm_vectors`` row for one vector."""
    v = np.ascontiguousarray(vector, dtype=np.float32)
    return {
        "owner_id": owner_id,
        "kind": kind,
        "namespace": namespace,
        "model_id": model_id,
        "dim": int(v.shape[0]),
        "vector": v.tobytes(),
    }


def audit_value(entry: MemoryEntry | None) -> str | None:
    """An entry as stored in the audit log."""
    return None if entry is None else dumps(entry.to_dict())
