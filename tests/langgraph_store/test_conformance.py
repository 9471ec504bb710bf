"""What LangGraph users rely on from a `BaseStore`, as `InMemoryStore`'s own suite checks it.

One test per behaviour of langgraph's ``libs/checkpoint/tests/test_store.py`` that the adapter
used to miss: ranked query search with pages (no relevance floor), ``index["embed"]`` honoured,
``index_config``, per-field and per-put ``index`` scoring, unindexed items scored ``None``, raw
``PutOp`` under the ``langgraph`` root, and scores on `InMemoryStore`'s scale.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest
from langgraph.store.base import InvalidNamespaceError, PutOp
from langgraph.store.memory import InMemoryStore

from langchain_tiered_memory import EmbeddingError, TieredMemoryStore
from langchain_tiered_memory.embeddings import LocalEmbeddings
from langchain_tiered_memory.langgraph_store import TieredMemoryBaseStore
from tests.helpers import HashEmbeddings

NS = ("test",)


class CharEmbeddings(HashEmbeddings):
    """Character trigram counts: "uuu" and "xxx" are far apart, "long" is near "longer".

    Trigrams are bucketed by CRC-32, not ``hash()``: a string's ``hash()`` changes with
    ``PYTHONHASHSEED``, and under one seed in twelve (7) two scripts' trigrams collided so that
    ``test_non_ascii`` ranked another document first (it failed one CI run).
    """

    def _one(self, text: str) -> list[float]:
        v = np.zeros(self.dim, dtype=np.float32)
        t = f"  {text.lower()}  "
        for i in range(len(t) - 2):
            v[zlib.crc32(t[i : i + 3].encode()) % self.dim] += 1.0
        return (v / (np.linalg.norm(v) or 1.0)).tolist()


@pytest.fixture
def chars() -> CharEmbeddings:
    return CharEmbeddings(dim=256)


def _pair(store: TieredMemoryStore, **index: object) -> tuple[InMemoryStore, TieredMemoryBaseStore]:
    return InMemoryStore(index=dict(index)), TieredMemoryBaseStore(store, index=dict(index))  # type: ignore[arg-type]


def test_query_search_returns_limit_items_ranked_and_pages(store: TieredMemoryStore) -> None:
    bs = TieredMemoryBaseStore(store)
    for i in range(5):
        bs.put(NS, f"doc{i}", {"text": f"test document number {i}"})
    page1 = bs.search(NS, query="test", limit=2)
    page2 = bs.search(NS, query="test", limit=2, offset=2)
    everything = bs.search(NS, query="test", limit=10)
    assert len(page1) == len(page2) == 2 and len(everything) == 5
    assert {r.key for r in page1}.isdisjoint(r.key for r in page2)
    assert [r.key for r in everything][:4] == [r.key for r in page1 + page2]
    scores = [r.score for r in everything]
    assert all(isinstance(s, float) for s in scores) and scores == sorted(scores, reverse=True)


def test_no_relevance_floor(store: TieredMemoryStore) -> None:
    bs = TieredMemoryBaseStore(store)
    bs.put(NS, "a", {"text": "red apple"})
    bs.put(NS, "b", {"text": "blue car"})
    found = bs.search(NS, query="zebra xylophone", limit=2)  # shares no word with either
    assert [r.score is not None for r in found] == [True, True]


def test_scores_are_in_memory_stores_cosine_similarities(
    store: TieredMemoryStore, chars: CharEmbeddings
) -> None:
    ref, ours = _pair(store, dims=256, embed=chars)
    docs = {
        "doc1": {"text": "red apple", "color": "red"},
        "doc2": {"text": "longer text document", "n": 3},
        "doc3": {"text": "short text about birds"},  # ASCII: older InMemoryStores escape "$"
        "doc4": {"body": "text in body field", "nested": {"a": ["x", "y"]}},
    }
    for s in (ref, ours):
        for key, value in docs.items():
            s.put(NS, key, value)
    for query in ("long text", "apple", "birds", "body"):
        expected = [(r.key, r.score) for r in ref.search(NS, query=query)]
        got = [(r.key, r.score) for r in ours.search(NS, query=query)]
        assert [k for k, _ in got] == [k for k, _ in expected]
        assert [s for _, s in got] == pytest.approx([s for _, s in expected], abs=1e-5)


def test_scale_with_the_real_model(store: TieredMemoryStore, minilm: LocalEmbeddings) -> None:
    """The issue's case: the adapter gave 0.066 where InMemoryStore gave 0.537."""
    ref, ours = _pair(store, dims=384, embed=minilm)
    for s in (ref, ours):
        s.put(("users", "alice"), "food", {"text": "Alice loves pizza with olives"})
        s.put(("users", "alice"), "pet", {"text": "Alice has a cat named Tom"})
    [r1, r2] = ref.search(("users",), query="what food does Alice like?")
    [o1, o2] = ours.search(("users",), query="what food does Alice like?")
    assert (o1.key, o2.key) == (r1.key, r2.key) == ("food", "pet")
    assert o1.score == pytest.approx(r1.score, abs=1e-4) and o1.score > 0.3
    assert o2.score == pytest.approx(r2.score, abs=1e-4)


