"""The sleep-time pipeline's steps: episode → facts → guarded writes → contradictions → decay.

Each step reads and returns a slice of `ConsolidationState`, so the compiled graph's final state
says what happened: the episode, the facts found, which were written, skipped or blocked, the
conflicts found, and what moved between tiers.

Re-running a step for the same job is harmless: the episode is found by its job id, and a fact
whose key already holds the same content is skipped, so a job resumed after a crash writes nothing
twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import logging
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from langchain_core.messages import BaseMessage, convert_to_messages

from ..errors import MemoryWriteBlocked
from ..ingest.extraction import ExtractedFact, extract_facts
from ..ingest.llm import extract_facts_llm, summarize_llm
from ..ingest.summary import extract_entities, score_importance, summarize
from ..provenance import WritePath
from ..types import Episode, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel

logger = logging.getLogger("langchain_tiered_memory")

__all__ = ["ConsolidationState", "Steps"]

_SUMMARY_CHARS = 600


class ConsolidationState(TypedDict, total=False):
    """What the consolidation graph reads and writes (inspect it after ``invoke``).

    Input: ``namespace``, ``session_id``, ``messages`` and optionally ``job_id``.
    Output: ``episode`` (or ``episode_skipped``), ``summary_source`` (llm | extractive),
    ``facts`` and ``fact_source`` (llm | heuristic), ``written`` entries, ``skipped`` and
    ``blocked`` facts (with the reason), ``conflicts`` found, ``moved`` (entries that changed tier:
    superseded versions and decay-pass archivals) and ``notes``.
    """

    namespace: str
    session_id: str
    job_id: str
    messages: list[Any]
    episode: Episode | None
    episode_skipped: str
    summary_source: str
    facts: list[ExtractedFact]
    fact_source: str
    written: list[MemoryEntry]
    skipped: list[dict[str, Any]]
    blocked: list[dict[str, Any]]
    conflicts: list[dict[str, Any]]
    moved: list[dict[str, Any]]
    notes: list[str]


def _messages(state: Mapping[str, Any]) -> list[BaseMessage]:
    raw = state.get("messages") or []
    return list(convert_to_messages(list(raw)))


class Steps:
    """The pipeline's steps, bound to a store and an optional chat model."""

    def __init__(self, store: Any, llm: Any = None) -> None:
        self.store = store
        self.llm = llm

    def _no_auto_checks(self) -> Any:
        # The contradiction step checks the written facts itself (and reports what it found);
        # a store that checks on every write would otherwise consume those pairs first.
        suspend = getattr(self.store, "suspend_checks", None)
        return suspend() if suspend is not None else contextlib.nullcontext()

    @property
    def _timeout(self) -> float:
        return float(self.store.config.llm_timeout_seconds)

    # -- 1. episode -----------------------------------------------------------------------------

    def episode(self, state: ConsolidationState) -> dict[str, Any]:
        """Summarise the session into an Episode (chat model, else extractive)."""
        namespace, session = state.get("namespace", "default"), state.get("session_id", "")
        job = state.get("job_id") or ""
        messages = _messages(state)
        if not messages:
            return {"episode": None, "episode_skipped": "no messages", "notes": []}
        extractive = summarize(messages, max_chars=_SUMMARY_CHARS)
        digest = hashlib.sha256(extractive.encode("utf-8")).hexdigest()[:16]
        for existing in self.store.list_episodes(namespace=namespace, session_key=session):
            same_job = bool(job) and existing.metadata.get("job") == job
            if same_job or (not job and existing.metadata.get("digest") == digest):
                return {"episode": existing, "summary_source": "existing", "notes": []}
        if self.llm is not None:
            summary = summarize_llm(
                messages, self.llm, max_chars=_SUMMARY_CHARS, timeout=self._timeout
            )
            source = "extractive" if summary == extractive else "llm"
        else:
            summary, source = extractive, "extractive"
        if not summary.strip():
            return {"episode": None, "episode_skipped": "nothing to summarise", "notes": []}
        episode = Episode(
            session_key=session,
            summary=summary,
            message_range_start=0,
            message_range_end=len(messages) - 1,
            entity_ids=tuple(extract_entities(messages)[:12]),
            importance=score_importance(messages),
            namespace=namespace,
            created_at=self.store.clock(),
            metadata={"job": job, "summary_source": source, "digest": digest},
        )
        try:
            stored = self.store.add_episode(episode, path=WritePath.CONSOLIDATION)
        except MemoryWriteBlocked as exc:
            return {
                "episode": None,
                "episode_skipped": f"blocked: {exc.reason}",
                "summary_source": source,
                "blocked": [_blocked("episode", summary, exc)],
                "notes": [],
            }
        return {"episode": stored, "summary_source": source, "notes": []}

    # -- 2. facts -------------------------------------------------------------------------------

    def extract(self, state: ConsolidationState) -> dict[str, Any]:
        """Find durable facts (chat model with structured output, else heuristics)."""
        messages = _messages(state)
        if self.llm is not None:
            facts = extract_facts_llm(messages, self.llm, timeout=self._timeout)
            heuristic = extract_facts(messages)
            source = "heuristic" if facts == heuristic else "llm"
        else:
            facts, source = extract_facts(messages), "heuristic"
        # A later statement on the same key is the newer version: keep only the last per key.
        last: dict[str, ExtractedFact] = {}
        for fact in facts:
            last.pop(fact.key, None)
            last[fact.key] = fact
        kept = list(last.values())
        cap = self.store.config.max_facts_per_episode
        notes = list(state.get("notes", []))
        if len(kept) > cap:
            # The most confident ones, in conversation order (the importer keeps the same).
            best = sorted(range(len(kept)), key=lambda i: -kept[i].confidence)[:cap]
            notes.append(f"{len(kept) - cap} facts over memory.maxFactsPerEpisode dropped")
            kept = [kept[i] for i in sorted(best)]
        return {"facts": kept, "fact_source": source, "notes": notes}

    # -- 3. guarded writes ----------------------------------------------------------------------

    def write(self, state: ConsolidationState) -> dict[str, Any]:
        """Write each fact as a SEMANTIC entry (source=consolidated) through the guarded path."""
        namespace, session = state.get("namespace", "default"), state.get("session_id", "")
        job = state.get("job_id") or ""
        episode = state.get("episode")
        threshold = self.store.config.fact_confidence_threshold
        written: list[MemoryEntry] = []
        skipped: list[dict[str, Any]] = []
        blocked = list(state.get("blocked", []))
        moved = list(state.get("moved", []))
        refused = state.get("episode_skipped", "")
        if refused.startswith("blocked"):
            # One rule with the importer: a conversation caught carrying an injection (or
            # refused for personal data) is not trusted for facts either.
            blocked.extend(
                {"key": f.key, "content": f.content, "reason": f"episode refused ({refused})",
                 "rule": "episode_refused"}
                for f in state.get("facts", [])
            )
            return {"written": [], "skipped": [], "blocked": blocked, "moved": moved}
        for fact in state.get("facts", []):
            versions = self.store.list(namespace=namespace, key=fact.key, status=None)
            live = [v for v in versions if v.superseded_by is None]
            if any(v.content == fact.content for v in live):
                skipped.append({"key": fact.key, "content": fact.content, "reason": "unchanged"})
                continue
            if job and any(
                v.metadata.get("job") == job and v.content == fact.content for v in versions
            ):
                skipped.append(
                    {"key": fact.key, "content": fact.content, "reason": "already written"}
                )
                continue
            item = {
                "content": fact.content,
                "key": fact.key,
                "type": MemoryType.USER if fact.is_user_type else MemoryType.ENVIRONMENT,
                "tags": list(fact.tags),
                "importance": round(min(1.0, max(0.1, fact.confidence)), 4),
                "source": ProvenanceLevel.CONSOLIDATED,
                "source_session": session,
                "episode_id": episode.id if episode is not None else None,
                "metadata": {"kind": fact.kind, "confidence": fact.confidence}
                | ({"job": job} if job else {}),
                "status": "active" if fact.confidence >= threshold else "pending",
            }
            try:
                with self._no_auto_checks():
                    entry = self.store.add_many(
                        [item], namespace=namespace, path=WritePath.CONSOLIDATION
                    )[0]
            except MemoryWriteBlocked as exc:
                blocked.append(_blocked(fact.key, fact.content, exc))
                continue
            written.append(entry)
            moved.extend(
                {
                    "id": v.id,
                    "key": v.key,
                    "from": v.tier.value,
                    "to": MemoryTier.ARCHIVAL.value,
                    "why": f"superseded by {entry.id}",
                }
                for v in live
                if entry.status == "active"
            )
        return {"written": written, "skipped": skipped, "blocked": blocked, "moved": moved}

    # -- 4. contradictions ----------------------------------------------------------------------

    def contradictions(self, state: ConsolidationState) -> dict[str, Any]:
        """Check each written fact against the namespace's live SEMANTIC entries."""
        written = state.get("written", [])
        notes = list(state.get("notes", []))
        moved = list(state.get("moved", []))
        if not written:
            return {"conflicts": [], "notes": notes, "moved": moved}
        namespace = state.get("namespace", "default")
        from ..contradiction import LLMVerifier

        verifier = LLMVerifier(self.llm) if self.llm is not None else None
        handler = getattr(self.store, "check_contradictions", None)
        conflicts: list[dict[str, Any]] = []
        if handler is not None:
            records = handler([e.id for e in written], verifier=verifier, namespace=namespace)
            conflicts = [_conflict_dict(r) for r in records or []]
        else:
            # Adapter for a store without a resolver: detect and report only.
            from ..contradiction import detect_contradictions

            existing = self.store.list(
                namespace=namespace, tier=MemoryTier.SEMANTIC, include_superseded=False
            )
            for entry in written:
                for found in detect_contradictions(
                    entry, existing, verifier=verifier, config=self.store.config,
                    now=self.store.clock(),
                ):
                    conflicts.append(_conflict_dict(found))
            notes.append("contradictions detected and reported; the store has no resolver")
        ids = {c[k] for c in conflicts for k in ("entry_a_id", "entry_b_id") if c.get(k)}
        for entry_id in sorted(ids):
            after = self.store.get(entry_id, namespace=namespace)
            if after is not None and after.superseded_by is not None:
                moved.append({
                    "id": after.id, "key": after.key, "from": MemoryTier.SEMANTIC.value,
                    "to": after.tier.value, "why": f"lost a contradiction to {after.superseded_by}",
                })
        return {"conflicts": conflicts, "notes": notes, "moved": moved}

    # -- 5. decay -------------------------------------------------------------------------------

    def decay(self, state: ConsolidationState) -> dict[str, Any]:
        """Run the store's decay pass (archives entries below the threshold)."""
        moved = list(state.get("moved", []))
        notes = list(state.get("notes", []))
        decay_pass = getattr(self.store, "decay_pass", None)
        if decay_pass is None:
            notes.append("decay pass skipped: the store has no decay_pass")
            return {"moved": moved, "notes": notes}
        result = _call(decay_pass, namespace=state.get("namespace", "default"))
        for item in _as_list(result):
            moved.append(_moved_dict(item))
        return {"moved": moved, "notes": notes}


