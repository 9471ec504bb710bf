"""Dumps: every row of a store as JSON records (`export_records`), and loading them back.

A dump is data from outside, so loading it keeps the store's rules rather than the dump's word:

- every memory and episode passes `Writer.guard` (input checks, PII policy, scanner) on all its fields;
  link relations, contradiction descriptions and import-source names are scanned too;
- search terms are recomputed from the (possibly redacted) text, never taken from the dump, so a
  row cannot be made to rank for words it does not hold;
- a live row whose key already has a live version becomes the next version of that key, if the
  provenance guard allows (never two live versions of one key);
- the dump's audit rows are not inserted: history cannot be forged. Each loaded memory and
  episode gets a fresh ``import`` audit row instead, which is also how other processes' indexes
  learn about it.

Ids, timestamps and the rest of each row are kept, so a dump loaded into an empty store gives the
same memories, episodes, vectors, links and sources; only the audit log starts afresh.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..errors import InvalidInput, MemoryWriteBlocked, TieredMemoryError
from ..provenance import WritePath, check_replace
from ..text import tokenize
from ..types import ProvenanceLevel, ScanResult
from . import _tables as t
from ._db import db_errors, dumps
from ._rows import (
    Draft,
    audit_value,
    check_metadata,
    check_namespace,
    check_size,
    check_tags,
    entry_from_row,
    vector_row,
)
from ._shared import StoreContext
from ._writer import Writer

DUMP_FORMAT = "tiered-memory-dump"
DUMP_VERSION = 1

# Tables a dump carries, in the order they are written back. The audit log is exported (it is
# the store's history) but not loaded: see the module docstring.
_DUMP_TABLES: tuple[tuple[str, sa.Table], ...] = (
    ("memory", t.memories),
    ("episode", t.episodes),
    ("vector", t.vectors),
    ("contradiction", t.contradictions),
    ("link", t.links),
    ("source", t.sources),
    ("job", t.jobs),
    ("audit", t.audit_log),
)
_KIND_TABLE = dict(_DUMP_TABLES)
_ACTOR = "import"


class Dumps:
    """`export_records` and `import_records`."""

    def __init__(self, ctx: StoreContext, writer: Writer) -> None:
        self._ctx = ctx
        self._writer = writer

    def export_records(self, *, namespace: str | None = None) -> Iterator[dict[str, Any]]:
        """Every row of the store (or of one namespace) as JSON-ready records, streamed.

        The first record is a header; then one record per row of memories (every version),
        episodes, vectors (base64), contradictions, links, sources and the audit log.
        """
        if namespace is not None:
            check_namespace(namespace)
        yield {
            "record": "header",
            "format": DUMP_FORMAT,
            "version": DUMP_VERSION,
            "schema_version": self._ctx.schema_version,
            "namespace": namespace,
        }
        with db_errors("export the store"), self._ctx.read() as conn:
            for kind, table in _DUMP_TABLES:
                query = sa.select(table)
                if namespace is not None:
                    query = query.where(table.c.namespace == namespace)
                order = [c for c in table.primary_key.columns]
                if kind == "audit":
                    order = [table.c.seq]
                for row in conn.execution_options(yield_per=1000).execute(query.order_by(*order)):
                    rec: dict[str, Any] = {"record": kind}
                    for name, value in row._mapping.items():
                        rec[name] = (
                            base64.b64encode(value).decode("ascii")
                            if isinstance(value, bytes | memoryview)
                            else value
                        )
                    yield rec

    def import_records(
        self,
        records: Iterable[Mapping[str, Any]],
        *,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, int]:
        """Load what `export_records` produced, in one transaction, under the store's rules.

        Ids, versions, timestamps and vectors are kept; every text is checked and scanned, search
        terms recomputed, live keys versioned, and each memory and episode gets a fresh audit row
        (the dump's own audit rows are skipped). One refusal aborts the whole import. Vectors
        missing from the dump are re-embedded.

        Returns:
            Rows written per kind (``audit``: fresh audit rows written; ``audit_skipped``: audit
            records of the dump that were not loaded).

        Raises:
            MemoryWriteBlocked: A row was refused, or would replace a more trusted live version
                of its key (``item_index`` is its record number).
            InvalidInput: A record is malformed or of an unknown kind.
        """
        try:
            counts = self._import_records(records, progress)
        except _Blocked as blocked:
            # Logged once the import's transaction is rolled back and its lock released.
            self._writer.record_blocked(blocked.draft, blocked.error, WritePath.API)
            raise blocked.error from None
        self._ctx.indexes.clear()
        return counts

    def _import_records(
        self, records: Iterable[Mapping[str, Any]], progress: Callable[[int], None] | None
    ) -> dict[str, int]:
        counts: dict[str, int] = {}
        memory_ids: list[tuple[str, str, str]] = []
        episode_ids: list[str] = []
        vector_ids: set[str] = set()
        memo: dict[str, ScanResult] = {}
        audit: list[dict[str, Any]] = []
        now = self._ctx.now()
        with db_errors("import a dump"), self._ctx.write() as conn, conn.begin():
            for number, rec in enumerate(records):
                if not isinstance(rec, Mapping):
                    raise InvalidInput("record", "must be a JSON object", item_index=number)
                kind = str(rec.get("record"))
                if kind == "header":
                    if rec.get("format") != DUMP_FORMAT:
                        raise InvalidInput("format", f"not a {DUMP_FORMAT} file", item_index=number)
                    continue
                if kind == "audit":
                    counts["audit_skipped"] = counts.get("audit_skipped", 0) + 1
                    continue
                table = _KIND_TABLE.get(kind)
                if table is None:
                    raise InvalidInput("record", f"unknown record type {kind!r}", item_index=number)
                row = self._dump_row(table, rec, number, memo)
                if kind == "memory":
                    self._version_row(conn, row, number, now, audit)
                    memory_ids.append((row["id"], row["namespace"], row["content"]))
                elif kind == "episode":
                    episode_ids.append(row["id"])
                elif kind == "vector":
                    vector_ids.add(row["owner_id"])
                conn.execute(sa.insert(table).values(**row))
                if kind in ("memory", "episode"):
                    audit.append(self._import_audit(kind, row, now))
                counts[kind] = counts.get(kind, 0) + 1
                if progress is not None and number % 1000 == 0:
                    progress(number)
            missing = [m for m in memory_ids if m[0] not in vector_ids]
            for start in range(0, len(missing), 256):
                chunk = missing[start : start + 256]
                matrix = self._ctx.embed([c for _, _, c in chunk])
                for i, (mid, ns, _) in enumerate(chunk):
                    conn.execute(
                        sa.insert(t.vectors).values(
                            **vector_row(mid, "memory", ns, self._ctx.model_id, matrix[i])
                        )
                    )
            self._ctx.rows_changed(conn, [m[0] for m in memory_ids])
            self._ctx.episodes_changed(conn, episode_ids)
            if audit:
                conn.execute(sa.insert(t.audit_log), audit)
        counts["audit"] = len(audit)
        return counts

    def _import_audit(self, kind: str, row: Mapping[str, Any], now: datetime) -> dict[str, Any]:
        if kind == "memory":
            entry = entry_from_row(_Record(row))
            return self._ctx.audit_row(
                "import", row["namespace"], entry_id=row["id"], actor=_ACTOR,
                new=audit_value(entry), now=now,
            )  # fmt: skip
        # "episode_add": the action other processes' indexes read as a new episode.
        return self._ctx.audit_row(
            "episode_add", row["namespace"], entry_id=row["id"], actor=_ACTOR,
            new=dumps({"summary": row["summary"][:500], "imported": True}), now=now,
        )  # fmt: skip

    def _version_row(
        self,
        conn: sa.Connection,
        row: dict[str, Any],
        number: int,
        now: datetime,
        audit: list[dict[str, Any]],
    ) -> None:
        """Make a live imported row the next version of its key, as a write would."""
        if row.get("superseded_by") is not None:
            return  # history: it names its successor
        holder = self._writer.current_for_key(conn, row["namespace"], row["key"])
        if holder is None or holder.id == row["id"]:
            return
        last = conn.execute(
            sa.select(sa.func.max(t.memories.c.version)).where(
                t.memories.c.namespace == row["namespace"], t.memories.c.key == row["key"]
            )
        ).scalar()
        row["version"] = max(int(row.get("version") or 1), int(last or 0) + 1)
        incoming = entry_from_row(_Record(row))
        try:
            check_replace(holder, incoming)
        except MemoryWriteBlocked as exc:
            draft = Draft(content=incoming.content, namespace=incoming.namespace, key=incoming.key)
            raise _Blocked(draft, exc.with_index(number)) from None
        self._writer.supersede(
            conn, holder, incoming, WritePath.API, now,
            reason="replaced by an imported version", audit_rows=audit,
        )  # fmt: skip

    def _dump_row(
        self, table: sa.Table, rec: Mapping[str, Any], number: int, memo: dict[str, ScanResult]
    ) -> dict[str, Any]:
        names = {c.name for c in table.columns}
        row = {k: v for k, v in rec.items() if k in names and k != "record"}
        missing = [
            c.name
            for c in table.columns
            if c.name not in row
            and not c.nullable
            and c.default is None
            and c.autoincrement is not True
        ]
        if missing:
            raise InvalidInput(missing[0], "missing from the record", item_index=number)
        if not isinstance(row.get("namespace"), str):
            raise InvalidInput("namespace", "must be a string", item_index=number)
        check_namespace(row["namespace"], number)
        if "vector" in row and isinstance(row["vector"], str):
            row["vector"] = base64.b64decode(row["vector"])
        if table is t.memories:
            for c in table.columns:  # columns a record may leave out take their defaults
                if c.name not in row:
                    arg = c.default.arg if c.default is not None else None  # type: ignore[attr-defined]
                    row[c.name] = None if callable(arg) else arg
            self._guard_row(row, number, "content", "tags", memo)
            try:
                entry_from_row(_Record(row))
            except (TypeError, ValueError, KeyError) as exc:
                raise InvalidInput(
                    "record", f"malformed memory: {exc}", item_index=number
                ) from None
        elif table is t.episodes:
            self._guard_row(row, number, "summary", "entity_ids", memo)
        elif table is t.links:
            self._scan_row(row, number, memo, row.get("relation"))
        elif table is t.contradictions:
            self._scan_row(row, number, memo, row.get("description"))
        elif table is t.sources:
            self._scan_row(
                row, number, memo, row.get("filename"), row.get("platform"), row.get("stats")
            )
        return row

    def _guard_row(
        self,
        row: dict[str, Any],
        number: int,
        content_col: str,
        tags_col: str,
        memo: dict[str, ScanResult],
    ) -> None:
        """Check and guard a memory or episode row; write back what the PII policy redacted."""
        content = row.get(content_col)
        if not isinstance(content, str) or not content.strip():
            raise InvalidInput(content_col, "must be a non-empty string", item_index=number)
        check_size(content, content_col, self._ctx.limits.content_bytes, number)
        key = row.get("key")
        if key is not None and (not isinstance(key, str) or len(key) > self._ctx.limits.key_chars):
            raise InvalidInput("key", "must be a string within the key limit", item_index=number)
        tags = check_tags(_json_field(row, tags_col, [], number), self._ctx.limits, number)
        metadata = check_metadata(_json_field(row, "metadata", {}, number), self._ctx.limits, number)
        try:
            source = ProvenanceLevel(int(row.get("source", 0)))
        except (TypeError, ValueError):
            raise InvalidInput("source", "not a provenance level", item_index=number) from None
        draft = Draft(
            content=content,
            namespace=row["namespace"],
            key=key,
            tags=tags,
            metadata=metadata,
            source=source,
        )
        try:
            draft = self._writer.guard(draft, WritePath.API, number, memo=memo, record=False)
        except MemoryWriteBlocked as error:
            raise _Blocked(draft, error) from None
        row[content_col] = draft.content
        if key is not None:
            row["key"] = draft.key
        row[tags_col] = dumps(list(draft.tags))
        row["metadata"] = dumps(draft.metadata)
        # Recomputed, never taken from the dump: supplied terms could make a row rank for
        # any query.
        row["terms"] = " ".join(tokenize(draft.content + " " + " ".join(draft.tags)))

    def _scan_row(
        self, row: dict[str, Any], number: int, memo: dict[str, ScanResult], *texts: Any
    ) -> None:
        """Scan the free texts of a link, contradiction or source row."""
        parts = [x for x in texts if isinstance(x, str) and x.strip()]
        if not parts:
            return
        draft = Draft(content=" ".join(parts), namespace=row["namespace"])
        try:
            self._writer.guard(draft, WritePath.API, number, memo=memo, record=False)
        except MemoryWriteBlocked as error:
            raise _Blocked(draft, error) from None


class _Record:
    """A dump's row read by attribute, as `entry_from_row` reads a database row (a column the
    record lacks raises ``KeyError``, as reading the mapping did)."""

    __slots__ = ("_row",)

    def __init__(self, row: Mapping[str, Any]) -> None:
        self._row = row

    def __getattr__(self, name: str) -> Any:
        return self._row[name]


def _json_field(row: Mapping[str, Any], name: str, default: Any, number: int) -> Any:
    value = row.get(name)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise InvalidInput(name, "must be a JSON string", item_index=number)
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        raise InvalidInput(name, "is not valid JSON", item_index=number) from None


class _Blocked(TieredMemoryError):
    """A refusal met inside a transaction, carried out of it before being logged."""

    def __init__(self, draft: Draft, error: MemoryWriteBlocked) -> None:
        super().__init__(str(error))
        self.draft = draft
        self.error = error


__all__ = ["DUMP_FORMAT", "DUMP_VERSION", "Dumps"]
