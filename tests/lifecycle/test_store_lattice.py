"""The versioned lattice (lineage, as_of) and Zettelkasten links, with an injected clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from langchain_tiered_memory import TieredMemoryStore
from langchain_tiered_memory.contradiction import Verdict
from langchain_tiered_memory.errors import InvalidInput
from tests.helpers import Clock


class Unsure:
    def verify(self, a: str, b: str, *, key_a: str | None = None,
               key_b: str | None = None) -> Verdict:
        return Verdict(None, 0.4, "cannot tell")

    async def averify(self, a: str, b: str, *, key_a: str | None = None,
                      key_b: str | None = None) -> Verdict:
        return self.verify(a, b)


def _ids(entries: list) -> list[str]:  # type: ignore[type-arg]
    return [e.id for e in entries]


def test_as_of_three_versions_and_a_pending_branch(store: TieredMemoryStore, clock: Clock) -> None:
    t0 = clock.now
    v1 = store.add("I live in Paris", namespace="u", key="home.city")
    t1 = clock.advance(days=10)
    v2 = store.add("I live in London", namespace="u", key="home.city")
    t2 = clock.advance(days=10)
    v3 = store.add("I live in Berlin", namespace="u", key="home.city")
    t3 = clock.advance(days=10)
    store.contradiction_verifier = Unsure()
    branch = store.add("I live in Madrid", namespace="u", key="profile.residence")
    store.contradiction_verifier = None
    (record,) = store.contradictions("u", pending_only=True)
    assert {record.entry_a_id, record.entry_b_id} == {v3.id, branch.id}
    t4 = clock.advance(days=10)
    store.resolve(record.id, keep=branch.id)

    assert store.as_of("home.city", t0 - timedelta(seconds=1), namespace="u") == []
    assert _ids(store.as_of("home.city", t0, namespace="u")) == [v1.id]
    assert _ids(store.as_of("home.city", t1 - timedelta(hours=1), namespace="u")) == [v1.id]
    assert _ids(store.as_of("home.city", t1, namespace="u")) == [v2.id]
    assert _ids(store.as_of("home.city", t2 + timedelta(days=5), namespace="u")) == [v3.id]
    # While the contradiction was pending both branches were believed...
    assert _ids(store.as_of("home.city", t3, namespace="u")) == [v3.id, branch.id]
    assert _ids(store.as_of("profile.residence", t3, namespace="u")) == [v3.id, branch.id]
    # ...after it was settled only the kept one (reached through the lost version).
    assert _ids(store.as_of("home.city", t4, namespace="u")) == [branch.id]
    assert _ids(store.as_of("home.city", t4.replace(tzinfo=None), namespace="u")) == [branch.id]
    assert store.as_of("home.city", t4, namespace="other") == []


def test_lineage_graph_with_reasons(store: TieredMemoryStore, clock: Clock) -> None:
    v1 = store.add("I live in Paris", namespace="u", key="home.city")
    clock.advance(days=1)
    v2 = store.add("I live in London", namespace="u", key="home.city")
    clock.advance(days=1)
    other = store.add("I live in Rome", namespace="u", key="profile.residence")  # newer wins
    (record,) = store.contradictions("u")
    lineage = store.lineage(v1.id)
    assert _ids(list(lineage.nodes)) == [v1.id, v2.id, other.id]
    assert [(e.old_id, e.new_id, e.reason) for e in lineage.edges] == [
        (v1.id, v2.id, "new version of key"),
        (v2.id, other.id, f"contradiction {record.id}"),
    ]
    assert lineage.edges[0].at is not None and lineage.edges[1].at == clock.now
    assert _ids(list(lineage.current)) == [other.id]
    assert lineage.contradictions == (record,)
    assert store.lineage(other.id).edges == lineage.edges
    lonely = store.add("The moon orbits the earth", namespace="u")
    alone = store.lineage(lonely.id)
    assert _ids(list(alone.nodes)) == [lonely.id] and alone.edges == ()


def test_lineage_survives_gc_and_shows_pending_branch(
    store: TieredMemoryStore, clock: Clock
) -> None:
    v1 = store.add("My laptop is a ThinkPad", namespace="u", key="gear.laptop")
    v2 = store.add("My laptop is a MacBook", namespace="u", key="gear.laptop")
    store.contradiction_verifier = Unsure()
    clock.advance(hours=1)
    side = store.add("My laptop is a Dell", namespace="u", key="gear.notebook")
    clock.advance(days=30)
    assert v1.id in store.gc(7).purged
    lineage = store.lineage(v2.id)
    assert [(e.old_id, e.new_id) for e in lineage.edges] == [(v1.id, v2.id)]  # from the audit log
    assert _ids(list(lineage.current)) == [v2.id, side.id]
    assert lineage.contradictions[0].pending


def test_manual_links_and_depth(store: TieredMemoryStore) -> None:
    store.auto_link = False
    a = store.add("Project Atlas kicked off in March", namespace="z")
    b = store.add("Maria leads the design work", namespace="z")
    c = store.add("The design review is every Friday", namespace="z")
    elsewhere = store.add("Unrelated note", namespace="y")
    assert store.link(a.id, b.id, "involves") is True
    assert store.link(b.id, a.id, "involves") is False  # already linked
    assert store.link(b.id, c.id) is True
    assert [(e.id, r) for e, r in store.linked(a.id)] == [(b.id, "involves")]
    assert [(e.id, r) for e, r in store.linked(a.id, depth=2)] == [
        (b.id, "involves"), (c.id, "related")]
    assert {e.id for e, _ in store.linked(b.id)} == {a.id, c.id}
    with pytest.raises(InvalidInput):
        store.link(a.id, a.id)
    with pytest.raises(InvalidInput):
        store.link(a.id, elsewhere.id)
    with pytest.raises(InvalidInput):
        store.linked(a.id, depth=0)
    assert [r["action"] for r in store.audit_log(namespace="z", entry_id=a.id)][-1] == "link"
    assert store.unlink(a.id, b.id) == 1
    assert store.linked(a.id) == []


def test_auto_links_on_write(store: TieredMemoryStore) -> None:
    store.detect_contradictions = False
    a = store.add("Sprint planning notes", namespace="z", tags=["atlas"])
    b = store.add("Budget spreadsheet owner", namespace="z", tags=["atlas", "finance"])
    c = store.add("Met Maria at the conference", namespace="z", metadata={"entities": ["Maria"]})
    d = store.add("Maria prefers async updates", namespace="z", metadata={"entities": ["Maria"]})
    e = store.add("the quick brown fox jumps over the lazy dog", namespace="z")
    f = store.add("the quick brown fox jumps over the lazy dog again", namespace="z")
    store.add("Completely different topic about taxes", namespace="z")
    assert store.linked(a.id) == [(store.get(b.id), "shared_tag")]
    assert store.linked(c.id) == [(store.get(d.id), "shared_entity")]
    assert [(x.id, r) for x, r in store.linked(e.id)] == [(f.id, "similar")]


def test_links_follow_supersession(store: TieredMemoryStore, clock: Clock) -> None:
    store.auto_link = False
    note = store.add("Atlas launch is in May", namespace="z", key="atlas.launch")
    owner = store.add("Atlas is owned by Maria", namespace="z")
    store.link(note.id, owner.id, "about")
    clock.advance(days=1)
    newer = store.add("Atlas launch moved to June", namespace="z", key="atlas.launch")
    assert store.linked(note.id) == []
    assert [(e.id, r) for e, r in store.linked(newer.id)] == [(owner.id, "about")]
    assert [(e.id, r) for e, r in store.linked(owner.id)] == [(newer.id, "about")]
    # A contradiction lost moves the links too.
    city = store.add("I live in Paris", namespace="z")
    store.link(city.id, owner.id)
    clock.advance(days=1)
    moved = store.add("I live in Vienna", namespace="z")
    assert store.get(city.id).superseded_by == moved.id  # type: ignore[union-attr]
    assert [(e.id, r) for e, r in store.linked(moved.id)] == [(owner.id, "related")]


async def test_async_lattice_twins(store: TieredMemoryStore) -> None:
    store.auto_link = False
    a = await store.aadd("note one about kites", namespace="z", key="k")
    b = await store.aadd("note two about boats", namespace="z")
    assert await store.alink(a.id, b.id)
    assert [e.id for e, _ in await store.alinked(a.id)] == [b.id]
    assert (await store.alineage(a.id)).nodes[0].id == a.id
    assert [e.id for e in await store.aas_of("k", a.created_at, namespace="z")] == [a.id]
