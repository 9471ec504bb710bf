"""Namespace isolation: a caller naming namespace B never reads or changes an entry of A."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from langchain_tiered_memory import Episode, TieredMemoryStore
from langchain_tiered_memory.contradiction.verdict import Verdict
from langchain_tiered_memory.errors import EntryNotFound

FAR = datetime(2100, 1, 1, tzinfo=timezone.utc)


class _Weak:
    """Flags every pair as a contradiction too weak to auto-resolve: records stay pending."""

    def verify(self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None) -> Verdict:
        return Verdict(True, 0.3, "weak")

    async def averify(self, a: str, b: str, **kw: object) -> Verdict:
        return self.verify(a, b)


@pytest.fixture
def two(store: TieredMemoryStore):
    """Namespace A with two linked entries in a pending contradiction; B with one entry."""
    store.contradiction_verifier = _Weak()
    a1 = store.add("Alice lives in Paris", namespace="A", key="home", tags=["geo"])
    a2 = store.add("Alice lives in Berlin", namespace="A", key="city", tags=["geo"])
    b1 = store.add("Bob lives in Paris", namespace="B", key="home", tags=["geo"])
    store.link(a1.id, a2.id, "about", namespace="A")
    ep = store.add_episode(Episode(namespace="A", session_key="s1", summary="Alice moved to Paris",
                                  message_range_start=0, message_range_end=1, entity_ids=(),
                                  importance=0.5))
    assert store.contradictions("A", pending_only=True)
    return store, a1, a2, b1, ep


def _snapshot(store: TieredMemoryStore, ns: str) -> list[tuple]:
    return [(e.id, e.content, e.tier, e.pinned, e.access_count, e.superseded_by, e.tags)
            for e in store.list(namespace=ns, status=None)]


@pytest.mark.parametrize("call", [
    lambda s, a: s.update(a.id, namespace="B", importance=0.9),
    lambda s, a: s.update(a.id, namespace="B", content="Alice lives in Rome"),
    lambda s, a: s.delete(a.id, namespace="B"),
    lambda s, a: s.pin(a.id, namespace="B"),
    lambda s, a: s.unpin(a.id, namespace="B"),
    lambda s, a: s.archive(a.id, namespace="B"),
    lambda s, a: s.restore(a.id, namespace="B"),
    lambda s, a: s.touch(a.id, namespace="B"),
    lambda s, a: s.purge(a.id, namespace="B"),
    lambda s, a: s.lifecycle_state(a.id, namespace="B"),
    lambda s, a: s.lineage(a.id, namespace="B"),
    lambda s, a: s.linked(a.id, namespace="B"),
    lambda s, a: s.unlink(a.id, "x", namespace="B"),
    lambda s, a: s.approve(a.id, namespace="B"),
    lambda s, a: s.reject(a.id, namespace="B"),
])
def test_id_methods_refuse_another_namespace(two, call) -> None:
    store, a1, *_ = two
    before = _snapshot(store, "A")
    with pytest.raises(EntryNotFound):
        call(store, a1)
    assert _snapshot(store, "A") == before


def test_reads_never_return_another_namespace(two) -> None:
    store, a1, a2, b1, ep = two
    assert store.get(a1.id, namespace="B") is None
    assert store.get_many([a1.id, a2.id, b1.id], namespace="B") == {b1.id: store.get(b1.id)}
    assert {e.namespace for e in store.list(namespace="B", status=None)} == {"B"}
    assert [e.id for e in store.history("home", namespace="B")] == [b1.id]
    hits = store.search("Alice lives Paris Berlin", namespace="B", k=10)
    assert {h.entry.namespace for h in hits} == {"B"}
    assert store.search_episodes("Alice moved Paris", namespace="B") == []
    assert store.get_episode(ep.id, namespace="B") is None
    assert store.list_episodes(namespace="B") == []
    assert [e.id for e in store.as_of("home", FAR, namespace="B")] == [b1.id]
    assert store.contradictions("B") == []
    assert store.contradictions("B", entry_id=a1.id) == []
    assert all(r["namespace"] == "B" for r in store.audit_log(namespace="B"))
    assert store.count(namespace="B") == 1
    assert store.pending_reviews("B") == []


def test_pending_partner_and_links_stay_in_their_namespace(two) -> None:
    store, a1, a2, b1, _ = two
    # In A the pending partner comes along; in B neither A entry may appear.
    a_hits = {h.entry.id for h in store.search("Alice lives in Paris", namespace="A", k=1)}
    assert {a1.id, a2.id} <= a_hits
    block = store.context_block("B", "Alice lives in Paris Berlin")
    assert a1.id not in block.text and "Alice" not in block.text
    assert "Alice" not in store.context("B", "where does Alice live")
    # Automatic links (shared tag "geo", similar text) never cross namespaces.
    assert all(e.namespace == "B" for e, _ in store.linked(b1.id))
    assert all(e.namespace == "A" for e, _ in store.linked(a1.id))


def test_resolve_and_check_refuse_another_namespace(two) -> None:
    store, a1, a2, _b1, _ = two
    record = store.contradictions("A", pending_only=True)[0]
    with pytest.raises(EntryNotFound):
        store.resolve(record.id, keep=a1.id, namespace="B")
    assert store.contradictions("A", pending_only=True) == [record]
    assert store.check_contradictions([a1.id, a2.id], namespace="B") == []
    assert store.get(a1.id).superseded_by is None and store.get(a2.id).superseded_by is None


def test_link_refuses_cross_namespace_pairs(two) -> None:
    store, a1, _, b1, _ = two
    with pytest.raises(EntryNotFound):
        store.link(b1.id, a1.id, namespace="B")
    with pytest.raises(Exception, match="share a namespace"):
        store.link(a1.id, b1.id)
    assert store.unlink(b1.id, a1.id, namespace="B") == 0
    assert [e.id for e, _ in store.linked(a1.id)] != []


def test_reinforce_ignores_ids_of_another_namespace(two) -> None:
    store, a1, *_ = two
    store.reinforce([a1.id], namespace="B")
    assert store.get(a1.id).access_count == a1.access_count


def test_namespace_scoped_passes_leave_other_namespaces(two, clock) -> None:
    store, a1, a2, *_ = two
    store.archive(a1.id, namespace="A")
    report = store.decay_pass(namespace="B", now=FAR)
    assert a2.id not in report.archived and store.get(a2.id).tier.value == "semantic"
    gc = store.gc(0, namespace="B", now=FAR)
    assert a1.id not in gc.purged and store.get(a1.id) is not None


def test_export_of_one_namespace_holds_only_its_rows(two) -> None:
    store, *_ = two
    records = list(store.export_records(namespace="B"))
    assert records[0]["record"] == "header"
    assert {r["namespace"] for r in records[1:]} == {"B"}
    assert store.memory_stats(namespace="B")["total"] == 1


def test_knowledge_chunks_can_be_scoped(store: TieredMemoryStore, tmp_path) -> None:
    store.knowledge_path = tmp_path / "kb.npz"  # a server database needs a sidecar path
    doc = store.add_knowledge(["Parking costs two euros."], namespace="A")[0]
    assert store.knowledge_chunks(doc.id, namespace="A") == ["Parking costs two euros."]
    assert store.knowledge_chunks(doc.id, namespace="B") == []
    assert store.get_knowledge(doc.id, namespace="B") is None
    assert store.list_knowledge("B") == []
    with pytest.raises(EntryNotFound):
        store.delete_knowledge(doc.id, namespace="B")
    assert store.search_knowledge("parking", namespace="B") == []
    assert store.knowledge_chunks(doc.id) == ["Parking costs two euros."]
