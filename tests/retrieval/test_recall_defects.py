"""Regression tests for the recall defects found on unseen conversations (issue 12).

1. reinforcement reordered ties; 2. the gate let a word in most memories through; 3. BM25 went
negative in small namespaces; 4. superseded versions came back; 5. no relevance floor;
6. episodes had their own RRF and no gate.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from langchain_tiered_memory import (
    Episode,
    MemoryConfig,
    TieredMemoryRetriever,
    TieredMemoryStore,
)
from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.retrieval import KeywordIndex, discriminative_tokens
from tests.helpers import Clock, HashEmbeddings


@pytest.fixture
def real_store(tmp_path: Path, minilm: LocalEmbeddings, clock: Clock) -> Iterator[TieredMemoryStore]:
    """A store on a real SQLite file with the real MiniLM (the floor is about real similarity)."""
    s = TieredMemoryStore(
        f"sqlite:///{tmp_path}/m.db", embeddings=minilm,
        config=MemoryConfig(rerank_enabled=False), clock=clock,
    )
    yield s
    s.close()


def test_reinforcement_never_reorders_equal_relevance(
    store: TieredMemoryStore, clock: Clock
) -> None:
    """Defect 1: earlier hits won ties through float noise in effective importance."""
    # Three memories equally relevant to the query (same words, so same BM25 and similarity).
    ids = [e.id for e in store.add_many(
        ["tea at noon daily"] * 3 + ["coffee at dawn", "juice with lunch"], namespace="u"
    )]
    first = [h.entry.id for h in store.search("tea noon", namespace="u", reinforce=False)]
    assert set(first[:3]) == set(ids[:3])
    for _ in range(5):
        clock.advance(seconds=7)
        # Reinforce only the last of the three: it is now "fresher" by seconds, which is noise.
        store.reinforce([first[2]], namespace="u")
        again = [h.entry.id for h in store.search("tea noon", namespace="u", reinforce=True)]
        assert again[:3] == first[:3]


def test_decay_still_reorders_by_real_differences(store: TieredMemoryStore, clock: Clock) -> None:
    old = store.add("tea at noon daily", namespace="u", importance=0.5)
    clock.advance(days=60)
    new = store.add("tea at noon daily", namespace="u", importance=0.5)
    hits = store.search("tea noon", namespace="u", reinforce=False)
    assert [h.entry.id for h in hits] == [new.id, old.id]
    assert hits[0].scores["importance"] > hits[1].scores["importance"]


def test_a_word_in_most_memories_is_never_discriminative() -> None:
    """Defect 2: with "user" in 14 of 18 memories, the old idf floor kept all 14 past the gate."""
    index = KeywordIndex()
    for i in range(14):
        index.add(f"u{i}", ["user", f"topic{i}"])
    for i in range(4):
        index.add(f"o{i}", ["other", f"topic{i + 14}"])
    disc = discriminative_tokens(
        ["user", "topic3"], idf=index.idf, max_idf=index.max_idf(), min_idf_ratio=0.2,
        document_frequency=index.document_frequency, n_docs=len(index),
    )
    assert disc == {"topic3"}


@pytest.fixture
def gated_store(tmp_path: Path, hash_embeddings: HashEmbeddings) -> Iterator[TieredMemoryStore]:
    """Bag-of-words vectors make texts sharing "user" similar: a strict similarity gate keeps
    these tests about the keyword side of the gate."""
    s = TieredMemoryStore(
        f"sqlite:///{tmp_path}/g.db", embeddings=hash_embeddings,
        config=MemoryConfig(rerank_enabled=False, gate_min_similarity=0.95),
    )
    yield s
    s.close()


def test_gate_drops_memories_held_up_by_a_common_word(gated_store: TieredMemoryStore) -> None:
    store = gated_store
    greek = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
             "kappa", "lambda", "mu", "nu", "xi"]
    store.add_many([f"user note number {w}" for w in greek] + ["plain fact about omicron", "plain fact about pi", "plain fact about rho",
          "plain fact about sigma"], namespace="g")
    hits = store.search("user omicron", namespace="g", reinforce=False)
    assert [h.entry.content for h in hits] == ["plain fact about omicron"]


def test_small_namespace_ranks_the_matching_memory_first(store: TieredMemoryStore) -> None:
    """Defect 3: in a 3-memory namespace BM25 went negative and Lyon ranked first."""
    store.add("Alice prefers dark mode", namespace="alice", key="ui.theme")
    light = store.add("Alice prefers light mode", namespace="alice", key="ui.theme")
    store.add("Alice lives in Lyon", namespace="alice")
    hits = store.search("what does Alice prefer", namespace="alice", reinforce=False)
    assert hits[0].entry.id == light.id
    assert all(h.scores.get("bm25", 0.0) >= 0 for h in hits)
    assert "Alice prefers dark mode" not in [h.entry.content for h in hits]


def test_superseded_versions_stay_out_unless_history_is_asked(store: TieredMemoryStore) -> None:
    """Defect 4: the retriever returned v1 (archival) beside v2, unmarked."""
    v1 = store.add("Alice prefers dark mode", namespace="alice", key="ui.theme")
    v2 = store.add("Alice prefers light mode", namespace="alice", key="ui.theme")
    retriever = TieredMemoryRetriever(store=store, namespace="alice", k=5)
    docs = retriever.invoke("Alice mode")
    assert [d.id for d in docs] == [v2.id]
    assert docs[0].metadata["status"] == "live" and docs[0].metadata["version"] == 2
    docs = retriever.invoke("Alice mode", history=True)
    assert [d.id for d in docs] == [v2.id, v1.id]
    old = docs[1].metadata
    assert old["status"] == "superseded" and old["superseded_by"] == v2.id and old["version"] == 1
    assert [h.entry.id for h in store.search("Alice mode", namespace="alice")] == [v2.id]


@pytest.mark.parametrize("query", ["qwertyuiop", "zzzz nothing"])
def test_nonsense_queries_return_nothing(real_store: TieredMemoryStore, query: str) -> None:
    """Defect 5: no relevance floor, so every query returned its nearest neighbours."""
    real_store.add_many(
        ["Alice prefers dark mode in her editor", "Alice's cat is called Miso",
         "Alice works on the billing service"], namespace="alice",
    )
    assert real_store.search(query, namespace="alice") == []
    assert real_store.search(query, namespace="alice", mode="vector") == []
    # Keyword mode is the unfloored BM25 baseline; the floor can be switched off per call.
    assert len(real_store.search(query, namespace="alice", min_relevance=0)) == 3


def test_a_true_paraphrase_still_hits(real_store: TieredMemoryStore) -> None:
    real_store.add_many(
        ["Alice's cat is called Miso", "Alice works on the billing service",
         "The quarterly report is due on Friday"], namespace="alice",
    )
    hits = real_store.search("what is the name of her kitten?", namespace="alice")
    assert hits and hits[0].entry.content == "Alice's cat is called Miso"


def test_episode_search_goes_through_the_gate(gated_store: TieredMemoryStore) -> None:
    """Defect 6: episodes had their own RRF and no gate or floor."""
    for i, summary in enumerate(["user talked about omicron", "user talked about sigma",
                                 "user talked about rho"]):
        gated_store.add_episode(Episode(session_key=f"s{i}", summary=summary, message_range_start=0,
                                  message_range_end=1, entity_ids=(), importance=0.5,
                                  namespace="e"))
    found = gated_store.search_episodes("user omicron", namespace="e")
    assert [ep.summary for ep, _ in found] == ["user talked about omicron"]


def test_fusion_is_a_config_choice(tmp_path: Path) -> None:
    emb = HashEmbeddings()
    for fusion in ("linear", "rrf"):
        s = TieredMemoryStore(f"sqlite:///{tmp_path}/{fusion}.db", embeddings=emb,
                              config=MemoryConfig.from_dict({"memory.fusion": fusion,
                                                             "memory.rerankEnabled": False}))
        s.add_many(["red apples grow here", "green pears grow there"], namespace="f")
        hits = s.search("red apples", namespace="f", reinforce=False)
        assert hits[0].entry.content == "red apples grow here"
        if fusion == "rrf":
            assert hits[0].scores["fused"] == pytest.approx(2 / 61)
        s.close()


def test_chinese_queries_lean_less_on_the_english_model() -> None:
    from langchain_tiered_memory.retrieval.fusion import FusionInput, linear_fusion
    from langchain_tiered_memory.text import is_mostly_cjk

    assert is_mostly_cjk("她的猫叫什么名字？") and is_mostly_cjk("她用 iPhone 吗")
    assert not is_mostly_cjk("what is her cat called") and not is_mostly_cjk("123 ?!")
    inp = {"keyword": [("a", 2.0)], "vector": [("b", 0.9), ("a", 0.1)],
           "similarity": {"a": 0.1, "b": 0.9}, "coverage": {"a": 1.0, "b": 0.0}}
    config = MemoryConfig()
    english = linear_fusion(FusionInput(**inp), config)
    chinese = linear_fusion(FusionInput(**inp, cjk=True), config)
    assert english["b"] == pytest.approx(config.linear_vector_weight)
    assert chinese["b"] == pytest.approx(config.linear_cjk_vector_weight)
    assert chinese["a"] == english["a"]
