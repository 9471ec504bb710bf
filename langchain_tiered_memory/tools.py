"""LangChain tools that let an agent manage its own long-term memory.

`create_memory_tools` returns five tools: save, search, update, forget and request-pin. Every write
goes through the store's guarded write path as `WritePath.AGENT_TOOL` with ``model_inferred``
provenance, so an agent can never overwrite what the user stated or what consolidation
established; a refused write comes back to the model as the tool's answer, saying why.
Forgetting archives (reversible, never a hard delete) and, like updating, cannot touch what the
user stated or consolidation established: "forget that" about such an entry needs the user's
confirmation, after which the application calls ``store.archive(id, confirmed_by_user=True)``.
Pinning is the user's decision, so the agent can only file a request (`list_pin_requests` shows them, `TieredMemoryStore.pin` grants).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel, ConfigDict, Field

from .errors import (
    EntryNotFound,
    IllegalTransition,
    InvalidInput,
    MemoryWriteBlocked,
    TieredMemoryError,
)
from .provenance import WritePath
from .scope import namespace_in_run
from .store import TieredMemoryStore
from .store._async import run_sync
from .types import MemoryEntry, MemoryTier, ProvenanceLevel, SearchHit

__all__ = [
    "ForgetMemoryTool",
    "RequestPinTool",
    "SaveMemoryTool",
    "SearchMemoryTool",
    "UpdateMemoryTool",
    "create_memory_tools",
    "list_pin_requests",
]

NamespaceSpec = str | Sequence[str] | Callable[[RunnableConfig], str]
"""A fixed namespace, a template filled from the run's runtime context and
``config["configurable"]`` (``"user.{user_id}"``, or a tuple of labels joined with ``.`` like the
LangGraph adapter does), or a function of the run's config."""

PIN_REQUEST_TAG = "pin_request"
_PATH = WritePath.AGENT_TOOL
_SOURCE = ProvenanceLevel.MODEL_INFERRED


# -- argument schemas (short, concrete descriptions: they are what the model reads) -----------


class SaveMemoryInput(BaseModel):
    """Arguments of ``save_memory``."""

    content: str = Field(
        description="The fact to remember, as one self-contained sentence "
        "(e.g. 'The user is allergic to peanuts')."
    )
    key: str | None = Field(
        default=None,
        description="Optional stable topic key such as 'user.diet'. Saving again under the "
        "same key replaces the earlier version.",
    )
    tags: list[str] = Field(default_factory=list, description="Optional short labels.")
    importance: float = Field(
        default=0.5, ge=0.0, le=1.0, description="How much this matters, from 0 to 1."
    )


class SearchMemoryInput(BaseModel):
    """Arguments of ``search_memory``."""

    query: str = Field(description="What to look for, in natural language.")
    limit: int = Field(default=5, ge=1, le=20, description="How many memories to return.")


class UpdateMemoryInput(BaseModel):
    """Arguments of ``update_memory``."""

    memory_id: str = Field(description="The id of the memory, as shown by search_memory.")
    content: str = Field(description="The corrected fact, as one self-contained sentence.")


class ForgetMemoryInput(BaseModel):
    """Arguments of ``forget_memory``."""

    memory_id: str = Field(description="The id of the memory, as shown by search_memory.")
    reason: str = Field(default="", description="Why it should be forgotten.")


class RequestPinInput(BaseModel):
    """Arguments of ``request_pin_memory``."""

    memory_id: str = Field(description="The id of the memory, as shown by search_memory.")
    reason: str = Field(description="Why it should always stay in context.")


# -- tools --------------------------------------------------------------------------------------