def test_index_embed_is_used(store: TieredMemoryStore, chars: CharEmbeddings) -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> list[list[float]]:
        calls.append(list(texts))
        return chars.embed_documents(texts)

    bs = TieredMemoryBaseStore(store, index={"dims": 256, "embed": embed})
    bs.put(NS, "doc1", {"text": "zany zebra Xerxes"})
    bs.put(NS, "doc2", {"text": "something about dogs"})
    [top, _] = bs.search(NS, query="Zany Xerxes")
    assert top.key == "doc1"
    assert ["Zany Xerxes"] in calls  # the query went through the configured embedder
    assert any('{"text": "zany zebra Xerxes"}' in batch for batch in calls)
    n = len(calls)
    bs.search(NS, query="Zany Xerxes")
    assert len(calls) == n + 1  # document vectors are kept; only the query is embedded again


def test_wrong_dims_is_a_clear_error(store: TieredMemoryStore, chars: CharEmbeddings) -> None:
    bs = TieredMemoryBaseStore(store, index={"dims": 999, "embed": chars})
    bs.put(NS, "a", {"text": "hello"})
    with pytest.raises(EmbeddingError, match="dims"):
        bs.search(NS, query="hello")


def test_index_config_is_exposed(store: TieredMemoryStore, chars: CharEmbeddings) -> None:
    bs = TieredMemoryBaseStore(store, index={"dims": 256, "embed": chars, "fields": ["text"]})
    assert bs.index_config["dims"] == 256
    assert bs.index_config["embed"] is chars
    assert bs.index_config["fields"] == ["text"]
    default = TieredMemoryBaseStore(store)
    assert default.index_config["embed"] is store.embeddings
    assert default.index_config["fields"] == ["$"]
    assert default.index_config["dims"] == len(store.embeddings.embed_query("x"))


def test_updating_an_item_updates_its_score(
    store: TieredMemoryStore, chars: CharEmbeddings
) -> None:
    bs = TieredMemoryBaseStore(store, index={"dims": 256, "embed": chars})
    bs.put(NS, "doc1", {"text": "zany zebra Xerxes"})
    bs.put(NS, "doc2", {"text": "something about dogs"})
    before = bs.search(NS, query="Zany Xerxes")[0]
    assert before.key == "doc1" and before.score is not None
    bs.put(NS, "doc1", {"text": "new text about dogs"})
    after = next(r.score for r in bs.search(NS, query="Zany Xerxes") if r.key == "doc1")
    assert after is not None and after < before.score
    bs.put(NS, "doc4", {"text": "new text about dogs"}, index=False)
    assert "doc4" not in [r.key for r in bs.search(NS, query="new text about dogs", limit=2)]


