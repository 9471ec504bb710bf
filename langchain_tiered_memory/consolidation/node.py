"""`consolidation_node`: the consolidation pipeline as a node of your own LangGraph graph.

It sits above `graph` and `jobs` (a node runs a job, a job runs the graph), so neither of those
needs to know about it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig

from .jobs import enqueue_session, run_consolidation_job
from .protocol import ConsolidationStore

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from .scheduler import ConsolidationScheduler

__all__ = ["consolidation_node"]


def consolidation_node(
    store: ConsolidationStore,
    llm: BaseChatModel | None = None,
    *,
    namespace: str | None = None,
    scheduler: ConsolidationScheduler | None = None,
) -> Any:
    """A node that consolidates the ``messages`` of a ``MessagesState`` graph.

    With a ``scheduler`` the session is handed over and the node returns at once (use it at the
    end of a conversation graph); without one it runs the pipeline inline. Either way it returns
    no state update; the last pipeline state is kept on ``node.last_state`` for inspection.

    The session id comes from ``config["configurable"]["thread_id"]`` (else ``session_id`` in the
    state, else ``"default"``); the namespace from ``namespace``, else
    ``config["configurable"]["namespace"]`` / ``["user_id"]``, else ``"default"``. System
    messages (such as the injected memory block) are left out of the consolidated transcript.

    Example:
        >>> builder.add_node("consolidate", consolidation_node(store, scheduler=scheduler))
        ... # doctest: +SKIP
        >>> builder.add_edge("chatbot", "consolidate")  # doctest: +SKIP

    Args:
        store: A `TieredMemoryStore` (any `ConsolidationStore`).
        llm: Chat model for the pipeline (None: offline heuristics); unused with a
            ``scheduler``, which brings its own.
        namespace: Whose memory (default: from the run's config, see above).
        scheduler: Run consolidation in the background instead of inside the graph step.

    Returns:
        A callable node ``(state, config) -> {}`` with ``last_job`` (the store job) and, when
        run inline, ``last_state`` (the final `ConsolidationState`).
    """
    class _Node:
        last_state: Mapping[str, Any] | None = None
        last_job: Any = None

        def __call__(self, state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
            configurable = (config or {}).get("configurable", {})
            ns = namespace or configurable.get("namespace") or configurable.get("user_id")
            ns = ns or "default"
            session = str(configurable.get("thread_id") or state.get("session_id") or "default")
            messages = [
                m for m in state.get("messages", []) if getattr(m, "type", None) != "system"
            ]
            if not messages:
                return {}
            if scheduler is not None:
                self.last_job = scheduler.schedule_session(store, ns, session, messages)
                return {}
            job, _ = enqueue_session(store, ns, session, messages)
            self.last_job = job
            self.last_state = run_consolidation_job(store, job.id, llm=llm)
            return {}

    return _Node()
