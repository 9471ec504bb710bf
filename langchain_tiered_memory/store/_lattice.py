"""The versioned lattice: lineage, as-of queries and links between entries (Zettelkasten).

Every replacement (a new version of a key, a lost contradiction, an approved review) is a
supersession edge; contradictions add edges between branches, pending ones leaving two current
nodes. `lineage` walks that graph around an entry, `as_of` answers "what was believed about a key
at time T", and links (`link`, `unlink`, `linked`, plus automatic ones made on write by
`_contradictions.Contradictions`) connect related notes and follow them to successors.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa

from ..errors import InvalidInput
from ..provenance import WritePath
from ..types import Contradiction, MemoryEntry
from . import _tables as t
from ._db import db_errors, dumps, from_ts, loads, to_ts
from ._lifecycle import live, rows_by_id
from ._neighbours import NeighbourSource, token_matches
from ._reads import Reads
from ._rows import check_namespace, entry_from_row
from ._shared import StoreContext

__all__ = [
    "PENDING",
    "Lattice",
    "Lineage",
    "LineageEdge",
    "contradiction_from_row",
    "read_contradictions",
]

# Most automatic links of each kind per new entry (a popular tag must not link everything).
AUTO_LINKS = 5

# A contradiction still waiting for a decision (older rows may hold NULL).
PENDING = sa.or_(
    t.contradictions.c.resolution.is_(None), t.contradictions.c.resolution == "pending"
)


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


def contradiction_from_row(row: Any) -> Contradiction:
    """A `Contradiction` from a ``tm_contradictions`` row."""
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


def read_contradictions(
    conn: sa.Connection, namespace: str, *, pending_only: bool = False,
    entry_id: str | None = None,
) -> list[Contradiction]:
    """Contradiction records of a namespace, oldest first (optionally of one entry)."""
    c = t.contradictions.c
    query = sa.select(t.contradictions).where(c.namespace == namespace)
    if pending_only:
        query = query.where(PENDING)
    if entry_id is not None:
        query = query.where(sa.or_(c.entry_a_id == entry_id, c.entry_b_id == entry_id))
    return [contradiction_from_row(r) for r in conn.execute(query.order_by(c.created_at, c.id))]


def _entities(entry: MemoryEntry) -> set[str]:
    return {x for x in (entry.metadata.get("entities") or ()) if isinstance(x, str)}


class Lattice:
    """Lineage, as-of queries and links; a write listener (links move to a successor).

    Attributes (plain attributes, so they can be changed on a live store):
        auto_link: Link new entries to entries sharing a tag or an entity
            (``metadata["entities"]``) and to near neighbours (see ``write_check_limit`` on
            `Contradictions`, which runs it after each write).
        link_min_similarity: Cosine similarity from which a neighbour is linked automatically.
    """

    def __init__(self, ctx: StoreContext, reads: Reads) -> None:
        self._ctx = ctx
        self._reads = reads
        self.auto_link = True
        self.link_min_similarity = 0.8

    def after_commit(self, entries: Sequence[MemoryEntry]) -> None:
        """Nothing: new entries are linked by `Contradictions`, which shares their neighbours."""

    # -- versioned lattice ----------------------------------------------------------------------

    def lineage(self, entry_id: str, *, namespace: str | None = None) -> Lineage:
        """The supersession graph around an entry (versions of its key, contradictions won and
        lost, pending branches), with when and why each replacement happened.

        The reasons come from the audit log: ``new version of key``, ``contradiction <id>``,
        ``approved review``...
        """
        root = self._reads.require(entry_id, namespace)
        ns = root.namespace
        edges = self._supersession_edges(ns)
        with db_errors("read contradictions"), self._ctx.read() as conn:
            records = read_contradictions(conn, ns)
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
        nodes = sorted(self._reads.get_many(sorted(seen), namespace=ns).values(),
                       key=lambda e: (e.created_at, e.version, e.id))
        far = datetime.min.replace(tzinfo=timezone.utc)
        mine = sorted((e for e in edges.values() if e.old_id in seen),
                      key=lambda e: (e.at or far, e.old_id))
        return Lineage(root.id, tuple(nodes), tuple(mine),
                       tuple(r for r in records if r.entry_a_id in seen))

    def _supersession_edges(self, namespace: str) -> dict[str, LineageEdge]:
        a, m = t.audit_log.c, t.memories.c
        edges: dict[str, LineageEdge] = {}
        with db_errors("read the supersession graph"), self._ctx.read() as conn:
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
            for mrow in conn.execute(
                sa.select(m.id, m.superseded_by, m.superseded_at)
                .where(m.namespace == namespace, m.superseded_by.is_not(None))
            ):
                if mrow.id not in edges:
                    edges[mrow.id] = LineageEdge(mrow.id, mrow.superseded_by,
                                                 from_ts(mrow.superseded_at), "unknown")
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
        if not isinstance(key, str) or not key:
            raise InvalidInput("key", "must be a non-empty string")
        if not isinstance(time, datetime):
            raise InvalidInput("time", f"must be a datetime, not {type(time).__name__}")
        when = to_ts(_aware(time))
        assert when is not None
        m = t.memories.c

        def live_at(e: MemoryEntry) -> bool:
            created = to_ts(e.created_at) or 0.0
            gone = to_ts(e.superseded_at)
            return e.status == "active" and created <= when and (gone is None or gone > when)

        with db_errors("read past beliefs"), self._ctx.read() as conn:
            versions = [entry_from_row(r) for r in conn.execute(
                sa.select(t.memories).where(m.namespace == namespace, m.key == key,
                                            m.created_at <= when))]
            believed = {e.id: e for e in versions if live_at(e)}
            for entry in versions:
                hops = 0
                current = entry
                while current.superseded_by and not live_at(current) and hops < 64:
                    hops += 1
                    nxt = rows_by_id(conn, [current.superseded_by])
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
            for other in rows_by_id(conn, sorted(others - set(believed))):
                if live_at(other):
                    believed[other.id] = other
        return sorted(believed.values(), key=lambda e: (e.created_at, e.version, e.id))

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
        first, second = self._reads.require(a, namespace), self._reads.require(b, namespace)
        if first.namespace != second.namespace:
            raise InvalidInput("b", "linked entries must share a namespace")
        now = self._ctx.clock()
        with db_errors("link memories"), self._ctx.write() as conn, conn.begin():
            have = self._link_keys(conn, [a])
            if (a, b, relation) in have or (b, a, relation) in have:
                return False
            conn.execute(sa.insert(t.links), [{"namespace": first.namespace, "a": a, "b": b,
                                               "relation": relation, "created_at": to_ts(now)}])
            self._ctx.audit(conn, "link", first.namespace, entry_id=a, actor=WritePath.API.value,
                        new=dumps({"b": b, "relation": relation}), now=now)
        return True

    def unlink(
        self, a: str, b: str, relation: str | None = None, *, namespace: str | None = None
    ) -> int:
        """Remove the links between two entries (of one relation, or all); return how many."""
        first = self._reads.require(a, namespace)
        lk = t.links.c
        pair = sa.or_(sa.and_(lk.a == a, lk.b == b), sa.and_(lk.a == b, lk.b == a))
        query = sa.delete(t.links).where(pair)
        if relation is not None:
            query = query.where(lk.relation == relation)
        with db_errors("unlink memories"), self._ctx.write() as conn, conn.begin():
            count = int(conn.execute(query).rowcount or 0)
            if count:
                self._ctx.audit(conn, "unlink", first.namespace, entry_id=a, actor="api",
                            old=dumps({"b": b, "relation": relation}))
        return count

    def linked(
        self, entry_id: str, depth: int = 1, *, namespace: str | None = None
    ) -> list[tuple[MemoryEntry, str]]:
        """Entries linked to ``entry_id`` within ``depth`` hops, nearest first, with the relation
        of the link through which each was reached."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidInput("depth", "must be a positive integer")
        root = self._reads.require(entry_id, namespace)
        lk = t.links.c
        found: dict[str, str] = {}
        frontier = [root.id]
        with db_errors("read links"), self._ctx.read() as conn:
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
        entries = self._reads.get_many(list(found), namespace=root.namespace)
        return [(entries[i], rel) for i, rel in found.items() if i in entries]

    def _link_keys(self, conn: sa.Connection, ids: Sequence[str]) -> set[tuple[str, str, str]]:
        lk = t.links.c
        rows = conn.execute(sa.select(lk.a, lk.b, lk.relation).where(
            sa.or_(lk.a.in_(list(ids)), lk.b.in_(list(ids))))).all()
        return {(r.a, r.b, r.relation) for r in rows}


    def link_new(
        self,
        entries: Sequence[MemoryEntry],
        source: NeighbourSource,
        neighbours: Mapping[str, Sequence[tuple[str, float]]],
    ) -> None:
        """Link new live entries of one namespace to near neighbours and to entries sharing a
        tag or an entity.

        Args:
            entries: The entries (one namespace, the one ``source`` serves).
            source: That namespace's neighbours (its index caught up with the write, or the
                database under search pushdown).
            neighbours: Nearest ids by entry id, best first (at least ``AUTO_LINKS + 1``);
                entries missing here are searched now.
        """
        if not entries:
            return
        proposals: dict[str, list[tuple[str, str]]] = {}
        lookups = {entry.id: token_matches(source, [*sorted(entry.tags),
                                                    *sorted(_entities(entry))])
                   for entry in entries}
        wanted = list(dict.fromkeys(i for ids in lookups.values() for i in ids))
        others = self._reads.get_many(wanted, namespace=entries[0].namespace) if wanted else {}
        for entry in entries:
            near = neighbours.get(entry.id)
            if near is None:
                near = source.nearest([entry], AUTO_LINKS + 1)[entry.id]
            found = [(i, "similar") for i, s in near[: AUTO_LINKS + 1]
                     if i != entry.id and s >= self.link_min_similarity]
            entities, tags = _entities(entry), set(entry.tags)
            by_tag = by_entity = 0
            ids = lookups[entry.id]
            for other in (others[i] for i in ids if i in others and i != entry.id):
                if not live(other):
                    continue
                if by_tag < AUTO_LINKS and tags & set(other.tags):
                    by_tag += 1
                    found.append((other.id, "shared_tag"))
                elif by_entity < AUTO_LINKS and entities & _entities(other):
                    by_entity += 1
                    found.append((other.id, "shared_entity"))
            if found:
                proposals[entry.id] = found
        if proposals:
            self._write_links(proposals, entries[0].namespace)

    def _write_links(self, proposals: Mapping[str, list[tuple[str, str]]], namespace: str) -> None:
        now = self._ctx.clock()
        with db_errors("link memories"), self._ctx.write() as conn, conn.begin():
            have = self._link_keys(conn, list(proposals))
            for a, targets in proposals.items():
                rows = []
                for b, relation in targets:
                    pair = (min(a, b), max(a, b), relation)
                    if pair in have or (pair[1], pair[0], relation) in have:
                        continue
                    have.add(pair)
                    rows.append({"namespace": namespace, "a": pair[0], "b": pair[1],
                                 "relation": relation, "created_at": to_ts(now)})
                if rows:
                    conn.execute(sa.insert(t.links), rows)
                    self._ctx.audit(conn, "auto_link", namespace, entry_id=a, actor="auto_link",
                                new=dumps([[r["b"] if r["a"] == a else r["a"], r["relation"]]
                                           for r in rows]), now=now)

    def on_supersede(
        self, conn: sa.Connection, old: MemoryEntry, new: MemoryEntry, now: datetime
    ) -> None:
        """Links move to the successor, in the superseding transaction."""
        # Links move to the successor: the note lives on in its new version.
        lk = t.links.c
        rows = conn.execute(
            sa.select(t.links).where(sa.or_(lk.a == old.id, lk.b == old.id))).all()
        if not rows:
            return
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


