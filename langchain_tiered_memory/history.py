"""`WorkingMemoryHistory`: the WORKING tier as a LangChain chat message history.

A per-session ring buffer of at most ``memory.workingCapacity`` messages, held in this process:
by default working memory dies with the process (what was consolidated survives, of course).
``persist=True`` also keeps the session's messages in the store (WORKING-tier entries that are
never recalled), so a restarted process picks the session up where it was. Histories built for
the same ``(store, namespace, session_id)`` share one buffer, so ``RunnableWithMessageHistory``'s
``get_session_history`` may build a fresh object per call. Messages pushed out of the ring are
kept aside for consolidation; `end_session` hands the whole session to the consolidation scheduler
(or records it as a durable job in the store), so nothing of value is lost.

Working memory is rendered into the system prompt, so it is a write path like any other: each
message is scanned on the way in, and one the injection scanner refuses is kept as a placeholder
(``[withheld by the memory scanner: <reason>]``), never verbatim.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage, SystemMessage

from .config import MemoryConfig
from .errors import InvalidInput
from .provenance import WritePath
from .security import scan_memory_content
from .types import MemoryTier

if TYPE_CHECKING:
    from .consolidation.scheduler import ConsolidationScheduler
    from .store import TieredMemoryStore
    from .store._jobs import Job

__all__ = [
    "WORKING_TAG",
    "WorkingMemoryHistory",
    "message_importance",
    "render_working_block",
    "withheld",
]

_HEADER = "## Working memory"
_ROLE = {"human": "User", "ai": "Assistant", "system": "System", "tool": "Tool"}
_ELLIPSIS = "…"
_MIN_PARTIAL = 12  # a cut line shorter than this carries no meaning; leave it out
WORKING_TAG = "working_memory"
"""Tag of the store entries that hold a persisted working buffer."""
_STATUS = "unindexed"  # stored for exact reads, never recalled
_KINDS: dict[str, type[BaseMessage]] = {
    "human": HumanMessage,
    "ai": AIMessage,
    "system": SystemMessage,
}


def message_importance(message: BaseMessage) -> float:
    """Importance of one message, 0..1.

    An explicit ``importance`` in ``additional_kwargs`` or ``response_metadata`` wins. Otherwise
    system messages score 0.9, and user messages are scored by the offline heuristic (facts,
    emphasis, entities, length) of `ingest.summary.score_importance`; assistant and tool messages
    get half of that, since what the user states is what memory keeps.
    """
    for source in (message.additional_kwargs, message.response_metadata):
        value = source.get("importance") if isinstance(source, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return max(0.0, min(1.0, float(value)))
    if message.type == "system":
        return 0.9
    text = message.text if isinstance(message.text, str) else str(message.content)
    if not text.strip():
        return 0.0
    from .ingest.summary import score_importance

    score = score_importance(text)
    return score if message.type == "human" else round(score / 2, 4)


def _line(message: BaseMessage) -> str:
    text = message.text if isinstance(message.text, str) else str(message.content)
    role = _ROLE.get(message.type, message.type.title())
    return f"- **{role}**: {' '.join(text.split())}"


def render_working_block(
    messages: Sequence[BaseMessage], budget: int, importances: Sequence[float] | None = None
) -> str:
    """Markdown for the WORKING tier, at most ``budget`` characters (``len`` of the string).

    Everything is kept in order when it fits. Otherwise lines are taken by importance, highest
    first (ties: the more recent first), while they fit whole; the first line that does not fit
    is cut with an ellipsis to the space left (when at least a few characters remain), and the
    lines kept are printed in conversation order.

    Args:
        messages: The buffer, oldest first.
        budget: Character budget of the whole block, header included.
        importances: One score per message (default: `message_importance`).

    Returns:
        The block, or "" when nothing fits.
    """
    if not messages or budget <= len(_HEADER):
        return ""
    scores = (
        list(importances) if importances is not None else [message_importance(m) for m in messages]
    )
    lines = [_line(m) for m in messages]
    full = "\n".join([_HEADER, *lines])
    if len(full) <= budget:
        return full
    order = sorted(range(len(lines)), key=lambda i: (-scores[i], -i))
    room = budget - len(_HEADER)
    chosen: dict[int, str] = {}
    for i in order:
        need = len(lines[i]) + 1  # the newline before it
        if need <= room:
            chosen[i] = lines[i]
            room -= need
            continue
        if room - 1 >= _MIN_PARTIAL:
            chosen[i] = lines[i][: room - 1 - len(_ELLIPSIS)] + _ELLIPSIS
        break
    if not chosen:
        return ""
    return "\n".join([_HEADER, *(chosen[i] for i in sorted(chosen))])


@dataclass
class _Buffer:
    ring: deque[BaseMessage]
    spilled: list[BaseMessage] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    seq: int = 0  # next sequence number of a persisted message


def withheld(message: BaseMessage, classifier: Any = None) -> BaseMessage:
    """The message, or a placeholder of the same role when the injection scanner refuses it."""
    text = message.text if isinstance(message.text, str) else str(message.content)
    if not text.strip():
        return message
    verdict = scan_memory_content(text, classifier=classifier)
    if not verdict.blocked:
        return message
    placeholder = f"[withheld by the memory scanner: {verdict.reason}]"
    return _message(message.type, placeholder)


def _message(role: str, text: str) -> BaseMessage:
    kind = _KINDS.get(role)
    return kind(content=text) if kind is not None else ChatMessage(role=role, content=text)


# Buffers are shared by every history object of the same (store, namespace, session), since
# RunnableWithMessageHistory builds a new one per call. Keyed weakly by the store, so a closed and
# dropped store takes its buffers with it (and a new store at a recycled address gets none).
_REGISTRY: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], _Buffer]] = (
    weakref.WeakKeyDictionary()
)
_NO_STORE = type("_NoStore", (), {})()  # the owner of buffers of histories without a store
_REGISTRY_LOCK = threading.Lock()


class WorkingMemoryHistory(BaseChatMessageHistory):
    """The WORKING tier: a per-session ring buffer that LangChain uses as chat history.

    Example:
        >>> history = WorkingMemoryHistory("s1", store=store, namespace="alice",
        ...                                scheduler=scheduler)  # doctest: +SKIP
        >>> chain = RunnableWithMessageHistory(model, lambda sid: WorkingMemoryHistory(
        ...     sid, store=store, namespace="alice", scheduler=scheduler))  # doctest: +SKIP
        >>> history.render()  # markdown for the system message  # doctest: +SKIP
        >>> history.end_session()  # consolidation runs in the background  # doctest: +SKIP

    Args:
        session_id: The conversation.
        store: The `TieredMemoryStore` consolidation writes to (and whose config is used).
        namespace: Whose memory.
        config: Overrides the store's config (``working_capacity``, ``working_char_budget``,
            ``consolidation_idle_seconds``).
        scheduler: A `ConsolidationScheduler`; session end (and idle time) hand the session to it.
        persist: Keep the session's messages in the store too (needs ``store``), so the buffer
            survives a restart; `end_session` and `clear` remove them.
    """

    def __init__(
        self,
        session_id: str,
        *,
        store: TieredMemoryStore | None = None,
        namespace: str = "default",
        config: MemoryConfig | None = None,
        scheduler: ConsolidationScheduler | None = None,
        persist: bool = False,
    ) -> None:
        if not isinstance(session_id, str) or not session_id:
            raise InvalidInput("session_id", "must be a non-empty string")
        if persist and store is None:
            raise InvalidInput("persist", "persist=True needs a store to persist to")
        self.persist = persist
        self.session_id = session_id
        self.store = store
        self.namespace = namespace
        self.config = config or getattr(store, "config", None) or MemoryConfig()
        self.scheduler = scheduler
        key = (namespace, session_id)
        with _REGISTRY_LOCK:
            buffers = _REGISTRY.setdefault(store if store is not None else _NO_STORE, {})
            buffer = buffers.get(key)
            if buffer is None:
                buffer = buffers[key] = _Buffer(deque(maxlen=self.config.working_capacity))
                if persist:
                    self._load(buffer)
        self._key = key
        self._buffer = buffer

    # -- BaseChatMessageHistory ---------------------------------------------------------------

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The buffered messages, oldest first (at most ``working_capacity``)."""
        with self._buffer.lock:
            return list(self._buffer.ring)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append messages; the oldest fall out of the ring (and are kept for consolidation).

        Each message is scanned first; one the scanner refuses is kept as a placeholder.

        Raises:
            MemoryWriteBlocked: ``persist=True`` and the store refused a message (PII policy
                ``block``); nothing of the call was added.
        """
        classifier = getattr(self.store, "classifier", None)
        messages = [withheld(m, classifier) for m in messages]
        with self._buffer.lock:
            if self.persist:
                self._save(messages)
            ring = self._buffer.ring
            for message in messages:
                if ring.maxlen is not None and len(ring) == ring.maxlen:
                    self._buffer.spilled.append(ring[0])
                ring.append(message)
        self._arm_idle()

    def clear(self) -> None:
        """Forget the session's messages without consolidating them."""
        with self._buffer.lock:
            self._buffer.ring.clear()
            self._buffer.spilled.clear()
            if self.persist:
                self._forget()

    async def aget_messages(self) -> list[BaseMessage]:
        """Async twin of `messages` (in memory: no thread hop)."""
        return self.messages

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Async twin of `add_messages`."""
        self.add_messages(messages)

    async def aclear(self) -> None:
        """Async twin of `clear`."""
        self.clear()

    # -- WORKING tier -------------------------------------------------------------------------

    def render(self, budget: int | None = None) -> str:
        """The buffer as markdown for the system message, within ``memory.workingCharBudget``.

        Over budget, lines are kept by importance (highest first) and shown in order; see
        `render_working_block`.
        """
        limit = self.config.working_char_budget if budget is None else budget
        return render_working_block(self.messages, limit)

    def transcript(self) -> list[BaseMessage]:
        """Every message of the session not yet handed to consolidation (spilled + buffered)."""
        with self._buffer.lock:
            return [*self._buffer.spilled, *self._buffer.ring]

    def end_session(self, *, wait: bool = False) -> Job | None:
        """Hand the session to consolidation and empty the buffer.

        With a scheduler, consolidation is recorded as a durable job in the store and run in the
        background; without one, the job is only recorded (any scheduler's ``resume`` picks it
        up later). Calling it twice, or from two threads, consolidates the session once.

        Args:
            wait: Block until the scheduler has finished (tests, scripts).

        Returns:
            The store `Job`, or None when there was nothing to consolidate or no store.
        """
        with self._buffer.lock:
            messages = [*self._buffer.spilled, *self._buffer.ring]
            self._buffer.ring.clear()
            self._buffer.spilled.clear()
        self._disarm_idle()
        if not messages or self.store is None:
            return None
        from .consolidation.jobs import enqueue_session

        if self.scheduler is not None:
            job: Job = self.scheduler.schedule_session(
                self.store, self.namespace, self.session_id, messages
            )
        else:
            job = enqueue_session(self.store, self.namespace, self.session_id, messages)[0]
        # The session is a durable job in the store now: its persisted buffer can go.
        if self.persist:
            with self._buffer.lock:
                self._forget()
        if wait and self.scheduler is not None:
            self.scheduler.drain()
        return job

    async def aend_session(self, *, wait: bool = False) -> Job | None:
        """Async twin of `end_session`."""
        from .store._async import run_sync

        return await run_sync(self.end_session, wait=wait)

    # -- persistence --------------------------------------------------------------------------

    def _entries(self) -> list[Any]:
        assert self.store is not None
        found = self.store.list(
            namespace=self.namespace,
            tier=MemoryTier.WORKING,
            tags=[WORKING_TAG],
            status=_STATUS,
            include_superseded=False,
        )
        mine = [e for e in found if e.source_session == self.session_id]
        return sorted(mine, key=lambda e: int(e.metadata.get("working", {}).get("seq", 0)))

    def _load(self, buffer: _Buffer) -> None:
        entries = self._entries()
        messages = [_message(str(e.metadata["working"]["role"]), e.content) for e in entries]
        cut = max(0, len(messages) - (buffer.ring.maxlen or len(messages)))
        buffer.spilled.extend(messages[:cut])
        buffer.ring.extend(messages[cut:])
        if entries:
            buffer.seq = int(entries[-1].metadata["working"]["seq"]) + 1

    def _save(self, messages: Sequence[BaseMessage]) -> None:
        assert self.store is not None
        items = []
        for i, message in enumerate(messages):
            text = message.text if isinstance(message.text, str) else str(message.content)
            if not text.strip():
                continue
            items.append(
                {
                    "content": text,
                    "tier": MemoryTier.WORKING,
                    "tags": [WORKING_TAG],
                    "source_session": self.session_id,
                    "metadata": {"working": {"role": message.type, "seq": self._buffer.seq + i}},
                    "status": _STATUS,
                }
            )
        if items:
            # One transaction, scanned and PII-checked by the store like every other write.
            self.store.add_many(items, namespace=self.namespace, path=WritePath.API)
        self._buffer.seq += len(messages)

    def _forget(self) -> None:
        assert self.store is not None
        for entry in self._entries():
            self.store.delete(entry.id, namespace=self.namespace, path=WritePath.API)

    # -- idle trigger -------------------------------------------------------------------------

    def _idle_key(self) -> tuple[str, str, str]:
        return ("idle", self.namespace, self.session_id)

    def _arm_idle(self) -> None:
        if self.scheduler is None or self.store is None:
            return
        arm = getattr(self.scheduler, "on_idle", None)
        if arm is not None:
            arm(self._idle_key(), self.end_session, self.config.consolidation_idle_seconds)

    def _disarm_idle(self) -> None:
        cancel = getattr(self.scheduler, "cancel_idle", None)
        if cancel is not None:
            cancel(self._idle_key())
