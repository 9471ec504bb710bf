"""Candidate pre-filter, resolution policy, Contradiction records and the detection flow."""

from __future__ import annotations

from datetime import timedelta

import pytest

from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.contradiction import (
    Verdict,
    adetect_contradictions,
    build_contradiction,
    detect_contradictions,
    find_candidates,
    key_similarity,
    resolve,
)
from langchain_tiered_memory.types import ProvenanceLevel

from ._factory import T0, make_entry

SURE = Verdict(True, 0.9, "cities differ")


# -- candidates ---------------------------------------------------------------------------------


def test_key_similarity() -> None:
    assert key_similarity("user.home_city", "user.home-city") == 1.0
    assert key_similarity("user.home_city", "home.city") == pytest.approx(2 / 3)
    assert key_similarity("ui.theme", "food.likes") == 0.0


def test_candidates_by_each_signal() -> None:
    new = make_entry("I live in London.", key="user.city", tags=("home",))
    same_key = make_entry("Paris", key="user.city")
    near_key = make_entry("somewhere", key="user.city.current")
    tagged = make_entry("The flat has two rooms.", tags=("home",))
    subject = make_entry("I am living in Paris.")
    vector = make_entry("Résidence principale : Paris")
    unrelated = make_entry("I like sushi.", tags=("food",))
    got = find_candidates(
        new, [unrelated, vector, subject, tagged, near_key, same_key],
        similarities={vector.id: 0.81, unrelated.id: 0.1},
    )
    reasons = {c.entry.id: c.reasons for c in got}
    assert unrelated.id not in reasons
    assert "same_key" in reasons[same_key.id]
    assert "key" in reasons[near_key.id]
    assert "tags" in reasons[tagged.id]
    assert "subject" in reasons[subject.id]
    assert reasons[vector.id] == ("vector",)
    assert got[0].entry.id in (same_key.id, subject.id)
    assert [c.score for c in got] == sorted((c.score for c in got), reverse=True)


def test_candidates_respect_threshold_namespace_superseded_and_limit() -> None:
    new = make_entry("I live in London.")
    low = make_entry("x", key="")
    other_ns = make_entry("I live in Paris.", namespace="bob")
    superseded = make_entry("I live in Rome.", superseded_by="z")
    cfg = MemoryConfig(contradiction_min_similarity=0.9)
    assert find_candidates(new, [low], similarities={low.id: 0.85}, config=cfg) == []
    assert find_candidates(new, [low], similarities={low.id: 0.95}, config=cfg)
    assert find_candidates(new, [other_ns, superseded, new]) == []
    many = [make_entry(f"I live in City{i}.") for i in range(30)]
    assert len(find_candidates(new, many, limit=5)) == 5
    assert len(find_candidates(new, many, limit=None)) == 30


# -- resolution ---------------------------------------------------------------------------------


def test_higher_provenance_wins_even_if_older() -> None:
    old_user = make_entry(source=ProvenanceLevel.USER_STATED, created_at=T0)
    new_model = make_entry(source=ProvenanceLevel.MODEL_INFERRED, created_at=T0 + timedelta(1))
    got = resolve(new_model, old_user, SURE)
    assert (got.winner_id, got.loser_id, got.status) == (old_user.id, new_model.id, "resolved")
    assert "provenance" in got.reason


def test_equal_provenance_newer_wins() -> None:
    old = make_entry(created_at=T0)
    new = make_entry(created_at=T0 + timedelta(seconds=1))
    for a, b in ((old, new), (new, old)):
        got = resolve(a, b, SURE)
        assert (got.winner_id, got.loser_id, got.status) == (new.id, old.id, "resolved")
        assert "newer" in got.reason


@pytest.mark.parametrize(
    ("verdict", "word"),
    [
        (Verdict(None, 0.9, "?"), "could not tell"),
        (Verdict(True, 0.74, "weak"), "below"),
    ],
)
def test_unsure_or_weak_is_pending(verdict: Verdict, word: str) -> None:
    a = make_entry(source=ProvenanceLevel.USER_STATED)
    b = make_entry(source=ProvenanceLevel.LEGACY)
    got = resolve(a, b, verdict)
    assert (got.winner_id, got.loser_id, got.status) == (None, None, "pending")
    assert got.pending and word in got.reason


