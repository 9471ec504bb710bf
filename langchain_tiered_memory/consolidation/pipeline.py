"""The sleep-time pipeline's steps: facts → episode → guarded writes → contradictions → decay.

The session is one `Conversation` for the ingestion service (`langchain_tiered_memory.ingestion`),
which the file importer and the REST ingest use too: the same episode, facts, importance, pending
and refusal rules whichever way a conversation arrives. Each step reads and returns a slice of
`ConsolidationState`, so the compiled graph's final state says what happened: the episode, the
facts found, which were written, skipped or blocked, the conflicts found, and what moved between
tiers.

Re-running a job is harmless: the session's episode with the same content is reused, and a fact
whose key already holds (or whose review queue already holds) the same statement is skipped, so a
job resumed after a crash writes nothing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, TypedDict

from langchain_core.messages import convert_to_messages

from ..contradiction import LLMVerifier
from ..ingest.extraction import ExtractedFact
from ..ingest.messages import Conversation
from ..ingestion import ConversationPlan, Ingestion, IngestOptions, session_conversation
from ..provenance import WritePath
from ..types import Contradiction, Episode, MemoryEntry, MemoryTier
from .protocol import ConsolidationStore

logger = logging.getLogger("langchain_tiered_memory")

__all__ = ["ConsolidationState", "Steps"]


class ConsolidationState(TypedDict, total=False):
    """What the consolidation graph reads and writes (inspect it after ``invoke``).

    Input: ``namespace``, ``session_id``, ``messages`` and optionally ``job_id``.
    Output: ``episode`` (or ``episode_skipped``; ``episode_stored`` when this session's episode
    was already in the store), ``summary_source`` (llm | extractive | existing), ``facts``,
    ``facts_over_cap`` and ``fact_source`` (llm | heuristic), ``written`` entries (active, or
    pending review), ``skipped`` facts (``unchanged``, ``pending`` or ``stale``) and ``blocked``
    ones (with the reason), ``conflicts`` found, ``moved`` (entries that changed tier: versions an
    active fact superseded, contradiction losers and decay-pass archivals) and ``notes``.
    """

    namespace: str
    session_id: str
    job_id: str
    messages: list[Any]
    episode: Episode | None
    episode_stored: bool
    episode_skipped: str
    summary_source: str
    facts: list[ExtractedFact]
    facts_over_cap: int
    fact_source: str
    written: list[MemoryEntry]
    skipped: list[dict[str, Any]]
    blocked: list[dict[str, Any]]
    conflicts: list[dict[str, Any]]
    moved: list[dict[str, Any]]
    notes: list[str]


def _conversation(state: Mapping[str, Any]) -> Conversation:
    raw = state.get("messages") or []
    return session_conversation(
        state.get("session_id", ""), list(convert_to_messages(list(raw)))
    )


class Steps:
    """The pipeline's steps, bound to a store and an optional chat model."""

    def __init__(self, store: ConsolidationStore, llm: Any = None) -> None:
        self.store = store
        self.llm = llm

    def _service(self, state: Mapping[str, Any]) -> Ingestion:
        job = state.get("job_id") or ""
        return Ingestion(self.store, IngestOptions(
            namespace=state.get("namespace", "default"),
            path=WritePath.CONSOLIDATION,
            llm=self.llm,
            llm_summaries=True,
            session_key=lambda conv: conv.id,
            episode_metadata={"job": job},
            fact_metadata={"job": job} if job else {},
        ))

    # -- 1. facts -------------------------------------------------------------------------------

    def extract(self, state: ConsolidationState) -> dict[str, Any]:
        """Find durable facts (chat model with structured output, else heuristics)."""
        conv = _conversation(state)
        notes = list(state.get("notes", []))
        if not conv.messages:
            return {"facts": [], "fact_source": "none", "notes": notes}
        facts, over, source = self._service(state).facts(conv)
        if over:
            notes.append(f"{over} facts over memory.maxFactsPerEpisode dropped")
        return {"facts": list(facts), "fact_source": source, "notes": notes,
                "facts_over_cap": over}

    # -- 2. episode -----------------------------------------------------------------------------

    def episode(self, state: ConsolidationState) -> dict[str, Any]:
        """Summarise the session into an Episode (chat model, else extractive); an episode this
        session already stored with the same content is reused."""
        conv = _conversation(state)
        if not conv.messages:
            return {"episode": None, "episode_skipped": "no messages"}
        service = self._service(state)
        episode, source = service.episode(conv, state.get("facts", []))
        if episode is None:
            return {"episode": None, "episode_skipped": "nothing to summarise"}
        stored = service.stored_episode(episode)
        if stored is not None:
            return {"episode": stored, "episode_stored": True, "summary_source": "existing"}
        return {"episode": episode, "episode_stored": False, "summary_source": source}

    # -- 3. guarded writes ----------------------------------------------------------------------

    def write(self, state: ConsolidationState) -> dict[str, Any]:
        """Write the episode and each fact (SEMANTIC, source=consolidated) through the ingestion
        service's guarded batch path; report what was written, skipped, blocked and moved."""
        conv = _conversation(state)
        blocked = list(state.get("blocked", []))
        moved = list(state.get("moved", []))
        plan = ConversationPlan(
            conv, state.get("episode"), bool(state.get("episode_stored")),
            state.get("summary_source", ""), tuple(state.get("facts", [])),
            int(state.get("facts_over_cap", 0)),
        )
        # The contradiction step checks the written facts itself (and reports what it found);
        # checks on every write would otherwise consume those pairs first.
        with self.store.suspend_checks():
            outcome = self._service(state).write([plan])
        out: dict[str, Any] = {}
        for _, episode, reason in outcome.refused_episodes:
            out |= {"episode": None, "episode_skipped": f"blocked: {reason}"}
            blocked.append({"key": "episode", "content": episode.summary, "reason": reason,
                            "rule": None})
        for _, key, content, reason in outcome.refused_facts:
            rule = "episode_refused" if reason.startswith("episode refused") else None
            blocked.append({"key": key, "content": content, "reason": reason, "rule": rule})
        moved.extend(
            {"id": old.id, "key": old.key, "from": old.tier.value,
             "to": MemoryTier.ARCHIVAL.value, "why": f"superseded by {new_id}"}
            for old, new_id in outcome.superseded
        )
        skipped = [{"key": s.key, "content": s.content, "reason": s.reason}
                   for s in outcome.skipped]
        return out | {"written": list(outcome.entries), "skipped": skipped, "blocked": blocked,
                      "moved": moved}

    # -- 4. contradictions ----------------------------------------------------------------------

    def contradictions(self, state: ConsolidationState) -> dict[str, Any]:
        """Check each written fact against the namespace's live SEMANTIC entries and resolve."""
        written = state.get("written", [])
        notes = list(state.get("notes", []))
        moved = list(state.get("moved", []))
        if not written:
            return {"conflicts": [], "notes": notes, "moved": moved}
        namespace = state.get("namespace", "default")
        verifier = LLMVerifier(self.llm) if self.llm is not None else None
        records = self.store.check_contradictions(
            [e.id for e in written], verifier=verifier, namespace=namespace
        )
        conflicts = [_conflict_dict(r) for r in records]
        ids = {c[k] for c in conflicts for k in ("entry_a_id", "entry_b_id")}
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
        report = self.store.decay_pass(namespace=state.get("namespace", "default"))
        moved.extend(
            {"id": entry_id, "to": MemoryTier.ARCHIVAL.value, "why": "decay"}
            for entry_id in report.archived
        )
        return {"moved": moved, "notes": list(state.get("notes", []))}


def _conflict_dict(record: Contradiction) -> dict[str, Any]:
    return {
        "entry_a_id": record.entry_a_id,
        "entry_b_id": record.entry_b_id,
        "description": record.description,
        "confidence": record.confidence,
        "resolution": record.resolution,
    }
