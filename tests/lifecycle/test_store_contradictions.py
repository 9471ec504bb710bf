"""Contradictions found when SEMANTIC entries are written, their resolution, and recall marking."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langchain_tiered_memory import MemoryTier, ProvenanceLevel, TieredMemoryStore
from langchain_tiered_memory.contradiction import LLMVerifier, Verdict
from langchain_tiered_memory.errors import (
    EntryNotFound,
    IllegalTransition,
    InvalidInput,
    MemoryWriteBlocked,
)
from langchain_tiered_memory.provenance import WritePath
from tests.helpers import Clock


class Unsure:
    """A verifier that can never tell."""

    def __init__(self) -> None:
        self.calls = 0

    def verify(self, a: str, b: str, *, key_a: str | None = None,
               key_b: str | None = None) -> Verdict:
        self.calls += 1
        return Verdict(None, 0.4, "cannot tell")

    async def averify(self, a: str, b: str, *, key_a: str | None = None,
                      key_b: str | None = None) -> Verdict:
        return self.verify(a, b)


def test_higher_provenance_wins_even_when_older(store: TieredMemoryStore, clock: Clock) -> None:
    told = store.add("I live in Paris", namespace="u", source=ProvenanceLevel.USER_STATED)
    clock.advance(days=1)
    guessed = store.add("I live in London", namespace="u", path=WritePath.AGENT_TOOL)
    (record,) = store.contradictions("u")
    assert {record.entry_a_id, record.entry_b_id} == {told.id, guessed.id}
    assert record.resolution == "keep_b" and not record.pending  # b is the stored one
    assert record.resolved_at == clock.now and record.confidence >= 0.75
    loser = store.get(guessed.id)
    assert loser is not None and loser.superseded_by == told.id
    assert loser.tier is MemoryTier.ARCHIVAL
    assert store.get(told.id).superseded_by is None  # type: ignore[union-attr]
    actions = [r["action"] for r in store.audit_log(namespace="u", entry_id=guessed.id)]
    assert actions == ["add", "contradiction", "supersede"]


def test_equal_provenance_newer_wins_and_outranks(store: TieredMemoryStore, clock: Clock) -> None:
    old = store.add("My favourite colour is blue", namespace="u", tags=["colour"])
    clock.advance(days=3)
    new = store.add("My favourite colour is green", namespace="u", tags=["colour"])
    (record,) = store.contradictions("u")
    assert record.resolution == "keep_a" and "newer" in record.description
    assert store.get(old.id).superseded_by == new.id  # type: ignore[union-attr]
    hits = store.search("favourite colour blue", namespace="u", reinforce=False)
    assert [h.entry.id for h in hits] == [new.id]  # only the live version by default
    hits = store.search("favourite colour blue", namespace="u", reinforce=False, history=True)
    order = [h.entry.id for h in hits]
    assert order.index(new.id) < order.index(old.id)  # never outranked by the replaced one


def test_chinese_and_numbers(store: TieredMemoryStore, clock: Clock) -> None:
    a = store.add("我住在北京", namespace="zh", tags=["住址"])
    clock.advance(hours=1)
    b = store.add("我住在上海", namespace="zh", tags=["住址"])
    assert store.get(a.id).superseded_by == b.id  # type: ignore[union-attr]
    kids = store.add("I have 2 kids", namespace="n")
    clock.advance(hours=1)
    more = store.add("I have 3 kids", namespace="n")
    assert store.get(kids.id).superseded_by == more.id  # type: ignore[union-attr]


def test_compatible_statements_are_left_alone(store: TieredMemoryStore) -> None:
    store.add("I like tea", namespace="u")
    store.add("I also like coffee", namespace="u")
    store.add("The meeting room is on floor three", namespace="u")
    assert store.contradictions("u") == []
    assert all(e.superseded_by is None for e in store.list(namespace="u"))


def test_unsure_is_pending_until_resolved(store: TieredMemoryStore, clock: Clock) -> None:
    unsure = Unsure()
    store.contradiction_verifier = unsure
    a = store.add("I work at Acme", namespace="u")
    clock.advance(days=1)
    b = store.add("I work at Globex", namespace="u", source=ProvenanceLevel.CONSOLIDATED)
    assert unsure.calls >= 1
    (record,) = store.contradictions("u", pending_only=True)
    assert record.pending and record.resolution == "pending" and record.resolved_at is None
    for entry_id in (a.id, b.id):
        assert store.get(entry_id).superseded_by is None  # type: ignore[union-attr]
    # Recall returns the pair together, both marked.
    hits = store._services.contradictions.annotate(store.search("work at Acme", namespace="u", k=1, reinforce=False),
                                namespace="u", k=1)
    assert {h.entry.id for h in hits} == {a.id, b.id}
    assert all(h.scores["pending_contradiction"] == 1.0 for h in hits)
    with pytest.raises(InvalidInput):
        store.resolve(record.id, keep="someone-else")
    with pytest.raises(EntryNotFound):
        store.resolve("no-such-id", keep=a.id)
    with pytest.raises(MemoryWriteBlocked):
        store.resolve(record.id, keep=a.id, path=WritePath.AGENT_TOOL)  # an agent cannot drop b
    clock.advance(days=1)
    done = store.resolve(record.id, keep=a.id)
    assert done.resolution == ("keep_a" if record.entry_a_id == a.id else "keep_b")
    assert done.resolved_at == clock.now and "kept" in done.description
    assert store.get(b.id).superseded_by == a.id  # type: ignore[union-attr]
    assert store.contradictions("u", pending_only=True) == []
    with pytest.raises(IllegalTransition):
        store.resolve(record.id, keep=b.id)
    plain = store.search("work at Acme", namespace="u", reinforce=False)
    assert all("pending_contradiction" not in h.scores for h in store._services.contradictions.annotate(
        plain, namespace="u", k=10))
    reasons = [r["reason"] for r in store.audit_log(namespace="u", entry_id=b.id)
               if r["action"] == "supersede"]
    assert reasons == [f"contradiction {record.id}"]


def test_pinned_loser_stays_pending(store: TieredMemoryStore, clock: Clock) -> None:
    pinned = store.add("I live in Oslo", namespace="u", pinned=True)
    clock.advance(days=1)
    store.add("I live in Bergen", namespace="u")
    (record,) = store.contradictions("u")
    assert record.pending and "pinned" in record.description
    assert store.get(pinned.id).superseded_by is None  # type: ignore[union-attr]


def test_switch_off_then_check_explicitly(store: TieredMemoryStore, clock: Clock) -> None:
    store.detect_contradictions = False
    a = store.add("I live in Rome", namespace="u")
    clock.advance(days=1)
    b = store.add("I live in Milan", namespace="u")
    assert store.contradictions("u") == []
    store.detect_contradictions = True
    with store.suspend_checks():
        c = store.add("My dog is called Rex", namespace="u")
        store.add("My dog is called Max", namespace="u")
    assert store.contradictions("u") == []
    found = store.check_contradictions([b.id, c.id])
    assert len(found) == 2
    assert store.get(a.id).superseded_by == b.id  # type: ignore[union-attr]
    assert store.check_contradictions([b.id]) == []  # already on record: no duplicate
    assert len(store.contradictions("u")) == 2
    assert len(store.contradictions("u", entry_id=a.id)) == 1


def test_llm_verifier_on_write_and_per_call(store: TieredMemoryStore, clock: Clock) -> None:
    model = FakeListChatModel(responses=[
        '{"contradicts": true, "confidence": 0.95, "description": "model says they clash"}'])
    store.contradiction_verifier = LLMVerifier(model)
    a = store.add("I live in Lisbon", namespace="u")
    clock.advance(days=1)
    store.add("I live in Porto", namespace="u")
    (record,) = store.contradictions("u")
    assert record.description.startswith("model says they clash")
    assert store.get(a.id).superseded_by is not None  # type: ignore[union-attr]
    store.contradiction_verifier = None
    store.detect_contradictions = False
    x = store.add("I drive a red car", namespace="v")
    y = store.add("I drive a blue car", namespace="v")
    junk = LLMVerifier(FakeListChatModel(responses=["no idea, sorry"]), fallback=None)
    (pending,) = store.check_contradictions([y.id], verifier=junk)
    assert pending.pending
    assert {pending.entry_a_id, pending.entry_b_id} == {x.id, y.id}


def test_new_version_closes_pending_question(store: TieredMemoryStore, clock: Clock) -> None:
    store.contradiction_verifier = Unsure()
    a = store.add("I work at Initech", namespace="u", key="job.employer")
    store.add("I work at Hooli", namespace="u")
    (record,) = store.contradictions("u")
    assert record.pending
    store.contradiction_verifier = None
    clock.advance(days=1)
    store.add("I work at Umbrella", namespace="u", key="job.employer")
    closed = next(r for r in store.contradictions("u") if r.id == record.id)
    assert closed.resolution == "superseded" and not closed.pending
    assert store.get(a.id).superseded_by is not None  # type: ignore[union-attr]


async def test_async_contradiction_api(store: TieredMemoryStore, clock: Clock) -> None:
    store.contradiction_verifier = Unsure()
    a = await store.aadd("I live in Kyoto", namespace="u")
    clock.advance(days=1)
    await store.aadd("I live in Osaka", namespace="u")
    (record,) = await store.acontradictions("u", pending_only=True)
    done = await store.aresolve(record.id, keep=a.id)
    assert done.resolution in ("keep_a", "keep_b")
    assert await store.acheck_contradictions([a.id]) == []


def test_bulk_writes_skip_on_write_checks(store: TieredMemoryStore) -> None:
    store.write_check_limit = 2
    store.add_many(["I live in Cairo", "I live in Tunis", "I live in Rabat"], namespace="u")
    assert store.contradictions("u") == []
