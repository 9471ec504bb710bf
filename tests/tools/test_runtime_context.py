"""Namespace templates of the memory tools read the `create_agent` runtime context (issue 15)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.tools import create_memory_tools


@dataclass
class Ctx:
    user_id: str


class ToolCallingFake(GenericFakeChatModel):
    """langchain-core's scripted chat model, accepting the tools `create_agent` binds."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ToolCallingFake:  # type: ignore[override]
        return self


def _call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])


def _script() -> Iterator[AIMessage]:
    yield _call("save_memory", {"content": "The user plays the oboe"}, "c1")
    yield AIMessage(content="Saved.")
    yield _call("search_memory", {"query": "oboe"}, "c2")
    yield AIMessage(content="You play the oboe.")


def _tool_messages(result: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def _agent(store: TieredMemoryStore, namespace: Any) -> Any:
    return create_agent(
        ToolCallingFake(messages=_script()),
        create_memory_tools(store, namespace=namespace, include=["save_memory", "search_memory"]),
        context_schema=Ctx,
    )


def test_template_is_filled_from_the_runtime_context(store: TieredMemoryStore) -> None:
    store.add("The user plays the oboe", namespace="dave")  # another user's: must not be found
    agent = _agent(store, "{user_id}")
    [saved] = _tool_messages(
        agent.invoke({"messages": [("user", "I play the oboe")]}, context=Ctx(user_id="carol"))
    )
    assert saved.status == "success", saved.content
    [entry] = store.list(namespace="carol")
    assert entry.content == "The user plays the oboe"
    assert saved.content == f"Saved memory {entry.id}."

    [found] = _tool_messages(
        agent.invoke({"messages": [("user", "What do I play?")]}, context=Ctx(user_id="carol"))
    )
    assert found.status == "success"
    assert f"[{entry.id}]" in found.content
    assert found.content.count("\n") == 0  # dave's entry is in another namespace


async def test_async_agent_reads_the_context_too(store: TieredMemoryStore) -> None:
    agent = _agent(store, ("user", "{user_id}"))
    [saved] = _tool_messages(
        await agent.ainvoke(
            {"messages": [("user", "I play the oboe")]}, context=Ctx(user_id="carol")
        )
    )
    assert saved.status == "success", saved.content
    assert [e.content for e in store.list(namespace="user.carol")] == ["The user plays the oboe"]


def test_context_wins_over_configurable(store: TieredMemoryStore) -> None:
    agent = _agent(store, "{user_id}")
    agent.invoke(
        {"messages": [("user", "I play the oboe")]},
        {"configurable": {"user_id": "mallory"}},
        context=Ctx(user_id="carol"),
    )
    assert store.count(namespace="carol") == 1
    assert store.count(namespace="mallory") == 0


def test_missing_field_is_told_to_the_model(store: TieredMemoryStore) -> None:
    agent = _agent(store, "{tenant}.{user_id}")
    [refused] = _tool_messages(
        agent.invoke({"messages": [("user", "I play the oboe")]}, context=Ctx(user_id="carol"))
    )
    assert refused.status == "error"
    assert "'tenant'" in refused.content and "context" in refused.content
    assert store.count() == 0


@pytest.mark.parametrize("namespace", ["{user_id}", ("{user_id}",)])
def test_outside_a_graph_configurable_still_counts(
    store: TieredMemoryStore, namespace: Any
) -> None:
    [save] = create_memory_tools(store, namespace=namespace, include=["save_memory"])
    msg = save.invoke(
        {
            "name": "save_memory",
            "args": {"content": "The user likes figs"},
            "id": "c",
            "type": "tool_call",
        },
        {"configurable": {"user_id": "erin"}},
    )
    assert msg.status == "success"
    assert store.count(namespace="erin") == 1
