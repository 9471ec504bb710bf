"""A LangGraph graph whose long-term memory is the tiered store, through the BaseStore adapter.

The nodes use only LangGraph's store API (``runtime.store.put`` / ``search``), exactly as they
would with ``InMemoryStore`` or ``PostgresStore``; swapping in `TieredMemoryBaseStore` gives them
hybrid recall, the write guards, versioning and a SQLite file that outlives the process. No model
is needed: the "remember" node stores sentences that start with "remember that", and the
"answer" node replies with what it recalls.

Run it: ``python examples/basestore_graph.py``.
"""

from __future__ import annotations

import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from langchain_core.embeddings import Embeddings
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from langchain_tiered_memory import MemoryConfig, TieredMemoryStore
from langchain_tiered_memory.langgraph_store import TieredMemoryBaseStore


class State(TypedDict, total=False):
    message: str
    reply: str


@dataclass
class Context:
    user_id: str


def remember(state: State, runtime: Runtime[Context]) -> State:
    """Store "remember that ..." sentences as memories of this user."""
    text = state["message"]
    if runtime.store is not None and text.lower().startswith("remember that "):
        fact = text[len("remember that ") :].rstrip(".")
        runtime.store.put(("memories", runtime.context.user_id), str(uuid.uuid4()), {"text": fact})
        return {"reply": f"OK, I'll remember that {fact}."}
    return {}


def answer(state: State, runtime: Runtime[Context]) -> State:
    """Answer a question with the best recalled memory."""
    if state.get("reply") or runtime.store is None:
        return {}
    hits = runtime.store.search(("memories", runtime.context.user_id), query=state["message"])
    recalled = [h.value["text"] for h in hits if h.score is not None]
    return {"reply": f"From memory: {recalled[0]}." if recalled else "I don't know yet."}


def build_graph(store: TieredMemoryStore) -> Any:
    """The two-node graph, compiled with the tiered store as its LangGraph store."""
    builder = StateGraph(State, context_schema=Context)
    builder.add_node("remember", remember)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "answer")
    builder.add_edge("answer", END)
    return builder.compile(store=TieredMemoryBaseStore(store))


def main(db_path: str | Path | None = None, embeddings: Embeddings | None = None) -> list[str]:
    """Run a short conversation; print and return the transcript."""
    if db_path is None:
        db_path = Path(tempfile.mkdtemp()) / "memory.db"
    store = TieredMemoryStore(
        f"sqlite:///{db_path}", embeddings=embeddings, config=MemoryConfig(rerank_enabled=False)
    )
    graph = build_graph(store)
    alice, bob = Context("alice"), Context("bob")
    turns = [
        (alice, "Remember that my sister Chloe lives in Montreal."),
        (alice, "Remember that I play the cello on Sundays."),
        (bob, "Remember that my sister Chloe lives in Oslo."),
        (alice, "Where does my sister live?"),
        (bob, "Where does my sister live?"),
        (alice, "Which instrument do I play?"),
    ]
    transcript = []
    for who, text in turns:
        reply = graph.invoke({"message": text}, context=who)["reply"]
        transcript += [f"{who.user_id}: {text}", f"graph: {reply}"]
    for line in transcript:
        print(line)
    store.close()
    return transcript


if __name__ == "__main__":
    main()
