"""A real compiled LangGraph graph reads and writes memories through the adapter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.langgraph_store import TieredMemoryBaseStore


class State(TypedDict, total=False):
    message: str
    recalled: list[str]


@dataclass
class Context:
    user_id: str


def remember(state: State, runtime: Runtime[Context]) -> State:
    assert runtime.store is not None
    text = state["message"]
    if text.startswith("remember "):
        fact = text.removeprefix("remember ")
        runtime.store.put(
            ("memories", runtime.context.user_id), str(abs(hash(fact))), {"text": fact}
        )
    return {}


def recall(state: State) -> State:
    store = get_store()
    user = "alice" if "alice" in state["message"] else "bob"
    hits = store.search(("memories", user), query=state["message"], limit=3)
    return {"recalled": [h.value["text"] for h in hits if h.score is not None]}


def _graph(lg: TieredMemoryBaseStore):  # type: ignore[no-untyped-def]
    builder = StateGraph(State, context_schema=Context)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    return builder.compile(store=lg)


def test_graph_writes_and_recalls_through_runtime_store(store: TieredMemoryStore) -> None:
    lg = TieredMemoryBaseStore(store)
    graph = _graph(lg)
    alice = Context(user_id="alice")
    graph.invoke({"message": "remember alice keeps bees on the roof"}, context=alice)
    graph.invoke({"message": "remember alice plays the cello"}, context=alice)
    graph.invoke({"message": "remember bob keeps chickens"}, context=Context(user_id="bob"))
    out = graph.invoke({"message": "what does alice keep on the roof"}, context=alice)
    assert out["recalled"][0] == "alice keeps bees on the roof"
    assert all("bob" not in r for r in out["recalled"])
    # The same memories are ordinary entries of the tiered store.
    assert {e.content for e in store.list(namespace="memories.alice")} == {
        "alice keeps bees on the roof",
        "alice plays the cello",
    }


async def test_graph_async(store: TieredMemoryStore) -> None:
    graph = _graph(TieredMemoryBaseStore(store))
    bob = Context(user_id="bob")
    await graph.ainvoke({"message": "remember bob's bike is red"}, context=bob)
    await graph.ainvoke({"message": "remember bob's car is blue"}, context=bob)
    await graph.ainvoke({"message": "remember bob fears spiders"}, context=bob)
    out = await graph.ainvoke({"message": "what colour is the bike"}, context=bob)
    assert out["recalled"][0] == "bob's bike is red"
