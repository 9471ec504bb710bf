"""Import sources (sha256, platform, stats), the import pipeline's writes, and statistics.

The import pipeline (`langchain_tiered_memory.importer`) is pure orchestration; every row it writes
goes through this service, which keeps the store's rules: each text passes `Writer.guard` (provenance
ceiling, PII policy, injection scanner) and every change writes an audit row in its transaction.

Dumps (`export_records` / `import_records`) live in `._dumps`, the review queue in `._review`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..errors import InvalidInput, MemoryWriteBlocked
from ..provenance import WritePath
from ..types import Episode, MemoryEntry, ProvenanceLevel, ScanResult
from . import _tables as t
from ._db import db_errors, dumps, from_ts, loads, to_ts
from ._episodes import Episodes
from ._reembed import Reembed
from ._rows import Draft, check_namespace, entry_from_row, make_draft
from ._shared import StoreContext
from ._writer import Writer


@dataclass(frozen=True, slots=True)
class ImportSource:
    """One imported file, as recorded in ``tm_sources``: the namespace it went into, the file's
    sha256, its export format (``platform``), name, parse and write ``stats``, and import time."""

    namespace: str
    sha256: str
    platform: str
    filename: str
    stats: Mapping[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What `Sources.write_import_batch` wrote and what it refused."""

    episodes: tuple[Episode, ...]
    entries: tuple[MemoryEntry, ...]
    refused_episodes: tuple[tuple[int, str], ...]
    refused_facts: tuple[tuple[int, str], ...]


