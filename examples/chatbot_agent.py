"""A LangGraph chatbot with working memory, memory context injection and consolidation.

Run: ``python examples/chatbot_agent.py`` (offline: a scripted model; with ``OPENAI_API_KEY`` and
langchain-openai installed, a real one). Two sessions: the first teaches, session end hands the
conversation to the background consolidation, and the second session recalls what was taught.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _offline import chat_model
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, MessagesState, StateGraph

from langchain_tiered_memory import TieredMemoryStore, WorkingMemoryHistory
from langchain_tiered_memory.consolidation import ConsolidationScheduler
from langchain_tiered_memory.context import memory_context_node

NAMESPACE = "alice"


def build_agent(store: TieredMemoryStore, scheduler: ConsolidationScheduler, model: Any) -> Any:
    """START → memory (long-term recall + working memory) → chatbot (model, records the turn)."""

    def chatbot(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        thread = config["configurable"]["thread_id"]
        history = WorkingMemoryHistory(thread, store=store, namespace=NAMESPACE,
                                       scheduler=scheduler)
        # The memory node already put the long-term levels and this session's working memory
        # (earlier turns) into the system message; record this turn for the next ones.
        reply = model.invoke(state["messages"])
        history.add_messages([state["messages"][-1], reply])
        return {"messages": [reply]}

    graph = StateGraph(MessagesState)
    graph.add_node("memory", memory_context_node(store, namespace=NAMESPACE))
    graph.add_node("chatbot", chatbot)
    graph.add_edge(START, "memory")
    graph.add_edge("memory", "chatbot")
    graph.add_edge("chatbot", END)
    return graph.compile()


def chat(agent: Any, thread: str, text: str, state: dict[str, Any] | None) -> dict[str, Any]:
    messages = [*(state or {}).get("messages", []), HumanMessage(text)]
    out: dict[str, Any] = agent.invoke({"messages": messages},
                                       {"configurable": {"thread_id": thread}})
    print(f"  user: {text}\n  bot:  {out['messages'][-1].content}")
    return out


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="tiered-memory-chatbot-"))
    store = TieredMemoryStore(workdir / "memory.db")
    scheduler = ConsolidationScheduler(llm=None)
    agent = build_agent(store, scheduler, chat_model())

    print("session 1")
    state = chat(agent, "session-1", "Hi! My name is Alice and I live in Berlin.", None)
    state = chat(agent, "session-1", "I prefer green tea over coffee.", state)
    WorkingMemoryHistory("session-1", store=store, namespace=NAMESPACE,
                         scheduler=scheduler).end_session()
    scheduler.drain(timeout=60)  # a real app would not wait; the demo wants the result now

    print("session 2")
    state = chat(agent, "session-2", "What tea do I prefer?", None)
    print("\nmemory block the model saw:\n" + state["messages"][0].content)
    scheduler.close()
    store.close()


if __name__ == "__main__":
    main()
