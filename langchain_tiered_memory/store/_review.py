"""The review queue: facts that wait (status ``pending``) until a person approves or rejects them.

A pending fact holds only its proposed key (``metadata["proposed_key"]``): it supersedes nothing
until `approve` makes it the live version of that key, through the provenance guard.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from ..errors import IllegalTransition
from ..provenance import WritePath, check_replace
from ..types import MemoryEntry, MemoryTier
from . import _tables as t
from ._db import db_errors
from ._edits import Edits
from ._reads import Reads
from ._rows import check_limit, entry_from_row
from ._shared import StoreContext
from ._writer import Writer


class Review:
    """`pending_reviews`, `approve`, `reject`, and the importer's duplicate lookup."""

    def __init__(self, ctx: StoreContext, reads: Reads, writer: Writer, edits: Edits) -> None:
        self._ctx = ctx
        self._reads = reads
        self._writer = writer
        self._edits = edits

    def pending_reviews(
        self, namespace: str = "default", *, limit: int | None = None
    ) -> list[MemoryEntry]:
        """Entries waiting for review (status ``pending``), oldest first."""
        check_limit(limit, "limit")
        pending = self._reads.list(namespace=namespace, status="pending")
        pending.reverse()
        return pending[:limit] if limit is not None else pending

    def approve(
        self, entry_id: str, *, namespace: str | None = None, path: WritePath = WritePath.USER
    ) -> MemoryEntry:
        """Approve a pending entry: it becomes active, searchable, and the live version of the key
        it was proposed for (``metadata["proposed_key"]``), if the provenance guard allows.

        Raises:
            EntryNotFound: No such entry (in ``namespace``).
            IllegalTransition: It is not pending.
            MemoryWriteBlocked: It would replace a more trusted entry.
        """
        current = self._reads.require(entry_id, namespace)
        if current.status != "pending":
            raise IllegalTransition(f"cannot approve entry {entry_id}: it is {current.status}")
        now = self._ctx.clock()
        meta = dict(current.metadata)
        key = meta.pop("proposed_key", None)
        with db_errors("approve a memory"), self._ctx.write() as conn, conn.begin():
            after = current.evolve(status="active", updated_at=now, metadata=meta)
            previous = None
            if isinstance(key, str) and key and key != current.key:
                previous = self._writer.current_for_key(conn, current.namespace, key)
                last = conn.execute(
                    sa.select(sa.func.max(t.memories.c.version)).where(
                        t.memories.c.namespace == current.namespace, t.memories.c.key == key
                    )
                ).scalar()
                after = after.evolve(key=key, version=int(last or 0) + 1)
                if previous is not None:
                    check_replace(previous, after)
            self._writer.replace_row(current, after, "approve", path, now, conn=conn)
            if previous is not None:
                self._writer.supersede(conn, previous, after, path, now, reason="approved review")
        return after

    def reject(
        self,
        entry_id: str,
        *,
        namespace: str | None = None,
        archive: bool = False,
        path: WritePath = WritePath.USER,
    ) -> MemoryEntry | None:
        """Reject a pending entry: delete it (default) or keep it archived with status
        ``rejected`` (never recalled). Both are audited.

        Returns:
            The archived entry, or None when it was deleted.
        """
        current = self._reads.require(entry_id, namespace)
        if current.status != "pending":
            raise IllegalTransition(f"cannot reject entry {entry_id}: it is {current.status}")
        if not archive:
            self._edits.delete(entry_id, namespace=namespace, path=path)
            return None
        now = self._ctx.clock()
        after = current.evolve(status="rejected", tier=MemoryTier.ARCHIVAL, updated_at=now)
        self._writer.replace_row(current, after, "reject", path, now)
        return after

    def pending_with_contents(
        self, contents: Iterable[str], *, namespace: str
    ) -> list[MemoryEntry]:
        """The pending entries whose content is one of ``contents`` (a re-run's duplicates)."""
        wanted = sorted(set(contents))
        m = t.memories.c
        out: list[MemoryEntry] = []
        with db_errors("read pending entries"), self._ctx.read() as conn:
            for start in range(0, len(wanted), 500):
                rows = conn.execute(
                    sa.select(t.memories).where(
                        m.namespace == namespace,
                        m.status == "pending",
                        m.content.in_(wanted[start : start + 500]),
                    )
                )
                out.extend(entry_from_row(row) for row in rows)
        return out
