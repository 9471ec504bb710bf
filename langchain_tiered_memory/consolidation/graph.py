"""The consolidation pipeline as a compiled LangGraph `StateGraph`, and as a node for users' graphs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pipeline import ConsolidationState, Steps
from .protocol import ConsolidationStore

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.graph.state import CompiledStateGraph


__all__ = ["build_consolidation_graph"]


def build_consolidation_graph(
    store: ConsolidationStore, llm: BaseChatModel | None = None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the sleep-time pipeline: extract → episode → write → contradictions → decay.

    Example:
        >>> graph = build_consolidation_graph(store)  # doctest: +SKIP
        >>> state = graph.invoke({"namespace": "alice", "session_id": "s1",
        ...                       "messages": messages})  # doctest: +SKIP
        >>> state["written"], state["blocked"], state["conflicts"], state["moved"]  # doctest: +SKIP

    Args:
        store: A `TieredMemoryStore` (any `ConsolidationStore`).
        llm: Any LangChain chat model for summaries, extraction and contradiction checks; without
            one (or when it fails or returns junk) the offline heuristics are used.

    Returns:
        A compiled graph whose input and final state is a `ConsolidationState`.
    """
    from langgraph.graph import END, START, StateGraph

    steps = Steps(store, llm)
    graph = StateGraph(ConsolidationState)
    graph.add_node("episode", steps.episode)
    graph.add_node("extract", steps.extract)
    graph.add_node("write", steps.write)
    graph.add_node("contradictions", steps.contradictions)
    graph.add_node("decay", steps.decay)
    # Facts first: the episode's importance counts them.
    graph.add_edge(START, "extract")
    graph.add_edge("extract", "episode")
    graph.add_edge("episode", "write")
    graph.add_edge("write", "contradictions")
    graph.add_edge("contradictions", "decay")
    graph.add_edge("decay", END)
    return graph.compile(name="tiered_memory_consolidation")
