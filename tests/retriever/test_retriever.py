"""`TieredMemoryRetriever`: documents, metadata, per-call overrides, isolation, async, LCEL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_tests.integration_tests import RetrieversIntegrationTests

from langchain_tiered_memory import (
    InvalidInput,
    MemoryConfig,
    MemoryTier,
    MemoryType,
    ProvenanceLevel,
    TieredMemoryRetriever,
    TieredMemoryStore,
)
from langchain_tiered_memory.retriever import hit_to_document
from tests.helpers import Clock, HashEmbeddings

PETS = [
    "Alice has a pet cat named Tom who sleeps all day.",
    "Alice adopted a pet dog called Rex last spring.",
    "Alice keeps a pet goldfish in a bowl on her desk.",
    "Alice's pet parrot can say hello.",
    "Alice wants a pet rabbit for her birthday.",
]
OTHER = [
    "Bob works as a carpenter in Lisbon.",
    "The quarterly report is due on Friday.",
    "Carol prefers dark mode in every editor.",
]


def _fill(store: TieredMemoryStore, namespace: str = "alice") -> None:
    store.add_many(PETS + OTHER, namespace=namespace)


class TestStandardRetrieverSuite(RetrieversIntegrationTests):
    """LangChain's own retriever suite, on a real SQLite file."""

    store: TieredMemoryStore

    @pytest.fixture(scope="class", autouse=True)
    @classmethod
    def _store(cls, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
        path = tmp_path_factory.mktemp("suite") / "memory.db"
        store = TieredMemoryStore(
            f"sqlite:///{path}", embeddings=HashEmbeddings(),
            config=MemoryConfig(rerank_enabled=False),
        )
        _fill(store)
        cls.store = store
        yield
        store.close()

    @property
    def retriever_constructor(self) -> type[TieredMemoryRetriever]:
        return TieredMemoryRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"store": self.store, "namespace": "alice", "k": 4}

    @property
    def retriever_query_example(self) -> str:
        return "What pets does Alice have?"


@pytest.fixture
def retriever(store: TieredMemoryStore) -> TieredMemoryRetriever:
    _fill(store)
    return TieredMemoryRetriever(store=store, namespace="alice", k=3)


def test_documents_carry_entry_id_and_metadata(store: TieredMemoryStore, clock: Clock) -> None:
    entry = store.add(
        "Alice has a pet cat named Tom", namespace="alice", key="pets.cat",
        type=MemoryType.USER, tags=["pets"], source=ProvenanceLevel.USER_STATED,
        metadata={"turn": "D1:3"}, event_at=clock.now, pinned=True,
    )
    store.add_many([*OTHER, "Cats are popular pets", "Dogs bark"], namespace="alice")
    [doc] = TieredMemoryRetriever(store=store, namespace="alice", k=1).invoke("Alice cat Tom")
    assert doc.id == entry.id
    assert doc.page_content == entry.content
    md = doc.metadata
    assert md["turn"] == "D1:3"
    assert md["tier"] == "semantic" and md["type"] == "user"
    assert md["provenance"] == "user_stated"
    assert md["key"] == "pets.cat" and md["namespace"] == "alice" and md["tags"] == ["pets"]
    assert md["pinned"] is True and md["version"] == 1 and md["knowledge"] is False
    assert md["created_at"] == clock.now.isoformat() and md["event_at"] == clock.now.isoformat()
    assert md["score"] > 0
    assert {"rrf", "importance", "tier_weight", "bm25", "vector"} <= set(md["scores"])
    hit = store.search("Alice cat Tom", namespace="alice", k=1, reinforce=False)[0]
    assert md["score"] == pytest.approx(hit.score)


def test_k_and_filters_overridable_per_invoke(
    store: TieredMemoryStore, retriever: TieredMemoryRetriever
) -> None:
    assert len(retriever.invoke("pet")) == 3
    assert len(retriever.invoke("pet", k=1)) == 1
    assert len(retriever.invoke("pet", k=5)) == 5
    tagged = store.add("Alice's pet hamster is called Nibbles", namespace="alice", tags=["new"])
    assert [d.id for d in retriever.invoke("pet", tags=["new"])] == [tagged.id]
    store.archive(tagged.id)
    docs = retriever.invoke("pet hamster", tiers=[MemoryTier.ARCHIVAL], k=5)
    assert [d.id for d in docs] == [tagged.id] and docs[0].metadata["tier"] == "archival"
    assert retriever.invoke("pet", types=["user"]) == []
    # The instance itself is unchanged by an override.
    assert retriever.k == 3 and retriever.tags is None
    assert len(retriever.invoke("pet")) == 3
    keyword = retriever.invoke("pet", mode="keyword", k=5)
    assert {d.metadata["scores"].get("vector") for d in keyword} == {None}


def test_unknown_override_is_rejected(retriever: TieredMemoryRetriever) -> None:
    with pytest.raises(InvalidInput, match="namespace"):
        retriever.invoke("pet", namespace="bob")
    with pytest.raises(InvalidInput):
        retriever.invoke("pet", k=-1)


def test_constructor_filters(store: TieredMemoryStore) -> None:
    _fill(store)
    e = store.add("Alice's pet snake", namespace="alice", tags=["reptile"])
    r = TieredMemoryRetriever(store=store, namespace="alice", tags=["reptile"], mode="keyword")
    assert [d.id for d in r.invoke("pet")] == [e.id]


