"""WorkingMemoryHistory: ring buffer, LangChain integration, render budget."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory

from langchain_tiered_memory import MemoryConfig, WorkingMemoryHistory
from langchain_tiered_memory.history import message_importance, render_working_block
from tests.consolidation._fakes import ScriptedChat

_HEADER = "## Working memory"


def _msg(text: str, importance: float, human: bool = True) -> BaseMessage:
    cls = HumanMessage if human else AIMessage
    return cls(content=text, additional_kwargs={"importance": importance})


def test_ring_buffer_keeps_the_last_capacity_messages_and_spills_the_rest() -> None:
    config = MemoryConfig(working_capacity=3)
    history = WorkingMemoryHistory("ring", namespace="t-ring", config=config)
    history.add_messages([HumanMessage(f"m{i}") for i in range(5)])
    assert [m.content for m in history.messages] == ["m2", "m3", "m4"]
    assert [m.content for m in history.transcript()] == [f"m{i}" for i in range(5)]
    # Another object for the same session sees the same buffer.
    again = WorkingMemoryHistory("ring", namespace="t-ring", config=config)
    assert [m.content for m in again.messages] == ["m2", "m3", "m4"]
    assert WorkingMemoryHistory("ring", namespace="other", config=config).messages == []
    again.clear()
    assert history.messages == [] and history.transcript() == []


def test_default_capacity_is_twenty() -> None:
    history = WorkingMemoryHistory("cap20", namespace="t-cap")
    history.add_messages([HumanMessage(str(i)) for i in range(25)])
    assert len(history.messages) == 20


async def test_async_twins() -> None:
    history = WorkingMemoryHistory("async", namespace="t-async")
    await history.aadd_messages([HumanMessage("a"), AIMessage("b")])
    assert [m.content for m in await history.aget_messages()] == ["a", "b"]
    await history.aclear()
    assert await history.aget_messages() == []


def test_usable_with_runnable_with_message_history() -> None:
    model = ScriptedChat(reply=lambda msgs: f"seen {len(msgs)}")
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Be brief."), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = RunnableWithMessageHistory(
        prompt | model,
        lambda sid: WorkingMemoryHistory(sid, namespace="t-rwmh"),
        input_messages_key="input",
        history_messages_key="history",
    )
    cfg = {"configurable": {"session_id": "chat-1"}}
    assert chain.invoke({"input": "hello"}, cfg).content == "seen 2"
    assert chain.invoke({"input": "again"}, cfg).content == "seen 4"
    history = WorkingMemoryHistory("chat-1", namespace="t-rwmh")
    assert [m.content for m in history.messages] == ["hello", "seen 2", "again", "seen 4"]
    assert [m.content for m in model.calls[1][1:3]] == ["hello", "seen 2"]


async def test_usable_async_with_runnable_with_message_history() -> None:
    model = ScriptedChat(text="pong")
    chain = RunnableWithMessageHistory(
        model, lambda sid: WorkingMemoryHistory(sid, namespace="t-rwmh-async")
    )
    cfg = {"configurable": {"session_id": "a1"}}
    await chain.ainvoke([HumanMessage("ping")], cfg)
    history = WorkingMemoryHistory("a1", namespace="t-rwmh-async")
    assert [m.content for m in history.messages] == ["ping", "pong"]


def test_render_fits_everything_in_order_when_under_budget() -> None:
    history = WorkingMemoryHistory("r1", namespace="t-render")
    history.add_messages([HumanMessage("I prefer tea."), AIMessage("Noted!")])
    assert history.render() == f"{_HEADER}\n- **User**: I prefer tea.\n- **Assistant**: Noted!"


def test_render_keeps_highest_importance_lines_within_exact_budget() -> None:
    messages = [
        _msg("low importance chatter " * 3, 0.1),
        _msg("my name is Alice", 0.9),
        _msg("medium note about the weather", 0.5, human=False),
        _msg("I am allergic to peanuts", 0.95),
    ]
    lines = [render_working_block([m], 10_000).split("\n")[1] for m in messages]
    budget = len(_HEADER) + 1 + len(lines[1]) + 1 + len(lines[3])
    out = render_working_block(messages, budget)
    assert len(out) == budget
    assert out == "\n".join([_HEADER, lines[1], lines[3]])
    # One more character of room is not enough for the next line: still the same two.
    assert render_working_block(messages, budget + 5) == out
    # Plenty of room for a cut third line: it is the next most important one.
    cut = render_working_block(messages, budget + 25)
    assert len(cut) == budget + 25
    assert cut.split("\n")[2].startswith("- **Assistant**: medium") and cut.endswith("peanuts")


@settings(max_examples=150, deadline=None)
@given(
    items=st.lists(
        st.tuples(st.text(min_size=1, max_size=80), st.floats(0, 1), st.booleans()),
        min_size=1, max_size=20,
        # Two messages that render to the same line cannot be told apart by the check below.
        unique_by=lambda item: " ".join(item[0].split()),
    ),
    budget=st.integers(0, 900),
)
def test_render_budget_property(items: list[tuple[str, float, bool]], budget: int) -> None:
    messages = [_msg(text, imp, human) for text, imp, human in items]
    scores = [imp for _, imp, _ in items]
    out = render_working_block(messages, budget, scores)
    assert len(out) <= budget
    if not out:
        return
    full_lines = [render_working_block([m], 10_000, [1.0]).split("\n")[1] for m in messages]
    kept = out.split("\n")[1:]
    complete = [ln for ln in kept if ln in full_lines]
    if len(complete) == len(full_lines):
        return
    kept_scores = [scores[full_lines.index(ln)] for ln in complete]
    dropped = [scores[i] for i, ln in enumerate(full_lines) if ln not in kept]
    if kept_scores and dropped:
        assert min(kept_scores) >= max(dropped)


def test_message_importance_heuristics() -> None:
    assert message_importance(HumanMessage("x", additional_kwargs={"importance": 0.42})) == 0.42
    assert message_importance(SystemMessage("rules")) == 0.9
    fact = message_importance(HumanMessage("Remember: I am allergic to peanuts."))
    chatter = message_importance(HumanMessage("ok"))
    assert fact > chatter
    assert message_importance(AIMessage("Remember: I am allergic to peanuts.")) < fact


def test_end_session_without_scheduler_records_a_durable_job(store: Any) -> None:
    history = WorkingMemoryHistory("s-j", store=store, namespace="alice")
    history.add_messages([HumanMessage("I prefer tea.")])
    job = history.end_session()
    assert job is not None and job.status == "queued"
    assert job.payload["messages"][0]["data"]["content"] == "I prefer tea."
    assert history.end_session() is None and history.messages == []
    assert [j.id for j in store.resume_pending()] == [job.id]


def test_buffers_are_released_with_their_store(tmp_path) -> None:
    import gc

    from langchain_core.messages import HumanMessage

    from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
    from langchain_tiered_memory.history import _REGISTRY
    from tests.helpers import HashEmbeddings

    s = TieredMemoryStore(tmp_path / "m.db", embeddings=HashEmbeddings(),
                          config=MemoryConfig(rerank_enabled=False))
    WorkingMemoryHistory("s1", store=s).add_messages([HumanMessage("hello")])
    assert WorkingMemoryHistory("s1", store=s).messages[0].content == "hello"  # shared buffer
    import weakref

    ref = weakref.ref(s)
    assert s in _REGISTRY
    s.close()
    del s
    gc.collect()
    # The buffer did not keep its store alive, so the registry dropped it. (Counting entries
    # instead depends on which other tests' stores the same collection happens to free.)
    assert ref() is None
    assert all(key is not None for key in _REGISTRY)
