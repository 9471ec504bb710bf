"""Store side of decay and the lifecycle: decay_pass, transitions, restore, gc (injected clocks)."""

from __future__ import annotations

import json
import math
from datetime import timedelta

import pytest
import sqlalchemy as sa

from langchain_tiered_memory import MemoryType, TieredMemoryStore
from langchain_tiered_memory.errors import EntryNotFound, IllegalTransition, InvalidInput
from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.store._lifecycle import LifecycleState
from tests.helpers import Clock

# (label, importance, access_count, days idle, expected outcome, hand-computed effective)
# base half-life 30 days, archive threshold 0.1, "decaying" = below half the stored importance.
DECAY_TABLE = [
    ("fresh", 0.8, 0, 0, "active", 0.8),
    ("one half-life", 0.8, 0, 30, "active", 0.4),  # exactly half: not yet below it
    ("two half-lives", 0.8, 0, 60, "decaying", 0.2),
    ("at threshold", 0.8, 0, 90, "decaying", 0.1),  # 0.1 is not below 0.1
    ("past threshold", 0.8, 0, 91, "archived", 0.8 * 0.5 ** (91 / 30)),
    ("one access", 0.8, 1, 90, "decaying", 0.8 * 0.5 ** 1.5),  # half-life 60
    ("three accesses", 0.8, 3, 120, "decaying", 0.8 * 0.5 ** (120 / 90)),  # half-life 90
    ("weak", 0.3, 0, 60, "archived", 0.075),
    ("weak but reviewed", 0.3, 7, 60, "active", 0.3 * 0.5 ** 0.5),  # half-life 120
    ("born below", 0.05, 0, 0, "archived", 0.05),
]

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november"]


def _aged(store: TieredMemoryStore, clock: Clock, text: str, importance: float, accesses: int,
          days: float, **kw: object) -> str:
    then = clock.now - timedelta(days=days)
    entry = store.add(
        text, namespace="d", importance=importance, now=then, **kw  # type: ignore[arg-type]
    )
    for _ in range(accesses):
        store.touch(entry.id, now=then)
    return entry.id


