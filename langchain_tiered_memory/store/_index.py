"""Per-namespace in-memory indexes (keyword + vectors) kept current from the audit log.

Every change to an entry writes an audit row with a monotonic ``seq`` in the same transaction. An
index remembers the last ``seq`` it applied; before a search it reads the rows after it (one
indexed query, empty when nothing changed) and reloads just the entries they name. The same path
serves this process's own writes and those of other processes sharing the database.
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..retrieval import KeywordIndex
from . import _tables as t
from ._vectors import VectorMatrix

# Audit actions that touch episodes rather than memory entries.
EPISODE_ACTIONS = frozenset(
    {"episode_add", "episode_delete", "episode_reembed", "episode_archive", "episode_restore"}
)
# Actions on things that live in neither memory index (the knowledge base keeps its own).
OTHER_ACTION_PREFIXES = ("knowledge_", "blocked", "contradiction", "link", "auto_link", "job_")


_NO_TAGS: frozenset[str] = frozenset()


class RowMeta:
    """What ranking and filtering need of an entry, kept in memory so recall runs without SQL."""

    __slots__ = (
        "access_count",
        "episode_id",
        "importance",
        "last_accessed",
        "pinned",
        "superseded_by",
        "tags",
        "tier",
        "type",
        "when",
    )

    def __init__(self, row: Any) -> None:
        self.tier: str = row.tier
        self.type: str = row.type
        tags = row.tags
        self.tags: frozenset[str] = _NO_TAGS if tags in ("[]", "", None) else frozenset(json.loads(tags))
        self.when: float = row.event_at if row.event_at is not None else row.created_at
        self.episode_id: str | None = row.episode_id
        self.importance: float = row.importance
        self.access_count: int = row.access_count
        self.last_accessed: float = row.last_accessed
        self.pinned: bool = bool(row.pinned)
        self.superseded_by: str | None = row.superseded_by


def meta_columns() -> list[Any]:
    """The ``tm_memories`` columns a `RowMeta` is built from (plus id and terms)."""
    m = t.memories.c
    return [
        m.id,
        m.terms,
        m.status,
        m.tier,
        m.type,
        m.tags,
        m.event_at,
        m.created_at,
        m.episode_id,
        m.importance,
        m.access_count,
        m.last_accessed,
        m.pinned,
        m.superseded_by,
    ]


@dataclass
class NamespaceIndex:
    """The searchable state of one namespace."""

    keyword: KeywordIndex = field(default_factory=KeywordIndex)
    vectors: VectorMatrix = field(default_factory=VectorMatrix)
    episode_keyword: KeywordIndex = field(default_factory=KeywordIndex)
    episode_vectors: VectorMatrix = field(default_factory=VectorMatrix)
    meta: dict[str, RowMeta] = field(default_factory=dict)
    seq: int = 0
    loaded: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)


def _vector(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    # A bulk load allocates millions of small objects that all stay alive: the cyclic collector
    # would run over and over for nothing (about 40 % of the load time at 100,000 entries).
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_namespace(
    conn: sa.Connection, namespace: str, model_id: str, index: NamespaceIndex
) -> None:
    """Fill an empty ``index`` with the namespace's rows (``index.loaded`` says it worked)."""
    with _no_gc():
        _load_namespace(conn, namespace, model_id, index)
    index.loaded = True


def _load_namespace(
    conn: sa.Connection, namespace: str, model_id: str, index: NamespaceIndex
) -> None:
    seq = conn.execute(
        sa.select(sa.func.max(t.audit_log.c.seq)).where(t.audit_log.c.namespace == namespace)
    ).scalar()
    index.seq = int(seq or 0)
    m = t.memories.c
    rows = conn.execute(
        sa.select(*meta_columns()).where(m.namespace == namespace, m.status == "active")
    ).all()
    index.keyword.add_many((r.id, r.terms.split()) for r in rows)
    index.meta = {r.id: RowMeta(r) for r in rows}
    erows = conn.execute(
        sa.select(t.episodes.c.id, t.episodes.c.terms).where(t.episodes.c.namespace == namespace)
    ).all()
    index.episode_keyword.add_many((r.id, r.terms.split()) for r in erows)
    live = {r.id for r in rows}
    _load_vectors(conn, index, namespace, model_id, live, {r.id for r in erows})


