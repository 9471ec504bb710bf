"""Tiered memory for `langchain.agents.create_agent`: one middleware does the whole loop.

- **Before each model call** the memory block — L0 identity, L1 core, L2 recall for the last
  user message, L3 episodes and links, then the session's WORKING buffer — is appended to the
  system message, within one token budget (`compose_memory_block`). Nothing is written to the
  graph state, so checkpoints stay free of it.
- **After the agent** the turn (the user's message and the agent's final answer) goes into the
  session's working memory (`WorkingMemoryHistory`).
- **On session end** the session is handed to consolidation, which distils it into EPISODIC and
  SEMANTIC memories: when a namespace starts a new session, on ``end_session``, or after
  ``memory.consolidationIdleSeconds`` of silence when a scheduler is given.

Whose memory comes from the runtime context (``create_agent(..., context_schema=Ctx)`` invoked
with ``context=Ctx(user_id="carol")``), from ``config["configurable"]``, or is fixed; see
`langchain_tiered_memory.scope`.

Example:
    >>> agent = create_agent(
    ...     model,
    ...     tools=[],
    ...     middleware=[TieredMemoryMiddleware(store, namespace="user.{user_id}",
    ...                                        scheduler=ConsolidationScheduler())],
    ...     context_schema=Ctx,
    ... )  # doctest: +SKIP
    >>> agent.invoke({"messages": [("user", "hi")]}, context=Ctx(user_id="carol"))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from .context import compose_memory_block, last_user_text
from .extras import MissingExtra
from .history import WorkingMemoryHistory
from .scope import NamespaceSource, resolve_namespace, resolve_session, runtime_namespace
from .tools import create_memory_tools

try:
    from langchain.agents.middleware import (
        AgentMiddleware,
        AgentState,
        ModelRequest,
        ModelResponse,
    )
except ImportError as exc:  # the `langchain` package is the optional extra of the same name
    raise MissingExtra("langchain", feature="TieredMemoryMiddleware", missing=exc.name) from exc

if TYPE_CHECKING:
    from .consolidation.scheduler import ConsolidationScheduler
    from .store import TieredMemoryStore
    from .store._jobs import Job

__all__ = ["MemoryScope", "TieredMemoryMiddleware"]


@dataclass(frozen=True, slots=True)
class MemoryScope:
    """Whose memory a run uses and which session it is part of."""

    namespace: str
    session_id: str


class TieredMemoryMiddleware(AgentMiddleware):  # type: ignore[type-arg]
    """`create_agent` middleware: memory block before the model, working memory after the agent.

    Args:
        store: The tiered store.
        namespace: Fixed (``"alice"``), a template over the runtime context and
            ``configurable`` (``"user.{user_id}"``), a function of the runtime context, or None
            (``namespace``, else ``user_id``, else ``"default"``).
        scheduler: A `ConsolidationScheduler` that runs consolidation in the background (and on
            idle sessions). Without one, a session end is recorded as a durable job that any
            scheduler's ``resume`` picks up.
        budget: Token budget of the whole block (default ``memory.contextTokenBudget``).
        k: How many entries L2 recall considers.
        working: Put the session's working memory in the block and record each turn in it.
        tools: Also give the agent the memory tools (``save_memory``, ``search_memory``, ...),
            bound to the same namespace source.
        persist: Keep working memory in the store too, so it survives a restart (see
            `WorkingMemoryHistory`).
    """

    def __init__(
        self,
        store: TieredMemoryStore,
        *,
        namespace: NamespaceSource = None,
        scheduler: ConsolidationScheduler | None = None,
        budget: int | None = None,
        k: int = 8,
        working: bool = True,
        tools: bool = False,
        persist: bool = False,
    ) -> None:
        super().__init__()
        self.store = store
        self.namespace = namespace
        self.scheduler = scheduler
        self.budget = budget
        self.k = k
        self.working = working
        self.persist = persist
        self.tools = (
            create_memory_tools(store, namespace=runtime_namespace(namespace)) if tools else []
        )
        self._sessions: dict[str, str] = {}
        self._lock = threading.Lock()

    # -- scope --------------------------------------------------------------------------------

    def scope(self, context: Any = None, config: Any = None) -> MemoryScope:
        """The namespace and session of a run with this runtime context and config."""
        return MemoryScope(
            resolve_namespace(self.namespace, context, config),
            resolve_session(context, config),
        )

    def history(self, scope: MemoryScope) -> WorkingMemoryHistory:
        """The working memory of a scope's session (shared with every other holder of it)."""
        return WorkingMemoryHistory(
            scope.session_id,
            store=self.store,
            namespace=scope.namespace,
            scheduler=self.scheduler,
            persist=self.persist,
        )

    def _run_scope(self, runtime: Runtime[Any] | None) -> MemoryScope:
        try:
            config: Any = get_config()
        except RuntimeError:  # called outside a graph run
            config = {}
        return self.scope(getattr(runtime, "context", None), config)

    # -- sessions -----------------------------------------------------------------------------

    def end_session(
        self,
        scope: MemoryScope | None = None,
        *,
        context: Any = None,
        config: Any = None,
        wait: bool = False,
    ) -> Job | None:
        """End a session: hand its working memory to consolidation and empty it.

        Args:
            scope: The session; or give the ``context``/``config`` of one of its runs.
            context: The runtime context of a run of the session.
            config: The config of a run of the session.
            wait: Block until consolidation has finished (needs a scheduler).

        Returns:
            The consolidation job, or None when the session had nothing to consolidate.
        """
        scope = scope or self.scope(context, config)
        with self._lock:
            if self._sessions.get(scope.namespace) == scope.session_id:
                del self._sessions[scope.namespace]
        return self.history(scope).end_session(wait=wait)

    def _enter(self, scope: MemoryScope) -> None:
        # A namespace that starts a new session has ended its previous one.
        with self._lock:
            previous = self._sessions.get(scope.namespace)
            self._sessions[scope.namespace] = scope.session_id
        if previous is not None and previous != scope.session_id:
            self.history(MemoryScope(scope.namespace, previous)).end_session()

    # -- hooks --------------------------------------------------------------------------------

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Note the run's session; a new session of the namespace ends the previous one."""
        self._enter(self._run_scope(runtime))
        return None

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `before_agent`."""
        await asyncio.to_thread(self._enter, self._run_scope(runtime))
        return None

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Append the memory block to the system message, then call the model."""
        return handler(self._with_memory(request, self._block(request)))

    async def awrap_model_call(
        self,
        request: ModelRequest,
        handler: Callable[[ModelRequest], Awaitable[ModelResponse]],
    ) -> ModelResponse:
        """Async twin of `wrap_model_call` (recall runs in a worker thread)."""
        block = await asyncio.to_thread(self._block, request)
        return await handler(self._with_memory(request, block))

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Record the turn (user message and final answer) in the session's working memory."""
        self._remember(state, runtime)
        return None

    async def aafter_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of `after_agent`."""
        await asyncio.to_thread(self._remember, state, runtime)
        return None

    # -- internals ----------------------------------------------------------------------------

    def _block(self, request: ModelRequest) -> str:
        scope = self._run_scope(request.runtime)
        messages = list(request.state.get("messages", []))
        working = self.history(scope) if self.working else None
        return compose_memory_block(
            self.store,
            scope.namespace,
            last_user_text(messages),
            working=working,
            budget=self.budget,
            k=self.k,
        )

    @staticmethod
    def _with_memory(request: ModelRequest, block: str) -> ModelRequest:
        if not block:
            return request
        system = request.system_message
        base = system.text if system is not None else ""
        text = f"{base}\n\n{block}" if base else block
        return request.override(system_message=SystemMessage(content=text))

    def _remember(self, state: AgentState[Any], runtime: Runtime[Any]) -> None:
        if not self.working:
            return
        turn = _last_turn(state.get("messages", []))
        if turn:
            self.history(self._run_scope(runtime)).add_messages(turn)


def _last_turn(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The last user message and the agent's final answer (tool chatter left out)."""
    messages = list(messages)
    start = next(
        (i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], HumanMessage)),
        None,
    )
    if start is None:
        return []
    turn: list[BaseMessage] = [messages[start]]
    answer = next(
        (
            m
            for m in reversed(messages[start + 1 :])
            if isinstance(m, AIMessage) and not m.tool_calls and m.text.strip()
        ),
        None,
    )
    if answer is not None:
        turn.append(answer)
    return turn
