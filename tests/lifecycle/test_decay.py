"""Decay maths against hand-computed numbers, day counting edges, exemptions, states."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from langchain_tiered_memory.config import MemoryConfig
from langchain_tiered_memory.decay import (
    DECAYING_RATIO,
    DecayState,
    assess_decay,
    classify_decay,
    days_since,
    days_until_archive,
    effective_importance,
    entry_effective_importance,
    half_life,
)
from langchain_tiered_memory.types import MemoryTier, MemoryType

from ._factory import T0, make_entry

# (access_count, base_days, half_life) worked by hand: base * (1 + log2(1 + n)).
HALF_LIVES = [
    (0, 30, 30.0),  # log2(1) = 0
    (1, 30, 60.0),  # log2(2) = 1
    (3, 30, 90.0),  # log2(4) = 2
    (7, 30, 120.0),  # log2(8) = 3
    (2, 30, 77.54887502163468),  # 30 * (1 + 1.584962500721156)
    (15, 10, 50.0),  # log2(16) = 4
    (0, 1, 1.0),
    (0, 0.5, 1.0),  # clamped to 1 day
    (0, -3, 1.0),  # clamped to 1 day
    (-4, 30, 30.0),  # negative counts count as 0
]

# (importance, access_count, days, base, effective): importance * 0.5 ** (days / half_life).
EFFECTIVE = [
    (1.0, 0, 0, 30, 1.0),
    (1.0, 0, 30, 30, 0.5),
    (1.0, 0, 60, 30, 0.25),
    (1.0, 0, 15, 30, 0.7071067811865476),  # sqrt(0.5)
    (0.8, 1, 60, 30, 0.4),
    (0.8, 1, 120, 30, 0.2),
    (0.5, 7, 240, 30, 0.125),
    (0.9, 3, 90, 30, 0.45),
    (1.0, 2, 77.54887502163468, 30, 0.5),
    (0.6, 0, 3, 1, 0.075),  # base 1 day: 0.6 / 8
    (0.4, 0, 100, 30, 0.4 * 0.5 ** (100 / 30)),  # 0.03968502629920499
    (0.5, 0, -5, 30, 0.5),  # future access (clock skew) counts as 0 days
    (0.0, 0, 10, 30, 0.0),
]


@pytest.mark.parametrize(("count", "base", "expected"), HALF_LIVES)
def test_half_life_table(count: int, base: float, expected: float) -> None:
    assert half_life(count, base) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("importance", "count", "days", "base", "expected"), EFFECTIVE)
def test_effective_importance_table(
    importance: float, count: int, days: float, base: float, expected: float
) -> None:
    assert effective_importance(importance, count, days, base) == pytest.approx(expected, rel=1e-12)


def test_reference_value_spelled_out() -> None:
    assert effective_importance(0.4, 0, 100, 30) == pytest.approx(0.03968502629920499, rel=1e-12)


def test_more_accesses_decay_slower() -> None:
    values = [effective_importance(1.0, n, 45, 30) for n in range(6)]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_days_since_is_fractional() -> None:
    assert days_since(T0, T0 + timedelta(hours=36)) == pytest.approx(1.5)
    # The edge the spec's whole days get wrong: 1 minute short of a day is ~1 day, not 0.
    almost = T0 + timedelta(hours=23, minutes=59)
    assert days_since(T0, almost) == pytest.approx(1439 / 1440)
    assert days_since(T0, T0 + timedelta(days=1)) == 1.0
    assert days_since(T0, T0) == 0.0


def test_days_since_whole_days_matches_spec_staircase() -> None:
    assert days_since(T0, T0 + timedelta(hours=23, minutes=59), whole_days=True) == 0.0
    assert days_since(T0, T0 + timedelta(days=1), whole_days=True) == 1.0
    assert days_since(T0, T0 + timedelta(hours=47, minutes=59), whole_days=True) == 1.0
    assert days_since(T0, T0 + timedelta(days=2), whole_days=True) == 2.0


def test_days_since_future_and_naive() -> None:
    assert days_since(T0 + timedelta(days=3), T0) == 0.0
    assert days_since(T0 + timedelta(days=3), T0, whole_days=True) == 0.0
    naive = datetime(2026, 1, 1)  # taken as UTC
    assert days_since(naive, T0 + timedelta(days=2)) == 2.0
    assert days_since(T0, datetime(2026, 1, 3)) == 2.0
    other_tz = T0.astimezone(timezone(timedelta(hours=8)))
    assert days_since(other_tz, T0 + timedelta(days=1)) == 1.0


def test_days_since_defaults_to_now() -> None:
    recent = datetime.now(timezone.utc) - timedelta(days=2)
    assert days_since(recent) == pytest.approx(2.0, abs=1e-3)


def test_entry_effective_importance_environment_decays() -> None:
    entry = make_entry(importance=0.8, access_count=1)
    assert entry_effective_importance(entry, T0 + timedelta(days=60), 30) == pytest.approx(0.4)
    assert entry_effective_importance(entry, T0 + timedelta(days=60), 60) == pytest.approx(
        0.8 * 0.5 ** 0.5
    )


@pytest.mark.parametrize(
    "changes", [{"type": MemoryType.USER}, {"pinned": True}, {"type": MemoryType.USER, "pinned": True}]
)
def test_user_and_pinned_never_decay(changes: dict[str, Any]) -> None:
    entry = make_entry(importance=0.7, **changes)
    far = T0 + timedelta(days=10_000)
    assert entry_effective_importance(entry, far, 30) == 0.7
    assert classify_decay(entry, far) is DecayState.ACTIVE
    assessment = assess_decay(entry, far)
    assert assessment.exempt is True
    assert assessment.effective == 0.7


def test_states_follow_the_diagram() -> None:
    cfg = MemoryConfig(importance_decay_days=30, archive_threshold=0.1)
    entry = make_entry(importance=0.8)  # half-life 30 days
    assert classify_decay(entry, T0, cfg) is DecayState.ACTIVE
    assert classify_decay(entry, T0 + timedelta(days=29), cfg) is DecayState.ACTIVE
    # Past one half-life: effective < 0.5 * importance.
    assert classify_decay(entry, T0 + timedelta(days=31), cfg) is DecayState.DECAYING
    # 0.8 -> 0.1 takes log2(8) = 3 half-lives = 90 days.
    assert classify_decay(entry, T0 + timedelta(days=89), cfg) is DecayState.DECAYING
    assert classify_decay(entry, T0 + timedelta(days=91), cfg) is DecayState.ARCHIVE_DUE
    # A recall (reinforcement) reactivates it.
    reread = entry.evolve(access_count=1, last_accessed=T0 + timedelta(days=91))
    assert classify_decay(reread, T0 + timedelta(days=92), cfg) is DecayState.ACTIVE


def test_decaying_ratio_is_half() -> None:
    assert DECAYING_RATIO == 0.5


def test_archived_and_superseded_states() -> None:
    archived = make_entry(tier=MemoryTier.ARCHIVAL)
    assert classify_decay(archived, T0) is DecayState.ARCHIVED
    superseded = make_entry(superseded_by="other")
    assert classify_decay(superseded, T0) is DecayState.SUPERSEDED


def test_assessment_figures() -> None:
    entry = make_entry(importance=1.0, access_count=3)
    got = assess_decay(entry, T0 + timedelta(days=45), MemoryConfig(importance_decay_days=30))
    assert got.half_life_days == 90.0
    assert got.days_idle == 45.0
    assert got.effective == pytest.approx(0.5 ** 0.5)
    assert got.state is DecayState.ACTIVE
    assert got.entry_id == entry.id


def test_config_base_is_used_and_clamped() -> None:
    entry = make_entry(importance=1.0)
    cfg = MemoryConfig(importance_decay_days=0.25)  # clamped to 1 by the config
    got = assess_decay(entry, T0 + timedelta(days=2), cfg)
    assert got.effective == pytest.approx(0.25)


def test_days_until_archive() -> None:
    assert days_until_archive(0.8, 0, 0.1, 30) == pytest.approx(90.0)
    assert days_until_archive(0.8, 1, 0.1, 30) == pytest.approx(180.0)
    assert days_until_archive(0.05, 0, 0.1, 30) == 0.0
    assert days_until_archive(0.5, 0, 0.0, 30) == math.inf
    # Consistent with effective_importance at that moment.
    days = days_until_archive(0.7, 2, 0.1, 30)
    assert effective_importance(0.7, 2, days, 30) == pytest.approx(0.1)
