"""Reads: entries by id, filtered lists, key history, the audit log, namespaces, counts."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..errors import EntryNotFound, InvalidInput
from ..types import MemoryEntry, MemoryTier, MemoryType
from . import _tables as t
from ._db import db_errors, to_ts
from ._rows import check_enum, check_ids, check_limit, check_namespace, check_time, entry_from_row
from ._shared import StoreContext


class Reads:
    """`get`, `get_many`, `list`, `history`, `audit_log`, `namespaces`, `count`.

    Args:
        ctx: The store's shared context.
    """

    def __init__(self, ctx: StoreContext) -> None:
        self._ctx = ctx

    def require(self, entry_id: str, namespace: str | None) -> MemoryEntry:
        """The entry, or `EntryNotFound` (also when it belongs to another namespace)."""
        entry = self.get(entry_id, namespace=namespace)
        if entry is None:
            raise EntryNotFound(entry_id)
        return entry

    def get(self, entry_id: str, *, namespace: str | None = None) -> MemoryEntry | None:
        """The entry with this id, or None; with ``namespace``, only if it belongs to it."""
        if not isinstance(entry_id, str):
            raise InvalidInput("entry_id", "must be a string")
        query = sa.select(t.memories).where(t.memories.c.id == entry_id)
        if namespace is not None:
            query = query.where(t.memories.c.namespace == check_namespace(namespace))
        with db_errors("read a memory"), self._ctx.read() as conn:
            row = conn.execute(query).first()
        return entry_from_row(row) if row else None

    def get_many(self, entry_ids: Sequence[str], *, namespace: str) -> dict[str, MemoryEntry]:
        """Entries by id within one namespace (missing ids are left out)."""
        check_namespace(namespace)
        out: dict[str, MemoryEntry] = {}
        ids = list(dict.fromkeys(check_ids(entry_ids)))
        with db_errors("read memories"), self._ctx.read() as conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                # Filter the namespace in Python: with it in the WHERE clause SQLite may pick the
                # (namespace, tier) index and scan the whole namespace instead of the primary key.
                rows = conn.execute(sa.select(t.memories).where(t.memories.c.id.in_(chunk)))
                for row in rows:
                    if row.namespace == namespace:
                        out[row.id] = entry_from_row(row)
        return out


    def list(
        self,
        *,
        namespace: str = "default",
        tier: MemoryTier | str | Sequence[MemoryTier | str] | None = None,
        type: MemoryType | str | None = None,
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        key: str | None = None,
        status: str | None = "active",
        include_superseded: bool = True,
        limit: int | None = None,
        offset: int = 0,
    ) -> builtins.list[MemoryEntry]:
        """Entries of one namespace, newest first, filtered.

        Args:
            namespace: Whose entries.
            tier: One tier or several.
            type: USER or ENVIRONMENT.
            tags: Entries carrying all these tags.
            since: Created at or after.
            until: Created before.
            key: Only this key.
            status: ``active`` (default), ``pending`` or None for both.
            include_superseded: Keep replaced versions.
            limit: At most this many.
            offset: Skip this many.
        """
        check_namespace(namespace)
        m = t.memories.c
        query = sa.select(t.memories).where(m.namespace == namespace)
        check_limit(limit, "limit")
        check_limit(offset, "offset", optional=False)
        if isinstance(tags, str):
            raise InvalidInput("tags", "must be a list of strings")
        if key is not None and not isinstance(key, str):
            raise InvalidInput("key", "must be a string")
        if tier is not None:
            tiers = [tier] if isinstance(tier, str | MemoryTier) else list(tier)
            query = query.where(
                m.tier.in_([check_enum(MemoryTier, x, "tier").value for x in tiers])
            )
        if type is not None:
            query = query.where(m.type == check_enum(MemoryType, type, "type").value)
        if check_time(since, "since") is not None:
            query = query.where(m.created_at >= to_ts(since))
        if check_time(until, "until") is not None:
            query = query.where(m.created_at < to_ts(until))
        if key is not None:
            query = query.where(m.key == key)
        if status is not None:
            query = query.where(m.status == status)
        if not include_superseded:
            query = query.where(m.superseded_by.is_(None))
        wanted = set(tags or ())
        query = query.order_by(m.created_at.desc(), m.id)
        if not wanted:
            if limit is not None:
                query = query.limit(limit)
            query = query.offset(offset)
        with db_errors("list memories"), self._ctx.read() as conn:
            entries = [entry_from_row(r) for r in conn.execute(query)]
        if wanted:
            entries = [e for e in entries if wanted.issubset(e.tags)]
            entries = entries[offset : None if limit is None else offset + limit]
        return entries

    def history(self, key: str, *, namespace: str = "default") -> builtins.list[MemoryEntry]:
        """Every version of ``key``, oldest first."""
        check_namespace(namespace)
        if not isinstance(key, str) or not key:
            raise InvalidInput("key", "must be a non-empty string")
        m = t.memories.c
        with db_errors("read history"), self._ctx.read() as conn:
            rows = conn.execute(
                sa.select(t.memories)
                .where(m.namespace == namespace, m.key == key)
                .order_by(m.version)
            )
            return [entry_from_row(r) for r in rows]

    def audit_log(
        self, *, namespace: str = "default", entry_id: str | None = None, limit: int | None = None
    ) -> builtins.list[dict[str, Any]]:
        """Audit rows of a namespace (oldest first): seq, ts, entry_id, action, actor, old, new, reason."""
        check_namespace(namespace)
        check_limit(limit, "limit")
        a = t.audit_log.c
        query = sa.select(t.audit_log).where(a.namespace == namespace).order_by(a.seq)
        if entry_id is not None:
            query = query.where(a.entry_id == entry_id)
        if limit is not None:
            query = query.limit(limit)
        with db_errors("read the audit log"), self._ctx.read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def namespaces(self) -> builtins.list[str]:
        """Every namespace that holds at least one entry or episode."""
        with db_errors("list namespaces"), self._ctx.read() as conn:
            a = {r[0] for r in conn.execute(sa.select(t.memories.c.namespace).distinct())}
            b = {r[0] for r in conn.execute(sa.select(t.episodes.c.namespace).distinct())}
        return sorted(a | b)

    def count(self, *, namespace: str | None = None) -> int:
        """Number of entries (in one namespace, or in all)."""
        query = sa.select(sa.func.count()).select_from(t.memories)
        if namespace is not None:
            query = query.where(t.memories.c.namespace == check_namespace(namespace))
        with db_errors("count memories"), self._ctx.read() as conn:
            return int(conn.execute(query).scalar() or 0)
