"""Chat-export import: file or bytes → conversations → the ingestion service → an `ImportReport`.

Streaming end to end: conversations are read one at a time (`ingest.iter_conversations`), buffered
in small batches and written with one transaction per batch, so memory stays at the size of a batch
whatever the size of the export. What a conversation becomes (an EPISODIC episode, SEMANTIC facts
through the IMPORT path, active or pending review) is `langchain_tiered_memory.ingestion`'s rule,
the same for the REST ingest and consolidation. This module adds the file's bookkeeping: its
digest (a file imported before is skipped), the parse problems, progress, and the report.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .ingest import Conversation, ParseReport, file_sha256, iter_conversations
from .ingestion import Ingestion, IngestionStore, IngestOptions, IngestOutcome
from .provenance import WritePath

if TYPE_CHECKING:
    from .store._sources import ImportSource

__all__ = ["ImportProgress", "ImportReport", "ImporterStore", "import_bytes", "import_file",
           "report_lines"]


class ImporterStore(IngestionStore, Protocol):
    """What the importer needs of a store: the ingestion service's needs, and import sources."""

    def get_source(self, sha256: str, *, namespace: str) -> ImportSource | None: ...

    def record_source(
        self, *, namespace: str, sha256: str, platform: str, filename: str,
        stats: Mapping[str, Any],
    ) -> ImportSource: ...


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
        facts_duplicate: Facts skipped because the key already holds the same statement (or
            the review queue holds it under the same proposed key).
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
    store: ImporterStore,
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
        InvalidInput: Unknown ``format``, or the file's JSON nests deeper than
            ``memory.maxImportDepth``.
    """
    file = Path(path)
    parse = ParseReport()
    conversations = iter_conversations(
        file, format=format, report=parse, max_depth=store.config.max_import_depth
    )
    return _import(
        store, conversations, parse, sha256=file_sha256(file), filename=file.name,
        size=file.stat().st_size, namespace=namespace, llm=llm,
        confidence_threshold=confidence_threshold, progress=progress, batch_size=batch_size,
        force=force, where=str(file),
    )


def import_bytes(
    store: ImporterStore,
    data: bytes,
    *,
    name: str,
    namespace: str = "default",
    format: str | None = None,
    llm: Any = None,
    confidence_threshold: float | None = None,
    batch_size: int = 200,
    force: bool = False,
) -> ImportReport:
    """Import an export held in memory (a request body): as `import_file`, without a file.

    Args:
        store: The store to write into.
        data: The export's bytes (any format `import_file` reads).
        name: What to call it in the report and the import source (``request.json``).
        namespace: Whose memory.
        format: Force a format; sniffed from ``data`` when None.
        llm: A chat model for fact extraction.
        confidence_threshold: As in `import_file`.
        batch_size: Conversations per write transaction.
        force: Import even if the same bytes were already imported into ``namespace``.
    """
    parse = ParseReport()
    conversations = iter_conversations(
        data, format=format, report=parse, max_depth=store.config.max_import_depth, name=name
    )
    return _import(
        store, conversations, parse, sha256=hashlib.sha256(data).hexdigest(), filename=name,
        size=len(data), namespace=namespace, llm=llm, confidence_threshold=confidence_threshold,
        progress=None, batch_size=batch_size, force=force, where=name,
    )


def _import(
    store: ImporterStore,
    conversations: Iterable[Conversation],
    parse: ParseReport,
    *,
    sha256: str,
    filename: str,
    size: int,
    namespace: str,
    llm: Any,
    confidence_threshold: float | None,
    progress: Callable[[ImportProgress], None] | None,
    batch_size: int,
    force: bool,
    where: str,
) -> ImportReport:
    started = time.perf_counter()
    report = ImportReport(path=where, namespace=namespace, sha256=sha256)
    previous = store.get_source(sha256, namespace=namespace)
    if previous is not None and not force:
        report.skipped = True
        report.format = previous.platform
        report.message = (
            f"already imported into {namespace!r} on {previous.created_at:%Y-%m-%d %H:%M} UTC "
            f"(as {previous.filename}); nothing written"
        )
        report.seconds = time.perf_counter() - started
        return report
    service = Ingestion(store, IngestOptions(
        namespace=namespace, path=WritePath.IMPORT, confidence_threshold=confidence_threshold,
        llm=llm, fact_tags=_tags, episode_metadata={"import_sha256": sha256},
    ))
    report.extractor = service.extractor
    told = -1
    for outcome in service.ingest(conversations, batch_size=batch_size):
        _count(report, outcome)
        if progress is not None:
            progress(ImportProgress(parse.conversations, parse.messages, size))
            told = parse.conversations
    report.format = parse.format
    report.conversations, report.messages = parse.conversations, parse.messages
    report.truncated = parse.truncated
    report.problems = [
        {"position": p.position, "conversation_id": p.conversation_id, "message": p.message}
        for p in parse.problems
    ]
    if progress is not None and told != parse.conversations:
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
        namespace=namespace, sha256=sha256, platform=report.format, filename=filename,
        stats=stats,
    )
    return report


def _count(report: ImportReport, outcome: IngestOutcome) -> None:
    report.episodes += len(outcome.episodes)
    report.facts_over_cap += outcome.over_cap
    for entry in outcome.entries:
        if entry.status == "pending":
            report.facts_pending += 1
        else:
            report.facts_active += 1
    for skipped in outcome.skipped:
        if skipped.reason == "stale":
            report.facts_stale += 1
        else:
            report.facts_duplicate += 1
    for conv_id, _, reason in outcome.refused_episodes:
        report.refused.append({"conversation_id": conv_id, "what": "episode", "reason": reason})
    for conv_id, _, _, reason in outcome.refused_facts:
        report.refused.append({"conversation_id": conv_id, "what": "fact", "reason": reason})


def _tags(conv: Conversation) -> tuple[str, ...]:
    return ("imported", f"platform:{conv.platform}")


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
