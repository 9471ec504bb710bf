"""Context assembly (L0-L3 within a token budget) and the LangGraph memory node."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from langchain_tiered_memory import Episode, MemoryType, ProvenanceLevel
from langchain_tiered_memory.context import (
    MEMORY_MESSAGE_ID,
    estimate_tokens,
    memory_context_node,
    memory_pre_model_hook,
)
from tests.consolidation._fakes import ScriptedChat


def _fill(store: Any) -> dict[str, Any]:
    ids: dict[str, Any] = {}
    ids["name"] = store.add("User's name is Alice", namespace="alice", key="identity.name",
                            type=MemoryType.USER, source=ProvenanceLevel.USER_STATED)
    ids["lang"] = store.add("User speaks German and English", namespace="alice",
                            key="preference.language", type=MemoryType.USER)
    ids["pin"] = store.add("Always answer in metric units", namespace="alice", pinned=True)
    ids["tea"] = store.add("User prefers green tea", namespace="alice", key="preference.tea",
                           type=MemoryType.USER)
    ids["db"] = store.add("The project database is PostgreSQL 16", namespace="alice")
    ids["ci"] = store.add("CI runs on GitHub Actions every night", namespace="alice")
    store.add_episode(Episode(session_key="s0", summary="Alice set up the PostgreSQL database",
                              message_range_start=0, message_range_end=3, entity_ids=("Alice",),
                              importance=0.5, namespace="alice"))
    store.add("User's name is Mallory", namespace="mallory", key="identity.name",
              type=MemoryType.USER)
    return ids


def test_levels_in_order_and_stable_prefix(store: Any) -> None:
    ids = _fill(store)
    block = store.context_block("alice", "which database does the project use?")
    assert block.ids("L0") == sorted([ids["name"].id, ids["lang"].id],
                                     key=lambda i: store.get(i).content.lower())
    assert set(block.ids("L1")) == {ids["pin"].id, ids["tea"].id}
    assert block.ids("L2")[0] == ids["db"].id
    assert any(item.kind == "episode" for item in block.items["L3"])
    text = block.text
    assert text.index("### Identity") < text.index("### Core memory") < text.index(
        "### Relevant memories") < text.index("### Earlier sessions")
    assert "Mallory" not in text
    other = store.context("alice", "when does CI run?")
    core_end = text.index("### Relevant memories")
    assert other[:core_end] == text[:core_end]  # same cache-friendly prefix
    assert "GitHub Actions" in other
    no_query = store.context("alice")
    assert "### Relevant memories" not in no_query and "User's name is Alice" in no_query


def test_budget_is_respected_and_core_survives_longest(store: Any) -> None:
    _fill(store)
    for i in range(30):
        store.add(f"Database note {i}: the PostgreSQL replica {i} lags by {i} seconds",
                  namespace="alice")
    full = store.context_block("alice", "database replica lag", budget=5000, k=20)
    assert len(full.ids("L2")) > 5
    for budget in (0, 5, 20, 40, 80, 150, 300, 600):
        block = store.context_block("alice", "database replica lag", budget=budget, k=20)
        assert estimate_tokens(block.text) <= budget
        assert block.tokens == estimate_tokens(block.text)
    small = store.context_block("alice", "database replica lag", budget=80, k=20)
    assert small.ids("L0") and len(small.ids("L2")) < len(full.ids("L2"))


def test_estimate_tokens() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    assert estimate_tokens("用户喜欢") == 4
    assert estimate_tokens("我是Bob") == 2 + 1


def _chat_graph(store: Any, model: ScriptedChat) -> Any:
    def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("memory", memory_context_node(store, namespace="alice"))
    graph.add_node("model", call_model)
    graph.add_edge(START, "memory")
    graph.add_edge("memory", "model")
    graph.add_edge("model", END)
    return graph.compile()


def test_memory_node_injects_one_system_message_in_a_compiled_graph(store: Any) -> None:
    _fill(store)
    model = ScriptedChat(text="It is PostgreSQL.")
    app = _chat_graph(store, model)
    state = app.invoke({"messages": [SystemMessage("You are terse."),
                                     HumanMessage("Which database do we use?")]})
    seen = model.calls[0]
    assert seen[0].content == "You are terse."
    assert seen[1].id == MEMORY_MESSAGE_ID and "PostgreSQL 16" in seen[1].content
    assert seen[2].content == "Which database do we use?"

    state = app.invoke({"messages": [*state["messages"], HumanMessage("When does CI run?")]})
    memory = [m for m in state["messages"] if m.id == MEMORY_MESSAGE_ID]
    assert len(memory) == 1 and "GitHub Actions" in memory[0].content
    assert state["messages"][1].id == MEMORY_MESSAGE_ID
    assert isinstance(state["messages"][-1], AIMessage)


async def test_memory_node_async(store: Any) -> None:
    _fill(store)
    model = ScriptedChat(text="ok")
    app = _chat_graph(store, model)
    await app.ainvoke({"messages": [HumanMessage("What tea do I like?")]})
    assert model.calls[0][0].id == MEMORY_MESSAGE_ID
    assert "green tea" in model.calls[0][0].content


def test_namespace_from_config_and_pre_model_hook(store: Any) -> None:
    _fill(store)
    hook = memory_pre_model_hook(store)
    out = hook({"messages": [HumanMessage("what is my name?")]},
               {"configurable": {"user_id": "mallory"}})
    first = out["llm_input_messages"][0]
    assert "Mallory" in first.content and "Alice" not in first.content
    assert out["llm_input_messages"][1].content == "what is my name?"


def test_archived_and_superseded_entries_stay_out_of_the_block(store) -> None:
    store.add("Bob lives in Paris", namespace="b", key="home", source="user_stated")
    store.add("Bob lives in Berlin", namespace="b", key="home", source="user_stated")
    gone = store.add("Bob collects stamps from Paris", namespace="b")
    store.archive(gone.id)
    block = store.context("b", query="where does Bob live, Paris?")
    assert "Berlin" in block
    assert "lives in Paris" not in block and "stamps" not in block
    # Still recallable on purpose: the archived entry by default, the old version with history.
    assert {h.entry.content for h in store.search("Paris", namespace="b")} == {
        "Bob collects stamps from Paris"}
    assert {h.entry.content for h in store.search("Paris", namespace="b", history=True)} >= {
        "Bob lives in Paris", "Bob collects stamps from Paris"}


def test_node_adds_the_sessions_working_memory_by_default(store: Any) -> None:
    from langchain_tiered_memory import WorkingMemoryHistory

    store.add("User prefers green tea", namespace="alice", key="preference.tea", type="user")
    WorkingMemoryHistory("t1", store=store, namespace="alice").add_messages(
        [HumanMessage("I am planning a trip to Kyoto."), AIMessage("Nice, when?")]
    )
    config = {"configurable": {"thread_id": "t1", "namespace": "alice"}}
    state = {"messages": [HumanMessage("What tea do I like?")]}
    text = memory_pre_model_hook(store)(state, config)["llm_input_messages"][0].content
    assert text.index("User prefers green tea") < text.index("## Working memory")
    assert "Kyoto" in text
    other = {"configurable": {"thread_id": "t2", "namespace": "alice"}}
    assert "Kyoto" not in memory_pre_model_hook(store)(state, other)["llm_input_messages"][0].content
    off = memory_pre_model_hook(store, working=False)(state, config)["llm_input_messages"][0]
    assert "Kyoto" not in off.content
    small = memory_pre_model_hook(store, budget=60)(state, config)["llm_input_messages"][0]
    assert estimate_tokens(small.content) <= 60
