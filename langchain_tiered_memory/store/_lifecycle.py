"""Decay pass, lifecycle transitions, GC, contradictions, lineage, as-of and links.

The seed's state diagram, and the call that makes each move (every one is audited)::

    Created  -> Active      add (or approve, for an entry waiting for review)
    Active   -> Active      a recall hit or `touch` (access_count + 1)
    Active   -> Decaying    time: effective importance under half the stored one (`lifecycle_state`)
    Decaying -> Active      a recall hit or `touch`
    Decaying -> Archived    `decay_pass` (below ``memory.archiveThreshold``) or `archive`
    Archived -> Active      `restore`
    Archived -> Superseded  a new version of its key
    Active   -> Superseded  a new version of its key, or a contradiction it lost
    Superseded / Archived -> purged   `gc` after the retention period, or `purge`

Anything else raises `IllegalTransition`.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from collections import deque
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import sqlalchemy as sa

from ..contradiction import HeuristicVerifier, Verdict, Verifier, build_contradiction, resolve
from ..contradiction import detect_contradictions as _detect
from ..decay import DecayState, assess_decay
from ..errors import EntryNotFound, IllegalTransition, InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath, max_provenance
from ..text import tokenize
from ..types import Contradiction, MemoryEntry, MemoryTier, MemoryType, SearchHit
from . import _tables as t
from ._async import async_twin
from ._core import StoreCore
from ._db import db_errors, dumps, from_ts, loads, to_ts
from ._rows import audit_value, check_namespace, entry_from_row

logger = logging.getLogger("langchain_tiered_memory")

__all__ = ["DecayReport", "GcReport", "LifecycleMixin", "LifecycleState", "Lineage", "LineageEdge"]

# Neighbours taken from each in-memory index when looking for contradiction candidates, and
# most rows a same-key / shared-tag SQL probe may add: enough for real conflicts, bounded cost.
_NEIGHBOURS = 8
_SQL_MATCHES = 20
# Most candidate pairs verified per new entry (the pre-filter ranks them, best first).
_VERIFY = 5
# Most automatic links of each kind per new entry (a popular tag must not link everything).
_AUTO_LINKS = 5
_CHUNK = 500

# Set by `suspend_checks()` so one write path (an importer, consolidation) can pass through
# without checks while other threads keep them.
_suspended: ContextVar[bool] = ContextVar("tm_contradiction_checks_suspended", default=False)


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
    """

    examined: int
    archived: tuple[str, ...]
    decaying: tuple[str, ...]
    exempt: int
    now: datetime


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


@dataclass(frozen=True, slots=True)
class LineageEdge:
    """``old_id`` was replaced by ``new_id`` at ``at`` because of ``reason``."""

    old_id: str
    new_id: str
    at: datetime | None
    reason: str


@dataclass(frozen=True, slots=True)
class Lineage:
    """The versioned lattice around one entry: who replaced whom, when and why.

    Attributes:
        entry_id: The entry asked about.
        nodes: Every entry reachable through supersession or contradiction, oldest first
            (purged entries are absent, but their edges stay while the audit log keeps them).
        edges: Supersession edges, oldest first.
        contradictions: Contradiction records between nodes (pending ones are open branches).
    """

    entry_id: str
    nodes: tuple[MemoryEntry, ...]
    edges: tuple[LineageEdge, ...]
    contradictions: tuple[Contradiction, ...]

    @property
    def current(self) -> tuple[MemoryEntry, ...]:
        """The nodes nothing replaced (more than one while a contradiction is pending)."""
        return tuple(n for n in self.nodes if n.superseded_by is None)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _live(entry: MemoryEntry) -> bool:
    return entry.superseded_by is None and entry.status == "active"


def _contradiction(row: Any) -> Contradiction:
    m = row._mapping
    return Contradiction(
        id=m["id"],
        namespace=m["namespace"],
        entry_a_id=m["entry_a_id"],
        entry_b_id=m["entry_b_id"],
        description=m["description"],
        confidence=m["confidence"],
        resolution=m["resolution"],
        resolved_at=from_ts(m["resolved_at"]),
        created_at=from_ts(m["created_at"]),  # type: ignore[arg-type]
    )