def test_confidence_bar_comes_from_config() -> None:
    a, b = make_entry(created_at=T0), make_entry(created_at=T0 + timedelta(1))
    weak = Verdict(True, 0.6, "weak")
    assert resolve(a, b, weak).pending
    assert not resolve(a, b, weak, config=MemoryConfig(contradiction_auto_confidence=0.5)).pending
    exactly = Verdict(True, 0.75, "at the bar")
    assert not resolve(a, b, exactly).pending


def test_tie_is_pending_and_pinned_loser_is_pending() -> None:
    a, b = make_entry(), make_entry()
    assert "same creation time" in resolve(a, b, SURE).reason
    pinned_old = make_entry(pinned=True, created_at=T0)
    newer = make_entry(created_at=T0 + timedelta(1))
    got = resolve(newer, pinned_old, SURE)
    assert got.pending and "pinned" in got.reason


def test_no_contradiction_cannot_be_resolved() -> None:
    with pytest.raises(ValueError, match="do not contradict"):
        resolve(make_entry(), make_entry(), Verdict(False, 0.9, "fine"))


def test_build_contradiction_records() -> None:
    a = make_entry("I live in London.", created_at=T0 + timedelta(1), namespace="alice")
    b = make_entry("I live in Paris.", namespace="alice")
    now = T0 + timedelta(days=2)
    record = build_contradiction(a, b, SURE, now=now)
    assert (record.entry_a_id, record.entry_b_id) == (a.id, b.id)
    assert record.resolution == "keep_a" and record.resolved_at == now
    assert record.confidence == 0.9 and record.namespace == "alice"
    assert "cities differ" in record.description and "newer" in record.description
    assert not record.pending
    flipped = build_contradiction(b, a, SURE, now=now)
    assert flipped.resolution == "keep_b"
    pending = build_contradiction(a, b, Verdict(None, 0.3, "?"), now=now)
    assert pending.pending and pending.resolution == "pending" and pending.resolved_at is None


# -- detection flow -----------------------------------------------------------------------------


def _store_entries() -> list:
    return [
        make_entry("I live in Paris.", created_at=T0),
        make_entry("I like sushi.", created_at=T0),
        make_entry("My favourite colour is blue.", created_at=T0, key="user.colour"),
        make_entry("I also like coffee.", created_at=T0),
    ]


def test_detect_contradictions_end_to_end() -> None:
    new = make_entry("I live in London.", created_at=T0 + timedelta(days=3))
    found = detect_contradictions(new, _store_entries(), now=T0 + timedelta(days=3))
    assert len(found) == 1
    hit = found[0]
    assert hit.candidate.entry.content == "I live in Paris."
    assert hit.resolution.winner_id == new.id
    assert hit.contradiction.resolution == "keep_a"
    assert hit.verdict.rule == "same_slot"


async def test_adetect_matches_sync_and_zh() -> None:
    existing = [make_entry("我喜欢猫。", created_at=T0), make_entry("我住在北京。", created_at=T0)]
    new = make_entry("我不喜欢猫。", created_at=T0 + timedelta(1),
                     source=ProvenanceLevel.MODEL_INFERRED)
    found = await adetect_contradictions(new, existing)
    assert [d.candidate.entry.content for d in found] == ["我喜欢猫。"]
    sync = detect_contradictions(new, existing)
    assert [d.verdict for d in sync] == [d.verdict for d in found]


def test_unsure_pairs_only_on_request() -> None:
    existing = [make_entry("I visited Tokyo in 2018.")]
    new = make_entry("I visited Tokyo in 2022.", created_at=T0 + timedelta(1))
    assert detect_contradictions(new, existing) == []
    found = detect_contradictions(new, existing, include_unsure=True)
    assert len(found) == 1 and found[0].resolution.pending
