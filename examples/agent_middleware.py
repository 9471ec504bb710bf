"""`create_agent` with `TieredMemoryMiddleware`: memory across sessions, with no code in the loop.

Runs offline: the chat model is langchain-core's scripted fake, emitting the tool call a real
model would. The user is named by the run's ``context`` (``context_schema=Context``), so one
agent serves every user, each in their own namespace.

1. Session 1: the user says what they prefer. The agent looks in memory (``search_memory``,
   namespace filled from the runtime context) and answers. The middleware records the turn in
   the session's working memory.
2. The session ends: consolidation distils it into a SEMANTIC memory.
3. Session 2 starts with an empty working buffer; the system message the model receives
   already holds the consolidated fact.

Run it: ``python examples/agent_middleware.py``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import Field

from langchain_tiered_memory import MemoryConfig, MemoryTier, TieredMemoryStore
from langchain_tiered_memory.consolidation import ConsolidationScheduler
from langchain_tiered_memory.middleware import TieredMemoryMiddleware


@dataclass
class Context:
    """Who the run is for."""

    user_id: str


class ScriptedModel(GenericFakeChatModel):
    """A scripted chat model that accepts tools and keeps the prompts it was given."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def _script() -> Iterator[AIMessage]:
    yield AIMessage(
        content="",
        tool_calls=[{"name": "search_memory", "args": {"query": "drinks"}, "id": "call-1"}],
    )
    yield AIMessage(content="Noted: green tea rather than coffee.")
    yield AIMessage(content="Green tea, as you told me last time.")


def main(db_path: str | Path | None = None, embeddings: Embeddings | None = None) -> dict[str, Any]:
    """Run both sessions; print and return what the model saw."""
    if db_path is None:
        db_path = Path(tempfile.mkdtemp()) / "memory.db"
    store = TieredMemoryStore(
        f"sqlite:///{db_path}", embeddings=embeddings, config=MemoryConfig(rerank_enabled=False)
    )
    scheduler = ConsolidationScheduler(llm=None)  # offline: rule-based extraction
    memory = TieredMemoryMiddleware(
        store, namespace="user.{user_id}", scheduler=scheduler, tools=True
    )
    model = ScriptedModel(messages=_script())
    agent = create_agent(
        model,
        tools=[],
        system_prompt="You are a helpful assistant.",
        middleware=[memory],
        context_schema=Context,
    )
    carol = Context(user_id="carol")

    session1 = {"configurable": {"thread_id": "session-1"}}
    out = agent.invoke(
        {"messages": [HumanMessage("I prefer green tea over coffee.")]}, session1, context=carol
    )
    print("session 1:", out["messages"][-1].content)
    memory.end_session(context=carol, config=session1, wait=True)
    semantic = [e.content for e in store.list(namespace="user.carol", tier=MemoryTier.SEMANTIC)]
    print("consolidated:", semantic)

    session2 = {"configurable": {"thread_id": "session-2"}}
    out = agent.invoke(
        {"messages": [HumanMessage("What should I drink this afternoon?")]},
        session2,
        context=carol,
    )
    system = next(m.text for m in model.prompts[-1] if m.type == "system")
    print("session 2 system message:\n" + system)
    print("session 2:", out["messages"][-1].content)
    scheduler.close()
    store.close()
    return {"semantic": semantic, "system": system, "answer": out["messages"][-1].content}


if __name__ == "__main__":
    main()
