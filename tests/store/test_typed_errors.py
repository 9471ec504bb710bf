"""Bad input gets a typed `TieredMemoryError` with a clear message and leaves the store unchanged."""

from __future__ import annotations

import pytest

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.errors import EntryNotFound, InvalidInput, TieredMemoryError


@pytest.fixture
def seeded(store: TieredMemoryStore):
    entry = store.add("Alice prefers dark mode", namespace="A", key="ui.theme", tags=["ui"])
    return store, entry


def _state(store: TieredMemoryStore) -> tuple:
    rows = [e.to_dict() for e in store.list(namespace="A", status=None)]
    return rows, store.count(), len(store.audit_log(namespace="A")), len(store.list_jobs())


BAD_CALLS = {
    # wrong-typed filters and bounds
    "list tier": lambda s, e: s.list(namespace="A", tier="bogus"),
    "list type": lambda s, e: s.list(namespace="A", type="bogus"),
    "list since": lambda s, e: s.list(namespace="A", since="2020-01-01"),
    "list limit": lambda s, e: s.list(namespace="A", limit="x"),
    "list offset": lambda s, e: s.list(namespace="A", offset=-1),
    "list tags str": lambda s, e: s.list(namespace="A", tags="ui"),
    "history key": lambda s, e: s.history(5, namespace="A"),
    "audit ns": lambda s, e: s.audit_log(namespace=5),
    "count ns": lambda s, e: s.count(namespace=""),
    "get ns": lambda s, e: s.get(e.id, namespace=5),
    "get_many str": lambda s, e: s.get_many(e.id, namespace="A"),
    "get_many ints": lambda s, e: s.get_many([1, 2], namespace="A"),
    "get_many ns": lambda s, e: s.get_many([e.id], namespace=None),
    "search tiers": lambda s, e: s.search("dark", namespace="A", tiers=["bogus"]),
    "search types": lambda s, e: s.search("dark", namespace="A", types=["bogus"]),
    "search since": lambda s, e: s.search("dark", namespace="A", since="2020"),
    "search tags str": lambda s, e: s.search("dark", namespace="A", tags="ui"),
    "search now": lambda s, e: s.search("dark", namespace="A", now="today"),
    "episode id": lambda s, e: s.get_episode(5),
    "search_episodes q": lambda s, e: s.search_episodes(5, namespace="A"),
    "search_episodes k": lambda s, e: s.search_episodes("x", namespace="A", k="3"),
    "list_episodes since": lambda s, e: s.list_episodes(namespace="A", since="x"),
    "as_of time": lambda s, e: s.as_of("ui.theme", "2020", namespace="A"),
    "as_of key": lambda s, e: s.as_of(5, e.created_at, namespace="A"),
    "decay now": lambda s, e: s.decay_pass(now="x"),
    "gc now": lambda s, e: s.gc(1, now="x"),
    "touch now": lambda s, e: s.touch(e.id, now="x"),
    "state now": lambda s, e: s.lifecycle_state(e.id, now="x"),
    "context query": lambda s, e: s.context("A", 5),
    "context budget": lambda s, e: s.context("A", "dark", budget="x"),
    "pending limit": lambda s, e: s.pending_reviews("A", limit="x"),
    "export ns": lambda s, e: list(s.export_records(namespace=5)),
    "stats ns": lambda s, e: s.memory_stats(namespace=""),
    "reinforce str": lambda s, e: s.reinforce(e.id, namespace="A"),
    "reinforce ints": lambda s, e: s.reinforce([1], namespace="A"),
    "enqueue ns": lambda s, e: s.enqueue_job("", "session-1"),
    "enqueue ns none": lambda s, e: s.enqueue_job(None, "session-1"),
    "check str": lambda s, e: s.check_contradictions(e.id),
    "check none": lambda s, e: s.check_contradictions(None),
    "chunks id": lambda s, e: s.knowledge_chunks(5),
    # edits
    "update tags str": lambda s, e: s.update(e.id, tags="abc"),
    "update metadata": lambda s, e: s.update(e.id, metadata=5),
    "update source": lambda s, e: s.update(e.id, source="oracle"),
    "update importance": lambda s, e: s.update(e.id, importance=2),
    "update content": lambda s, e: s.update(e.id, content=""),
    "update ns": lambda s, e: s.update(e.id, namespace=""),
    "add episode_id": lambda s, e: s.add("hello there", namespace="A", episode_id=5),
    "add status": lambda s, e: s.add_many([{"content": "hello", "status": "weird"}],
                                          namespace="A"),
    # unknown ids
    "update unknown": lambda s, e: s.update("nope"),
    "delete unknown": lambda s, e: s.delete("nope"),
    "pin int": lambda s, e: s.pin(5),
    "resolve unknown": lambda s, e: s.resolve("nope", keep=e.id),
    "purge none": lambda s, e: s.purge(None),
    "lineage unknown": lambda s, e: s.lineage("nope"),
    "link unknown": lambda s, e: s.link(e.id, "nope"),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_bad_input_is_a_typed_error_and_changes_nothing(seeded, name: str) -> None:
    store, entry = seeded
    before = _state(store)
    with pytest.raises(TieredMemoryError) as info:
        BAD_CALLS[name](store, entry)
    assert str(info.value)
    assert isinstance(info.value, InvalidInput | EntryNotFound), type(info.value)
    assert _state(store) == before


def test_update_with_string_tags_keeps_the_tags(seeded) -> None:
    store, entry = seeded
    with pytest.raises(InvalidInput, match="tags"):
        store.update(entry.id, tags="dark")
    assert store.get(entry.id).tags == ("ui",)


def test_enum_names_and_values_are_still_accepted(seeded) -> None:
    store, entry = seeded
    assert [e.id for e in store.list(namespace="A", tier="SEMANTIC", type="environment")] == [
        entry.id]
    assert store.search("dark mode", namespace="A", tiers=["semantic"], reinforce=False)
