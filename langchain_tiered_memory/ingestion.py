"""The one ingestion service: conversations → episode + facts → guarded writes.

The file importer, the REST ingest and the consolidation pipeline all learn from chat through
`Ingestion`, so a conversation gives the same memories whichever way it arrives. The rules:

- **Episode.** One EPISODIC episode per conversation (extractive summary, or the chat model's
  when ``llm_summaries``). An episode already stored under the same session key with the same
  digest (SHA-256 of the extractive summary) is the same episode: it is reused, not written again,
  so a resumed import or a re-run consolidation job writes nothing twice.
- **Facts.** The user's durable statements (chat model with fallback, else heuristics). Within one
  conversation a later statement on a key is the newer version: only the last is kept. At most
  ``memory.maxFactsPerEpisode`` per conversation, the most confident, in conversation order.
- **Importance.** `fact_importance`: ``0.3 + 0.6 · confidence``, so a fact starts between 0.3 and
  0.9: never so low that a decay pass archives it before anyone reviewed it, never at the top of
  the scale, which stays for what the user states.
- **Pending.** A fact below the confidence threshold is written ``pending`` with its key held in
  ``metadata["proposed_key"]``: it supersedes nothing until `approve` gives it that key.
- **Duplicates.** A fact whose key already holds the same statement (live, or pending under the
  same proposed key) is skipped; so is one older than the statement its key holds.
- **Refused episode.** When the scanner or the PII policy refuses a conversation's episode, its
  facts are dropped with it: a conversation caught carrying an injection is not trusted for facts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from .config import MemoryConfig
from .ingest.extraction import ExtractedFact, MessageLike, as_role_text, extract_facts
from .ingest.llm import extract_facts_llm, summarize_llm
from .ingest.messages import Conversation, NormalizedMessage, normalize_role
from .ingest.summary import extract_entities, score_importance, summarize
from .provenance import WritePath
from .types import Episode, MemoryEntry, MemoryTier, MemoryType, ProvenanceLevel, new_id

if TYPE_CHECKING:
    from .store._sources import BatchResult

__all__ = [
    "ConversationPlan",
    "IngestOptions",
    "IngestOutcome",
    "Ingestion",
    "IngestionStore",
    "SkippedFact",
    "fact_importance",
    "session_conversation",
]

_MAX_KEY = 480
_SUMMARY_CHARS = 600
_MAX_ENTITIES = 12


def fact_importance(confidence: float) -> float:
    """The importance an extracted fact starts with: ``0.3 + 0.6 · confidence`` (0.3 to 0.9)."""
    return round(min(0.9, max(0.3, 0.3 + 0.6 * float(confidence))), 4)


class IngestionStore(Protocol):
    """What the ingestion service needs of a store (`TieredMemoryStore` provides it)."""

    @property
    def config(self) -> MemoryConfig: ...

    def clock(self) -> datetime: ...

    def episode_ids_for_sessions(
        self, session_keys: Iterable[str], *, namespace: str
    ) -> dict[str, str]: ...

    def list_episodes(self, *, namespace: str = ..., session_key: str | None = ...) -> list[Episode]: ...

    def current_contents(self, keys: Iterable[str], *, namespace: str) -> dict[str, MemoryEntry]: ...

    def pending_with_contents(
        self, contents: Iterable[str], *, namespace: str
    ) -> list[MemoryEntry]: ...

    def write_import_batch(
        self,
        episodes: Sequence[Episode],
        facts: Sequence[Mapping[str, Any]],
        *,
        namespace: str,
        path: WritePath = ...,
    ) -> BatchResult: ...


def session_conversation(session_id: str, messages: Sequence[MessageLike]) -> Conversation:
    """An agent session (LangChain messages, ``(role, text)`` pairs...) as one `Conversation`,
    its id the session id; messages of an unknown role are left out."""
    out: list[NormalizedMessage] = []
    for item in messages:
        role_name, text = as_role_text(item)
        role = normalize_role(role_name)
        if role is not None:
            out.append(NormalizedMessage(role, text, None, session_id, "session", len(out)))
    return Conversation(session_id, "session", None, tuple(out))


def _import_session_key(conv: Conversation) -> str:
    return f"import:{conv.platform}:{conv.id}"[:255]


@dataclass(frozen=True, slots=True, kw_only=True)
class IngestOptions:
    """How one ingestion run writes.

    Attributes:
        namespace: Whose memory.
        path: The write path (``IMPORT`` or ``CONSOLIDATION``): its provenance ceiling and actor.
        confidence_threshold: Facts at or above it are active, below it pending review; None
            takes ``memory.factConfidenceThreshold``.
        llm: A LangChain chat model for fact extraction (falls back to heuristics on failure).
        llm_summaries: Also summarise episodes with ``llm`` (falls back to the extractive summary).
        session_key: The episode's session key for a conversation.
        fact_tags: Tags added to every fact of a conversation (besides the fact's own).
        episode_metadata: Added to every episode's metadata (an import's file digest, a job id).
        fact_metadata: Added to every fact's metadata.
    """

    namespace: str = "default"
    path: WritePath = WritePath.IMPORT
    confidence_threshold: float | None = None
    llm: Any = None
    llm_summaries: bool = False
    session_key: Callable[[Conversation], str] = _import_session_key
    fact_tags: Callable[[Conversation], Sequence[str]] = lambda conv: ()
    episode_metadata: Mapping[str, Any] = field(default_factory=dict)
    fact_metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConversationPlan:
    """One conversation, ready to write: its episode (None when there is nothing to summarise),
    whether that episode is already stored, and its facts after the per-conversation rules."""

    conversation: Conversation
    episode: Episode | None
    stored: bool
    summary_source: str
    facts: tuple[ExtractedFact, ...]
    over_cap: int


@dataclass(frozen=True, slots=True)
class SkippedFact:
    """A fact not written: ``reason`` is ``unchanged`` (its key holds the same statement),
    ``pending`` (the same statement waits for review) or ``stale`` (its key holds a newer one)."""

    conversation_id: str
    key: str
    content: str
    reason: str


@dataclass(frozen=True, slots=True)
class IngestOutcome:
    """What one `Ingestion.write` did.

    Attributes:
        episodes: Episodes written (reused ones are not listed).
        entries: Facts written, active or pending.
        skipped: Facts not written, with the reason.
        refused_episodes: ``(conversation_id, episode, reason)`` for every refused episode.
        refused_facts: ``(conversation_id, key, content, reason)`` for every refused fact (those
            of a refused episode included).
        superseded: ``(previous live entry, id of the fact that replaced it)``.
        over_cap: Facts dropped over ``memory.maxFactsPerEpisode``.
    """

    episodes: tuple[Episode, ...] = ()
    entries: tuple[MemoryEntry, ...] = ()
    skipped: tuple[SkippedFact, ...] = ()
    refused_episodes: tuple[tuple[str, Episode, str], ...] = ()
    refused_facts: tuple[tuple[str, str, str, str], ...] = ()
    superseded: tuple[tuple[MemoryEntry, str], ...] = ()
    over_cap: int = 0


class Ingestion:
    """Conversations in, episodes and facts written through the store's guarded batch path.

    Example:
        >>> service = Ingestion(store, IngestOptions(namespace="alice"))  # doctest: +SKIP
        >>> for outcome in service.ingest(conversations):  # doctest: +SKIP
        ...     print(len(outcome.entries))

    Args:
        store: Where to write (see `IngestionStore`).
        options: How (see `IngestOptions`).
    """

    def __init__(self, store: IngestionStore, options: IngestOptions) -> None:
        self.store = store
        self.options = options
        config = store.config
        self.threshold = (
            config.fact_confidence_threshold
            if options.confidence_threshold is None
            else options.confidence_threshold
        )
        # key -> (lower-cased statement, event time) of the latest active statement seen or stored
        self._latest: dict[str, tuple[str, float]] = {}

    @property
    def extractor(self) -> str:
        """``llm`` or ``heuristic``."""
        return "llm" if self.options.llm is not None else "heuristic"

    # -- whole runs -----------------------------------------------------------------------------

    def ingest(
        self, conversations: Iterable[Conversation], *, batch_size: int = 200
    ) -> Iterator[IngestOutcome]:
        """Plan and write ``conversations`` in batches of ``batch_size`` (one transaction per
        batch for episodes and one for facts); yield each batch's outcome as it is written."""
        batch: list[Conversation] = []
        for conv in conversations:
            batch.append(conv)
            if len(batch) >= batch_size:
                yield self.write(self.plan(batch))
                batch = []
        if batch:
            yield self.write(self.plan(batch))

    # -- the steps ------------------------------------------------------------------------------

    def plan(self, conversations: Sequence[Conversation]) -> list[ConversationPlan]:
        """Summarise and extract each conversation; find the episodes already stored."""
        plans: list[ConversationPlan] = []
        for conv in conversations:
            if not conv.messages:
                continue
            facts, over, _ = self.facts(conv)
            episode, source = self.episode(conv, facts)
            plans.append(ConversationPlan(conv, episode, False, source, facts, over))
        return self._mark_stored(plans)

    def stored_episode(self, episode: Episode) -> Episode | None:
        """The stored episode that is the same as ``episode``, if any (see the module's rules)."""
        return self._stored([episode])[0]

    def facts(self, conv: Conversation) -> tuple[tuple[ExtractedFact, ...], int, str]:
        """The conversation's facts after the per-conversation rules, how many the cap cut, and
        where they came from (``llm``, or ``heuristic`` also when the chat model failed)."""
        llm = self.options.llm
        found = extract_facts(conv.messages)
        source = "heuristic"
        if llm is not None:
            timeout = float(self.store.config.llm_timeout_seconds)
            answer = extract_facts_llm(conv.messages, llm, timeout=timeout)
            # The model's fallback is the heuristics: the same facts mean it failed.
            if answer != found:
                found, source = answer, "llm"
        last: dict[str, ExtractedFact] = {}
        for fact in found:
            last.pop(fact.key, None)
            last[fact.key] = fact
        kept = list(last.values())
        cap = self.store.config.max_facts_per_episode
        if len(kept) <= cap:
            return tuple(kept), 0, source
        # A conversation that yields hundreds of "facts" is a dump, not a chat: the most
        # confident ones are kept, in conversation order.
        best = sorted(range(len(kept)), key=lambda i: -kept[i].confidence)[:cap]
        return tuple(kept[i] for i in sorted(best)), len(kept) - cap, source

    def episode(
        self, conv: Conversation, facts: Sequence[ExtractedFact] = ()
    ) -> tuple[Episode | None, str]:
        """The conversation's episode (not yet written) and where its summary came from."""
        extractive = summarize(conv.messages, max_chars=_SUMMARY_CHARS).strip()
        summary, source = extractive, "extractive"
        if self.options.llm is not None and self.options.llm_summaries and extractive:
            timeout = float(self.store.config.llm_timeout_seconds)
            summary = summarize_llm(
                conv.messages, self.options.llm, max_chars=_SUMMARY_CHARS, timeout=timeout
            ).strip()
            source = "extractive" if summary == extractive else "llm"
        if not summary:
            summary, source = (conv.title or "").strip(), "title"
        if not summary:
            return None, "none"
        meta: dict[str, Any] = {
            "platform": conv.platform,
            "conversation_id": conv.id,
            "messages": len(conv.messages),
            "digest": hashlib.sha256(extractive.encode("utf-8")).hexdigest()[:16],
            "summary_source": source,
            **self.options.episode_metadata,
        }
        if conv.title:
            meta["title"] = conv.title
        entities = extract_entities(conv.messages)
        importance = score_importance(conv.messages, facts=list(facts), entities=entities)
        episode = Episode(
            session_key=self.options.session_key(conv),
            summary=summary,
            message_range_start=0,
            message_range_end=len(conv.messages) - 1,
            entity_ids=tuple(entities[:_MAX_ENTITIES]),
            importance=min(1.0, max(0.0, importance)),
            namespace=self.options.namespace,
            created_at=self.store.clock(),
            event_at=conv.messages[0].timestamp or conv.created_at,
            metadata=meta,
            id=new_id(self.options.namespace),
        )
        return episode, source

    def _mark_stored(self, plans: list[ConversationPlan]) -> list[ConversationPlan]:
        stored = self._stored([p.episode for p in plans])
        return [
            plan if found is None else replace(plan, episode=found, stored=True)
            for plan, found in zip(plans, stored, strict=True)
        ]

    def _stored(self, episodes: Sequence[Episode | None]) -> list[Episode | None]:
        """For each episode, the stored one with its session key and digest (one query for the
        keys, then one per key that has episodes)."""
        ns = self.options.namespace
        keys = {ep.session_key for ep in episodes if ep is not None}
        found = self.store.episode_ids_for_sessions(keys, namespace=ns) if keys else {}
        out: list[Episode | None] = []
        for ep in episodes:
            match = None
            if ep is not None and ep.session_key in found:
                for existing in self.store.list_episodes(namespace=ns, session_key=ep.session_key):
                    # Episodes imported before digests were recorded match on the key alone.
                    digest = existing.metadata.get("digest")
                    if digest is None or digest == ep.metadata["digest"]:
                        match = existing
                        break
            out.append(match)
        return out

    def write(self, plans: Sequence[ConversationPlan]) -> IngestOutcome:
        """Write the plans' new episodes and their facts through the guarded batch path."""
        ns = self.options.namespace
        episodes = [p.episode for p in plans if p.episode is not None and not p.stored]
        candidates = [(p, f) for p in plans for f in p.facts]
        keys = {_key(f) for _, f in candidates}
        known = self.store.current_contents(
            {k for k in keys if k not in self._latest}, namespace=ns
        )
        for key, entry in known.items():
            when = entry.event_at or entry.created_at
            self._latest[key] = (entry.content.strip().lower(), when.timestamp())
        waiting = {
            (str(e.metadata.get("proposed_key")), e.content.strip().lower())
            for e in self.store.pending_with_contents(
                {f.content for _, f in candidates}, namespace=ns
            )
        }
        items: list[dict[str, Any]] = []
        owners: list[tuple[str, ExtractedFact]] = []
        skipped: list[SkippedFact] = []
        for plan, fact in candidates:
            conv = plan.conversation
            reason = self._skip_reason(conv, fact, waiting)
            if reason:
                skipped.append(SkippedFact(conv.id, _key(fact), fact.content, reason))
                continue
            items.append(self._item(conv, plan.episode, fact))
            owners.append((conv.id, fact))
        result = self.store.write_import_batch(episodes, items, namespace=ns, path=self.options.path)
        refused_eps = tuple(
            (str(episodes[i].metadata["conversation_id"]), episodes[i], reason)
            for i, reason in result.refused_episodes
        )
        refused_facts = tuple(
            (owners[i][0], _key(owners[i][1]), owners[i][1].content, reason)
            for i, reason in result.refused_facts
        )
        superseded: list[tuple[MemoryEntry, str]] = []
        for entry in result.entries:
            previous = known.pop(entry.key, None) if entry.status == "active" else None
            if previous is not None:
                superseded.append((previous, entry.id))
        return IngestOutcome(
            tuple(result.episodes), tuple(result.entries), tuple(skipped), refused_eps,
            refused_facts, tuple(superseded), sum(p.over_cap for p in plans),
        )

    def _skip_reason(
        self, conv: Conversation, fact: ExtractedFact, waiting: set[tuple[str, str]]
    ) -> str:
        key, text = _key(fact), fact.content.strip().lower()
        if (key, text) in waiting:
            return "pending"
        when = _fact_time(conv, fact)
        latest = self._latest.get(key)
        if latest is not None:
            if latest[0] == text:
                return "unchanged"
            if when is not None and latest[1] > when.timestamp():
                # Exports list conversations newest first: an older statement never overrides.
                return "stale"
        if fact.confidence >= self.threshold:
            self._latest[key] = (text, when.timestamp() if when else 0.0)
        else:
            waiting.add((key, text))
        return ""

    def _item(
        self, conv: Conversation, episode: Episode | None, fact: ExtractedFact
    ) -> dict[str, Any]:
        # Kept small: every metadata string is scanned. The episode carries the source's details.
        metadata: dict[str, Any] = {
            "kind": fact.kind,
            "confidence": round(float(fact.confidence), 4),
            "message_index": fact.source_index,
            **self.options.fact_metadata,
        }
        if fact.evidence and fact.evidence != fact.content:
            metadata["evidence"] = fact.evidence[:500]
        tags = [t for t in fact.tags if isinstance(t, str) and t.strip()]
        return {
            "content": fact.content,
            # A pending fact's key is held as its proposed key by the store (see `approve`).
            "key": _key(fact),
            "type": MemoryType.USER if fact.is_user_type else MemoryType.ENVIRONMENT,
            "tier": MemoryTier.SEMANTIC,
            "tags": list(dict.fromkeys([*tags, *self.options.fact_tags(conv)])),
            "importance": fact_importance(fact.confidence),
            "source": ProvenanceLevel.CONSOLIDATED,
            "source_session": conv.id[:255],
            "episode_id": episode.id if episode is not None else None,
            "metadata": metadata,
            "event_at": _fact_time(conv, fact),
            "status": "active" if fact.confidence >= self.threshold else "pending",
        }


def _key(fact: ExtractedFact) -> str:
    return fact.key.strip()[:_MAX_KEY] or "fact"


def _fact_time(conv: Conversation, fact: ExtractedFact) -> datetime | None:
    if 0 <= fact.source_index < len(conv.messages):
        stamp = conv.messages[fact.source_index].timestamp
        if stamp is not None:
            return stamp
    return conv.created_at