def _load_vectors(
    conn: sa.Connection,
    index: NamespaceIndex,
    namespace: str,
    model_id: str,
    live: set[str],
    episodes: set[str],
) -> None:
    v = t.vectors.c
    rows = conn.execute(
        # Naming the kinds lets the planner use (namespace, kind, model_id); on namespace and
        # model_id alone SQLite picked the model_id index and read every vector in the file.
        sa.select(v.owner_id, v.kind, v.vector).where(
            v.namespace == namespace,
            v.kind.in_(("memory", "episode")),
            v.model_id == model_id,
        )
    ).all()
    mem = [(r.owner_id, r.vector) for r in rows if r.kind == "memory" and r.owner_id in live]
    epi = [(r.owner_id, r.vector) for r in rows if r.kind == "episode" and r.owner_id in episodes]
    for target, items in ((index.vectors, mem), (index.episode_vectors, epi)):
        if items:
            ids = [i for i, _ in items]
            matrix = np.frombuffer(b"".join(b for _, b in items), dtype=np.float32).reshape(
                len(ids), -1
            )
            target.upsert_many(ids, matrix)


def catch_up(conn: sa.Connection, index: NamespaceIndex, namespace: str, model_id: str) -> int:
    """Apply every change logged after ``index.seq``; return how many rows changed."""
    a = t.audit_log.c
    changes = conn.execute(
        sa.select(a.seq, a.entry_id, a.action)
        .where(a.namespace == namespace, a.seq > index.seq)
        .order_by(a.seq)
    ).all()
    if not changes:
        return 0
    entry_ids = {
        c.entry_id
        for c in changes
        if c.entry_id
        and c.action not in EPISODE_ACTIONS
        and not c.action.startswith(OTHER_ACTION_PREFIXES)
    }
    episode_ids = {c.entry_id for c in changes if c.entry_id and c.action in EPISODE_ACTIONS}
    if entry_ids:
        present = _refresh(
            conn, index.keyword, index.vectors, t.memories, "memory", entry_ids, model_id, True
        )
        for item_id in entry_ids:
            row = present.get(item_id)
            if row is None:
                index.meta.pop(item_id, None)
            else:
                index.meta[item_id] = RowMeta(row)
    if episode_ids:
        _refresh(
            conn,
            index.episode_keyword,
            index.episode_vectors,
            t.episodes,
            "episode",
            episode_ids,
            model_id,
            False,
        )
    index.seq = int(changes[-1].seq)
    return len(entry_ids) + len(episode_ids)


def _refresh(
    conn: sa.Connection,
    keyword: KeywordIndex,
    vectors: VectorMatrix,
    table: sa.Table,
    kind: str,
    ids: set[str],
    model_id: str,
    has_status: bool,
) -> dict[str, Any]:
    cols: list[Any] = meta_columns() if has_status else [table.c.id, table.c.terms]
    present: dict[str, Any] = {}
    id_list = sorted(ids)
    for start in range(0, len(id_list), 500):
        chunk = id_list[start : start + 500]
        for row in conn.execute(sa.select(*cols).where(table.c.id.in_(chunk))):
            if not has_status or row.status == "active":
                present[row.id] = row
    vecs: dict[str, bytes] = {}
    v = t.vectors.c
    for start in range(0, len(id_list), 500):
        chunk = id_list[start : start + 500]
        for row in conn.execute(
            sa.select(v.owner_id, v.vector).where(
                v.owner_id.in_(chunk), v.kind == kind, v.model_id == model_id
            )
        ):
            vecs[row.owner_id] = row.vector
    for item_id in ids:
        keyword.remove(item_id)
        vectors.remove(item_id)
    keyword.add_many((i, present[i].terms.split()) for i in sorted(present))
    with_vec = [i for i in sorted(present) if i in vecs]
    if with_vec:
        matrix = np.stack([_vector(vecs[i]) for i in with_vec])
        vectors.upsert_many(with_vec, matrix)
    return present