def test_decay_table_through_decay_pass(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    ids = {}
    for (label, imp, count, days, _, _), word in zip(DECAY_TABLE, WORDS, strict=False):
        ids[label] = _aged(store, clock, f"note about {word}", imp, count, days)
    report = store.decay_pass(namespace="d")
    assert report.examined == len(DECAY_TABLE)
    assert report.exempt == 0
    assert report.now == clock.now
    for label, _, count, _, outcome, effective in DECAY_TABLE:
        entry = store.get(ids[label])
        assert entry is not None
        assert entry.access_count == count
        assert (ids[label] in report.archived) == (outcome == "archived"), label
        assert (ids[label] in report.decaying) == (outcome == "decaying"), label
        assert (entry.tier.value == "archival") == (outcome == "archived"), label
        if outcome == "archived":
            rows = [r for r in store.audit_log(namespace="d", entry_id=entry.id)
                    if r["action"] == "decay_archive"]
            assert len(rows) == 1
            assert math.isclose(json.loads(rows[0]["reason"])["effective"], effective,
                                abs_tol=1e-6)
        else:
            state = store.lifecycle_state(entry.id)
            assert state.value == outcome, label
    # A second pass at the same instant finds nothing new to archive.
    again = store.decay_pass(namespace="d")
    assert again.archived == ()
    assert again.examined == len(DECAY_TABLE) - len(report.archived)


def test_user_and_pinned_are_exempt(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    user = _aged(store, clock, "my name is Ada", 0.2, 0, 365, type=MemoryType.USER)
    pinned = _aged(store, clock, "server runs on port eighty", 0.2, 0, 365, pinned=True)
    plain = _aged(store, clock, "the cafe closes early", 0.2, 0, 365)
    report = store.decay_pass(now=clock.now)
    assert report.exempt == 2
    assert report.archived == (plain,)
    for entry_id in (user, pinned):
        assert store.get(entry_id).tier.value == "semantic"  # type: ignore[union-attr]
        assert store.lifecycle_state(entry_id) is LifecycleState.ACTIVE


def test_decay_pass_respects_namespace_and_now(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    a = store.add("old note kept by alice", namespace="alice", importance=0.3)
    b = store.add("old note kept by bob", namespace="bob", importance=0.3)
    later = clock.now + timedelta(days=61)
    assert store.decay_pass(namespace="alice", now=clock.now).archived == ()
    assert store.decay_pass(namespace="alice", now=later).archived == (a.id,)
    assert store.get(b.id).tier.value == "semantic"  # type: ignore[union-attr]


def test_archived_stays_recallable_and_restore_restarts_clock(
    store: TieredMemoryStore, clock: Clock
) -> None:
    store.detect_contradictions = False
    e = store.add("the spare key is under the blue flowerpot", namespace="d", importance=0.5)
    clock.advance(days=100)
    assert store.decay_pass().archived == (e.id,)
    hits = store.search("spare key flowerpot", namespace="d", reinforce=False)
    assert hits and hits[0].entry.id == e.id and hits[0].entry.tier.value == "archival"
    restored = store.restore(e.id)
    assert restored.tier.value == "semantic" and restored.last_accessed == clock.now
    assert store.decay_pass().archived == ()
    assert store.lifecycle_state(e.id) is LifecycleState.ACTIVE
    with pytest.raises(IllegalTransition):
        store.restore(e.id)


def test_every_transition_of_the_diagram_is_reachable_and_audited(
    store: TieredMemoryStore, clock: Clock
) -> None:
    store.detect_contradictions = False
    (created,) = store.add_many(
        [{"content": "the office wifi password rotates monthly", "key": "office.wifi",
          "status": "pending", "importance": 0.6}], namespace="d")
    assert store.lifecycle_state(created.id) is LifecycleState.CREATED
    store.approve(created.id)  # Created -> Active
    assert store.lifecycle_state(created.id) is LifecycleState.ACTIVE
    clock.advance(days=45)  # Active -> Decaying
    assert store.lifecycle_state(created.id) is LifecycleState.DECAYING
    store.touch(created.id)  # Decaying -> Active (an access)
    assert store.lifecycle_state(created.id) is LifecycleState.ACTIVE
    clock.advance(days=400)
    store.decay_pass()  # Decaying -> Archived
    assert store.lifecycle_state(created.id) is LifecycleState.ARCHIVED
    with pytest.raises(IllegalTransition):
        store.touch(created.id)
    with pytest.raises(IllegalTransition):
        store.archive(created.id)
    store.restore(created.id)  # Archived -> Active
    store.archive(created.id)  # Active -> Archived (by hand)
    newer = store.add("the office wifi password is on the fridge", namespace="d",
                      key="office.wifi", importance=0.6)  # Archived -> Superseded
    assert store.lifecycle_state(created.id) is LifecycleState.SUPERSEDED
    with pytest.raises(IllegalTransition):
        store.restore(created.id)
    with pytest.raises(IllegalTransition):
        store.touch(created.id)
    with pytest.raises(IllegalTransition):
        store.purge(newer.id)  # live entries cannot be purged
    store.purge(created.id)  # Superseded -> purged
    assert store.get(created.id) is None
    with pytest.raises(EntryNotFound):
        store.lifecycle_state(created.id)
    actions = [r["action"] for r in store.audit_log(namespace="d", entry_id=created.id)]
    for action in ("add", "approve", "touch", "decay_archive", "restore", "archive",
                   "supersede", "gc_purge"):
        assert action in actions


def _vector_rows(store: TieredMemoryStore, entry_id: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(t.vectors).where(
            t.vectors.c.owner_id == entry_id)).scalar() or 0)


def test_gc_purges_past_retention_but_never_user_or_pinned(
    store: TieredMemoryStore, clock: Clock
) -> None:
    store.detect_contradictions = False
    v1 = store.add("deploys happen on tuesday", namespace="g", key="ops.deploy")
    v2 = store.add("deploys happen on thursday", namespace="g", key="ops.deploy")
    archived = store.add("the old build server was jenkins", namespace="g")
    store.archive(archived.id)
    user = store.add("I am allergic to peanuts", namespace="g", type=MemoryType.USER)
    store.archive(user.id)
    pinned = store.add("the staging url never changes", namespace="g", pinned=True)
    store.archive(pinned.id)
    u1 = store.add("I prefer tabs", namespace="g", key="pref.indent", type=MemoryType.USER)
    store.add("I prefer spaces", namespace="g", key="pref.indent", type=MemoryType.USER)
    assert store.search("build server jenkins", namespace="g", reinforce=False)
    clock.advance(days=10)
    young = store.add("the cache is cleared hourly", namespace="g")
    store.archive(young.id)
    report = store.gc(7)
    assert set(report.purged) == {v1.id, archived.id}
    assert set(report.skipped) == {user.id, pinned.id, u1.id}
    assert report.cutoff == clock.now - timedelta(days=7)
    for gone in report.purged:
        assert store.get(gone) is None
        assert _vector_rows(store, gone) == 0
        rows = store.audit_log(namespace="g", entry_id=gone)
        assert rows[-1]["action"] == "gc_purge" and rows[-1]["old_value"]
        assert any(r["action"] == "add" for r in rows)  # history kept by default
    for kept in (v2.id, young.id, user.id, pinned.id, u1.id):
        assert store.get(kept) is not None
    hits = store.search("build server jenkins", namespace="g", reinforce=False)
    assert archived.id not in {h.entry.id for h in hits}  # the index caught up
    assert store.gc(7).purged == ()


def test_gc_purge_history_and_arguments(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    e = store.add("temporary note about lunch", namespace="g")
    store.archive(e.id)
    clock.advance(days=31)
    with pytest.raises(InvalidInput):
        store.gc(-1)
    assert store.gc(30, namespace="other").purged == ()
    report = store.gc(30, namespace="g", purge_history=True)
    assert report.purged == (e.id,) and report.history_rows >= 2
    rows = store.audit_log(namespace="g", entry_id=e.id)
    assert [r["action"] for r in rows] == ["gc_purge"]
    assert rows[0]["old_value"] is None


def test_gc_measures_archived_age_from_last_access(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    e = store.add("the printer jams on glossy paper", namespace="g")
    store.archive(e.id)
    clock.advance(days=20)
    store.search("printer jams glossy", namespace="g")  # recalled while archived
    clock.advance(days=15)
    assert store.gc(30).purged == ()
    clock.advance(days=20)
    assert store.gc(30).purged == (e.id,)


async def test_async_twins(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    e = await store.aadd("async note about kites", namespace="d", importance=0.05)
    report = await store.adecay_pass(namespace="d")
    assert report.archived == (e.id,)
    clock.advance(days=2)
    assert (await store.agc(1)).purged == (e.id,)
