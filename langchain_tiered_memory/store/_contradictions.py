"""Contradictions: found when entries are written, checked on demand, resolved, shown in recall.

On write, each new live SEMANTIC entry is compared with a small pool of its namespace's live
SEMANTIC entries (nearest neighbours, lexical matches, shared tags, the same key), the
`contradiction.find_candidates` pre-filter ranks the pool, and the verifier judges the best few.
A confident verdict is resolved by the policy (`contradiction.resolve`: provenance, then
recency) and the loser superseded; an undecided one stays pending until `resolve`. Every
record is audited on both entries.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..contradiction import HeuristicVerifier, Verdict, Verifier, build_contradiction, resolve
from ..contradiction import detect_contradictions as _detect
from ..errors import EntryNotFound, IllegalTransition, InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath, max_provenance
from ..text import tokenize
from ..types import Contradiction, MemoryEntry, MemoryTier, SearchHit
from . import _tables as t
from ._db import db_errors, dumps, to_ts
from ._lattice import AUTO_LINKS, PENDING, Lattice, contradiction_from_row, read_contradictions
from ._lifecycle import live, rows_by_id
from ._neighbours import Neighbours, NeighbourSource, token_matches
from ._reads import Reads
from ._rows import check_ids, check_namespace
from ._shared import StoreContext
from ._writer import Writer

logger = logging.getLogger("langchain_tiered_memory")

__all__ = ["Contradictions"]

# Nearest neighbours taken when looking for contradiction candidates: enough for real
# conflicts, bounded cost.
_NEIGHBOURS = 8
# Most candidate pairs verified per new entry (the pre-filter ranks them, best first).
_VERIFY = 5
_CHUNK = 500

# Set by `suspend_checks()` so one write path (an importer, consolidation) can pass through
# without checks while other threads keep them.
_suspended: ContextVar[bool] = ContextVar("tm_contradiction_checks_suspended", default=False)


def _record_row(c: Contradiction) -> dict[str, Any]:
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


def _auto_key(entry: MemoryEntry) -> bool:
    """The key `add` made up (``mem:<id>``): no other live entry can hold it."""
    return entry.key == f"mem:{entry.id}"


class Contradictions:
    """Contradiction detection on write and on demand, resolution, and recall marking.

    After every write (``add``, ``add_many``, ``update``...) the store checks each new live
    SEMANTIC entry against its namespace, then links new entries (``auto_link``). The check is
    bounded: it compares the entry with at most ~20 stored entries (its nearest vectors, best
    lexical matches, entries sharing a tag or its key) and asks the verifier about the best
    ``5`` of them, so its cost does not grow with the namespace.

    Attributes (plain attributes, so they can be changed on a live store):
        detect_contradictions: Check every new live SEMANTIC entry against its neighbours.
        contradiction_verifier: Any `Verifier` (e.g. ``LLMVerifier(chat_model)``); None means the
            offline `HeuristicVerifier`. With an LLM verifier every write waits for up to five
            model calls: consider leaving it None and running `check_contradictions` with the LLM
            verifier from a background job instead.
        write_check_limit: The on-write checks and automatic links run only for writes of at
            most this many entries (default 100). A bigger ``add_many`` (a bulk import, a
            consolidation batch) commits without them: nothing is checked or linked, and no
            error is raised. Such callers should run ``check_contradictions(ids)`` on the ids
            they wrote (it accepts any number, reads them in chunks and shares the lookups), or
            raise the limit, or wrap the writes in `suspend_checks` and check afterwards.
    """


    def __init__(
        self, ctx: StoreContext, reads: Reads, writer: Writer, lattice: Lattice
    ) -> None:
        self._ctx = ctx
        self._reads = reads
        self._writer = writer
        self._lattice = lattice
        self.detect_contradictions = True
        self.contradiction_verifier: Verifier | None = None
        self.write_check_limit = 100

    @contextlib.contextmanager
    def suspend_checks(self) -> Iterator[None]:
        """Within this block (this thread / task only) writes skip contradiction checks.

        Automatic links still run. Run `check_contradictions` on the written ids afterwards.
        """
        token = _suspended.set(True)
        try:
            yield
        finally:
            _suspended.reset(token)

    # -- on write ---------------------------------------------------------------------------------

    def after_commit(self, entries: Sequence[MemoryEntry]) -> None:
        """Check and link what a write committed (a write listener)."""
        if not entries or len(entries) > self.write_check_limit:
            return
        check = self.detect_contradictions and not _suspended.get()
        if not (check or self._lattice.auto_link):
            return
        by_ns: dict[str, list[MemoryEntry]] = {}
        for entry in entries:
            by_ns.setdefault(entry.namespace, []).append(entry)
        for ns, written in by_ns.items():
            try:
                self._check_and_link(ns, written, check)
            except Exception:  # the write committed; a failed check must not turn it into an error
                logger.warning("contradiction check / linking after a write failed",
                               exc_info=True)

    def _check_and_link(self, namespace: str, written: Sequence[MemoryEntry], check: bool) -> None:
        # One vector search per entry, shared by the check and the links (and, in process, one
        # index catch-up; under search pushdown the database answers).
        ids = [e.id for e in written]
        if len({e.key for e in written}) == len(written):
            entries = list(written)  # as committed: no entry of the write replaced another one
        else:  # a key written twice: the earlier version is superseded since, read it again
            fresh = self._reads.get_many(ids, namespace=namespace)
            entries = [fresh[i] for i in ids if i in fresh]
        with self._ctx.neighbours(namespace) as source:
            neighbours = source.nearest([e for e in entries if live(e)],
                                        max(_NEIGHBOURS, AUTO_LINKS) + 1)
            if check and self._check_namespace(entries, None, source, neighbours):
                # A resolved contradiction may have superseded some of them: read them again.
                fresh = self._reads.get_many(ids, namespace=namespace)
                entries = [fresh[i] for i in ids if i in fresh]
            if self._lattice.auto_link:
                self._lattice.link_new([e for e in entries if live(e)], source, neighbours)

    # -- on demand --------------------------------------------------------------------------------

    def check_contradictions(
        self, entry_ids: Sequence[str], *, verifier: Verifier | None = None,
        namespace: str | None = None,
    ) -> list[Contradiction]:
        """Check entries against their namespace's live SEMANTIC entries and resolve what is found.

        This is the same check a write runs, for callers that wrote without it: consolidation
        (which suspends the on-write check and reports what this finds), bulk imports above
        ``write_check_limit``, or a background job with an LLM verifier. Any number of ids may
        be passed; the lookups are batched. Pairs already on record are skipped, so running it
        twice is harmless.

        Args:
            entry_ids: The entries to check (live SEMANTIC ones; others are ignored).
            verifier: Overrides ``contradiction_verifier`` for this call.
            namespace: Only entries of this namespace.

        Returns:
            The new contradiction records (resolved or pending).
        """
        given = check_ids(entry_ids)
        if namespace is not None:
            check_namespace(namespace)
        ids = list(dict.fromkeys(given))
        with db_errors("read memories to check"), self._ctx.read() as conn:
            found = {e.id: e for e in rows_by_id(conn, ids)
                     if namespace is None or e.namespace == namespace}
        by_ns: dict[str, list[MemoryEntry]] = {}
        for entry_id in ids:
            if entry_id in found:
                by_ns.setdefault(found[entry_id].namespace, []).append(found[entry_id])
        out: list[Contradiction] = []
        for ns, entries in by_ns.items():
            # In slices: each one's records are written (and its losers known to the next
            # slice's reads) before the next is verified, so a long run keeps what it found.
            for start in range(0, len(entries), _CHUNK):
                chunk = [e.id for e in entries[start : start + _CHUNK]]
                fresh = self._reads.get_many(chunk, namespace=ns) if start else found
                with self._ctx.neighbours(ns) as source:
                    out.extend(self._check_namespace([fresh[i] for i in chunk if i in fresh],
                                                     verifier, source, None))
        return out

    def _check_namespace(
        self,
        entries: Sequence[MemoryEntry],
        verifier: Verifier | None,
        source: NeighbourSource,
        neighbours: Neighbours | None,
    ) -> list[Contradiction]:
        """Check entries of one namespace, in order; return the records written."""
        judge = verifier or self.contradiction_verifier or HeuristicVerifier()
        targets = [e for e in entries if e.tier == MemoryTier.SEMANTIC and live(e)]
        if not targets:
            return []
        if neighbours is None:
            neighbours = source.nearest(targets, _NEIGHBOURS + 1)
        pools = self._contradiction_pools(targets, source, neighbours)
        # Verify first, outside any transaction (a verifier may be a model call), then write
        # every record in one transaction. What the writes will do is known in advance (a
        # resolved pair supersedes its loser, a pair on record is skipped), so the plan follows
        # the same course as writing each record as soon as it is found.
        on_record: set[frozenset[str]] | None = None  # read when the first pair is found
        planned: list[tuple[str, str, Verdict]] = []
        lost: set[str] = set()  # superseded by a planned record: no longer a candidate
        for entry in targets:
            if entry.id in lost:
                continue
            pool, sims = pools[entry.id]
            pool = [e for e in pool if e.id not in lost]
            if not pool:
                continue
            for found in _detect(entry, pool, verifier=judge, similarities=sims,
                                 config=self._ctx.config, include_unsure=True, limit=_VERIFY):
                if on_record is None:
                    on_record = self._recorded_pairs([e.id for e in targets])
                pair = frozenset((entry.id, found.candidate.entry.id))
                if pair in on_record:
                    continue
                on_record.add(pair)
                planned.append((entry.id, found.candidate.entry.id, found.verdict))
                outcome = found.resolution
                if outcome.status == "resolved":
                    loser = found.candidate.entry.id if outcome.winner_id == entry.id else entry.id
                    lost.add(loser)
                    if loser == entry.id:
                        break
        return self._record_all(planned) if planned else []

    def _recorded_pairs(self, ids: Sequence[str]) -> set[frozenset[str]]:
        """The pairs on record that involve any of ``ids``."""
        c = t.contradictions.c
        out: set[frozenset[str]] = set()
        with db_errors("read contradictions"), self._ctx.read() as conn:
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                for a, b in conn.execute(sa.select(c.entry_a_id, c.entry_b_id).where(
                        sa.or_(c.entry_a_id.in_(chunk), c.entry_b_id.in_(chunk)))):
                    out.add(frozenset((a, b)))
        return out

    def _contradiction_pools(
        self, entries: Sequence[MemoryEntry], source: NeighbourSource, neighbours: Neighbours
    ) -> dict[str, tuple[list[MemoryEntry], dict[str, float]]]:
        """For each entry, the live SEMANTIC entries worth comparing with it (nearest neighbours,
        lexical matches, shared tags, the same key) and their vector similarities to it."""
        namespace = entries[0].namespace
        floor = self._ctx.config.contradiction_min_similarity
        wanted: dict[str, set[str]] = {}
        for entry in entries:
            tokens = tokenize(entry.content)
            # Only neighbours the pre-filter would accept anyway: each costs a verification.
            ids = {i for i, sim in neighbours.get(entry.id, ())[: _NEIGHBOURS + 1] if sim >= floor}
            if tokens:
                ids.update(source.lexical(tokens, _NEIGHBOURS // 2 + 1))
            ids.update(token_matches(source, entry.tags))
            wanted[entry.id] = ids
        same_key = self._same_key_ids(namespace, [e.key for e in entries if not _auto_key(e)])
        for entry in entries:
            wanted[entry.id].update(same_key.get(entry.key, ()))
            wanted[entry.id].discard(entry.id)
        # Fetch live SEMANTIC rows only (the source knows each row's tier and successor).
        alive = source.live_semantic(set().union(*wanted.values()))
        every = sorted(alive)
        stored = self._reads.get_many(every, namespace=namespace) if every else {}
        pools: dict[str, tuple[list[MemoryEntry], dict[str, float]]] = {}
        for entry in entries:
            pool = [stored[i] for i in sorted(wanted[entry.id] & alive) if i in stored
                    and stored[i].tier == MemoryTier.SEMANTIC and live(stored[i])]
            sims = dict(neighbours.get(entry.id, ())[: _NEIGHBOURS + 1])
            missing = [e.id for e in pool if e.id not in sims]
            if missing:
                sims.update(source.similarities(entry.id, missing))
            pools[entry.id] = (pool, sims)
        return pools

    def _same_key_ids(self, namespace: str, keys: Sequence[str]) -> dict[str, list[str]]:
        """Ids of the entries holding each key (an indexed lookup, in chunks)."""
        wanted = sorted(set(keys))
        out: dict[str, list[str]] = {}
        if not wanted:
            return out
        m = t.memories.c
        with db_errors("find contradiction candidates"), self._ctx.read() as conn:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                for row in conn.execute(sa.select(m.id, m.key).where(
                        m.namespace == namespace, m.key.in_(chunk))):
                    out.setdefault(row.key, []).append(row.id)
        return out

    def _record_all(self, planned: Sequence[tuple[str, str, Verdict]]) -> list[Contradiction]:
        """Store the contradictions found and apply their resolutions, in one transaction."""
        now = self._ctx.clock()
        out: list[Contradiction] = []
        with db_errors("record contradictions"), self._ctx.write() as conn, conn.begin():
            for a_id, b_id, verdict in planned:
                record = self._record(conn, a_id, b_id, verdict, now)
                if record is not None:
                    out.append(record)
        return out

    def _record(
        self, conn: sa.Connection, a_id: str, b_id: str, verdict: Verdict, now: datetime
    ) -> Contradiction | None:
        """Store one contradiction and apply its resolution (None: a side is gone or replaced,
        or the pair is on record already)."""
        c = t.contradictions.c
        pair = rows_by_id(conn, [a_id, b_id])
        if len(pair) != 2 or not all(live(e) for e in pair):
            return None
        a, b = (pair[0], pair[1]) if pair[0].id == a_id else (pair[1], pair[0])
        seen = conn.execute(sa.select(c.id).where(sa.or_(
            sa.and_(c.entry_a_id == a_id, c.entry_b_id == b_id),
            sa.and_(c.entry_a_id == b_id, c.entry_b_id == a_id)))).first()
        if seen is not None:
            return None
        outcome = resolve(a, b, verdict, config=self._ctx.config)
        record = build_contradiction(a, b, verdict, outcome, now=now)
        conn.execute(sa.insert(t.contradictions), [_record_row(record)])
        detail = dumps({"contradiction": record.id, "resolution": record.resolution,
                        "confidence": record.confidence, "description": record.description})
        for entry in (a, b):
            self._ctx.audit(conn, "contradiction", entry.namespace, entry_id=entry.id,
                        actor="contradiction", new=detail, reason=record.id, now=now)
        if outcome.status == "resolved":
            winner, loser = (a, b) if outcome.winner_id == a.id else (b, a)
            self._writer.supersede(conn, loser, winner, WritePath.CONSOLIDATION, now,
                            reason=f"contradiction {record.id}")
        return record

    # -- records and resolution -------------------------------------------------------------------

    def contradictions(
        self, namespace: str = "default", *, pending_only: bool = False,
        entry_id: str | None = None,
    ) -> list[Contradiction]:
        """Contradiction records of a namespace, oldest first (optionally of one entry)."""
        check_namespace(namespace)
        with db_errors("read contradictions"), self._ctx.read() as conn:
            return read_contradictions(conn, namespace, pending_only=pending_only,
                                       entry_id=entry_id)

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
        now = self._ctx.clock()
        c = t.contradictions.c
        with db_errors("resolve a contradiction"), self._ctx.write() as conn, conn.begin():
            query = sa.select(t.contradictions).where(c.id == contradiction_id)
            if namespace is not None:
                query = query.where(c.namespace == namespace)
            row = conn.execute(query).first()
            if row is None:
                raise EntryNotFound(contradiction_id)
            record = contradiction_from_row(row)
            if not record.pending:
                raise IllegalTransition(
                    f"contradiction {contradiction_id} is already resolved ({record.resolution})")
            if keep not in (record.entry_a_id, record.entry_b_id):
                raise InvalidInput("keep", "must be the id of one of the two entries")
            other = record.entry_b_id if keep == record.entry_a_id else record.entry_a_id
            found = {e.id: e for e in rows_by_id(conn, [keep, other])}
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
            self._ctx.audit(conn, "contradiction_resolve", record.namespace, entry_id=keep,
                        actor=path.value, reason=record.id, new=dumps({"kept": keep}), now=now)
            if loser is not None and loser.superseded_by is None:
                self._writer.supersede(conn, loser, winner, path, now, reason=f"contradiction {record.id}")
        return after

    def on_supersede(
        self, conn: sa.Connection, old: MemoryEntry, new: MemoryEntry, now: datetime
    ) -> None:
        """Close the open questions about ``old`` (a write listener)."""
        # A question about a replaced entry is closed (the successor gets its own check).
        c = t.contradictions.c
        conn.execute(
            sa.update(t.contradictions)
            .where(PENDING, sa.or_(c.entry_a_id == old.id, c.entry_b_id == old.id))
            .values(resolution="superseded", resolved_at=to_ts(now))
        )

    # -- recall -----------------------------------------------------------------------------------

    def annotate(
        self, hits: list[SearchHit], *, namespace: str, k: int, pending: bool | None = None
    ) -> list[SearchHit]:
        """Mark hits in a pending contradiction and bring their partner along (a hit annotator).

        ``pending=False`` (the search saw no pending contradiction in the namespace) skips the read.
        """
        if not hits or pending is False:
            return hits
        ids = [h.entry.id for h in hits]
        c = t.contradictions.c
        query = sa.select(c.entry_a_id, c.entry_b_id).where(
            c.namespace == namespace, PENDING,
            sa.or_(c.entry_a_id.in_(ids), c.entry_b_id.in_(ids)))
        with db_errors("read pending contradictions"), self._ctx.read() as conn:
            pairs = conn.execute(query).all()
        if not pairs:
            return hits
        partners: dict[str, list[str]] = {}
        for a, b in pairs:
            partners.setdefault(a, []).append(b)
            partners.setdefault(b, []).append(a)
        extra = self._reads.get_many([p for i in ids for p in partners.get(i, ())], namespace=namespace)
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
                if pid in present or partner is None or not live(partner):
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