def _contradiction_row(c: Contradiction) -> dict[str, Any]:
    return {
        "id": c.id,
        "namespace": c.namespace,
        "entry_a_id": c.entry_a_id,
        "entry_b_id": c.entry_b_id,
        "description": c.description,
        "confidence": c.confidence,
        "resolution": c.resolution,
        "resolved_at": to_ts(c.resolved_at),
        "created_at": to_ts(c.created_at),
    }


_PENDING = sa.or_(
    t.contradictions.c.resolution.is_(None), t.contradictions.c.resolution == "pending"
)


class LifecycleMixin(StoreCore):
    """Decay pass, lifecycle transitions, GC, contradictions, lineage, as-of and links.

    Attributes (plain attributes, so they can be changed on a live store):
        detect_contradictions: Check every new live SEMANTIC entry against its neighbours.
        contradiction_verifier: Any `Verifier` (e.g. ``LLMVerifier(chat_model)``); None means the
            offline `HeuristicVerifier`.
        auto_link: Link new entries to entries sharing a tag or an entity
            (``metadata["entities"]``) and to near neighbours.
        link_min_similarity: Cosine similarity from which a neighbour is linked automatically.
        write_check_limit: Writes of more entries than this (bulk imports) skip the on-write
            checks and links; run `check_contradictions` on them explicitly.
    """

    detect_contradictions: bool = True
    contradiction_verifier: Verifier | None = None
    auto_link: bool = True
    link_min_similarity: float = 0.8
    write_check_limit: int = 100

    # -- decay ------------------------------------------------------------------------------

    def decay_pass(
        self, *, namespace: str | None = None, now: datetime | None = None
    ) -> DecayReport:
        """Recompute effective importance and archive the live SEMANTIC entries below threshold.

        USER and pinned entries are exempt. Each archived entry gets a ``decay_archive`` audit
        row holding its effective importance.

        Args:
            namespace: Only this namespace (default: all).
            now: The instant to compute for (default: the store's clock).
        """
        when = self._now(now)
        m = t.memories.c
        query = sa.select(t.memories).where(
            m.tier == MemoryTier.SEMANTIC.value, m.superseded_by.is_(None), m.status == "active"
        )
        if namespace is not None:
            query = query.where(m.namespace == check_namespace(namespace))
        with db_errors("read memories for decay"), self._read() as conn:
            entries = [entry_from_row(r) for r in conn.execute(query)]
        due: list[str] = []
        decaying: list[str] = []
        exempt = 0
        for entry in entries:
            state = assess_decay(entry, when, self.config)
            exempt += state.exempt
            if state.state is DecayState.ARCHIVE_DUE:
                due.append(entry.id)
            elif state.state is DecayState.DECAYING:
                decaying.append(entry.id)
        archived: list[str] = []
        if due:
            with db_errors("archive decayed memories"), self._write() as conn, conn.begin():
                for fresh in self._rows(conn, due):
                    # Re-assessed in the write transaction: a hit since the read may have saved it.
                    state = assess_decay(fresh, when, self.config)
                    if state.state is not DecayState.ARCHIVE_DUE:
                        continue
                    after = fresh.evolve(tier=MemoryTier.ARCHIVAL, updated_at=when)
                    reason = dumps({"effective": round(state.effective, 6),
                                    "threshold": self.config.archive_threshold,
                                    "half_life_days": state.half_life_days,
                                    "days_idle": round(state.days_idle, 3)})
                    self._replace_row(fresh, after, "decay_archive", WritePath.CONSOLIDATION,
                                      when, reason=reason, conn=conn)
                    archived.append(fresh.id)
        return DecayReport(len(entries), tuple(archived), tuple(decaying), exempt, when)

    def lifecycle_state(
        self, entry_id: str, *, namespace: str | None = None, now: datetime | None = None
    ) -> LifecycleState:
        """The entry's state on the lifecycle diagram at ``now``."""
        entry = self._require(entry_id, namespace)
        if entry.superseded_by is not None:
            return LifecycleState.SUPERSEDED
        if entry.status == "pending":
            return LifecycleState.CREATED
        if entry.tier == MemoryTier.ARCHIVAL or entry.status != "active":
            return LifecycleState.ARCHIVED
        state = assess_decay(entry, self._now(now), self.config).state
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
        current = self._require(entry_id, namespace)
        if current.superseded_by is not None:
            raise IllegalTransition(f"cannot touch entry {entry_id}: it is superseded")
        if current.tier == MemoryTier.ARCHIVAL:
            raise IllegalTransition(f"cannot touch entry {entry_id}: it is archived; restore it")
        when = self._now(now)
        after = current.evolve(access_count=current.access_count + 1, last_accessed=when)
        self._replace_row(current, after, "touch", WritePath.API, when)
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
        cutoff = self._now(now) - timedelta(days=float(retention_days))
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
        with db_errors("garbage-collect memories"), self._write() as conn, conn.begin():
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
        current = self._require(entry_id, namespace)
        if current.superseded_by is None and current.tier != MemoryTier.ARCHIVAL:
            raise IllegalTransition(f"cannot purge entry {entry_id}: it is live; archive it first")
        if _protected(current):
            raise IllegalTransition(f"cannot purge entry {entry_id}: USER and pinned entries stay")
        with db_errors("purge a memory"), self._write() as conn, conn.begin():
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
            if history:
                c = t.contradictions.c
                conn.execute(sa.delete(t.contradictions).where(
                    sa.or_(c.entry_a_id.in_(chunk), c.entry_b_id.in_(chunk))))
                result = conn.execute(sa.delete(t.audit_log).where(
                    t.audit_log.c.entry_id.in_(chunk)))
                removed += int(result.rowcount or 0)
        # Written after the history delete: this row must stay so every index drops the entry.
        rows = [self._audit_row("gc_purge", e.namespace, entry_id=e.id, actor="gc",
                                old=None if history else audit_value(e), reason=reason)
                for e in entries]
        if rows:
            conn.execute(sa.insert(t.audit_log), rows)
        return removed

    # -- contradictions -----------------------------------------------------------------------

    @contextlib.contextmanager
    def suspend_checks(self) -> Iterator[None]:
        """Within this block (this thread / task only) writes skip contradiction checks."""
        token = _suspended.set(True)
        try:
            yield
        finally:
            _suspended.reset(token)

    def _after_commit(self, entries: Sequence[MemoryEntry]) -> None:
        super()._after_commit(entries)
        if not entries or len(entries) > self.write_check_limit:
            return
        check = self.detect_contradictions and not _suspended.get()
        if not (check or self.auto_link):
            return
        try:
            by_ns: dict[str, list[str]] = {}
            for entry in entries:
                by_ns.setdefault(entry.namespace, []).append(entry.id)
            for ns, ids in by_ns.items():
                if check:
                    fresh = self.get_many(ids, namespace=ns)
                    self._check([fresh[i] for i in ids if i in fresh], None)
                if self.auto_link:
                    fresh = self.get_many(ids, namespace=ns)
                    self._auto_link([fresh[i] for i in ids if i in fresh and _live(fresh[i])])
        except Exception:  # the write committed; a failed check must not turn it into an error
            logger.warning("contradiction check / linking after a write failed", exc_info=True)

    def check_contradictions(
        self, entry_ids: Sequence[str], *, verifier: Verifier | None = None,
        namespace: str | None = None,
    ) -> list[Contradiction]:
        """Check entries against their namespace's live SEMANTIC entries and resolve what is found.

        Consolidation calls this for the facts it wrote. Pairs already on record are skipped, so
        running it twice is harmless.

        Args:
            entry_ids: The entries to check (live SEMANTIC ones; others are ignored).
            verifier: Overrides ``contradiction_verifier`` for this call.
            namespace: Only entries of this namespace.

        Returns:
            The new contradiction records (resolved or pending).
        """
        found = [e for e in (self.get(i, namespace=namespace) for i in entry_ids) if e is not None]
        return self._check(found, verifier)

    def _check(
        self, entries: Sequence[MemoryEntry], verifier: Verifier | None
    ) -> list[Contradiction]:
        judge = verifier or self.contradiction_verifier or HeuristicVerifier()
        out: list[Contradiction] = []
        for entry in entries:
            if entry.tier != MemoryTier.SEMANTIC or not _live(entry):
                continue
            pool, sims = self._contradiction_pool(entry)
            if not pool:
                continue
            for found in _detect(entry, pool, verifier=judge, similarities=sims,
                                 config=self.config, include_unsure=True, limit=_VERIFY):
                record, entry_lost = self._record(entry.id, found.candidate.entry.id, found.verdict)
                if record is not None:
                    out.append(record)
                if entry_lost:
                    break
        return out

    def _contradiction_pool(
        self, entry: MemoryEntry
    ) -> tuple[list[MemoryEntry], dict[str, float]]:
        """Live SEMANTIC entries worth comparing with ``entry``: index neighbours, key and tags."""
        index = self._index(entry.namespace)
        tokens = tokenize(entry.content)
        with index.lock:
            stored = index.vectors.get(entry.id)
            vec = None if stored is None else stored.copy()
            near = index.vectors.search(vec, _NEIGHBOURS + 1) if vec is not None else []
            lexical = index.keyword.search(tokens, _NEIGHBOURS // 2 + 1) if tokens else []
        # Only neighbours the pre-filter would accept anyway: each candidate costs a verification.
        floor = self.config.contradiction_min_similarity
        ids = {i for i, sim in near if sim >= floor} | {i for i, _ in lexical}
        ids.update(self._token_matches(entry.namespace, entry.tags))
        m = t.memories.c
        with db_errors("find contradiction candidates"), self._read() as conn:
            ids.update(r[0] for r in conn.execute(  # same key: an indexed lookup
                sa.select(m.id).where(m.namespace == entry.namespace, m.key == entry.key)))
        ids.discard(entry.id)
        pool = [e for e in self.get_many(sorted(ids), namespace=entry.namespace).values()
                if e.tier == MemoryTier.SEMANTIC and _live(e)]
        sims = dict(near)
        if vec is not None:
            with index.lock:
                missing = [e.id for e in pool if e.id not in sims]
                sims.update(index.vectors.similarities(vec, missing))
        return pool, sims

    def _token_matches(self, namespace: str, values: Sequence[str]) -> list[str]:
        """Ids whose indexed terms hold each value's tokens (tags are indexed with the content):
        an in-memory lookup instead of a LIKE scan over JSON columns."""
        index = self._index(namespace)
        out: list[str] = []
        with index.lock:
            for value in values:
                tokens = tokenize(value)
                if tokens:
                    out.extend(i for i, _ in index.keyword.search(tokens, _SQL_MATCHES))
        return list(dict.fromkeys(out))

    def _record(self, a_id: str, b_id: str, verdict: Verdict) -> tuple[Contradiction | None, bool]:
        """Store one contradiction and apply its resolution; return it and whether A lost."""
        now = self.clock()
        c = t.contradictions.c
        with db_errors("record a contradiction"), self._write() as conn, conn.begin():
            pair = self._rows(conn, [a_id, b_id])
            if len(pair) != 2 or not all(_live(e) for e in pair):
                return None, False
            a, b = (pair[0], pair[1]) if pair[0].id == a_id else (pair[1], pair[0])
            seen = conn.execute(sa.select(c.id).where(sa.or_(
                sa.and_(c.entry_a_id == a_id, c.entry_b_id == b_id),
                sa.and_(c.entry_a_id == b_id, c.entry_b_id == a_id)))).first()
            if seen is not None:
                return None, False
            outcome = resolve(a, b, verdict, config=self.config)
            record = build_contradiction(a, b, verdict, outcome, now=now)
            conn.execute(sa.insert(t.contradictions), [_contradiction_row(record)])
            detail = dumps({"contradiction": record.id, "resolution": record.resolution,
                            "confidence": record.confidence, "description": record.description})
            for entry in (a, b):
                self._audit(conn, "contradiction", entry.namespace, entry_id=entry.id,
                            actor="contradiction", new=detail, reason=record.id, now=now)
            if outcome.status == "resolved":
                winner, loser = (a, b) if outcome.winner_id == a.id else (b, a)
                self._supersede(conn, loser, winner, WritePath.CONSOLIDATION, now,
                                reason=f"contradiction {record.id}")
                return record, loser.id == a.id
        return record, False

    def contradictions(
        self, namespace: str = "default", *, pending_only: bool = False,
        entry_id: str | None = None,
    ) -> list[Contradiction]:
        """Contradiction records of a namespace, oldest first (optionally of one entry)."""
        check_namespace(namespace)
        c = t.contradictions.c
        query = sa.select(t.contradictions).where(c.namespace == namespace)
        if pending_only:
            query = query.where(_PENDING)
        if entry_id is not None:
            query = query.where(sa.or_(c.entry_a_id == entry_id, c.entry_b_id == entry_id))
        with db_errors("read contradictions"), self._read() as conn:
            rows = conn.execute(query.order_by(c.created_at, c.id))
            return [_contradiction(r) for r in rows]

    def resolve(
        self, contradiction_id: str, *, keep: str, namespace: str | None = None,
        path: WritePath = WritePath.USER,
    ) -> Contradiction:
        """Settle a pending contradiction: ``keep`` stays, the other entry is superseded by it.

        Raises:
            EntryNotFound: No such contradiction (in ``namespace``).
            IllegalTransition: It is already resolved, or the entry to keep was superseded.
            InvalidInput: ``keep`` is neither entry of the pair.
            MemoryWriteBlocked: ``path`` may not discard an entry of the loser's provenance.
        """
        now = self.clock()
        c = t.contradictions.c
        with db_errors("resolve a contradiction"), self._write() as conn, conn.begin():
            query = sa.select(t.contradictions).where(c.id == contradiction_id)
            if namespace is not None:
                query = query.where(c.namespace == namespace)
            row = conn.execute(query).first()
            if row is None:
                raise EntryNotFound(contradiction_id)
            record = _contradiction(row)
            if not record.pending:
                raise IllegalTransition(
                    f"contradiction {contradiction_id} is already resolved ({record.resolution})")
            if keep not in (record.entry_a_id, record.entry_b_id):
                raise InvalidInput("keep", "must be the id of one of the two entries")
            other = record.entry_b_id if keep == record.entry_a_id else record.entry_a_id
            found = {e.id: e for e in self._rows(conn, [keep, other])}
            winner, loser = found.get(keep), found.get(other)
            if winner is None or winner.superseded_by is not None:
                raise IllegalTransition(f"cannot keep entry {keep}: it is gone or superseded")
            if loser is not None and loser.source > max_provenance(path):
                raise MemoryWriteBlocked("provenance", rule="provenance_guard", detail=(
                    f"the {path.value} path cannot discard a {loser.source.label} entry"))
            code = "keep_a" if keep == record.entry_a_id else "keep_b"
            after = Contradiction(
                entry_a_id=record.entry_a_id, entry_b_id=record.entry_b_id,
                description=f"{record.description}; resolved by {path.value}: kept {keep}",
                confidence=record.confidence, resolution=code, resolved_at=now, id=record.id,
                namespace=record.namespace, created_at=record.created_at)
            conn.execute(sa.update(t.contradictions).where(c.id == record.id).values(
                resolution=code, resolved_at=to_ts(now), description=after.description))
            self._audit(conn, "contradiction_resolve", record.namespace, entry_id=keep,
                        actor=path.value, reason=record.id, new=dumps({"kept": keep}), now=now)
            if loser is not None and loser.superseded_by is None:
                self._supersede(conn, loser, winner, path, now, reason=f"contradiction {record.id}")
        return after

    def _on_supersede(
        self, conn: sa.Connection, old: MemoryEntry, new: MemoryEntry, now: datetime
    ) -> None:
        super()._on_supersede(conn, old, new, now)
        # Links move to the successor (the note lives on in its new version)...
        lk = t.links.c
        rows = conn.execute(
            sa.select(t.links).where(sa.or_(lk.a == old.id, lk.b == old.id))).all()
        if rows:
            have = self._link_keys(conn, [new.id])
            moved = []
            for r in rows:
                a = new.id if r.a == old.id else r.a
                b = new.id if r.b == old.id else r.b
                if a != b and (a, b, r.relation) not in have and (b, a, r.relation) not in have:
                    have.add((a, b, r.relation))
                    moved.append({"namespace": r.namespace, "a": a, "b": b,
                                  "relation": r.relation, "created_at": r.created_at})
            conn.execute(sa.delete(t.links).where(sa.or_(lk.a == old.id, lk.b == old.id)))
            if moved:
                conn.execute(sa.insert(t.links), moved)
        # ...and a question about a replaced entry is closed (the successor gets its own check).
        c = t.contradictions.c
        conn.execute(
            sa.update(t.contradictions)
            .where(_PENDING, sa.or_(c.entry_a_id == old.id, c.entry_b_id == old.id))
            .values(resolution="superseded", resolved_at=to_ts(now))
        )

    def _annotate_hits(self, hits: list[SearchHit], *, namespace: str, k: int) -> list[SearchHit]:
        """Recall hook: mark hits in a pending contradiction and bring their partner along."""
        if not hits:
            return hits
        ids = [h.entry.id for h in hits]
        c = t.contradictions.c
        query = sa.select(c.entry_a_id, c.entry_b_id).where(
            c.namespace == namespace, _PENDING,
            sa.or_(c.entry_a_id.in_(ids), c.entry_b_id.in_(ids)))
        with db_errors("read pending contradictions"), self._read() as conn:
            pairs = conn.execute(query).all()
        if not pairs:
            return hits
        partners: dict[str, list[str]] = {}
        for a, b in pairs:
            partners.setdefault(a, []).append(b)
            partners.setdefault(b, []).append(a)
        extra = self.get_many([p for i in ids for p in partners.get(i, ())], namespace=namespace)
        present = set(ids)
        out: list[SearchHit] = []
        for hit in hits:
            if hit.entry.id not in partners:
                out.append(hit)
                continue
            out.append(SearchHit(hit.entry, hit.score,
                                 {**hit.scores, "pending_contradiction": 1.0}, hit.knowledge))
            for pid in partners[hit.entry.id]:
                partner = extra.get(pid)
                if pid in present or partner is None or not _live(partner):
                    continue
                present.add(pid)
                out.append(SearchHit(partner, hit.score,
                                     {"pending_contradiction": 1.0, "pending_partner": 1.0}))
        while len(out) > k:  # keep k: drop the weakest hits that are not part of a pair
            plain = [i for i, h in enumerate(out) if "pending_contradiction" not in h.scores]
            if not plain:
                break
            out.pop(plain[-1])
        return out

    # -- versioned lattice ----------------------------------------------------------------------

    def lineage(self, entry_id: str, *, namespace: str | None = None) -> Lineage:
        """The supersession graph around an entry (versions of its key, contradictions won and
        lost, pending branches), with when and why each replacement happened.

        The reasons come from the audit log: ``new version of key``, ``contradiction <id>``,
        ``approved review``...
        """
        root = self._require(entry_id, namespace)
        ns = root.namespace
        edges = self._supersession_edges(ns)
        records = self.contradictions(ns)
        graph: dict[str, set[str]] = {}
        for edge in edges.values():
            graph.setdefault(edge.old_id, set()).add(edge.new_id)
            graph.setdefault(edge.new_id, set()).add(edge.old_id)
        for rec in records:
            graph.setdefault(rec.entry_a_id, set()).add(rec.entry_b_id)
            graph.setdefault(rec.entry_b_id, set()).add(rec.entry_a_id)
        seen = {root.id}
        queue = deque([root.id])
        while queue:
            for nxt in graph.get(queue.popleft(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        nodes = sorted(self.get_many(sorted(seen), namespace=ns).values(),
                       key=lambda e: (e.created_at, e.version, e.id))
        far = datetime.min.replace(tzinfo=timezone.utc)
        mine = sorted((e for e in edges.values() if e.old_id in seen),
                      key=lambda e: (e.at or far, e.old_id))
        return Lineage(root.id, tuple(nodes), tuple(mine),
                       tuple(r for r in records if r.entry_a_id in seen))

    def _supersession_edges(self, namespace: str) -> dict[str, LineageEdge]:
        a, m = t.audit_log.c, t.memories.c
        edges: dict[str, LineageEdge] = {}
        with db_errors("read the supersession graph"), self._read() as conn:
            for row in conn.execute(
                sa.select(a.entry_id, a.ts, a.new_value, a.reason)
                .where(a.namespace == namespace, a.action == "supersede")
                .order_by(a.seq)
            ):
                new_id = loads(row.new_value, {}).get("superseded_by")
                if row.entry_id and new_id:
                    edges[row.entry_id] = LineageEdge(row.entry_id, new_id, from_ts(row.ts),
                                                      row.reason or "unknown")
            # Rows superseded without an audit trail (imported records) still count.
            for row in conn.execute(
                sa.select(m.id, m.superseded_by, m.superseded_at)
                .where(m.namespace == namespace, m.superseded_by.is_not(None))
            ):
                if row.id not in edges:
                    edges[row.id] = LineageEdge(row.id, row.superseded_by,
                                                from_ts(row.superseded_at), "unknown")
        return edges

    def as_of(
        self, key: str, time: datetime, *, namespace: str = "default"
    ) -> list[MemoryEntry]:
        """What was believed about ``key`` at ``time``, oldest first.

        The versions of ``key`` created at or before ``time`` and not yet superseded then; where a
        version had been replaced by an entry of another key (a lost contradiction), that entry;
        and where a contradiction was pending at ``time``, both sides of it.
        """
        check_namespace(namespace)
        when = to_ts(_aware(time))
        assert when is not None
        m = t.memories.c

        def live_at(e: MemoryEntry) -> bool:
            created = to_ts(e.created_at) or 0.0
            gone = to_ts(e.superseded_at)
            return e.status == "active" and created <= when and (gone is None or gone > when)

        with db_errors("read past beliefs"), self._read() as conn:
            versions = [entry_from_row(r) for r in conn.execute(
                sa.select(t.memories).where(m.namespace == namespace, m.key == key,
                                            m.created_at <= when))]
            believed = {e.id: e for e in versions if live_at(e)}
            for entry in versions:
                hops = 0
                current = entry
                while current.superseded_by and not live_at(current) and hops < 64:
                    hops += 1
                    nxt = self._rows(conn, [current.superseded_by])
                    if not nxt or (to_ts(nxt[0].created_at) or 0.0) > when:
                        break
                    current = nxt[0]
                if current.id != entry.id and live_at(current):
                    believed.setdefault(current.id, current)
            c = t.contradictions.c
            ids = list(believed)
            open_then = conn.execute(sa.select(t.contradictions).where(
                c.namespace == namespace, c.created_at <= when,
                sa.or_(c.resolved_at.is_(None), c.resolved_at > when),
                sa.or_(c.entry_a_id.in_(ids), c.entry_b_id.in_(ids)))).all() if ids else []
            others = {r.entry_b_id if r.entry_a_id in believed else r.entry_a_id
                      for r in open_then}
            for other in self._rows(conn, sorted(others - set(believed))):
                if live_at(other):
                    believed[other.id] = other
        return sorted(believed.values(), key=lambda e: (e.created_at, e.version, e.id))

    def _rows(self, conn: sa.Connection, ids: Sequence[str]) -> list[MemoryEntry]:
        out: list[MemoryEntry] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            out.extend(entry_from_row(r) for r in conn.execute(
                sa.select(t.memories).where(t.memories.c.id.in_(chunk))))
        return out

    # -- links (Zettelkasten) ---------------------------------------------------------------------

    def link(
        self, a: str, b: str, relation: str = "related", *, namespace: str | None = None
    ) -> bool:
        """Link two entries of one namespace; return False when the link already existed.

        Raises:
            EntryNotFound: Either entry is missing (in ``namespace``).
            InvalidInput: Same entry twice, different namespaces, or an empty relation.
        """
        if not isinstance(relation, str) or not relation.strip() or len(relation) > 64:
            raise InvalidInput("relation", "must be a non-empty string of at most 64 characters")
        if a == b:
            raise InvalidInput("b", "an entry cannot be linked to itself")
        first, second = self._require(a, namespace), self._require(b, namespace)
        if first.namespace != second.namespace:
            raise InvalidInput("b", "linked entries must share a namespace")
        now = self.clock()
        with db_errors("link memories"), self._write() as conn, conn.begin():
            have = self._link_keys(conn, [a])
            if (a, b, relation) in have or (b, a, relation) in have:
                return False
            conn.execute(sa.insert(t.links), [{"namespace": first.namespace, "a": a, "b": b,
                                               "relation": relation, "created_at": to_ts(now)}])
            self._audit(conn, "link", first.namespace, entry_id=a, actor=WritePath.API.value,
                        new=dumps({"b": b, "relation": relation}), now=now)
        return True

    def unlink(
        self, a: str, b: str, relation: str | None = None, *, namespace: str | None = None
    ) -> int:
        """Remove the links between two entries (of one relation, or all); return how many."""
        first = self._require(a, namespace)
        lk = t.links.c
        pair = sa.or_(sa.and_(lk.a == a, lk.b == b), sa.and_(lk.a == b, lk.b == a))
        query = sa.delete(t.links).where(pair)
        if relation is not None:
            query = query.where(lk.relation == relation)
        with db_errors("unlink memories"), self._write() as conn, conn.begin():
            count = int(conn.execute(query).rowcount or 0)
            if count:
                self._audit(conn, "unlink", first.namespace, entry_id=a, actor="api",
                            old=dumps({"b": b, "relation": relation}))
        return count

    def linked(
        self, entry_id: str, depth: int = 1, *, namespace: str | None = None
    ) -> list[tuple[MemoryEntry, str]]:
        """Entries linked to ``entry_id`` within ``depth`` hops, nearest first, with the relation
        of the link through which each was reached."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidInput("depth", "must be a positive integer")
        root = self._require(entry_id, namespace)
        lk = t.links.c
        found: dict[str, str] = {}
        frontier = [root.id]
        with db_errors("read links"), self._read() as conn:
            for _ in range(depth):
                rows = conn.execute(sa.select(lk.a, lk.b, lk.relation).where(
                    lk.namespace == root.namespace,
                    sa.or_(lk.a.in_(frontier), lk.b.in_(frontier)))
                    .order_by(lk.created_at, lk.a, lk.b)).all()
                nxt: list[str] = []
                for a, b, relation in rows:
                    for here, there in ((a, b), (b, a)):
                        if here in frontier and there != root.id and there not in found:
                            found[there] = relation
                            nxt.append(there)
                if not nxt:
                    break
                frontier = nxt
        entries = self.get_many(list(found), namespace=root.namespace)
        return [(entries[i], rel) for i, rel in found.items() if i in entries]

    def _link_keys(self, conn: sa.Connection, ids: Sequence[str]) -> set[tuple[str, str, str]]:
        lk = t.links.c
        rows = conn.execute(sa.select(lk.a, lk.b, lk.relation).where(
            sa.or_(lk.a.in_(list(ids)), lk.b.in_(list(ids))))).all()
        return {(r.a, r.b, r.relation) for r in rows}

    def _auto_link(self, entries: Sequence[MemoryEntry]) -> None:
        """Link new entries to near neighbours and to entries sharing a tag or an entity."""
        proposals: dict[str, list[tuple[str, str]]] = {}
        for entry in entries:
            index = self._index(entry.namespace)
            with index.lock:
                stored = index.vectors.get(entry.id)
                near = [] if stored is None else index.vectors.search(
                    stored.copy(), _AUTO_LINKS + 1)
            found = [(i, "similar") for i, s in near
                     if i != entry.id and s >= self.link_min_similarity]
            entities = {x for x in (entry.metadata.get("entities") or ()) if isinstance(x, str)}
            tags = set(entry.tags)
            ids = self._token_matches(entry.namespace, [*sorted(tags), *sorted(entities)])
            others = self.get_many(ids, namespace=entry.namespace)
            by_tag = by_entity = 0
            for other in (others[i] for i in ids if i in others and i != entry.id):
                if not _live(other):
                    continue
                if by_tag < _AUTO_LINKS and tags & set(other.tags):
                    by_tag += 1
                    found.append((other.id, "shared_tag"))
                elif by_entity < _AUTO_LINKS and entities & set(
                    x for x in (other.metadata.get("entities") or ()) if isinstance(x, str)
                ):
                    by_entity += 1
                    found.append((other.id, "shared_entity"))
            if found:
                proposals[entry.id] = found
        if not proposals:
            return
        now = self.clock()
        namespaces = {e.id: e.namespace for e in entries}
        with db_errors("link memories"), self._write() as conn, conn.begin():
            have = self._link_keys(conn, list(proposals))
            for a, targets in proposals.items():
                rows = []
                for b, relation in targets:
                    pair = (min(a, b), max(a, b), relation)
                    if pair in have or (pair[1], pair[0], relation) in have:
                        continue
                    have.add(pair)
                    rows.append({"namespace": namespaces[a], "a": pair[0], "b": pair[1],
                                 "relation": relation, "created_at": to_ts(now)})
                if rows:
                    conn.execute(sa.insert(t.links), rows)
                    self._audit(conn, "auto_link", namespaces[a], entry_id=a, actor="auto_link",
                                new=dumps([[r["b"] if r["a"] == a else r["a"], r["relation"]]
                                           for r in rows]), now=now)

    # -- async twins ------------------------------------------------------------------------------

    adecay_pass = async_twin("decay_pass")
    alifecycle_state = async_twin("lifecycle_state")
    atouch = async_twin("touch")
    agc = async_twin("gc")
    apurge = async_twin("purge")
    acheck_contradictions = async_twin("check_contradictions")
    acontradictions = async_twin("contradictions")
    aresolve = async_twin("resolve")
    alineage = async_twin("lineage")
    aas_of = async_twin("as_of")
    alink = async_twin("link")
    aunlink = async_twin("unlink")
    alinked = async_twin("linked")


def _protected(entry: MemoryEntry) -> bool:
    """USER and pinned entries are never purged."""
    return entry.type == MemoryType.USER or entry.pinned
