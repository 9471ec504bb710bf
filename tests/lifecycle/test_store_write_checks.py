"""The on-write check path: batches, explicit checks of big writes, bounded work, hook chaining."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from langchain_tiered_memory import MemoryConfig, ProvenanceLevel, TieredMemoryStore
from langchain_tiered_memory.contradiction import Verdict
from langchain_tiered_memory.store import _contradictions
from langchain_tiered_memory.types import MemoryEntry, SearchHit
from tests.helpers import Clock, HashEmbeddings


class Counting:
    """A verifier that defers to nobody: counts calls, never sees a conflict."""

    def __init__(self) -> None:
        self.calls = 0

    def verify(self, a: str, b: str, *, key_a: str | None = None,
               key_b: str | None = None) -> Verdict:
        self.calls += 1
        return Verdict(False, 0.9, "fine")

    async def averify(self, a: str, b: str, *, key_a: str | None = None,
                      key_b: str | None = None) -> Verdict:
        return self.verify(a, b)


def _superseded_by(store: TieredMemoryStore, entry_id: str) -> str | None:
    entry = store.get(entry_id)
    assert entry is not None
    return entry.superseded_by


def test_batch_resolves_against_stored_entries(
    store: TieredMemoryStore, clock: Clock
) -> None:
    told = store.add("I live in Paris", namespace="u", source=ProvenanceLevel.USER_STATED)
    clock.advance(days=1)
    rome, oslo, dog = store.add_many(
        ["I live in Rome", "I live in Oslo", "My dog is called Rex"], namespace="u")
    pairs = {frozenset((r.entry_a_id, r.entry_b_id)) for r in store.contradictions("u")}
    # Each guess loses to the stated fact (the two guesses may also meet, in either order).
    assert {frozenset((told.id, rome.id)), frozenset((told.id, oslo.id))} <= pairs
    assert pairs <= {frozenset((told.id, rome.id)), frozenset((told.id, oslo.id)),
                     frozenset((rome.id, oslo.id))}
    assert _superseded_by(store, rome.id) == told.id
    assert _superseded_by(store, oslo.id) == told.id
    assert _superseded_by(store, told.id) is None and _superseded_by(store, dog.id) is None
    assert store.contradictions("u", pending_only=True) == []


def test_batch_winner_supersedes_stored_entry(store: TieredMemoryStore, clock: Clock) -> None:
    old = store.add("My favourite colour is blue", namespace="u")
    clock.advance(days=2)
    new, other = store.add_many(["My favourite colour is green", "I have 2 kids"],
                                namespace="u")
    (record,) = store.contradictions("u")
    assert {record.entry_a_id, record.entry_b_id} == {old.id, new.id}
    assert _superseded_by(store, old.id) == new.id
    assert _superseded_by(store, other.id) is None


def test_key_written_twice_in_one_batch_is_not_a_contradiction(store: TieredMemoryStore) -> None:
    first, second = store.add_many([
        {"content": "I live in Rome", "key": "home.city", "tags": ["home"]},
        {"content": "I live in Milan", "key": "home.city", "tags": ["home"]},
    ], namespace="u")
    # The first version is replaced by the second within the write: nothing to check or link.
    assert store.contradictions("u") == []
    assert _superseded_by(store, first.id) == second.id
    assert store.linked(first.id) == []


@pytest.mark.parametrize("slice_size", [500, 2])
def test_check_contradictions_after_a_bulk_write(
    store: TieredMemoryStore, clock: Clock, monkeypatch: pytest.MonkeyPatch, slice_size: int
) -> None:
    # Big explicit checks run in slices (each written before the next is read): same result.
    monkeypatch.setattr(_contradictions, "_CHUNK", slice_size)
    store.write_check_limit = 3
    stated = store.add("I live in Lisbon", namespace="u", source=ProvenanceLevel.USER_STATED)
    clock.advance(days=1)
    texts = ["I live in Porto", "I have 2 cats", "My car is red", "I work at Acme",
             "I have 4 cats", "The sky was grey today"]
    written = store.add_many(texts, namespace="u")
    assert store.contradictions("u") == []  # above the limit: committed unchecked
    ids = [e.id for e in written]
    assert store.check_contradictions(ids, namespace="other") == []
    found = store.check_contradictions([*ids, ids[0]])  # repeats are harmless
    pairs = {frozenset((r.entry_a_id, r.entry_b_id)) for r in found}
    assert frozenset((stated.id, written[0].id)) in pairs
    assert frozenset((written[1].id, written[4].id)) in pairs
    assert len(found) == 2
    assert _superseded_by(store, written[0].id) == stated.id
    assert store.check_contradictions(ids) == []  # already on record


def test_check_contradictions_rejects_non_string_ids(store: TieredMemoryStore) -> None:
    from langchain_tiered_memory.errors import InvalidInput

    with pytest.raises(InvalidInput):
        store.check_contradictions([42])  # type: ignore[list-item]


def test_work_per_write_is_bounded(store: TieredMemoryStore) -> None:
    judge = Counting()
    store.contradiction_verifier = judge
    store.auto_link = False
    store.add_many([f"Note {i}: the team met about topic {i % 7} and budget"
                    for i in range(150)], namespace="w")  # above the limit: unchecked
    store.add("Note 998: the team met about topic 2 and budget", namespace="w")  # loads the index
    judge.calls = 0
    statements: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()))

    sa.event.listen(store.engine, "before_cursor_execute", count)
    try:
        store.add("Note 999: the team met about topic 3 and budget", namespace="w")
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", count)
    assert 1 <= judge.calls <= 5  # only the pre-filter's best candidates are verified
    # After the write: the index catch-up (the audit rows, the new row and its vector) and one
    # read of the whole candidate pool. No per-candidate query, no transaction when nothing
    # was found.
    after = statements[next(i for i, s in enumerate(statements) if "tm_audit_log" in s
                            and s.startswith("SELECT")):]
    assert len([s for s in after if s.startswith("SELECT")]) <= 4, after
    assert not any("tm_contradictions" in s for s in statements)


class _Spy:
    """A write listener and hit annotator registered after the store's own."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def after_commit(self, entries: Sequence[MemoryEntry]) -> None:
        self.seen.append("after_commit")

    def on_supersede(self, conn: sa.Connection, old: MemoryEntry, new: MemoryEntry,
                     now: datetime) -> None:
        self.seen.append("on_supersede")

    def annotate(self, hits: list[SearchHit], *, namespace: str, k: int,
                 pending: bool | None = None) -> list[SearchHit]:
        self.seen.append("annotate_hits")
        return hits


def test_listeners_see_every_write_supersession_and_search(tmp_path: Path, clock: Clock) -> None:
    store = TieredMemoryStore(f"sqlite:///{tmp_path / 'spy.db'}", embeddings=HashEmbeddings(),
                              config=MemoryConfig(rerank_enabled=False), clock=clock)
    spy = _Spy()
    store._services.writer.listen(spy)
    store._services.recall.annotate_with(spy)
    a = store.add("I live in Paris", namespace="u", tags=["home"])
    assert spy.seen == ["after_commit"]
    clock.advance(days=1)
    b = store.add("I live in Rome", namespace="u", tags=["home"])
    # Resolved on write by the contradiction listener: the loser was superseded, in the
    # transaction of the resolution, and every listener saw it once.
    assert spy.seen.count("on_supersede") == 1
    assert store.get(a.id).superseded_by == b.id  # type: ignore[union-attr]
    store.search("where do I live", namespace="u", reinforce=False)
    assert "annotate_hits" in spy.seen
    store.close()
