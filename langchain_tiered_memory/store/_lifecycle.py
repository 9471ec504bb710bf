"""Decay pass, lifecycle states and transitions, garbage collection and purge.

The seed's state diagram, and the call that makes each move (every one is audited)::

    Created  -> Active      add (or approve, for an entry waiting for review)
    Active   -> Active      a recall hit or `touch` (access_count + 1)
    Active   -> Decaying    time: effective importance under half the stored one (`lifecycle_state`)
    Decaying -> Active      a recall hit or `touch`
    Decaying -> Archived    `decay_pass` (below ``memory.archiveThreshold``) or `archive`
    Archived -> Active      `restore`
    Archived -> Superseded  a new version of its key
    Active   -> Superseded  a new version of its key, or a contradiction it lost
                            (`_contradictions.Contradictions`)
    Superseded / Archived -> purged   `gc` after the retention period, or `purge`

Anything else raises `IllegalTransition`. Contradictions live in `_contradictions.py`; lineage,
as-of queries and links in `_lattice.py`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from ..decay import DecayState, assess_decay
from ..errors import IllegalTransition, InvalidInput
from ..provenance import WritePath
from ..types import MemoryEntry, MemoryTier, MemoryType
from . import _tables as t
from ._db import db_errors, dumps, to_ts
from ._episode_retention import EpisodeRetention
from ._reads import Reads
from ._rows import audit_value, check_namespace, entry_from_row
from ._shared import StoreContext
from ._writer import Writer

__all__ = ["DecayReport", "GcReport", "Lifecycle", "LifecycleState", "live", "rows_by_id"]

_CHUNK = 500

class LifecycleState(str, enum.Enum):
    """Where an entry stands on the seed's lifecycle diagram."""

    CREATED = "created"  # written but waiting for review (status ``pending``)
    ACTIVE = "active"
    DECAYING = "decaying"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"


@dataclass(frozen=True, slots=True)
class DecayReport:
    """What one `decay_pass` saw and did.

    Attributes:
        examined: Live SEMANTIC entries assessed.
        archived: Ids moved to ARCHIVAL (effective importance below the archive threshold).
        decaying: Ids past one half-life but still above the threshold.
        exempt: Entries that never decay (USER type or pinned) among those examined.
        now: The instant the pass computed for.
        archived_episodes: Episodes moved to ARCHIVAL by the ``memory.episodeRetention`` budget.
    """

    examined: int
    archived: tuple[str, ...]
    decaying: tuple[str, ...]
    exempt: int
    now: datetime
    archived_episodes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GcReport:
    """What one `gc` purged.

    Attributes:
        purged: Ids deleted for good (row, vector and links).
        skipped: Ids past retention that were kept because they are USER or pinned.
        history_rows: Audit rows deleted along with them (only with ``purge_history``).
        cutoff: Entries superseded / archived at or before this instant were eligible.
    """

    purged: tuple[str, ...]
    skipped: tuple[str, ...]
    history_rows: int
    cutoff: datetime




def live(entry: MemoryEntry) -> bool:
    """Neither superseded nor waiting for review / deleted: an entry recall and checks consider."""
    return entry.superseded_by is None and entry.status == "active"


def rows_by_id(conn: sa.Connection, ids: Sequence[str]) -> list[MemoryEntry]:
    """The entries with these ids, read on ``conn`` (inside the caller's transaction)."""
    out: list[MemoryEntry] = []
    for start in range(0, len(ids), _CHUNK):
        chunk = list(ids[start : start + _CHUNK])
        out.extend(entry_from_row(r) for r in conn.execute(
            sa.select(t.memories).where(t.memories.c.id.in_(chunk))))
    return out


def _protected(entry: MemoryEntry) -> bool:
    """USER and pinned entries are never purged."""
    return entry.type == MemoryType.USER or entry.pinned


