"""The EPISODIC tier is kept by importance: a per-namespace budget, the rest ARCHIVAL (issue 17)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from langchain_tiered_memory import (
    ConfigError,
    Episode,
    IllegalTransition,
    InvalidInput,
    MemoryConfig,
    MemoryTier,
    TieredMemoryStore,
)
from langchain_tiered_memory.store import _tables

T0 = datetime(2025, 6, 1, tzinfo=timezone.utc)
WORDS = ["kayak", "violin", "orchard", "glacier", "lantern", "saffron", "tundra"]


def _episode(i: int, importance: float, namespace: str = "ann") -> Episode:
    return Episode(
        session_key=f"s{i}",
        summary=f"session about the {WORDS[i]} trip",
        message_range_start=0,
        message_range_end=3,
        entity_ids=(),
        importance=importance,
        namespace=namespace,
        created_at=T0 + timedelta(days=i),
    )


def _open(db, hash_embeddings, clock, retention: int | None) -> TieredMemoryStore:
    config = MemoryConfig(rerank_enabled=False, episode_retention=retention, archived_weight=0.5)
    return TieredMemoryStore(db, embeddings=hash_embeddings, config=config, clock=clock)


def test_over_budget_archives_least_important_oldest_first(tmp_path, hash_embeddings, clock):
    s = _open(tmp_path / "m.db", hash_embeddings, clock, retention=4)
    importances = [0.9, 0.3, 0.5, 0.3]
    eps = [s.add_episode(_episode(i, imp)) for i, imp in enumerate(importances)]
    assert s.list_episodes(namespace="ann", tier=MemoryTier.ARCHIVAL) == []
    # The fifth goes over the budget: of the two at 0.3 the older one (s1) moves out.
    s.add_episode(_episode(4, 0.8))
    archived = s.list_episodes(namespace="ann", tier=MemoryTier.ARCHIVAL)
    assert [e.id for e in archived] == [eps[1].id]
    assert archived[0].tier == MemoryTier.ARCHIVAL
    assert len(s.list_episodes(namespace="ann", tier=MemoryTier.EPISODIC)) == 4
    assert s.list_episodes(namespace="ann", tier="archival") == archived
    with pytest.raises(InvalidInput):
        s.list_episodes(namespace="ann", tier="semantic")
    with pytest.raises(InvalidInput):
        s.add_episode(replace(_episode(5, 0.5), tier=MemoryTier.WORKING))
    (row,) = [r for r in s.audit_log(namespace="ann") if r["action"] == "episode_archive"]
    assert row["entry_id"] == eps[1].id and '"budget":4' in row["reason"]
    s.close()


def test_budget_is_per_namespace(tmp_path, hash_embeddings, clock):
    s = _open(tmp_path / "m.db", hash_embeddings, clock, retention=2)
    for i in range(2):
        s.add_episode(_episode(i, 0.1, namespace="ann"))
    for i in range(2, 4):
        s.add_episode(_episode(i, 0.1, namespace="bob"))
    assert s.list_episodes(namespace="ann", tier=MemoryTier.ARCHIVAL) == []
    assert s.list_episodes(namespace="bob", tier=MemoryTier.ARCHIVAL) == []
    s.close()


def test_archived_episode_stays_findable_down_weighted_and_keeps_its_facts(
    tmp_path, hash_embeddings, clock
):
    db = tmp_path / "m.db"
    keep_all = _open(db, hash_embeddings, clock, retention=None)
    eps = [keep_all.add_episode(_episode(i, imp)) for i, imp in enumerate([0.2, 0.6, 0.7, 0.9])]
    fact = keep_all.add("Ann plays the violin", namespace="ann", episode_id=eps[0].id, key="hobby")
    (before,) = [
        x for x in keep_all.search_episodes("kayak trip", namespace="ann") if x[0].id == eps[0].id
    ]
    assert before[0].tier == MemoryTier.EPISODIC

    pruning = _open(db, hash_embeddings, clock, retention=3)
    assert pruning.prune_episodes(namespace="ann") == (eps[0].id,)
    assert pruning.prune_episodes(namespace="ann") == ()  # already within budget

    # The other store sees the move through the audit log; same index, half the score.
    hits = keep_all.search_episodes("kayak trip", namespace="ann")
    (after,) = [x for x in hits if x[0].id == eps[0].id]
    assert after[0].tier == MemoryTier.ARCHIVAL
    assert after[1] == pytest.approx(before[1] * 0.5)
    assert hits == sorted(hits, key=lambda h: h[1], reverse=True)

    # The session's fact is untouched: same row, still live and recalled.
    assert keep_all.get(fact.id) == fact
    assert fact.id in [h.entry.id for h in keep_all.search("violin", namespace="ann")]
    keep_all.close()
    pruning.close()


def test_restore_brings_an_episode_back_and_the_budget_still_holds(
    tmp_path, hash_embeddings, clock
):
    s = _open(tmp_path / "m.db", hash_embeddings, clock, retention=3)
    eps = [s.add_episode(_episode(i, imp)) for i, imp in enumerate([0.2, 0.6, 0.7, 0.9])]
    assert s.get_episode(eps[0].id).tier == MemoryTier.ARCHIVAL
    with pytest.raises(IllegalTransition):
        s.restore_episode(eps[1].id)

    restored = s.restore_episode(eps[0].id, namespace="ann", importance=0.95)
    assert restored.tier == MemoryTier.EPISODIC and restored.importance == 0.95
    assert s.get_episode(eps[0].id) == restored
    actions = [r["action"] for r in s.audit_log(namespace="ann", entry_id=eps[0].id)]
    assert actions == ["episode_add", "episode_archive", "episode_restore"]

    # Four live again: the decay pass applies the budget to the now least important one.
    clock.advance(days=1)
    report = s.decay_pass(namespace="ann")
    assert report.archived_episodes == (eps[1].id,)
    assert s.get_episode(eps[0].id).tier == MemoryTier.EPISODIC
    s.close()


def test_a_schema_2_file_upgrades_in_place(tmp_path, hash_embeddings, clock):
    db = tmp_path / "old.db"
    s = _open(db, hash_embeddings, clock, retention=None)
    eps = [s.add_episode(_episode(i, imp)) for i, imp in enumerate([0.4, 0.1, 0.8])]
    s.close()
    # Make it the file schema 2 wrote: no tier column on tm_episodes, nor its index.
    with sqlite3.connect(db) as conn:
        conn.execute("DROP INDEX ix_tm_episodes_ns_tier")
        conn.execute("ALTER TABLE tm_episodes DROP COLUMN tier")
        conn.execute("UPDATE tm_meta SET value = '2' WHERE key = 'schema_version'")
    conn.close()

    s = _open(db, hash_embeddings, clock, retention=2)
    assert s.schema_version == _tables.SCHEMA_VERSION == 4
    assert {e.tier for e in s.list_episodes(namespace="ann")} == {MemoryTier.EPISODIC}
    assert s.get_episode(eps[2].id).summary == eps[2].summary
    assert s.prune_episodes() == (eps[1].id,)
    with sqlite3.connect(db) as conn:
        indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    conn.close()
    assert "ix_tm_episodes_ns_tier" in indexes
    s.close()


def test_retention_config_key():
    assert MemoryConfig.from_dict({"memory.episodeRetention": 5}).episode_retention == 5
    assert MemoryConfig.from_dict({"memory.episodeRetention": None}).episode_retention is None
    assert MemoryConfig().episode_retention == 200
    with pytest.raises(ConfigError, match="episodeRetention"):
        MemoryConfig.from_dict({"memory.episodeRetention": 0})