class Sources:
    """Import sources, batched import writes, and statistics."""

    def __init__(
        self,
        ctx: StoreContext,
        *,
        writer: Writer,
        episodes: Episodes,
        reembed: Reembed,
    ) -> None:
        self._ctx = ctx
        self._writer = writer
        self._episodes = episodes
        self._reembed = reembed

    # -- sources ----------------------------------------------------------------------------

    def get_source(self, sha256: str, *, namespace: str) -> ImportSource | None:
        """The recorded import of the file with this digest into ``namespace``, or None."""
        check_namespace(namespace)
        s = t.sources.c
        with db_errors("read an import source"), self._ctx.read() as conn:
            row = conn.execute(
                sa.select(t.sources).where(s.namespace == namespace, s.sha256 == sha256)
            ).first()
        return _source(row) if row else None

    def list_sources(self, *, namespace: str) -> list[ImportSource]:
        """Every file imported into ``namespace``, newest first."""
        check_namespace(namespace)
        s = t.sources.c
        with db_errors("list import sources"), self._ctx.read() as conn:
            rows = conn.execute(
                sa.select(t.sources).where(s.namespace == namespace).order_by(s.created_at.desc())
            ).all()
        return [_source(r) for r in rows]

    def record_source(
        self,
        *,
        namespace: str,
        sha256: str,
        platform: str,
        filename: str,
        stats: Mapping[str, Any],
    ) -> ImportSource:
        """Record (or overwrite) the import of one file; audited as ``source_add``."""
        check_namespace(namespace)
        now = self._ctx.clock()
        source = ImportSource(namespace, sha256, platform, filename[:1024], dict(stats), now)
        s = t.sources.c
        with db_errors("record an import source"), self._ctx.write() as conn, conn.begin():
            conn.execute(sa.delete(t.sources).where(s.namespace == namespace, s.sha256 == sha256))
            conn.execute(
                sa.insert(t.sources).values(
                    namespace=namespace,
                    sha256=sha256,
                    platform=platform,
                    filename=source.filename,
                    stats=dumps(source.stats),
                    created_at=to_ts(now),
                )
            )
            self._ctx.audit(
                conn,
                "source_add",
                namespace,
                entry_id=None,
                actor=WritePath.IMPORT.value,
                new=dumps({"sha256": sha256, "platform": platform, "filename": source.filename}),
            )
        return source

    # -- batched import writes ------------------------------------------------------------------

    def current_contents(self, keys: Iterable[str], *, namespace: str) -> dict[str, MemoryEntry]:
        """The live (not superseded, active) entry of each key that has one."""
        wanted = sorted(set(keys))
        m = t.memories.c
        out: dict[str, MemoryEntry] = {}
        with db_errors("read current keys"), self._ctx.read() as conn:
            for start in range(0, len(wanted), 500):
                rows = conn.execute(
                    sa.select(t.memories).where(
                        m.namespace == namespace,
                        m.key.in_(wanted[start : start + 500]),
                        m.superseded_by.is_(None),
                        m.status == "active",
                    )
                )
                for row in rows:
                    out[row.key] = entry_from_row(row)
        return out

    def write_import_batch(
        self,
        episodes: Sequence[Episode],
        facts: Sequence[Mapping[str, Any]],
        *,
        namespace: str,
        path: WritePath = WritePath.IMPORT,
    ) -> BatchResult:
        """Write episodes and facts of an import batch, skipping (not aborting on) refused items.

        Episodes are guarded one by one, embedded in one call and inserted in one transaction;
        facts likewise (with versioning of their keys, as `add_many`). An item the scanner, PII
        policy or provenance guard refuses is dropped (and audited as blocked) and the rest
        written, so one bad message never loses a whole batch. The facts of a refused episode are
        refused with it: a conversation caught carrying an injection is not trusted.

        Returns:
            What was written, and ``(index, reason)`` for every refused episode and fact.
        """
        check_namespace(namespace)
        memo: dict[str, ScanResult] = {}
        kept: list[Episode] = []
        refused_eps: list[tuple[int, str]] = []
        for i, episode in enumerate(episodes):
            draft = Draft(
                content=episode.summary,
                namespace=episode.namespace,
                tags=tuple(e for e in episode.entity_ids if e.strip()),
                metadata=dict(episode.metadata),
            )
            try:
                draft = self._writer.guard(draft, path, None, memo=memo)
            except MemoryWriteBlocked as exc:
                refused_eps.append((i, exc.reason))
                continue
            # What the PII policy redacted is what gets stored, in every field.
            kept.append(
                replace(
                    episode,
                    summary=draft.content,
                    entity_ids=draft.tags,
                    metadata=draft.metadata,
                )
            )
        if kept:
            self._episodes.insert_episodes(kept, path)
        dropped = {episodes[i].id: reason for i, reason in refused_eps}
        drafts: list[tuple[int, Draft]] = []
        refused_facts: list[tuple[int, str]] = []
        for i, fact in enumerate(facts):
            if fact.get("episode_id") in dropped:
                # A conversation caught carrying an injection is not trusted for facts either.
                refused_facts.append((i, f"episode refused: {dropped[fact['episode_id']]}"))
                continue
            try:
                draft = make_draft(fact, namespace, i, limits=self._ctx.limits)
                drafts.append((i, self._writer.guard(draft, path, i, memo=memo)))
            except (MemoryWriteBlocked, InvalidInput) as exc:
                refused_facts.append((i, _reason(exc)))
        entries: list[MemoryEntry] = []
        while drafts:
            try:
                entries = self._writer.insert_drafts([d for _, d in drafts], path, self._ctx.clock(), True)
                break
            except MemoryWriteBlocked as exc:  # the provenance guard refused a replacement
                if exc.item_index is None:
                    raise
                refused_facts.append((drafts.pop(exc.item_index)[0], exc.reason))
        refused_facts.sort()
        return BatchResult(tuple(kept), tuple(entries), tuple(refused_eps), tuple(refused_facts))

    # -- statistics -------------------------------------------------------------------------

    def memory_stats(self, *, namespace: str | None = None) -> dict[str, Any]:
        """Counts for dashboards: entries by tier, type, provenance and status; live entries,
        superseded versions, episodes, import sources, blocked writes and the re-embed queue."""
        if namespace is not None:
            check_namespace(namespace)
        m = t.memories.c

        def scoped(query: Any, table: sa.Table) -> Any:
            return query if namespace is None else query.where(table.c.namespace == namespace)

        out: dict[str, Any] = {"namespace": namespace}
        with db_errors("compute statistics"), self._ctx.read() as conn:
            for name, col in (("by_tier", m.tier), ("by_type", m.type), ("by_status", m.status)):
                q = scoped(sa.select(col, sa.func.count()).group_by(col), t.memories)
                out[name] = {str(k): int(v) for k, v in conn.execute(q)}
            q = scoped(sa.select(m.source, sa.func.count()).group_by(m.source), t.memories)
            out["by_provenance"] = {
                ProvenanceLevel(int(k)).label: int(v) for k, v in conn.execute(q)
            }

            def count(table: sa.Table, *where: Any) -> int:
                q = scoped(sa.select(sa.func.count()).select_from(table), table).where(*where)
                return int(conn.execute(q).scalar() or 0)

            out["total"] = count(t.memories)
            out["live"] = count(t.memories, m.superseded_by.is_(None), m.status == "active")
            out["superseded"] = count(t.memories, m.superseded_by.is_not(None))
            out["pinned"] = count(t.memories, m.pinned.is_(True))
            out["pending_reviews"] = count(t.memories, m.status == "pending")
            out["episodes"] = count(t.episodes)
            out["sources"] = count(t.sources)
            out["blocked_writes"] = count(t.audit_log, t.audit_log.c.action == "blocked")
        out["reembed_pending"] = self._reembed.reembed_pending(namespace=namespace)
        return out



def _reason(exc: MemoryWriteBlocked | InvalidInput) -> str:
    return exc.reason if isinstance(exc, MemoryWriteBlocked) else f"invalid: {exc}"


def _source(row: Any) -> ImportSource:
    m = row._mapping
    return ImportSource(
        namespace=m["namespace"],
        sha256=m["sha256"],
        platform=m["platform"],
        filename=m["filename"],
        stats=loads(m["stats"], {}),
        created_at=from_ts(m["created_at"]),  # type: ignore[arg-type]
    )


__all__ = ["BatchResult", "ImportSource", "Sources"]
