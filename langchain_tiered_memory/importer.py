"""Chat-export import: file → conversations → episodes → facts → guarded writes.

Streaming end to end: conversations are read one at a time (`ingest.iter_conversations`), buffered
in small batches and written with one transaction per batch, so memory stays at the size of a batch
whatever the size of the export. Each conversation becomes one EPISODIC episode (extractive
summary); the user's durable statements become SEMANTIC facts written through the IMPORT path
(provenance CONSOLIDATED). A fact whose confidence reaches the threshold is active at once; below
it, it waits in the review queue (status ``pending``) with its semantic key held in
``metadata["proposed_key"]`` until `TieredMemoryStore.approve` gives it that key.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .ingest import Conversation, ParseReport, file_sha256, iter_conversations
from .ingest.extraction import ExtractedFact, extract_facts
from .ingest.summary import extract_entities, score_importance, summarize
from .provenance import WritePath
from .types import Episode, MemoryTier, MemoryType, ProvenanceLevel

if TYPE_CHECKING:
    from .store import TieredMemoryStore

__all__ = ["ImportProgress", "ImportReport", "import_file", "report_lines"]

_MAX_KEY = 480
_SUMMARY_CHARS = 600
_MAX_ENTITIES = 8


@dataclass(frozen=True, slots=True)
class ImportProgress:
    """Progress of a running import, passed to the ``progress`` callback after each batch.

    Attributes:
        conversations: Conversations read so far.
        messages: Messages read so far.
        bytes_total: Size of the file.
    """

    conversations: int
    messages: int
    bytes_total: int


@dataclass(slots=True)
class ImportReport:
    """What an import did.

    Attributes:
        path: The file.
        namespace: Whose memory it went into.
        sha256: Hex digest of the file.
        format: The export format used.
        skipped: True when this file had already been imported (nothing was written).
        message: A one-line human summary.
        conversations: Conversations parsed.
        messages: Messages parsed.
        episodes: Episodes written.
        facts_active: Facts written active (confidence at or above the threshold).
        facts_pending: Facts written pending review.
        facts_duplicate: Facts skipped because the key already holds the same statement.
        facts_stale: Facts skipped because the key holds a newer statement.
        facts_over_cap: Facts dropped because their conversation gave more than
            ``memory.maxFactsPerEpisode``.
        refused: ``{"conversation_id", "what", "reason"}`` for every refused episode or fact.
        problems: Bad conversations or lines, with their position in the file.
        truncated: Whether the file ended early.
        extractor: ``heuristic`` or ``llm``.
        seconds: Wall time.
    """

    path: str
    namespace: str
    sha256: str = ""
    format: str = ""
    skipped: bool = False
    message: str = ""
    conversations: int = 0
    messages: int = 0
    episodes: int = 0
    facts_active: int = 0
    facts_pending: int = 0
    facts_duplicate: int = 0
    facts_stale: int = 0
    facts_over_cap: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)
    truncated: bool = False
    extractor: str = "heuristic"
    seconds: float = 0.0

    @property
    def messages_per_second(self) -> float:
        """Import speed."""
        return self.messages / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (also stored as the source's stats)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["messages_per_second"] = round(self.messages_per_second, 1)
        return out


def import_file(
    store: TieredMemoryStore,
    path: str | os.PathLike[str],
    *,
    namespace: str = "default",
    format: str | None = None,
    llm: Any = None,
    confidence_threshold: float | None = None,
    progress: Callable[[ImportProgress], None] | None = None,
    batch_size: int = 200,
    force: bool = False,
) -> ImportReport:
    """Import one chat export into ``namespace``.

    Args:
        store: The store to write into.
        path: ChatGPT ``conversations.json``, Claude, Gemini, generic JSON, JSONL or plain text.
        namespace: Whose memory.
        format: Force a format (see `ingest.FORMATS`); detected when None.
        llm: A LangChain chat model for fact extraction (falls back to heuristics on failure).
        confidence_threshold: Facts at or above it are active, below it pending review; default
            ``store.config.fact_confidence_threshold``.
        progress: Called with an `ImportProgress` after each batch.
        batch_size: Conversations per write transaction.
        force: Import even if this file was already imported into ``namespace``.

    Returns:
        The report. A file imported before gives ``skipped=True`` and writes nothing.

    Raises:
        OSError: The file cannot be read.
        InvalidInput: The file's JSON nests deeper than ``memory.maxImportDepth``.
        ValueError: Unknown ``format``.
    """
    import time

    started = time.perf_counter()
    file = Path(path)
    report = ImportReport(path=str(file), namespace=namespace)
    report.sha256 = file_sha256(file)
    previous = store.get_source(report.sha256, namespace=namespace)
    if previous is not None and not force:
        report.skipped = True
        report.format = previous.platform
        report.message = (
            f"already imported into {namespace!r} on {previous.created_at:%Y-%m-%d %H:%M} UTC "
            f"(as {previous.filename}); nothing written"
        )
        report.seconds = time.perf_counter() - started
        return report
    threshold = (
        store.config.fact_confidence_threshold
        if confidence_threshold is None
        else confidence_threshold
    )
    parse = ParseReport()
    run = _Run(store, report, namespace, threshold, llm)
    size = file.stat().st_size
    batch: list[Conversation] = []
    depth = store.config.max_import_depth
    for conv in iter_conversations(file, format=format, report=parse, max_depth=depth):
        batch.append(conv)
        if len(batch) >= batch_size:
            run.flush(batch)
            batch = []
            if progress is not None:
                progress(ImportProgress(parse.conversations, parse.messages, size))
    run.flush(batch)
    report.format = parse.format
    report.conversations, report.messages = parse.conversations, parse.messages
    report.truncated = parse.truncated
    report.problems = [
        {"position": p.position, "conversation_id": p.conversation_id, "message": p.message}
        for p in parse.problems
    ]
    if progress is not None:
        progress(ImportProgress(parse.conversations, parse.messages, size))
    report.seconds = time.perf_counter() - started
    report.message = (
        f"imported {report.conversations} conversations ({report.messages} messages): "
        f"{report.episodes} episodes, {report.facts_active} facts, "
        f"{report.facts_pending} pending review"
        + (f", {len(report.problems)} problems" if report.problems else "")
        + (f", {len(report.refused)} refused" if report.refused else "")
    )
    stats = report.to_dict()
    stats["problems"] = stats["problems"][:100]
    stats["refused"] = stats["refused"][:100]
    store.record_source(
        namespace=namespace,
        sha256=report.sha256,
        platform=report.format,
        filename=file.name,
        stats=stats,
    )
    return report


class _Run:
    """State of one import: the store, the counters and the latest statement per key."""

    def __init__(
        self,
        store: TieredMemoryStore,
        report: ImportReport,
        namespace: str,
        threshold: float,
        llm: Any,
    ) -> None:
        self.store = store
        self.report = report
        self.namespace = namespace
        self.threshold = threshold
        self.llm = llm
        report.extractor = "llm" if llm is not None else "heuristic"
        # key -> (lower-cased statement, event time) of the latest statement seen or stored
        self.latest: dict[str, tuple[str, float]] = {}

    def _facts(self, conv: Conversation) -> list[ExtractedFact]:
        if self.llm is None:
            return extract_facts(conv.messages)
        from .ingest.llm import extract_facts_llm

        return extract_facts_llm(conv.messages, self.llm)

    def flush(self, batch: Sequence[Conversation]) -> None:
        if not batch:
            return
        episodes: list[Episode] = []
        pending_facts: list[tuple[Conversation, Episode | None, ExtractedFact]] = []
        # A resumed import finds the episodes its interrupted run committed: they are reused,
        # not written again (their facts go through the usual duplicate check).
        done = self.store.episode_ids_for_sessions(
            (_session_key(conv) for conv in batch), namespace=self.namespace
        )
        for conv in batch:
            if not conv.messages:
                continue
            facts = self._facts(conv)
            cap = self.store.config.max_facts_per_episode
            if len(facts) > cap:
                # A conversation that yields hundreds of "facts" is a dump, not a chat: the
                # most confident ones are kept, in conversation order.
                self.report.facts_over_cap += len(facts) - cap
                keep = sorted(range(len(facts)), key=lambda i: -facts[i].confidence)[:cap]
                facts = [facts[i] for i in sorted(keep)]
            episode = self._episode(conv, facts)
            if episode is not None and episode.session_key in done:
                episode = replace(episode, id=done[episode.session_key])
            elif episode is not None:
                episodes.append(episode)
            pending_facts.extend((conv, episode, f) for f in facts)
        known = self.store.current_contents(
            {_key(f) for _, _, f in pending_facts if _key(f) not in self.latest},
            namespace=self.namespace,
        )
        for key, entry in known.items():
            when = entry.event_at or entry.created_at
            self.latest[key] = (entry.content.strip().lower(), when.timestamp())
        items: list[dict[str, Any]] = []
        owners: list[str] = []
        for conv, episode, fact in pending_facts:
            item = self._item(conv, episode, fact)
            if item is not None:
                items.append(item)
                owners.append(conv.id)
        result = self.store.write_import_batch(
            episodes, items, namespace=self.namespace, path=WritePath.IMPORT
        )
        self.report.episodes += len(result.episodes)
        for entry in result.entries:
            if entry.status == "pending":
                self.report.facts_pending += 1
            else:
                self.report.facts_active += 1
        for i, reason in result.refused_episodes:
            self.report.refused.append(
                {"conversation_id": episodes[i].metadata["conversation_id"], "what": "episode",
                 "reason": reason}
            )
        for i, reason in result.refused_facts:
            self.report.refused.append(
                {"conversation_id": owners[i], "what": "fact", "reason": reason}
            )

    def _episode(self, conv: Conversation, facts: Sequence[ExtractedFact]) -> Episode | None:
        summary = summarize(conv.messages, max_chars=_SUMMARY_CHARS).strip()
        if not summary:
            summary = (conv.title or "").strip()
        if not summary:
            return None
        first = conv.messages[0].timestamp or conv.created_at
        meta: dict[str, Any] = {
            "import_sha256": self.report.sha256,
            "platform": conv.platform,
            "conversation_id": conv.id,
            "messages": len(conv.messages),
        }
        if conv.title:
            meta["title"] = conv.title
        entities = extract_entities(conv.messages)
        return Episode(
            session_key=_session_key(conv),
            summary=summary,
            message_range_start=0,
            message_range_end=len(conv.messages) - 1,
            entity_ids=tuple(entities[:_MAX_ENTITIES]),
            importance=min(
                1.0, max(0.0, score_importance(conv.messages, facts=facts, entities=entities))
            ),
            namespace=self.namespace,
            created_at=self.store.clock(),
            event_at=first,
            metadata=meta,
        )

    def _item(
        self, conv: Conversation, episode: Episode | None, fact: ExtractedFact
    ) -> dict[str, Any] | None:
        key = _key(fact)
        when = _fact_time(conv, fact)
        stamp = when.timestamp() if when else 0.0
        text = fact.content.strip().lower()
        latest = self.latest.get(key)
        if latest is not None:
            if latest[0] == text:
                self.report.facts_duplicate += 1
                return None
            if when is not None and latest[1] > stamp:
                # Exports list conversations newest first: an older statement never overrides.
                self.report.facts_stale += 1
                return None
        active = fact.confidence >= self.threshold
        # Kept small: every metadata string is scanned. The episode carries the file's details.
        metadata: dict[str, Any] = {
            "confidence": round(float(fact.confidence), 4),
            "message_index": fact.source_index,
        }
        if fact.evidence and fact.evidence != fact.content:
            metadata["evidence"] = fact.evidence[:500]
        if active:
            self.latest[key] = (text, stamp)
        else:
            metadata["proposed_key"] = key
        return {
            "content": fact.content,
            "key": key if active else None,
            "type": MemoryType.USER if fact.is_user_type else MemoryType.ENVIRONMENT,
            "tier": MemoryTier.SEMANTIC,
            "tags": _tags(fact, conv.platform),
            "importance": min(1.0, max(0.1, 0.3 + 0.6 * float(fact.confidence))),
            "source": ProvenanceLevel.CONSOLIDATED,
            "source_session": conv.id[:255],
            "episode_id": episode.id if episode is not None else None,
            "metadata": metadata,
            "event_at": when,
            "status": "active" if active else "pending",
        }


def _key(fact: ExtractedFact) -> str:
    return fact.key.strip()[:_MAX_KEY] or "fact"


def _tags(fact: ExtractedFact, platform: str) -> list[str]:
    tags = [t for t in fact.tags if isinstance(t, str) and t.strip()]
    return list(dict.fromkeys([*tags, "imported", f"platform:{platform}"]))


def _fact_time(conv: Conversation, fact: ExtractedFact) -> datetime | None:
    if 0 <= fact.source_index < len(conv.messages):
        stamp = conv.messages[fact.source_index].timestamp
        if stamp is not None:
            return stamp
    return conv.created_at


def report_lines(report: ImportReport) -> list[str]:
    """Human-readable lines for a report (problems with their positions)."""
    lines = [report.message]
    for p in report.problems:
        where = f"position {p['position']}"
        if p.get("conversation_id"):
            where += f" ({p['conversation_id']})"
        lines.append(f"  problem at {where}: {p['message']}")
    for r in report.refused:
        lines.append(f"  refused {r['what']} of {r['conversation_id']}: {r['reason']}")
    return lines


def _session_key(conv: Conversation) -> str:
    return f"import:{conv.platform}:{conv.id}"[:255]