def test_namespace_isolation(store: TieredMemoryStore) -> None:
    _fill(store, "alice")
    secret = store.add("Bob's pet tarantula is named Fluffy", namespace="bob")
    alice = TieredMemoryRetriever(store=store, namespace="alice", k=20)
    assert all(d.metadata["namespace"] == "alice" for d in alice.invoke("pet tarantula Fluffy"))
    assert secret.id not in {d.id for d in alice.invoke("Bob pet tarantula Fluffy")}
    bob = TieredMemoryRetriever(store=store, namespace="bob", k=20)
    assert [d.id for d in bob.invoke("pet tarantula")] == [secret.id]


def test_reinforce_flag(store: TieredMemoryStore, retriever: TieredMemoryRetriever) -> None:
    docs = retriever.invoke("pet cat Tom", k=1, reinforce=False)
    assert store.get(docs[0].id).access_count == 0  # type: ignore[union-attr]
    retriever.invoke("pet cat Tom", k=1)
    assert store.get(docs[0].id).access_count == 1  # type: ignore[union-attr]


async def test_async_path_uses_the_store_async_api(
    store: TieredMemoryStore, retriever: TieredMemoryRetriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []
    original = store.asearch

    async def recording(query: str, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return await original(query, **kwargs)

    def no_sync(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("the async path must not call the sync retriever")

    monkeypatch.setattr(store, "asearch", recording)
    monkeypatch.setattr(retriever, "_get_relevant_documents", no_sync)
    docs = await retriever.ainvoke("pet", k=2, tags=None)
    assert len(docs) == 2 and calls[0]["k"] == 2 and calls[0]["namespace"] == "alice"
    many = await asyncio.gather(*(retriever.ainvoke("pet", k=n) for n in (1, 2, 3)))
    assert [len(d) for d in many] == [1, 2, 3]


async def test_async_matches_sync(store: TieredMemoryStore) -> None:
    _fill(store)
    r = TieredMemoryRetriever(store=store, namespace="alice", k=4, reinforce=False)
    assert [d.id for d in await r.ainvoke("pet dog")] == [d.id for d in r.invoke("pet dog")]


def test_lcel_chain(retriever: TieredMemoryRetriever) -> None:
    def format_docs(docs: list[Document]) -> str:
        return "\n".join(f"- {d.page_content}" for d in docs)

    text = (retriever | format_docs).invoke("pet cat")
    # Only the cat memory: "pet" is in most memories, so it alone keeps none in the results.
    assert text == "- Alice has a pet cat named Tom who sleeps all day."
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Memories:\n{context}"), ("human", "{question}")]
    )
    chain = {"context": retriever | RunnableLambda(format_docs),
             "question": RunnablePassthrough()} | prompt
    messages = chain.invoke("what pet cat?").to_messages()
    assert "Tom" in str(messages[0].content) and messages[1].content == "what pet cat?"


def test_langsmith_params_reach_callbacks(retriever: TieredMemoryRetriever) -> None:
    seen: dict[str, Any] = {}

    class Spy(BaseCallbackHandler):
        def on_retriever_start(self, serialized: Any, query: str, **kwargs: Any) -> None:
            seen.update(kwargs.get("metadata") or {})

    retriever.invoke("pet", config={"callbacks": [Spy()]})
    assert seen["ls_retriever_name"] == "tieredmemory"
    assert seen["ls_vector_store_provider"] == "TieredMemoryStore"
    assert seen["ls_embedding_provider"] == "HashEmbeddings"
    assert seen["ls_embedding_model"] == "test/hash-64"


def test_include_knowledge(store: TieredMemoryStore) -> None:
    _fill(store)
    store.add_knowledge(
        ["Pet insurance covers cats and dogs up to age ten.", "Parking is free.",
         "The office opens at nine."],
        namespace="alice", source="handbook.md",
    )
    plain = TieredMemoryRetriever(store=store, namespace="alice", k=10)
    assert not any(d.metadata["knowledge"] for d in plain.invoke("pet insurance cats dogs"))
    docs = plain.invoke("pet insurance cats dogs", include_knowledge=True)
    kb = [d for d in docs if d.metadata["knowledge"]]
    assert kb and kb[0].metadata["source"] == "handbook.md"
    assert any(not d.metadata["knowledge"] for d in docs)
    scores = [d.metadata["score"] for d in docs]
    assert scores == sorted(scores, reverse=True)


async def test_include_knowledge_async(store: TieredMemoryStore) -> None:
    _fill(store)
    store.add_knowledge(["Pet insurance covers rabbits.", "Parking is free.", "Tea is free."],
                        namespace="alice")
    r = TieredMemoryRetriever(store=store, namespace="alice", k=10, include_knowledge=True)
    docs = await r.ainvoke("pet insurance rabbits")
    assert any(d.metadata["knowledge"] for d in docs)


def test_hit_to_document_is_json_friendly(store: TieredMemoryStore) -> None:
    import json

    store.add("Alice's pet cat", namespace="alice")
    [hit] = store.search("pet cat", namespace="alice", k=1)
    json.dumps(hit_to_document(hit).metadata)


def test_real_model_ranks_the_answer_first(tmp_path: Path, minilm: Any) -> None:
    with TieredMemoryStore(
        f"sqlite:///{tmp_path / 'm.db'}", embeddings=minilm,
        config=MemoryConfig(rerank_enabled=False),
    ) as store:
        _fill(store)
        retriever = TieredMemoryRetriever(store=store, namespace="alice", k=3)
        docs = retriever.invoke("Which animal says hello?")
        assert "parrot" in docs[0].page_content
