"""`ConsolidationStore`: what the consolidation pipeline, its jobs and its scheduler need of a store.

A typed seam instead of ``store: Any`` and ``getattr`` probing: `TieredMemoryStore` provides all
of it, and a stand-in for tests needs exactly these methods, no more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..ingestion import IngestionStore
from ..types import Contradiction, MemoryEntry

if TYPE_CHECKING:
    from ..contradiction.verdict import Verifier
    from ..store._jobs import Job
    from ..store._lifecycle import DecayReport

__all__ = ["ConsolidationStore"]


class ConsolidationStore(IngestionStore, Protocol):
    """The store as consolidation sees it: the ingestion service's writes, the contradiction
    check and decay pass it runs after them, and the durable jobs it runs in."""

    @property
    def url(self) -> str:
        """The database URL (jobs of one database are one queue)."""

    def get(self, entry_id: str, *, namespace: str | None = None) -> MemoryEntry | None: ...

    def suspend_checks(self) -> AbstractContextManager[None]: ...

    def check_contradictions(
        self, entry_ids: Sequence[str], *, verifier: Verifier | None = None,
        namespace: str | None = None,
    ) -> list[Contradiction]: ...

    def decay_pass(
        self, *, namespace: str | None = None, now: datetime | None = None
    ) -> DecayReport: ...

    def enqueue_job(
        self, namespace: str, session_key: str, payload: Mapping[str, Any] | None = None, *,
        kind: str = ..., job_id: str | None = None,
    ) -> tuple[Job, bool]: ...

    def claim_job(
        self, job_id: str, owner: str | None = None, *, lease_seconds: float = ...
    ) -> Job | None: ...

    def renew_lease(self, job_id: str, owner: str, *, lease_seconds: float = ...) -> bool: ...

    def complete_job(
        self, job_id: str, owner: str | None = None, *, result: Mapping[str, Any] | None = None
    ) -> bool: ...

    def fail_job(
        self, job_id: str, error: str, owner: str | None = None, *, retry: bool = ...,
        max_attempts: int | None = None,
    ) -> Job | None: ...

    def resume_pending(
        self, *, namespace: str | None = None, kind: str | None = ...
    ) -> list[Job]: ...