class Lifecycle:
    """Decay pass, lifecycle states, ``touch``, garbage collection and purge."""

    def __init__(self, ctx: StoreContext, reads: Reads, writer: Writer, retention: EpisodeRetention) -> None:
        self._ctx = ctx
        self._reads = reads
        self._writer = writer
        self._retention = retention

    # -- decay ------------------------------------------------------------------------------

    def decay_pass(
        self, *, namespace: str | None = None, now: datetime | None = None
    ) -> DecayReport:
        """Recompute effective importance and archive the live SEMANTIC entries below threshold.

        USER and pinned entries are exempt. Each archived entry gets a ``decay_archive`` audit
        row holding its effective importance. The pass also applies the episodes' retention
        budget (`prune_episodes`).

        Args:
            namespace: Only this namespace (default: all).
            now: The instant to compute for (default: the store's clock).
        """
        when = self._ctx.now(now)
        m = t.memories.c
        query = sa.select(t.memories).where(
            m.tier == MemoryTier.SEMANTIC.value, m.superseded_by.is_(None), m.status == "active"
        )
        if namespace is not None:
            query = query.where(m.namespace == check_namespace(namespace))
        with db_errors("read memories for decay"), self._ctx.read() as conn:
            entries = [entry_from_row(r) for r in conn.execute(query)]
        due: list[str] = []
        decaying: list[str] = []
        exempt = 0
        for entry in entries:
            state = assess_decay(entry, when, self._ctx.config)
            exempt += state.exempt
            if state.state is DecayState.ARCHIVE_DUE:
                due.append(entry.id)
            elif state.state is DecayState.DECAYING:
                decaying.append(entry.id)
        archived: list[str] = []
        if due:
            with db_errors("archive decayed memories"), self._ctx.write() as conn, conn.begin():
                for fresh in rows_by_id(conn, due):
                    # Re-assessed in the write transaction: a hit since the read may have saved it.
                    state = assess_decay(fresh, when, self._ctx.config)
                    if state.state is not DecayState.ARCHIVE_DUE:
                        continue
                    after = fresh.evolve(tier=MemoryTier.ARCHIVAL, updated_at=when)
                    reason = dumps({"effective": round(state.effective, 6),
                                    "threshold": self._ctx.config.archive_threshold,
                                    "half_life_days": state.half_life_days,
                                    "days_idle": round(state.days_idle, 3)})
                    self._writer.replace_row(fresh, after, "decay_archive", WritePath.CONSOLIDATION,
                                      when, reason=reason, conn=conn)
                    archived.append(fresh.id)
        episodes = self._retention.prune_episodes(namespace=namespace, now=when)
        return DecayReport(
            len(entries), tuple(archived), tuple(decaying), exempt, when, archived_episodes=episodes
        )

    def lifecycle_state(
        self, entry_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> LifecycleState:
        """The entry's state on the lifecycle diagram at ``now``."""
        entry = self._reads.require(entry_id, namespace)
        if entry.superseded_by is not None:
            return LifecycleState.SUPERSEDED
        if entry.status == "pending":
            return LifecycleState.CREATED
        if entry.tier == MemoryTier.ARCHIVAL or entry.status != "active":
            return LifecycleState.ARCHIVED
        state = assess_decay(entry, self._ctx.now(now), self._ctx.config).state
        if state in (DecayState.DECAYING, DecayState.ARCHIVE_DUE):
            return LifecycleState.DECAYING
        return LifecycleState.ACTIVE

    def touch(
        self, entry_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> MemoryEntry:
        """Count an access (Decaying → Active): ``access_count`` + 1, ``last_accessed`` = now.

        Raises:
            IllegalTransition: The entry is superseded or archived (`restore` it first).
        """
        current = self._reads.require(entry_id, namespace)
        if current.superseded_by is not None:
            raise IllegalTransition(f"cannot touch entry {entry_id}: it is superseded")
        if current.tier == MemoryTier.ARCHIVAL:
            raise IllegalTransition(f"cannot touch entry {entry_id}: it is archived; restore it")
        when = self._ctx.now(now)
        after = current.evolve(access_count=current.access_count + 1, last_accessed=when)
        self._writer.replace_row(current, after, "touch", WritePath.API, when)
        return after

    # -- garbage collection ---------------------------------------------------------------------

    def gc(
        self,
        retention_days: float,
        *,
        namespace: str | None = None,
        now: datetime | None = None,
        purge_history: bool = False,
    ) -> GcReport:
        """Purge superseded and archived entries older than the retention period.

        Age is measured from ``superseded_at`` (superseded entries) or from the later of
        ``updated_at`` and ``last_accessed`` (archived ones). USER and pinned entries are never
        purged. Each purge deletes the row, its vector and its links and writes a ``gc_purge``
        audit row naming the entry (its last value stays there unless ``purge_history``).

        Args:
            retention_days: Keep anything younger than this many days.
            namespace: Only this namespace (default: all).
            now: The current time (default: the store's clock).
            purge_history: Also delete the entry's earlier audit rows and contradiction records.
        """
        if isinstance(retention_days, bool) or not isinstance(retention_days, int | float) or (
            retention_days < 0
        ):
            raise InvalidInput("retention_days", "must be a non-negative number")
        cutoff = self._ctx.now(now) - timedelta(days=float(retention_days))
        cut = to_ts(cutoff)
        m = t.memories.c
        eligible = sa.or_(
            sa.and_(m.superseded_by.is_not(None), m.superseded_at <= cut),
            sa.and_(m.superseded_by.is_(None), m.tier == MemoryTier.ARCHIVAL.value,
                    m.updated_at <= cut, m.last_accessed <= cut),
        )
        query = sa.select(t.memories).where(eligible)
        if namespace is not None:
            query = query.where(m.namespace == check_namespace(namespace))
        with db_errors("garbage-collect memories"), self._ctx.write() as conn, conn.begin():
            found = [entry_from_row(r) for r in conn.execute(query)]
            doomed = [e for e in found if not _protected(e)]
            skipped = tuple(e.id for e in found if _protected(e))
            history = self._purge(conn, doomed, purge_history, f"gc: retention {retention_days}d")
        return GcReport(tuple(e.id for e in doomed), skipped, history, cutoff)

    def purge(
        self, entry_id: str, *, namespace: str | None = None, purge_history: bool = False
    ) -> None:
        """Purge one superseded or archived entry now (the last step of the diagram).

        Raises:
            IllegalTransition: It is live, or USER, or pinned.
        """
        current = self._reads.require(entry_id, namespace)
        if current.superseded_by is None and current.tier != MemoryTier.ARCHIVAL:
            raise IllegalTransition(f"cannot purge entry {entry_id}: it is live; archive it first")
        if _protected(current):
            raise IllegalTransition(f"cannot purge entry {entry_id}: USER and pinned entries stay")
        with db_errors("purge a memory"), self._ctx.write() as conn, conn.begin():
            self._purge(conn, [current], purge_history, "purge")

    def _purge(
        self, conn: sa.Connection, entries: Sequence[MemoryEntry], history: bool, reason: str
    ) -> int:
        removed = 0
        ids = [e.id for e in entries]
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            conn.execute(sa.delete(t.vectors).where(t.vectors.c.owner_id.in_(chunk)))
            conn.execute(sa.delete(t.links).where(
                sa.or_(t.links.c.a.in_(chunk), t.links.c.b.in_(chunk))))
            conn.execute(sa.delete(t.memories).where(t.memories.c.id.in_(chunk)))
            self._ctx.rows_changed(conn, chunk)
            if history:
                c = t.contradictions.c
                conn.execute(sa.delete(t.contradictions).where(
                    sa.or_(c.entry_a_id.in_(chunk), c.entry_b_id.in_(chunk))))
                result = conn.execute(sa.delete(t.audit_log).where(
                    t.audit_log.c.entry_id.in_(chunk)))
                removed += int(result.rowcount or 0)
        # Written after the history delete: this row must stay so every index drops the entry.
        rows = [self._ctx.audit_row("gc_purge", e.namespace, entry_id=e.id, actor="gc",
                                old=None if history else audit_value(e), reason=reason)
                for e in entries]
        if rows:
            conn.execute(sa.insert(t.audit_log), rows)
        return removed


