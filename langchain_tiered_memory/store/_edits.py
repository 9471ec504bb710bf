"""Edits of existing entries: update (a new version when content changes), delete, pin, archive,
restore. Each goes through the guarded write path and the audit log."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..errors import IllegalTransition, InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath, check_replace, max_provenance
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from . import _tables as t
from ._db import db_errors
from ._reads import Reads
from ._rows import Draft, audit_value, make_draft
from ._shared import StoreContext
from ._writer import Writer

_UNSET: Any = object()


class Edits:
    """`update`, `delete`, `pin`, `unpin`, `archive`, `restore`."""

    def __init__(self, ctx: StoreContext, reads: Reads, writer: Writer) -> None:
        self._ctx = ctx
        self._reads = reads
        self._writer = writer

    def update(
        self,
        entry_id: str,
        *,
        namespace: str | None = None,
        content: str | None = None,
        tags: Iterable[str] | None = None,
        importance: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        type: MemoryType | str | None = None,
        event_at: datetime | None = _UNSET,
        source: ProvenanceLevel | int | str | None = None,
        path: WritePath = WritePath.API,
        now: datetime | None = None,
    ) -> MemoryEntry:
        """Change an entry. A new ``content`` makes a new version of its key (history is kept);
        other fields change in place. Both go through the scanner and the provenance guard.

        Returns:
            The entry as it now is (the new version when content changed).
        """
        current = self._reads.require(entry_id, namespace)
        if current.superseded_by is not None:
            raise IllegalTransition(
                f"entry {entry_id} was superseded by {current.superseded_by}; update that one"
            )
        # A given ``source`` is parsed (and refused with a typed error) by `make_draft`.
        requested = source if source is not None else min(current.source, max_provenance(path))
        raw = {
            "content": content if content is not None else current.content,
            "key": current.key,
            "type": type if type is not None else current.type,
            "tier": current.tier if current.tier != MemoryTier.ARCHIVAL else MemoryTier.SEMANTIC,
            # A bare string (or any non-list) goes to `make_draft` as given so that it is refused:
            # list("abc") would silently store the tags a, b and c.
            "tags": list(current.tags)
            if tags is None
            else list(tags)
            if isinstance(tags, Iterable) and not isinstance(tags, str | Mapping)
            else tags,
            "importance": importance if importance is not None else current.importance,
            "source": requested,
            "source_session": current.source_session,
            "episode_id": current.episode_id,
            "metadata": dict(current.metadata)
            if metadata is None
            else dict(metadata)
            if isinstance(metadata, Mapping)
            else metadata,  # refused by `make_draft`
            "event_at": current.event_at if event_at is _UNSET else event_at,
            "pinned": current.pinned,
        }
        draft = self._writer.guard(make_draft(raw, current.namespace, limits=self._ctx.limits), path, None)
        when = self._ctx.now(now)
        if content is not None and content != current.content:
            return self._writer.insert_drafts([draft], path, when, batch=False)[0]
        probe = current.evolve(source=draft.source)
        try:
            check_replace(current, probe)
        except MemoryWriteBlocked as exc:
            self._writer.record_blocked(draft, exc, path)
            raise
        after = current.evolve(
            tags=draft.tags,
            importance=draft.importance,
            metadata=draft.metadata,
            type=draft.type,
            event_at=draft.event_at,
            source=draft.source,
            updated_at=when,
        )
        terms = " ".join(tokenize(after.content + " " + " ".join(after.tags)))
        self._writer.replace_row(current, after, "update", path, when, terms=terms)
        return after

    def delete(
        self, entry_id: str, *, namespace: str | None = None, path: WritePath = WritePath.API
    ) -> None:
        """Delete an entry and its vector for good (the audit log keeps its last value)."""
        current = self._reads.require(entry_id, namespace)
        with db_errors("delete a memory"), self._ctx.write() as conn, conn.begin():
            conn.execute(sa.delete(t.vectors).where(t.vectors.c.owner_id == entry_id))
            c = t.contradictions.c
            conn.execute(
                sa.delete(t.contradictions).where(
                    sa.or_(c.entry_a_id == entry_id, c.entry_b_id == entry_id)
                )
            )
            conn.execute(
                sa.delete(t.links).where(sa.or_(t.links.c.a == entry_id, t.links.c.b == entry_id))
            )
            conn.execute(sa.delete(t.memories).where(t.memories.c.id == entry_id))
            self._ctx.rows_changed(conn, [entry_id])
            self._ctx.audit(
                conn,
                "delete",
                current.namespace,
                entry_id=entry_id,
                actor=path.value,
                old=audit_value(current),
            )

    def _set_state(
        self,
        entry_id: str,
        namespace: str | None,
        action: str,
        path: WritePath,
        check: Callable[[MemoryEntry], str | None],
        *,
        reason: str | None = None,
        **changes: Any,
    ) -> MemoryEntry:
        current = self._reads.require(entry_id, namespace)
        problem = check(current)
        if problem:
            raise IllegalTransition(f"cannot {action} entry {entry_id}: {problem}")
        when = self._ctx.clock()
        after = current.evolve(updated_at=when, **changes)
        self._writer.replace_row(current, after, action, path, when, reason=reason)
        return after

    def pin(self, entry_id: str, *, namespace: str | None = None) -> MemoryEntry:
        """Pin an entry: always in the core snapshot, never decays."""
        return self._set_state(
            entry_id,
            namespace,
            "pin",
            WritePath.API,
            lambda e: "it is superseded" if e.superseded_by else None,
            pinned=True,
        )

    def unpin(self, entry_id: str, *, namespace: str | None = None) -> MemoryEntry:
        """Remove the pin of an entry."""
        return self._set_state(
            entry_id, namespace, "unpin", WritePath.API, lambda e: None, pinned=False
        )

    def archive(
        self,
        entry_id: str,
        *,
        namespace: str | None = None,
        path: WritePath = WritePath.API,
        reason: str | None = None,
        confirmed_by_user: bool = False,
    ) -> MemoryEntry:
        """Move an entry to ARCHIVAL (still recallable, down-weighted; out of the context block).

        A path may archive only what it could have written: the agent tools and the LangGraph
        adapter (``model_inferred``) cannot archive what the user stated or consolidation
        established. When the user asks the assistant to forget such an entry, the application
        archives it with ``confirmed_by_user=True`` (or through ``WritePath.USER``) once the
        user has confirmed; the audit row says so.

        Args:
            entry_id: The entry.
            namespace: Only if it belongs to this namespace.
            path: Who is archiving (audited).
            reason: Why, kept in the audit log.
            confirmed_by_user: The user confirmed this archive: the provenance check is lifted.

        Raises:
            MemoryWriteBlocked: ``path`` may not archive an entry this trusted
                (``reason="provenance"``, ``rule="provenance_archive"``).
            IllegalTransition: It is already archived.
        """
        if reason is not None and not isinstance(reason, str):
            raise InvalidInput("reason", "must be a string")
        if not isinstance(confirmed_by_user, bool):
            raise InvalidInput("confirmed_by_user", "must be True or False")
        current = self._reads.require(entry_id, namespace)
        ceiling = max_provenance(path)
        if current.source > ceiling and not confirmed_by_user:
            error = MemoryWriteBlocked(
                "provenance",
                rule="provenance_archive",
                detail=f"the {path.value} path cannot archive the {current.source.label} "
                f"entry {current.id}; only the user can, once they confirm",
            )
            draft = Draft(content=current.content, namespace=current.namespace, key=current.key)
            self._writer.record_blocked(draft, error, path)
            raise error
        if confirmed_by_user:
            reason = f"{reason} (confirmed by the user)" if reason else "confirmed by the user"
        return self._set_state(
            entry_id,
            namespace,
            "archive",
            path,
            lambda e: "it is already archived" if e.tier == MemoryTier.ARCHIVAL else None,
            reason=reason or None,
            tier=MemoryTier.ARCHIVAL,
        )

    def restore(self, entry_id: str, *, namespace: str | None = None) -> MemoryEntry:
        """Bring an archived entry back to SEMANTIC (its decay clock restarts)."""

        def check(e: MemoryEntry) -> str | None:
            if e.tier != MemoryTier.ARCHIVAL:
                return f"it is {e.tier.value}, not archived"
            if e.superseded_by:
                return f"it was superseded by {e.superseded_by}; restore the key with a new write"
            return None

        return self._set_state(
            entry_id,
            namespace,
            "restore",
            WritePath.API,
            check,
            tier=MemoryTier.SEMANTIC,
            last_accessed=self._ctx.clock(),
        )
