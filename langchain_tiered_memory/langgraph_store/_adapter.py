"""`TieredMemoryBaseStore`: the tiered store behind LangGraph's `BaseStore` interface."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from langgraph.store.base.embed import ensure_embeddings

from ..errors import InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath, max_provenance
from ..store import TieredMemoryStore
from ..store._async import run_sync
from ..types import MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel
from . import _document as d
from . import _mapping as m
from ._record import Record, expired, expiry
from ._similarity import FieldVectors, field_texts

logger = logging.getLogger("langchain_tiered_memory")

DeleteMode = Literal["delete", "archive"]
_READABLE = ("active", m.UNINDEXED)


class TieredMemoryBaseStore(BaseStore):
    """A LangGraph `BaseStore` whose items are memories of a `TieredMemoryStore`.

    Pass it to ``graph.compile(store=...)`` or ``create_react_agent(..., store=...)``; nodes reach
    it through ``runtime.store`` / ``get_store()`` and use the usual ``put``/``get``/``search``/
    ``delete``/``list_namespaces`` calls. It behaves like `InMemoryStore`, with these differences:

    - Items persist (SQLite or PostgreSQL) and are shared with the retriever, the tools and the
      consolidation pipeline. Namespace ``("users", "alice")`` is store namespace
      ``"users.alice"`` (LangGraph forbids ``.`` in labels, so the mapping is exact).
    - A put is a guarded memory write: injection scanner, PII policy and provenance guard apply
      (a refused put raises `MemoryWriteBlocked` and none of the batch's puts or deletes is
      applied; a delete refused by the provenance guard stops the deletes after it), with
      ``model_inferred`` provenance through `WritePath.LANGGRAPH_STORE` unless configured.
      Every string of the document (dict keys too) is scanned as text, indexed or not. A
      value must be strict JSON (no sets, bytes or NaN; at most 64 levels deep), else
      `InvalidInput`. Re-putting a key makes a new version; the old one is kept (superseded,
      ARCHIVAL) for history, and only the latest is ever returned. A put never retires the
      item of another key (the store's on-write contradiction checks skip adapter writes).
    - ``search(query=...)`` ranks like `InMemoryStore`: the score is the best cosine similarity
      between the query and the embedding of each indexed field text (``$`` = the document as
      sorted JSON), with the ``index["embed"]`` embedder (default: the store's). Every matching
      item comes back ranked, ``limit`` at a time (no relevance floor); items with nothing
      indexed follow with ``score=None``, unless ``recall_only=True``. Field vectors are
      computed on first search and cached in memory (bounded). The store's own hybrid recall
      (`TieredMemoryStore.search`, the retriever, the tools) sees the same items.
    - ``created_at`` is the time of the first put of the key (like PostgresStore).
    - Entries written by other integration points (no LangGraph value) are visible too, as
      ``{"content", "tags", "tier", "type", "importance", "metadata"}`` documents.
    - Deleting removes every version of the key for good (``on_delete="delete"``, the default;
      the audit log keeps the last value), or archives the live version and hides it from this
      adapter (``on_delete="archive"``). Either way the item is gone for get and search.

    Args:
        store: The tiered store.
        index: Like InMemoryStore's ``index``: ``fields`` (default ``["$"]``, the whole
            document), ``embed`` (an `Embeddings`, an embedding function or a
            ``"provider:model"`` string; default: the store's embeddings) and ``dims`` (checked
            against the vectors when given). Exposed as ``index_config``.
        ttl: TTL settings (``default_ttl`` minutes, ``refresh_on_read``,
            ``sweep_interval_minutes``). Expired items are never returned, even before a sweep.
        path: The write path whose provenance ceiling applies.
        source: Provenance of items put through this adapter.
        on_delete: ``delete`` (hard delete of every version) or ``archive``.
        importance: Base importance of new memories.
        memory_type: ``environment`` (decays; default) or ``user`` (never decays).
        recall_only: Let a query search return only scored items.
    """

    supports_ttl: bool = True

    def __init__(
        self,
        store: TieredMemoryStore,
        *,
        index: IndexConfig | Mapping[str, Any] | None = None,
        ttl: TTLConfig | Mapping[str, Any] | None = None,
        path: WritePath = WritePath.LANGGRAPH_STORE,
        source: ProvenanceLevel | int | str = ProvenanceLevel.MODEL_INFERRED,
        on_delete: DeleteMode = "delete",
        importance: float = 0.5,
        memory_type: MemoryType | str = MemoryType.ENVIRONMENT,
        recall_only: bool = False,
    ) -> None:
        if on_delete not in ("delete", "archive"):
            raise InvalidInput("on_delete", "must be 'delete' or 'archive'")
        self.store = store
        config = dict(index or {})
        self.index_fields: list[str] = list(config.get("fields") or ["$"])
        embed = config.get("embed")
        dims = config.get("dims")
        self.vectors = FieldVectors(
            store.embeddings if embed is None else ensure_embeddings(embed),
            dims=int(dims) if dims is not None else None,
        )
        self._index_config = {
            **config,
            "fields": self.index_fields,
            "embed": self.vectors.embeddings,
        }
        self.ttl_config: TTLConfig | None = TTLConfig(**ttl) if ttl is not None else None  # type: ignore[typeddict-item]
        self.path = path
        self.source = ProvenanceLevel.parse(source)
        self.on_delete: DeleteMode = on_delete
        self.importance = importance
        self.memory_type = MemoryType(memory_type)
        self.recall_only = recall_only
        self._sweeper: threading.Thread | None = None
        self._stop = threading.Event()
        self._order_lock = threading.Lock()
        self._last_order = 0

    @property
    def index_config(self) -> IndexConfig:
        """The index configuration, as `InMemoryStore` exposes it (``dims``, ``embed``, ``fields``)."""
        return {**self._index_config, "dims": self.vectors.dims}  # type: ignore[typeddict-item]

    # -- BaseStore ----------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops in order; like `InMemoryStore`, reads see the state before this batch's puts.

        Like LangGraph's stores, raw ops are not held to `put`'s rule that the root label is not
        ``langgraph`` (LangGraph itself writes there); labels are checked for every op.
        """
        ops = list(ops)
        for op in ops:
            m.validate_op(op)
        now = self.store.clock()
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        refresh: dict[str, Record] = {}
        for op in ops:
            if isinstance(op, GetOp):
                record = self._get(op.namespace, op.key, now)
                if record is not None and op.refresh_ttl and record.ttl is not None:
                    refresh[record.entry.id] = record
                results.append(record.item() if record else None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op, now, refresh))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op, now))
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
                results.append(None)
            else:
                raise InvalidInput("op", f"Unknown operation type: {type(op)}")
        self._refresh(refresh.values(), now)
        if puts:
            self._apply_puts(list(puts.values()), now)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch` (runs in a worker thread: SQLite and the model are blocking)."""
        return await run_sync(self.batch, list(ops))

    # -- TTL ----------------------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Delete (or archive, per ``on_delete``) every expired item now.

        Returns:
            How many items were removed.
        """
        now = self.store.clock()
        removed = 0
        for namespace in self.store.namespaces():
            for entry in self._entries(namespace):
                record = self._decode(entry)
                if record is not None and expired(record, now) and not record.deleted:
                    self._remove(namespace, record.entry)
                    removed += 1
        return removed

    async def asweep_ttl(self) -> int:
        """Async twin of `sweep_ttl`."""
        return await run_sync(self.sweep_ttl)

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> threading.Thread:
        """Sweep expired items periodically in a daemon thread (``stop_ttl_sweeper`` ends it)."""
        interval = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes")
        if not interval:
            raise InvalidInput("sweep_interval_minutes", "give an interval or set it in ttl=")
        if self._sweeper is not None and self._sweeper.is_alive():
            return self._sweeper
        self._stop.clear()

        def loop() -> None:
            while not self._stop.wait(float(interval) * 60.0):
                try:
                    self.sweep_ttl()
                except Exception:  # a failed sweep must not kill the thread; the next one retries
                    logger.warning("TTL sweep failed", exc_info=True)

        self._sweeper = threading.Thread(target=loop, name="tiered-memory-ttl", daemon=True)
        self._sweeper.start()
        return self._sweeper

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; True when it has ended."""
        self._stop.set()
        if self._sweeper is None:
            return True
        self._sweeper.join(timeout)
        return not self._sweeper.is_alive()

    # -- reads --------------------------------------------------------------------------------

    def _entries(self, namespace: str, key: str | None = None) -> list[MemoryEntry]:
        return self.store.list(namespace=namespace, key=key, status=None, include_superseded=False)

    def _decode(self, entry: MemoryEntry) -> Record | None:
        if entry.status not in _READABLE:
            return None
        namespace = m.from_store_namespace(entry.namespace)
        meta = entry.metadata.get(m.META)
        if not isinstance(meta, Mapping):
            value = {
                "content": entry.content,
                "tags": list(entry.tags),
                "tier": entry.tier.value,
                "type": entry.type.value,
                "importance": entry.importance,
                "metadata": dict(entry.metadata),
            }
            order = int(entry.created_at.timestamp() * 1e9)
            return Record(
                entry, namespace, entry.key, value, entry.created_at, entry.updated_at, order
            )
        return Record(
            entry=entry,
            namespace=namespace,
            key=str(meta["key"]),
            # Older versions kept the document as a JSON string (which the scanner could not read).
            value=json.loads(meta["value"]) if isinstance(meta["value"], str) else meta["value"],
            created_at=datetime.fromisoformat(meta["created_at"]),
            updated_at=datetime.fromisoformat(meta["updated_at"]),
            order=int(meta["order"]),
            ttl=meta.get("ttl"),
            expires_at=meta.get("expires_at"),
            deleted=bool(meta.get("deleted")),
        )

    def _live(self, namespace: str, now: datetime, key: str | None = None) -> list[Record]:
        out: dict[str, Record] = {}
        for entry in self._entries(namespace, key):
            record = self._decode(entry)
            if record is None or record.deleted or expired(record, now):
                continue
            other = out.get(record.key)
            if other is None or other.entry.version < entry.version:
                out[record.key] = record
        return list(out.values())

    def _get(self, namespace: tuple[str, ...], key: str, now: datetime) -> Record | None:
        if not namespace:
            return None
        found = self._live(m.to_store_namespace(namespace), now, m.entry_key(key))
        return found[0] if found else None

    def _store_namespaces(self, prefix: Sequence[str]) -> list[str]:
        n = len(prefix)
        return [
            ns for ns in self.store.namespaces() if m.from_store_namespace(ns)[:n] == tuple(prefix)
        ]

    def _search(self, op: SearchOp, now: datetime, refresh: dict[str, Record]) -> list[SearchItem]:
        records = [
            r
            for ns in self._store_namespaces(op.namespace_prefix)
            for r in self._live(ns, now)
            if m.matches_filter(r.value, op.filter)
        ]
        first: dict[tuple[str, ...], int] = {}
        for r in records:
            first[r.namespace] = min(first.get(r.namespace, r.order), r.order)
        # InMemoryStore's order: namespaces by first insertion, then keys by first insertion.
        records.sort(key=lambda r: (first[r.namespace], r.order))
        ranked: list[tuple[Record, float | None]] = [(r, None) for r in records]
        if op.query:
            scores = self.vectors.scores(op.query, [self._texts(r) for r in records])
            scored = [(r, sc) for r, sc in zip(records, scores, strict=True) if sc is not None]
            # Stable: equal scores keep insertion order, as in InMemoryStore.
            scored.sort(key=lambda pair: -pair[1])
            ranked = list(scored)
            if not self.recall_only:
                ranked += [(r, None) for r, sc in zip(records, scores, strict=True) if sc is None]
        page = ranked[op.offset : op.offset + op.limit]
        recalled: dict[str, list[str]] = {}
        for r, score in page:
            if score is not None:
                recalled.setdefault(r.entry.namespace, []).append(r.entry.id)
        for namespace, ids in recalled.items():
            # A recalled memory is an access (it lengthens its half-life), as in store.search;
            # only the items actually returned count.
            self.store.reinforce(ids, namespace=namespace, now=now)
        for r, _ in page:
            if op.refresh_ttl and r.ttl is not None:
                refresh[r.entry.id] = r
        return [r.search_item(score) for r, score in page]

    def _texts(self, record: Record) -> list[str]:
        """The texts a record is scored by: its indexed fields, or a foreign entry's content."""
        if not record.indexed:
            return []
        meta = record.entry.metadata.get(m.META)
        if not isinstance(meta, Mapping):
            return [record.entry.content]
        paths = m.index_paths(meta.get("index"), self.index_fields)
        return field_texts(record.value, paths) if paths is not None else []

    def _list_namespaces(self, op: ListNamespacesOp, now: datetime) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        candidates = [
            ns
            for ns in self.store.namespaces()
            if all(m.namespace_matches(c, m.from_store_namespace(ns)) for c in conditions)
        ]
        live = [m.from_store_namespace(ns) for ns in candidates if self._live(ns, now)]
        return m.list_namespaces(live, None, op.max_depth, op.limit, op.offset)

    # -- writes -------------------------------------------------------------------------------

    def _next_order(self) -> int:
        # Insertion order for query-less searches; the clock may be frozen (tests) or coarse.
        with self._order_lock:
            self._last_order = max(self._last_order + 1, time.time_ns())
            return self._last_order

    def _apply_puts(self, puts: Sequence[PutOp], now: datetime) -> None:
        items: list[dict[str, Any]] = []
        deletes: list[PutOp] = []
        for op in puts:
            if op.value is None:
                deletes.append(op)
                continue
            namespace = m.to_store_namespace(op.namespace)
            current = self._get(tuple(op.namespace), op.key, now)
            items.append(self._draft(op, namespace, current, now))
        # Puts are de-duplicated per key, so puts and deletes touch different keys: the
        # all-or-nothing write goes first, and a refused put leaves every delete undone too.
        if items:
            # A LangGraph item is addressed by its key: a put must never retire another key's
            # item, which the store's on-write contradiction resolution would do to two items
            # that read alike ("document number 3" / "document number 4").
            with self.store.suspend_checks():
                self.store.add_many(
                    items, namespace=items[0]["namespace"], path=self.path, now=now
                )
        for op in deletes:
            namespace = m.to_store_namespace(op.namespace)
            for entry in self._entries(namespace, m.entry_key(op.key)):
                self._remove(namespace, entry)

    def _draft(
        self,
        op: PutOp,
        namespace: str,
        current: Record | None,
        now: datetime,
    ) -> dict[str, Any]:
        value = d.apply_pii_policy(d.canonical_document(op.value), self.store.config.pii_policy)
        paths = m.index_paths(op.index, self.index_fields)
        text = m.index_text(value, paths) if paths is not None else ""
        ttl = op.ttl
        meta: dict[str, Any] = {
            "key": op.key,
            # JSON values, not a JSON string: the write guard scans each string as text. Key
            # order is not kept (the column sorts keys), as with PostgresStore's JSONB.
            "value": value,
            "created_at": m.iso(current.created_at if current else now),
            "updated_at": m.iso(now),
            "order": current.order if current else self._next_order(),
            "index": op.index if op.index is not None else None,
            "ttl": ttl,
            "expires_at": expiry(now, ttl),
        }
        return {
            # Unindexed, the content is never searched, but it is scanned: rendered as the
            # ``field: value`` lines a model would read, not JSON, whose braces and quotes the
            # learned model had come to score as an attack ('{"text": "budget approved for Q3"}'
            # scored 0.96, its text alone 0.0).
            "content": text or m.index_text(value, ["$"]) or "{}",
            "key": m.entry_key(op.key),
            "namespace": namespace,
            "type": self.memory_type,
            "tier": MemoryTier.SEMANTIC,
            "importance": self.importance,
            "source": self.source,
            "metadata": {m.META: meta},
            "status": "active" if text else m.UNINDEXED,
        }

    def _remove(self, namespace: str, entry: MemoryEntry) -> None:
        ceiling = max_provenance(self.path)
        if entry.source > ceiling:
            raise MemoryWriteBlocked(
                "provenance",
                rule="provenance_guard",
                detail=f"the {self.path.value} path cannot delete the {entry.source.label} "
                f"entry {entry.id} for key {entry.key!r}",
            )
        if self.on_delete == "delete":
            for version in self.store.history(entry.key, namespace=namespace):
                self.store.delete(version.id, namespace=namespace, path=self.path)
            return
        meta = entry.metadata.get(m.META)
        if isinstance(meta, Mapping) and meta.get("deleted"):
            return
        hidden = {**(dict(meta) if isinstance(meta, Mapping) else {}), "deleted": True}
        if not isinstance(meta, Mapping):
            hidden.update(key=entry.key, value={}, created_at=m.iso(entry.created_at))
            hidden.update(updated_at=m.iso(entry.updated_at), order=0)
        after = self.store.update(
            entry.id,
            namespace=namespace,
            metadata={**entry.metadata, m.META: hidden},
            path=self.path,
        )
        if after.tier != MemoryTier.ARCHIVAL:
            self.store.archive(after.id, namespace=namespace, path=self.path)

    def _refresh(self, records: Iterable[Record], now: datetime) -> None:
        for record in records:
            meta = dict(record.entry.metadata[m.META])
            meta["expires_at"] = expiry(now, record.ttl)
            try:
                self.store.update(
                    record.entry.id,
                    namespace=record.entry.namespace,
                    metadata={**record.entry.metadata, m.META: meta},
                    path=self.path,
                    now=now,
                )
            except MemoryWriteBlocked:  # a read must not fail because its refresh was refused
                logger.warning("could not refresh the TTL of %s", record.entry.id, exc_info=True)