def _blocked(key: str, content: str, exc: MemoryWriteBlocked) -> dict[str, Any]:
    return {"key": key, "content": content, "reason": exc.reason, "rule": exc.rule}


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` with only the keyword arguments it accepts (adapters to sibling APIs)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn(*args)
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return fn(*args, **kwargs)
    return fn(*args, **{k: v for k, v in kwargs.items() if k in params})


def _as_list(result: Any) -> list[Any]:
    if result is None or isinstance(result, int | float):
        return []
    if isinstance(result, Mapping):
        for key in ("archived", "moved", "entries"):
            if isinstance(result.get(key), Sequence):
                return list(result[key])
        return []
    for attr in ("archived", "moved", "entries"):
        value = getattr(result, attr, None)
        if isinstance(value, Sequence) and not isinstance(value, str):
            return list(value)
    if isinstance(result, Sequence) and not isinstance(result, str):
        return list(result)
    return []


def _moved_dict(item: Any) -> dict[str, Any]:
    if isinstance(item, MemoryEntry):
        return {"id": item.id, "key": item.key, "from": MemoryTier.SEMANTIC.value,
                "to": item.tier.value, "why": "decay"}
    if isinstance(item, str):
        return {"id": item, "to": MemoryTier.ARCHIVAL.value, "why": "decay"}
    if isinstance(item, Mapping):
        return {"why": "decay", **dict(item)}
    return {"id": str(getattr(item, "id", item)), "why": "decay"}


def _conflict_dict(item: Any) -> dict[str, Any]:
    record = getattr(item, "contradiction", item)
    resolution = getattr(item, "resolution", None)
    out: dict[str, Any] = {
        "entry_a_id": getattr(record, "entry_a_id", None),
        "entry_b_id": getattr(record, "entry_b_id", None),
        "description": getattr(record, "description", ""),
        "confidence": getattr(record, "confidence", None),
        "resolution": getattr(record, "resolution", None),
    }
    if resolution is not None:
        out["winner_id"] = getattr(resolution, "winner_id", None)
        out["status"] = getattr(resolution, "status", None)
    return out
