"""One policy for pending facts: a pending fact never supersedes anything until approved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langchain_core.messages import HumanMessage

from langchain_tiered_memory import MemoryTier, ProvenanceLevel
from langchain_tiered_memory.consolidation import build_consolidation_graph


def _consolidate(store: Any, text: str, session: str) -> dict[str, Any]:
    graph = build_consolidation_graph(store)
    state = {"namespace": "alice", "session_id": session, "messages": [HumanMessage(text)]}
    return dict(graph.invoke(state))


def test_pending_consolidated_fact_does_not_supersede_the_active_entry(store: Any) -> None:
    """Issue 14 repro: the active entry stayed live only until a pending fact shared its key."""
    live = store.add("User lives in Berlin", namespace="alice", key="location.home",
                     source=ProvenanceLevel.CONSOLIDATED)
    # Every extracted fact falls below the threshold: all go to the review queue.
    store.config = replace(store.config, fact_confidence_threshold=0.99)
    state = _consolidate(store, "I live in Lisbon.", "s2")
    [pending] = state["written"]
    assert pending.status == "pending"
    assert pending.key != "location.home" and pending.metadata["proposed_key"] == "location.home"
    after = store.get(live.id)
    assert after.superseded_by is None and after.tier == MemoryTier.SEMANTIC
    assert [m for m in state["moved"] if m.get("id") == live.id] == []
    assert [e.id for e in store.list(namespace="alice", key="location.home")] == [live.id]

    approved = store.approve(pending.id, namespace="alice")
    assert approved.key == "location.home" and approved.status == "active"
    assert store.get(live.id).superseded_by == approved.id


def test_pending_fact_written_directly_never_supersedes(store: Any) -> None:
    """The store keeps the policy for every write path, not only for the ingestion service."""
    live = store.add("User prefers tea", namespace="alice", key="preference.drink")
    [pending] = store.add_many(
        [{"content": "User prefers coffee", "key": "preference.drink", "status": "pending"}],
        namespace="alice",
    )
    assert pending.key != "preference.drink"
    assert pending.metadata["proposed_key"] == "preference.drink"
    assert store.get(live.id).superseded_by is None
    store.approve(pending.id, namespace="alice")
    assert store.get(live.id).superseded_by == pending.id
