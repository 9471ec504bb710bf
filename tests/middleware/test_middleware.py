"""`TieredMemoryMiddleware` in a real `create_agent` graph, with a fake tool-calling model."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import Field

from langchain_tiered_memory import MemoryTier, TieredMemoryStore
from langchain_tiered_memory.consolidation import ConsolidationScheduler
from langchain_tiered_memory.history import WorkingMemoryHistory
from langchain_tiered_memory.middleware import MemoryScope, TieredMemoryMiddleware


@dataclass
class Ctx:
    user_id: str


class ToolCallingFake(GenericFakeChatModel):
    """langchain-core's scripted chat model, accepting tools and recording each prompt."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ToolCallingFake:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def _script() -> Iterator[AIMessage]:
    yield AIMessage(
        content="",
        tool_calls=[{"name": "search_memory", "args": {"query": "tea"}, "id": "c1"}],
    )
    yield AIMessage(content="Noted: green tea, not coffee.")
    yield AIMessage(content="You prefer green tea.")


def _system(prompt: list[BaseMessage]) -> str:
    return "\n".join(m.text for m in prompt if m.type == "system")


@pytest.fixture
def scheduler() -> Iterator[ConsolidationScheduler]:
    s = ConsolidationScheduler(llm=None)
    yield s
    s.close()


def test_second_session_sees_a_fact_consolidated_from_the_first(
    store: TieredMemoryStore, scheduler: ConsolidationScheduler
) -> None:
    model = ToolCallingFake(messages=_script())
    memory = TieredMemoryMiddleware(
        store, namespace="user.{user_id}", scheduler=scheduler, tools=True
    )
    agent = create_agent(
        model, tools=[], middleware=[memory], context_schema=Ctx, system_prompt="Be brief."
    )
    carol = Ctx(user_id="carol")
    s1 = {"configurable": {"thread_id": "s1"}}
    out = agent.invoke(
        {"messages": [HumanMessage("I prefer green tea over coffee.")]}, s1, context=carol
    )
    # The memory tool resolved its namespace from the runtime context.
    [tool_reply] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert tool_reply.status == "success", tool_reply.content
    assert "configurable" not in str(tool_reply.content)
    # The turn went into session s1's working memory, in carol's namespace.
    buffer = WorkingMemoryHistory("s1", store=store, namespace="user.carol").messages
    assert [m.text for m in buffer] == [
        "I prefer green tea over coffee.",
        "Noted: green tea, not coffee.",
    ]
    assert store.list(namespace="user.carol", tier=MemoryTier.SEMANTIC) == []

    memory.end_session(context=carol, config=s1, wait=True)
    facts = store.list(namespace="user.carol", tier=MemoryTier.SEMANTIC)
    fact = next(f for f in facts if "green tea" in f.content)

    s2 = {"configurable": {"thread_id": "s2"}}
    assert WorkingMemoryHistory("s2", store=store, namespace="user.carol").messages == []
    agent.invoke({"messages": [HumanMessage("Which tea do I like?")]}, s2, context=carol)
    system = _system(model.prompts[-1])
    assert system.startswith("Be brief.")  # the agent's own prompt stays first
    assert fact.content in system  # read from the SEMANTIC entry consolidation wrote
    assert "## Working memory" not in system  # session 2 started with an empty buffer
    assert store.list(namespace="user.dave") == []


def test_working_memory_is_in_the_block_within_the_session(
    store: TieredMemoryStore,
) -> None:
    model = ToolCallingFake(messages=iter([AIMessage(content="Hi Dana."), AIMessage(content="ok")]))
    memory = TieredMemoryMiddleware(store, namespace="user.{user_id}")
    agent = create_agent(model, tools=[], middleware=[memory], context_schema=Ctx)
    cfg = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [HumanMessage("My name is Dana.")]}, cfg, context=Ctx("dana"))
    agent.invoke({"messages": [HumanMessage("And you?")]}, cfg, context=Ctx("dana"))
    system = _system(model.prompts[-1])
    assert "## Working memory" in system and "My name is Dana." in system
    assert "Hi Dana." in system


def test_a_new_session_ends_the_previous_one(
    store: TieredMemoryStore, scheduler: ConsolidationScheduler
) -> None:
    model = ToolCallingFake(messages=iter([AIMessage(content="Noted."), AIMessage(content="ok")]))
    memory = TieredMemoryMiddleware(
        store, namespace=lambda ctx: f"u.{ctx.user_id}", scheduler=scheduler
    )
    agent = create_agent(model, tools=[], middleware=[memory], context_schema=Ctx)
    erin = Ctx("erin")
    agent.invoke(
        {"messages": [HumanMessage("I live in Lisbon.")]},
        {"configurable": {"thread_id": "a"}},
        context=erin,
    )
    agent.invoke(
        {"messages": [HumanMessage("Hello")]}, {"configurable": {"thread_id": "b"}}, context=erin
    )
    assert scheduler.drain(timeout=60)
    assert WorkingMemoryHistory("a", store=store, namespace="u.erin").messages == []
    assert any("Lisbon" in e.content for e in store.list(namespace="u.erin"))


async def test_async_agent(store: TieredMemoryStore) -> None:
    model = ToolCallingFake(messages=iter([AIMessage(content="Hi.")]))
    store.add("The user is called Fay", namespace="user.fay", type="user")
    memory = TieredMemoryMiddleware(store, namespace="user.{user_id}")
    agent = create_agent(model, tools=[], middleware=[memory], context_schema=Ctx)
    await agent.ainvoke(
        {"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "x"}}, context=Ctx("fay")
    )
    assert "The user is called Fay" in _system(model.prompts[-1])
    assert memory.scope(Ctx("fay"), {"configurable": {"thread_id": "x"}}) == MemoryScope(
        "user.fay", "x"
    )
    history = WorkingMemoryHistory("x", store=store, namespace="user.fay")
    assert [m.text for m in history.messages] == ["hi", "Hi."]


def test_namespace_from_configurable_and_missing_field(store: TieredMemoryStore) -> None:
    memory = TieredMemoryMiddleware(store, namespace="user.{user_id}")
    assert memory.scope(None, {"configurable": {"user_id": "gil"}}).namespace == "user.gil"
    with pytest.raises(Exception, match="user_id"):
        memory.scope(None, {})
