"""The re-embed queue: vectors made by another model, re-embedded once across workers."""

from __future__ import annotations

import threading
from collections.abc import Callable

import sqlalchemy as sa

from . import _tables as t
from ._coordination import (
    lease_owner_id,
    reembed_once,
)
from ._db import db_errors
from ._rows import vector_row
from ._shared import StoreContext


class Reembed:
    """`reembed_pending` and `reembed`."""

    def __init__(self, ctx: StoreContext) -> None:
        self._ctx = ctx

    # -- re-embedding -----------------------------------------------------------------------

    def reembed_pending(self, *, namespace: str | None = None) -> int:
        """How many stored vectors were made by another model and wait to be re-embedded."""
        v = t.vectors.c
        query = sa.select(sa.func.count()).select_from(t.vectors).where(v.model_id != self._ctx.model_id)
        if namespace is not None:
            query = query.where(v.namespace == namespace)
        with db_errors("count the re-embed queue"), self._ctx.read() as conn:
            return int(conn.execute(query).scalar() or 0)

    def reembed(
        self,
        *,
        batch_size: int = 256,
        progress: Callable[[int, int], None] | None = None,
        lease_seconds: float = 60.0,
    ) -> int:
        """Re-embed every vector made by another model with the current one.

        Until then those entries are not searched by vector (they would be in the wrong space).
        Any number of workers may call it: the one holding the lease ``reembed:<model_id>``
        drains the queue, the others return 0 at once; a worker that dies leaves the rest
        queued and its lease lapses after ``lease_seconds`` (at once for a dead local process).

        Args:
            batch_size: Texts per embedding call (and per transaction).
            progress: Called with ``(done, total)`` after each batch.
            lease_seconds: Lease time-to-live; renewed by a heartbeat while draining.

        Returns:
            How many vectors this call re-embedded (0 when another worker is draining).

        Raises:
            LeaseLost: This worker stalled past its lease and another took over (the batches
                it committed are kept).
        """
        return reembed_once(
            self._ctx.write,
            model_id=self._ctx.model_id,
            owner=lease_owner_id(f"reembed-{id(self._ctx):x}-{threading.get_ident()}"),
            batch_size=batch_size,
            progress=progress,
            ttl=lease_seconds,
            drain=self._reembed_all,
        )

    def _reembed_all(self, *, batch_size: int, progress: Callable[[int, int], None] | None) -> int:
        """The drain loop itself, without the lease (see `reembed`)."""
        total = self.reembed_pending()
        done = 0
        v = t.vectors.c
        while True:
            with db_errors("read the re-embed queue"), self._ctx.read() as conn:
                rows = conn.execute(
                    sa.select(v.owner_id, v.kind, v.namespace)
                    .where(v.model_id != self._ctx.model_id)
                    .limit(batch_size)
                ).all()
                texts: dict[str, str] = {}
                for kind, table, col in (
                    ("memory", t.memories, t.memories.c.content),
                    ("episode", t.episodes, t.episodes.c.summary),
                ):
                    ids = [r.owner_id for r in rows if r.kind == kind]
                    if ids:
                        for text_row in conn.execute(
                            sa.select(table.c.id, col).where(table.c.id.in_(ids))
                        ):
                            texts[text_row[0]] = text_row[1]
            if not rows:
                break
            todo = [r for r in rows if r.owner_id in texts]
            matrix = self._ctx.embed([texts[r.owner_id] for r in todo]) if todo else None
            with db_errors("store re-embedded vectors"), self._ctx.write() as conn, conn.begin():
                for i, r in enumerate(todo):
                    assert matrix is not None
                    conn.execute(
                        sa.update(t.vectors)
                        .where(v.owner_id == r.owner_id)
                        .values(
                            **vector_row(r.owner_id, r.kind, r.namespace, self._ctx.model_id, matrix[i])
                        )
                    )
                    action = "reembed" if r.kind == "memory" else "episode_reembed"
                    self._ctx.audit(conn, action, r.namespace, entry_id=r.owner_id, actor="reembed")
                orphans = [r.owner_id for r in rows if r.owner_id not in texts]
                if orphans:
                    conn.execute(sa.delete(t.vectors).where(v.owner_id.in_(orphans)))
                self._ctx.rows_changed(conn, [r.owner_id for r in rows if r.kind == "memory"])
                self._ctx.episodes_changed(
                    conn, [r.owner_id for r in rows if r.kind == "episode"])
            done += len(todo)
            if progress is not None:
                progress(done, total)
        return done
