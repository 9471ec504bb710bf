"""Durable consolidation jobs with leases.

A job is one unit of background work (usually "consolidate this session") recorded in ``tm_jobs``
before it runs, so a process that dies mid-job does not lose it: the next process that opens the
store finds it with `resume_pending` and runs it again.

Lifecycle: ``queued`` → (`claim_job`) ``running`` under a lease → ``done`` (`complete_job`) or back
to ``queued`` (`fail_job` with retry) or ``failed`` (out of attempts). A ``running`` job whose lease
has expired — or whose owner is a process on this host that no longer exists — can be claimed
again. Claims are a single conditional UPDATE inside a write transaction, so two workers (threads or
processes) never both hold a job. ``(namespace, kind, session_key)`` is unique: enqueueing the same
session twice returns the existing job instead of creating a second one.

Lease times are wall-clock epoch seconds (`time.time`), not the store's injectable clock: leases
are about real processes dying, while the store clock may be frozen in tests.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..errors import InvalidInput
from . import _tables as t
from ._coordination import lease_owner_id, owner_is_dead
from ._db import db_errors, dumps, from_ts, loads, to_ts
from ._rows import check_namespace
from ._shared import StoreContext

__all__ = ["Job", "Jobs", "default_lease_owner"]

JOB_STATUSES = ("queued", "running", "done", "failed")


# One naming scheme for every lease holder: jobs and the generic leases share it.
default_lease_owner = lease_owner_id


@dataclass(frozen=True, slots=True)
class Job:
    """One recorded background job.

    Attributes:
        id: Job id.
        namespace: Whose memory the job works on.
        kind: What it does (``consolidation``).
        session_key: De-duplication key within (namespace, kind).
        status: ``queued``, ``running``, ``done`` or ``failed``.
        payload: JSON payload (for consolidation: the session's messages).
        attempts: How many times it was claimed.
        error: The last failure, if any.
        lease_owner: Who holds (or last held) the lease.
        lease_expires: Wall-clock epoch seconds when the lease lapses.
        created_at: When it was enqueued (store clock).
        updated_at: Last change (store clock).
    """

    id: str
    namespace: str
    kind: str
    session_key: str
    status: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    attempts: int = 0
    error: str | None = None
    lease_owner: str | None = None
    lease_expires: float | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


def _job(row: Any) -> Job:
    return Job(
        id=row.id,
        namespace=row.namespace,
        kind=row.kind,
        session_key=row.session_key,
        status=row.status,
        payload=loads(row.payload, {}),
        attempts=int(row.attempts or 0),
        error=row.error,
        lease_owner=row.lease_owner,
        lease_expires=row.lease_expires,
        created_at=from_ts(row.created_at),
        updated_at=from_ts(row.updated_at),
    )


class Jobs:
    """Durable consolidation jobs with leases: enqueue, claim, complete, fail, list, resume."""

    def __init__(self, ctx: StoreContext) -> None:
        self._ctx = ctx

    def enqueue_job(
        self,
        namespace: str,
        session_key: str,
        payload: Mapping[str, Any] | None = None,
        *,
        kind: str = "consolidation",
        job_id: str | None = None,
    ) -> tuple[Job, bool]:
        """Record a job unless one already exists for ``(namespace, kind, session_key)``.

        A ``failed`` job for the same key is re-queued (with the new payload when given); a
        ``queued``, ``running`` or ``done`` one is returned unchanged, so the same session ended
        twice is consolidated once.

        Returns:
            ``(job, created)``: the job and whether this call created (or re-queued) it.
        """
        check_namespace(namespace)
        if not isinstance(session_key, str) or not session_key.strip():
            raise InvalidInput("session_key", "must be a non-empty string")
        from ..types import new_id

        now = to_ts(self._ctx.clock())
        j = t.jobs.c
        with db_errors("enqueue a job"), self._ctx.write() as conn, conn.begin():
            row = conn.execute(
                sa.select(t.jobs).where(
                    j.namespace == namespace, j.kind == kind, j.session_key == session_key
                )
            ).first()
            if row is None:
                new = job_id or new_id()
                conn.execute(
                    sa.insert(t.jobs).values(
                        id=new,
                        namespace=namespace,
                        kind=kind,
                        session_key=session_key,
                        status="queued",
                        payload=dumps(dict(payload or {})),
                        attempts=0,
                        created_at=now,
                        updated_at=now,
                    )
                )
                created = True
                target = new
            elif row.status == "failed":
                values: dict[str, Any] = {"status": "queued", "updated_at": now, "error": None}
                if payload is not None:
                    values["payload"] = dumps(dict(payload))
                conn.execute(sa.update(t.jobs).where(j.id == row.id).values(**values))
                created = True
                target = row.id
            else:
                created = False
                target = row.id
            job = _job(conn.execute(sa.select(t.jobs).where(j.id == target)).one())
        return job, created

    def get_job(self, job_id: str) -> Job | None:
        """The job with this id, or None."""
        with db_errors("read a job"), self._ctx.read() as conn:
            row = conn.execute(sa.select(t.jobs).where(t.jobs.c.id == job_id)).first()
        return _job(row) if row else None

    def claim_job(
        self,
        job_id: str,
        owner: str | None = None,
        *,
        lease_seconds: float = 60.0,
    ) -> Job | None:
        """Take the lease on a job so that only this worker runs it.

        A job can be claimed when it is ``queued``, or ``running`` with a lapsed lease or a dead
        owner (a crashed process). Each claim counts one attempt.

        Returns:
            The claimed job, or None when it is done, failed, missing or held by someone alive.
        """
        owner = owner or default_lease_owner()
        j = t.jobs.c
        with db_errors("claim a job"), self._ctx.write() as conn, conn.begin():
            row = conn.execute(sa.select(t.jobs).where(j.id == job_id)).first()
            if row is None or row.status in ("done", "failed"):
                return None
            wall = time.time()
            if row.status == "running":
                lapsed = row.lease_expires is None or row.lease_expires <= wall
                if not (lapsed or owner_is_dead(row.lease_owner)):
                    return None
            result = conn.execute(
                sa.update(t.jobs)
                .where(j.id == job_id, j.status == row.status, j.attempts == row.attempts)
                .values(
                    status="running",
                    lease_owner=owner,
                    lease_expires=wall + lease_seconds,
                    attempts=j.attempts + 1,
                    updated_at=to_ts(self._ctx.clock()),
                )
            )
            if result.rowcount != 1:
                return None
            return _job(conn.execute(sa.select(t.jobs).where(j.id == job_id)).one())

    def renew_lease(self, job_id: str, owner: str, *, lease_seconds: float = 60.0) -> bool:
        """Extend the lease of a running job this owner holds; False when it lost the lease."""
        j = t.jobs.c
        with db_errors("renew a job lease"), self._ctx.write() as conn, conn.begin():
            result = conn.execute(
                sa.update(t.jobs)
                .where(j.id == job_id, j.status == "running", j.lease_owner == owner)
                .values(lease_expires=time.time() + lease_seconds)
            )
        return bool(result.rowcount == 1)

    def complete_job(
        self, job_id: str, owner: str | None = None, *, result: Mapping[str, Any] | None = None
    ) -> bool:
        """Mark a job done (by its lease holder when ``owner`` is given).

        Args:
            job_id: The job.
            owner: When given, only this lease holder may complete it.
            result: Optional JSON summary stored in the payload under ``result``. The payload's
                ``messages`` (a session transcript) are dropped, keeping only their count.

        Returns:
            True when this call marked it done; False when it was already done or not held.
        """
        j = t.jobs.c
        with db_errors("complete a job"), self._ctx.write() as conn, conn.begin():
            row = conn.execute(sa.select(t.jobs).where(j.id == job_id)).first()
            if row is None or row.status == "done":
                return False
            if owner is not None and row.lease_owner != owner:
                return False
            values: dict[str, Any] = {
                "status": "done",
                "lease_expires": None,
                "error": None,
                "updated_at": to_ts(self._ctx.clock()),
            }
            payload = loads(row.payload, {})
            if result is not None:
                payload["result"] = dict(result)
            if isinstance(payload.get("messages"), list):
                # The transcript was only kept so the job could be re-run; a done job is not.
                payload["message_count"] = len(payload.pop("messages"))
            values["payload"] = dumps(payload)
            conn.execute(sa.update(t.jobs).where(j.id == job_id).values(**values))
        return True

    def fail_job(
        self,
        job_id: str,
        error: str,
        owner: str | None = None,
        *,
        retry: bool = True,
        max_attempts: int | None = None,
    ) -> Job | None:
        """Record a failure: back to ``queued`` when it may be retried, else ``failed``.

        Args:
            job_id: The job.
            error: What went wrong (kept in ``error``).
            owner: When given, only this lease holder may fail it.
            retry: Re-queue it (unless ``max_attempts`` is reached).
            max_attempts: Attempts after which the job is ``failed`` for good.

        Returns:
            The job as it now is, or None when it is missing or not held by ``owner``.
        """
        j = t.jobs.c
        with db_errors("fail a job"), self._ctx.write() as conn, conn.begin():
            row = conn.execute(sa.select(t.jobs).where(j.id == job_id)).first()
            if row is None or row.status == "done":
                return None
            if owner is not None and row.lease_owner != owner:
                return None
            exhausted = max_attempts is not None and int(row.attempts or 0) >= max_attempts
            status = "queued" if retry and not exhausted else "failed"
            conn.execute(
                sa.update(t.jobs)
                .where(j.id == job_id)
                .values(
                    status=status,
                    error=str(error)[:2000],
                    lease_expires=None,
                    updated_at=to_ts(self._ctx.clock()),
                )
            )
            return _job(conn.execute(sa.select(t.jobs).where(j.id == job_id)).one())

    def list_jobs(
        self,
        *,
        namespace: str | None = None,
        status: str | builtins.list[str] | tuple[str, ...] | None = None,
        kind: str | None = None,
        session_key: str | None = None,
    ) -> builtins.list[Job]:
        """Jobs, oldest first, filtered by namespace, status, kind and key."""
        j = t.jobs.c
        query = sa.select(t.jobs)
        if namespace is not None:
            query = query.where(j.namespace == namespace)
        if status is not None:
            statuses = [status] if isinstance(status, str) else list(status)
            query = query.where(j.status.in_(statuses))
        if kind is not None:
            query = query.where(j.kind == kind)
        if session_key is not None:
            query = query.where(j.session_key == session_key)
        query = query.order_by(j.created_at, j.id)
        with db_errors("list jobs"), self._ctx.read() as conn:
            return [_job(r) for r in conn.execute(query)]

    def resume_pending(
        self, *, namespace: str | None = None, kind: str | None = "consolidation"
    ) -> builtins.list[Job]:
        """Jobs that should run now: queued ones, and running ones whose holder is gone.

        Call it when a process opens the store (a scheduler's ``resume`` does) to pick up work a
        crashed process left behind. It only lists; `claim_job` still decides who runs each.
        """
        wall = time.time()
        out: builtins.list[Job] = []
        for job in self.list_jobs(namespace=namespace, status=("queued", "running"), kind=kind):
            if job.status == "queued" or (
                job.lease_expires is None
                or job.lease_expires <= wall
                or owner_is_dead(job.lease_owner)
            ):
                out.append(job)
        return out







