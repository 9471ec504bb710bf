"""The one guarded write path, and the listeners that follow each write.

Writes: validate → PII policy → injection scan → embed (outside the transaction) → one transaction
that inserts rows, vectors and audit rows, applying the provenance guard on replaced keys. A refused
item aborts the whole call, so nothing half-written remains. After the commit, each registered
`WriteListener` sees the new entries (contradiction checks, automatic links); inside the
transaction, each sees every supersession (links move, open questions close). The in-memory
indexes need no listener: they catch up from the audit log on their next use.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np
import sqlalchemy as sa

from ..errors import InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath, check_replace, max_provenance
from ..text import tokenize
from ..types import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, ScanResult, new_id
from . import _tables as t
from ._db import db_errors, dumps, to_ts
from ._guard import apply_pii, blocked_value, scan_fields
from ._rows import (
    Draft,
    audit_value,
    check_namespace,
    entry_from_row,
    entry_to_row,
    make_draft,
    vector_row,
)
from ._shared import StoreContext

logger = logging.getLogger("langchain_tiered_memory")


class WriteListener(Protocol):
    """Something that follows the write path (registered with `Writer.listen`)."""

    def on_supersede(
        self, conn: sa.Connection, old: MemoryEntry, new: MemoryEntry, now: datetime
    ) -> None:
        """``old`` was replaced by ``new``, inside the writing transaction."""

    def after_commit(self, entries: Sequence[MemoryEntry]) -> None:
        """``entries`` were written and committed (a failure here is logged, not raised)."""


class Writer:
    """`add`, `add_many` and the guarded primitives every other write uses.

    Args:
        ctx: The store's shared context.
    """

    def __init__(self, ctx: StoreContext) -> None:
        self._ctx = ctx
        self._listeners: list[WriteListener] = []

    def listen(self, listener: WriteListener) -> None:
        """Call ``listener`` on every supersession and after every committed insert, in order."""
        self._listeners.append(listener)

    def _notify(self, entries: Sequence[MemoryEntry]) -> None:
        """Tell the listeners that ``entries`` were committed."""
        for listener in self._listeners:
            try:
                listener.after_commit(entries)
            except Exception:  # the write committed; a failed follow-up must not undo it
                logger.warning("a write listener failed", exc_info=True)

    def record_blocked(self, draft: Draft, error: MemoryWriteBlocked, path: WritePath) -> None:
        try:
            with db_errors("record a blocked write"), self._ctx.write() as conn, conn.begin():
                self._ctx.audit(
                    conn,
                    "blocked",
                    draft.namespace,
                    entry_id=None,
                    actor=path.value,
                    new=blocked_value(draft, self._ctx.config.pii_policy, error.reason),
                    reason=dumps({"reason": error.reason, "rule": error.rule, "span": error.span}),
                )
        except Exception:  # the refusal itself must still reach the caller
            logger.warning("could not record a blocked write in the audit log", exc_info=True)

    # -- guarded write path -----------------------------------------------------------------

    def guard(
        self,
        draft: Draft,
        path: WritePath,
        index: int | None,
        *,
        memo: dict[str, ScanResult] | None = None,
        record: bool = True,
    ) -> Draft:
        """Apply the provenance ceiling, the PII policy and the injection scanner to one draft.

        Args:
            draft: The write request (its content may be redacted in place).
            path: The calling write path.
            index: Batch position, named in the error.
            memo: Scanner verdicts per distinct string, shared across one batch: imports repeat
                the same keys, tags and metadata thousands of times, and the scanner is a pure
                function of the text.
            record: Log a refusal in the audit log now; callers inside a transaction pass False
                and log it after their rollback.
        """
        try:
            ceiling = max_provenance(path)
            if draft.source > ceiling:
                raise MemoryWriteBlocked(
                    "provenance",
                    rule="provenance_ceiling",
                    detail=f"the {path.value} path may write at most {ceiling.label}, "
                    f"not {draft.source.label}",
                )
            apply_pii(draft, self._ctx.config.pii_policy)
            scan_fields(draft, classifier=self._ctx.classifier, memo=memo)
        except MemoryWriteBlocked as exc:
            error = exc.with_index(index) if index is not None else exc
            if record:
                self.record_blocked(draft, error, path)
            raise error from None
        return draft

    def insert_drafts(
        self, drafts: Sequence[Draft], path: WritePath, now: datetime, batch: bool
    ) -> list[MemoryEntry]:
        matrix = self._ctx.embed([d.content for d in drafts])
        terms = [" ".join(tokenize(d.content + " " + " ".join(d.tags))) for d in drafts]
        pending = _Pending()
        try:
            with db_errors("write memories"), self._ctx.write() as conn, conn.begin():
                for i, draft in enumerate(drafts):
                    pending.index = i
                    self._stage(conn, pending, draft, matrix[i], terms[i], path, now)
                pending.flush(conn)
                self._ctx.rows_changed(conn, [r["id"] for r in pending.memories])
        except MemoryWriteBlocked as exc:
            # The transaction is rolled back and its lock released before the refusal is logged.
            error = exc.with_index(pending.index) if batch else exc
            self.record_blocked(drafts[pending.index], error, path)
            raise error from None
        self._notify(pending.created)
        return pending.created

    def _stage(
        self,
        conn: sa.Connection,
        pending: _Pending,
        draft: Draft,
        vector: np.ndarray,
        terms: str,
        path: WritePath,
        now: datetime,
    ) -> None:
        """Validate one draft against the store and queue its rows (inserted in bulk later)."""
        entry_id = new_id(draft.namespace)
        previous = None
        version = 1
        key = draft.key or f"mem:{entry_id}"
        if draft.key is not None:
            slot = (draft.namespace, draft.key)
            if slot in pending.latest:
                previous = pending.latest[slot]
                version = previous.version + 1
            else:
                previous = self.current_for_key(conn, draft.namespace, draft.key)
                last = conn.execute(
                    sa.select(sa.func.max(t.memories.c.version)).where(
                        t.memories.c.namespace == draft.namespace, t.memories.c.key == draft.key
                    )
                ).scalar()
                version = int(last or 0) + 1
        entry = MemoryEntry(
            id=entry_id,
            type=draft.type,
            tier=draft.tier,
            key=key,
            content=draft.content,
            tags=draft.tags,
            source_session=draft.source_session,
            created_at=now,
            updated_at=now,
            importance=draft.importance,
            access_count=0,
            last_accessed=now,
            embedding_id=entry_id,
            episode_id=draft.episode_id,
            version=version,
            superseded_by=None,
            source=draft.source,
            pinned=draft.pinned,
            namespace=draft.namespace,
            metadata=draft.metadata,
            event_at=draft.event_at,
            status=draft.status,
        )
        if previous is not None:
            check_replace(previous, entry)
        pending.memories.append(entry_to_row(entry, terms))
        pending.vectors.append(
            vector_row(entry_id, "memory", draft.namespace, self._ctx.model_id, vector)
        )
        pending.audit.append(
            self._ctx.audit_row(
                "add",
                draft.namespace,
                entry_id=entry_id,
                actor=path.value,
                new=audit_value(entry),
                now=now,
            )
        )
        pending.created.append(entry)
        if draft.key is not None:
            pending.latest[(draft.namespace, draft.key)] = entry
        # Before the early return: a later item of this batch may supersede this (uninserted) row.
        pending.rows[entry_id] = pending.memories[-1]
        if previous is None:
            return
        if previous.id in pending.rows:
            # Replaced within the same batch: its row has not been inserted yet.
            row = pending.rows[previous.id]
            row.update(
                superseded_by=entry_id, superseded_at=to_ts(now), tier=MemoryTier.ARCHIVAL.value
            )
            after = previous.evolve(
                superseded_by=entry_id, superseded_at=now, tier=MemoryTier.ARCHIVAL
            )
            pending.audit.append(
                self._ctx.audit_row(
                    "supersede",
                    previous.namespace,
                    entry_id=previous.id,
                    actor=path.value,
                    old=audit_value(previous),
                    new=audit_value(after),
                    reason="new version of key",
                    now=now,
                )
            )
        else:
            self.supersede(
                conn,
                previous,
                entry,
                path,
                now,
                reason="new version of key",
                audit_rows=pending.audit,
            )

    def current_for_key(self, conn: sa.Connection, namespace: str, key: str) -> MemoryEntry | None:
        m = t.memories.c
        row = conn.execute(
            sa.select(t.memories)
            .where(m.namespace == namespace, m.key == key, m.superseded_by.is_(None))
            .order_by(m.version.desc())
            .limit(1)
        ).first()
        return entry_from_row(row) if row else None

    def supersede(
        self,
        conn: sa.Connection,
        old: MemoryEntry,
        new: MemoryEntry,
        path: WritePath,
        now: datetime,
        *,
        reason: str,
        audit_rows: list[dict[str, Any]] | None = None,
    ) -> None:
        """Mark ``old`` as replaced by ``new``: it moves to ARCHIVAL with ``superseded_by`` set.

        With ``audit_rows`` the audit row is queued there (bulk insert) instead of written now.
        """
        conn.execute(
            sa.update(t.memories)
            .where(t.memories.c.id == old.id)
            .values(
                superseded_by=new.id,
                superseded_at=to_ts(now),
                tier=MemoryTier.ARCHIVAL.value,
                updated_at=to_ts(now),
            )
        )
        after = old.evolve(superseded_by=new.id, superseded_at=now, tier=MemoryTier.ARCHIVAL)
        row = self._ctx.audit_row(
            "supersede",
            old.namespace,
            entry_id=old.id,
            actor=path.value,
            old=audit_value(old),
            new=audit_value(after),
            reason=reason,
            now=now,
        )
        if audit_rows is not None:
            audit_rows.append(row)
        else:
            conn.execute(sa.insert(t.audit_log), [row])
        for listener in self._listeners:
            listener.on_supersede(conn, old, new, now)

    # -- public writes ----------------------------------------------------------------------

    def add(
        self,
        content: str,
        *,
        namespace: str = "default",
        key: str | None = None,
        type: MemoryType | str = MemoryType.ENVIRONMENT,
        tier: MemoryTier | str = MemoryTier.SEMANTIC,
        tags: Iterable[str] = (),
        importance: float = 0.5,
        source: ProvenanceLevel | int | str = ProvenanceLevel.MODEL_INFERRED,
        source_session: str = "",
        episode_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        event_at: datetime | None = None,
        pinned: bool = False,
        path: WritePath = WritePath.API,
        now: datetime | None = None,
    ) -> MemoryEntry:
        """Write one memory.

        Writing a ``key`` that already has a live entry creates version n+1; the old version gets
        ``superseded_by`` and moves to ARCHIVAL, if `provenance_guard` allows the replacement.

        Args:
            content: The memory text.
            namespace: Whose memory this is.
            key: Semantic key for de-duplication and versioning; a fresh one when omitted.
            type: USER (never decays) or ENVIRONMENT.
            tier: Usually SEMANTIC.
            tags: Labels for filtering.
            importance: Base importance, 0..1.
            source: Provenance; may not exceed what ``path`` allows.
            source_session: The session that produced it.
            episode_id: The episode it was extracted from.
            metadata: Free JSON-serialisable dict, returned in ``Document.metadata``.
            event_at: When the fact happened (as opposed to when it was stored).
            pinned: Always part of the core snapshot; never decays.
            path: Which write path is calling (sets the provenance ceiling).
            now: Override the clock.

        Returns:
            The stored entry.

        Raises:
            MemoryWriteBlocked: The scanner, PII policy or provenance guard refused it (every
                field is checked: content, key, tags, metadata, and all of them joined).
            InvalidInput: An argument is malformed or over a ``memory.max*`` limit (content
                bytes, key length, tag count and length, metadata depth and size).
            EmbeddingError: The embedding model failed; nothing was written.
            StoreError: The database failed; nothing was written.
        """
        raw = {
            "content": content,
            "key": key,
            "type": type,
            "tier": tier,
            # A str or a dict goes to `make_draft` as given, to be refused there.
            "tags": list(tags)
            if isinstance(tags, Iterable) and not isinstance(tags, str | bytes | Mapping)
            else tags,
            "importance": importance,
            "source": source,
            "source_session": source_session,
            "episode_id": episode_id,
            "metadata": metadata,
            "event_at": event_at,
            "pinned": pinned,
        }
        draft = self.guard(make_draft(raw, namespace, limits=self._ctx.limits), path, None)
        return self.insert_drafts([draft], path, self._ctx.now(now), batch=False)[0]

    def add_many(
        self,
        items: Iterable[Mapping[str, Any] | str],
        *,
        namespace: str = "default",
        path: WritePath = WritePath.API,
        now: datetime | None = None,
    ) -> list[MemoryEntry]:
        """Write many memories in one transaction with one batched embedding call.

        All or nothing: if any item is refused, none is written, and the error names the item
        (``item_index``).

        Args:
            items: Strings, or dicts of `add` arguments (``content`` required).
            namespace: Default namespace for items that do not name one.
            path: Which write path is calling.
            now: Override the clock.

        Returns:
            The stored entries, in input order.
        """
        check_namespace(namespace)
        if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
            # A str is iterable: "abc" would be stored as the memories a, b and c.
            raise InvalidInput("items", "must be a list of strings or dicts")
        drafts = [
            make_draft(raw, namespace, i, limits=self._ctx.limits) for i, raw in enumerate(items)
        ]
        drafts = [self.guard(d, path, i) for i, d in enumerate(drafts)]
        if not drafts:
            return []
        return self.insert_drafts(drafts, path, self._ctx.now(now), batch=True)

    def replace_row(
        self,
        before: MemoryEntry,
        after: MemoryEntry,
        action: str,
        path: WritePath,
        now: datetime,
        *,
        terms: str | None = None,
        reason: str | None = None,
        conn: sa.Connection | None = None,
    ) -> None:
        row = entry_to_row(after, terms or "")
        if terms is None:
            row.pop("terms")
        row.pop("id")

        def run(c: sa.Connection) -> None:
            c.execute(sa.update(t.memories).where(t.memories.c.id == before.id).values(**row))
            self._ctx.rows_changed(c, [before.id])
            self._ctx.audit(
                c,
                action,
                before.namespace,
                entry_id=before.id,
                actor=path.value,
                old=audit_value(before),
                new=audit_value(after),
                reason=reason,
                now=now,
            )

        if conn is not None:
            run(conn)
            return
        with db_errors(f"{action} a memory"), self._ctx.write() as c, c.begin():
            run(c)


class _Pending:
    """Rows of one write call, staged for bulk insertion at the end of its transaction."""

    def __init__(self) -> None:
        self.index = 0
        self.memories: list[dict[str, Any]] = []
        self.vectors: list[dict[str, Any]] = []
        self.audit: list[dict[str, Any]] = []
        self.created: list[MemoryEntry] = []
        self.latest: dict[tuple[str, str], MemoryEntry] = {}
        self.rows: dict[str, dict[str, Any]] = {}

    def flush(self, conn: sa.Connection) -> None:
        # executemany: one compiled statement per table instead of one per row.
        if self.memories:
            conn.execute(sa.insert(t.memories), self.memories)
            conn.execute(sa.insert(t.vectors), self.vectors)
        if self.audit:
            conn.execute(sa.insert(t.audit_log), self.audit)
