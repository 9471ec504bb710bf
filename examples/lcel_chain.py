"""An LCEL chain that answers from the tiered memory through `TieredMemoryRetriever`.

Run: ``python examples/lcel_chain.py`` (offline with a scripted model).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _offline import chat_model
from langchain_core.documents import Document
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough

from langchain_tiered_memory import (
    MemoryType,
    TieredMemoryRetriever,
    TieredMemoryStore,
)


def format_docs(docs: list[Document]) -> str:
    return "\n".join(f"- {d.page_content}" for d in docs)


def main() -> None:
    store = TieredMemoryStore(Path(tempfile.mkdtemp(prefix="tiered-memory-lcel-")) / "m.db")
    store.add_many(
        [
            {"content": "Alice prefers dark mode in every editor", "key": "ui.theme",
             "type": MemoryType.USER},
            {"content": "The team deploys on Fridays after the 3pm review"},
            {"content": "The staging database is PostgreSQL 16 on db-staging-2"},
        ],
        namespace="alice",
    )
    retriever = TieredMemoryRetriever(store=store, namespace="alice", k=2)
    prompt = ChatPromptTemplate.from_messages([
        ("system", "Answer from these memories:\n{context}"),
        ("human", "{question}"),
    ])
    chain = (
        {"context": retriever | format_docs, "question": RunnablePassthrough()}
        | prompt
        | chat_model()
        | StrOutputParser()
    )
    for question in ("Which database runs staging?", "What theme does Alice like?"):
        print(f"Q: {question}\nA: {chain.invoke(question)}")
    store.close()


if __name__ == "__main__":
    main()