async def test_store_fields_and_per_put_index(
    store: TieredMemoryStore, chars: CharEmbeddings
) -> None:
    bs = TieredMemoryBaseStore(
        store, index={"dims": 256, "embed": chars, "fields": ["key0", "key1", "key3"]}
    )
    await bs.aput(NS, "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    await bs.aput(NS, "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    a, b = await bs.asearch(NS, query="xxx")
    assert a.key != b.key and a.score == pytest.approx(b.score, abs=1e-5)
    first, second = await bs.asearch(NS, query="uuu")
    assert first.key == "doc2" and first.score > second.score  # type: ignore[operator]
    unindexed = await bs.asearch(NS, query="www")  # key2 is not indexed
    assert len(unindexed) == 2 and all(r.score < a.score for r in unindexed)  # type: ignore[operator]

    per_put = TieredMemoryBaseStore(store, index={"dims": 256, "embed": chars, "fields": ["key17"]})
    ns = ("other",)
    await per_put.aput(
        ns, "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc"}, index=["key0", "key1"]
    )
    await per_put.aput(
        ns, "doc4", {"key0": "eee", "key1": "bbb", "key3": "ggg"}, index=["key1", "key3"]
    )
    hits = await per_put.asearch(ns, query="aaa")
    assert hits[0].key == "doc3" and hits[0].score > hits[1].score  # type: ignore[operator]
    hits = await per_put.asearch(ns, query="ggg")
    assert hits[0].key == "doc4" and hits[0].score > hits[1].score  # type: ignore[operator]
    x, y = await per_put.asearch(ns, query="bbb")
    assert x.score == pytest.approx(y.score)
    await per_put.aput(ns, "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    await per_put.aput(ns, "doc6", {"other": "jjj"})  # the store's fields find nothing
    hits = await per_put.asearch(ns, query="hhh")
    assert len(hits) == 4
    assert {r.key: r.score for r in hits if r.score is None} == {"doc5": None, "doc6": None}
    assert all(r.score is not None for r in hits[:2])  # scored items first


def test_raw_put_op_under_the_langgraph_root(store: TieredMemoryStore) -> None:
    bs = TieredMemoryBaseStore(store)
    doc = {"foo": "bar"}
    with pytest.raises(InvalidNamespaceError):
        bs.put(("langgraph", "foo"), "bar", doc)  # the public put refuses it, as LangGraph does
    bs.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    item = bs.get(("langgraph", "foo"), "bar")
    assert item is not None and item.value == doc
    assert bs.search(("langgraph", "foo"))[0].value == doc
    assert bs.search(("langgraph", "foo"), query="bar")[0].value == doc
    bs.delete(("langgraph", "foo"), "bar")
    assert bs.get(("langgraph", "foo"), "bar") is None


async def test_raw_put_op_under_the_langgraph_root_async(store: TieredMemoryStore) -> None:
    bs = TieredMemoryBaseStore(store)
    await bs.abatch([PutOp(("langgraph", "foo"), "bar", {"foo": "bar"})])
    assert (await bs.asearch(("langgraph", "foo")))[0].value == {"foo": "bar"}
    await bs.adelete(("langgraph", "foo"), "bar")
    assert await bs.aget(("langgraph", "foo"), "bar") is None


def test_query_with_filters(store: TieredMemoryStore, chars: CharEmbeddings) -> None:
    bs = TieredMemoryBaseStore(store, index={"dims": 256, "embed": chars})
    docs = [
        ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
        ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
        ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
        ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ]
    for key, value in docs:
        bs.put(NS, key, value)
    assert [r.key for r in bs.search(NS, query="apple", filter={"color": "red"})] == [
        "doc1",
        "doc2",
    ]
    assert bs.search(NS, query="car", filter={"color": "red"})[0].key == "doc2"
    assert len(bs.search(NS, query="bbbbluuu", filter={"score": {"$gt": 3.2}})) == 3
    hits = bs.search(NS, query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in hits] == ["doc3"]


def test_non_ascii(store: TieredMemoryStore, chars: CharEmbeddings) -> None:
    bs = TieredMemoryBaseStore(store, index={"dims": 256, "embed": chars})
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, 1):
        bs.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, 1):
        assert bs.search(("user_123", "memories"), query=text)[0].key == str(i)


def test_items_that_read_alike_are_not_retired(tmp_path: Path) -> None:
    """Distinct keys are distinct items: the store's contradiction resolution must not apply."""
    with TieredMemoryStore(f"sqlite:///{tmp_path / 'm.db'}", embeddings=HashEmbeddings()) as store:
        bs = TieredMemoryBaseStore(store)
        for i in range(5):
            bs.put(NS, f"doc{i}", {"text": f"test document number {i}"})
        assert len(bs.search(NS, query="test", limit=10)) == 5
        assert len(bs.search(NS, limit=10)) == 5
        assert store.count(namespace="test") == 5