class _MemoryTool(BaseTool):
    """Shared plumbing: the store, the namespace, and errors turned into tool messages."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: TieredMemoryStore
    """The store the tools read and write."""
    namespace: Any = "default"
    """A `NamespaceSpec`."""
    source_session: str = ""
    """Recorded on saved memories (which session produced them)."""
    handle_tool_error: bool | str | Callable[[ToolException], str] | None = True
    handle_validation_error: Any = staticmethod(lambda exc: _invalid_arguments(exc))

    def _ns(self, config: RunnableConfig | None) -> str:
        return resolve_namespace(self.namespace, config)

    def _call(self, config: RunnableConfig | None, **kwargs: Any) -> str:
        try:
            return self._do(self._ns(config), **kwargs)
        except TieredMemoryError as exc:
            raise ToolException(explain(exc)) from exc

    def _do(self, namespace: str, **kwargs: Any) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _run(self, config: RunnableConfig, **kwargs: Any) -> str:
        return self._call(config, **kwargs)

    async def _arun(self, config: RunnableConfig, **kwargs: Any) -> str:
        return await run_sync(self._call, config, **kwargs)


class SaveMemoryTool(_MemoryTool):
    """Save a fact to long-term memory."""

    name: str = "save_memory"
    description: str = (
        "Save one durable fact about the user or the task to long-term memory, so it can be "
        "recalled in later conversations. Save facts, preferences and decisions; not chit-chat. "
        "Returns the new memory's id."
    )
    args_schema: type[BaseModel] = SaveMemoryInput

    def _do(  # type: ignore[override]
        self,
        namespace: str,
        content: str,
        key: str | None = None,
        tags: list[str] | None = None,
        importance: float = 0.5,
    ) -> str:
        entry = _store(self).add(
            content,
            namespace=namespace,
            key=key or None,
            tags=tags or (),
            importance=importance,
            source=_SOURCE,
            source_session=self.source_session,
            path=_PATH,
        )
        replaced = f" (version {entry.version} of key {entry.key!r})" if entry.version > 1 else ""
        return f"Saved memory {entry.id}{replaced}."


class SearchMemoryTool(_MemoryTool):
    """Recall memories relevant to a query."""

    name: str = "search_memory"
    description: str = (
        "Search long-term memory for facts relevant to a question. Returns the best matches "
        "with their ids (needed to update or forget a memory)."
    )
    args_schema: type[BaseModel] = SearchMemoryInput

    def _do(self, namespace: str, query: str, limit: int = 5) -> str:  # type: ignore[override]
        hits = _store(self).search(query, namespace=namespace, k=limit)
        if not hits:
            return "No matching memories."
        return "\n".join(_line(hit) for hit in hits)


class UpdateMemoryTool(_MemoryTool):
    """Correct a memory (a new version; the old one stays in history)."""

    name: str = "update_memory"
    description: str = (
        "Correct an existing memory by id with new content. The previous version is kept in "
        "history. Memories the user stated themselves cannot be changed this way."
    )
    args_schema: type[BaseModel] = UpdateMemoryInput

    def _do(self, namespace: str, memory_id: str, content: str) -> str:  # type: ignore[override]
        entry = _store(self).update(memory_id, namespace=namespace, content=content, path=_PATH)
        return f"Updated memory {memory_id}; the current version is {entry.id}."


class ForgetMemoryTool(_MemoryTool):
    """Archive a memory (reversible; never a hard delete)."""

    name: str = "forget_memory"
    description: str = (
        "Forget a memory by id: it is archived (left out of the memory block in the prompt, "
        "ranked far lower in search and marked archived there, restorable by the user; never "
        "deleted). Use it when a memory is "
        "obsolete or the user asks to forget it; to correct a wrong one, use update_memory. "
        "Memories the user stated themselves need the user's confirmation."
    )
    args_schema: type[BaseModel] = ForgetMemoryInput

    def _do(self, namespace: str, memory_id: str, reason: str = "") -> str:  # type: ignore[override]
        _store(self).archive(memory_id, namespace=namespace, path=_PATH, reason=reason or None)
        return f"Archived memory {memory_id}."


class RequestPinTool(_MemoryTool):
    """Ask the user to pin a memory (agents cannot pin)."""

    name: str = "request_pin_memory"
    description: str = (
        "Ask the user to pin a memory so it is always in context. Only the user can pin; this "
        "records the request for them to approve."
    )
    args_schema: type[BaseModel] = RequestPinInput

    def _do(self, namespace: str, memory_id: str, reason: str) -> str:  # type: ignore[override]
        store = _store(self)
        entry = store.get(memory_id, namespace=namespace)
        if entry is None:
            raise EntryNotFound(memory_id)
        if entry.pinned:
            return f"Memory {memory_id} is already pinned."
        # The request is its own entry: annotating the target in place would lower its
        # provenance to model_inferred (the tool path's ceiling). Status "pending" keeps it out
        # of recall until the user acts on it.
        store.add_many(
            [
                {
                    "content": f"Pin requested for memory {memory_id}: {reason or 'no reason'}",
                    "key": f"{PIN_REQUEST_TAG}:{memory_id}",
                    "tags": [PIN_REQUEST_TAG],
                    "tier": MemoryTier.WORKING,
                    "source": _SOURCE,
                    "source_session": self.source_session,
                    "metadata": {"pin_requested": memory_id, "reason": reason},
                    "status": "pending",
                }
            ],
            namespace=namespace,
            path=_PATH,
        )
        return f"Pin request for memory {memory_id} recorded; the user will decide."


# -- public helpers -----------------------------------------------------------------------------


def create_memory_tools(
    store: TieredMemoryStore,
    namespace: NamespaceSpec = "default",
    *,
    source_session: str = "",
    include: Sequence[str] | None = None,
) -> list[BaseTool]:
    """Memory tools for a LangChain / LangGraph agent, bound to one store and namespace.

    Example:
        >>> tools = create_memory_tools(store, namespace="user.{user_id}")  # doctest: +SKIP
        >>> agent = create_agent(model, tools, context_schema=Ctx)  # doctest: +SKIP
        >>> agent.invoke(inputs, context=Ctx(user_id="alice"))  # doctest: +SKIP

    Args:
        store: The tiered store.
        namespace: A namespace, a template filled from the run's runtime context and
            ``config["configurable"]`` (a string such as ``"user.{user_id}"`` or a tuple such as
            ``("memories", "{user_id}")``), or a function of the run's config.
        source_session: Recorded on saved memories.
        include: Tool names to return (default: all five).

    Returns:
        ``save_memory``, ``search_memory``, ``update_memory``, ``forget_memory`` and
        ``request_pin_memory`` (or the ones in ``include``).
    """
    classes: list[Any] = [
        SaveMemoryTool,
        SearchMemoryTool,
        UpdateMemoryTool,
        ForgetMemoryTool,
        RequestPinTool,
    ]
    tools = [c(store=store, namespace=namespace, source_session=source_session) for c in classes]
    if include is not None:
        unknown = set(include) - {t.name for t in tools}
        if unknown:
            raise InvalidInput("include", f"unknown tool names: {sorted(unknown)}")
        tools = [t for t in tools if t.name in include]
    return list(tools)


def list_pin_requests(store: TieredMemoryStore, namespace: str = "default") -> list[MemoryEntry]:
    """Pin requests that agents filed and nobody handled yet (newest first).

    Each request's ``metadata["pin_requested"]`` is the id of the memory to pin; grant it with
    ``store.pin(id)``.
    """
    return store.list(
        namespace=namespace, tags=[PIN_REQUEST_TAG], status="pending", include_superseded=False
    )


def resolve_namespace(spec: NamespaceSpec, config: RunnableConfig | None) -> str:
    """The store namespace a `NamespaceSpec` names for one run.

    A template is filled from the LangGraph runtime context of the run the tool executes in
    (``create_agent(..., context_schema=Ctx)`` invoked with ``context=Ctx(user_id=...)``), then
    from ``configurable`` (the run's, merged with ``config``'s).

    Raises:
        InvalidInput: A template field is in neither the context nor ``configurable``.
    """
    if callable(spec):
        return str(spec(config or {}))
    # A tool called by an agent sees the run through LangGraph's context variables; one invoked
    # by hand outside a graph has only the config it was given.
    return namespace_in_run(spec, config)


def explain(exc: TieredMemoryError) -> str:
    """A message the model can act on, for an error raised by the store."""
    if isinstance(exc, MemoryWriteBlocked):
        why = exc.detail or exc.reason
        if exc.rule == "provenance_archive":
            return (
                f"Not archived: {why}. The user stated this (or it was established from their "
                "conversations), so it stays until the user confirms: ask them whether to "
                "forget it; the application then archives it on their behalf."
            )
        if exc.reason == "provenance":
            return (
                f"Not written: {why}. This memory came from a more trusted source (the user "
                "or consolidation); ask the user to change it instead."
            )
        return (
            f"Not written: the memory was blocked by the {exc.reason} check ({why}). "
            "Do not retry with the same text."
        )
    if isinstance(exc, EntryNotFound):
        return f"No memory with id {exc.entry_id!r}. Use search_memory to find the right id."
    if isinstance(exc, IllegalTransition | InvalidInput):
        return f"Not done: {exc}."
    return f"Memory error: {exc}."


def _invalid_arguments(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        parts = [f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg')}" for e in errors()]
        return "Invalid arguments: " + "; ".join(parts) + "."
    return f"Invalid arguments: {exc}."


def _store(tool: _MemoryTool) -> TieredMemoryStore:
    return tool.store  # type: ignore[no-any-return]


def _line(hit: SearchHit) -> str:
    e = hit.entry
    when = (e.event_at or e.created_at).date().isoformat()
    archived = ", archived" if e.tier == MemoryTier.ARCHIVAL else ""
    return f"- [{e.id}] {e.content} (key={e.key}, {when}{archived}, score={hit.score:.3f})"
