"""Forgetting-curve maths: half-life, effective importance and the decay state of an entry.

The spec's formulas, kept exactly::

    half_life = base * (1 + log2(1 + access_count))
    effective_importance = importance * 0.5 ** (days_since_access / half_life)

with ``base = memory.importanceDecayDays`` (default 30, clamped to at least 1 day). USER entries and
pinned entries never decay.

Everything here is a pure function: the current time is always a parameter (``now``), defaulting
to `utcnow` only where a caller leaves it out, so every number can be checked by hand.

Elapsed time is measured in **fractional days** (``seconds / 86400``), not the whole days of the
spec's ``timedelta.days``. Whole days make the curve a staircase: an entry last read 23 h 59 min
ago would count as read "0 days ago", and the score would jump at each midnight-relative boundary.
Fractional days agree with whole days at every exact day and move smoothly in between; callers who
need the spec's staircase can pass ``whole_days=True`` to `days_since`.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from datetime import datetime, timezone

from .config import MemoryConfig
from .errors import InvalidInput
from .types import MemoryEntry, MemoryTier, MemoryType, utcnow

__all__ = [
    "DECAYING_RATIO",
    "DecayAssessment",
    "DecayState",
    "assess_decay",
    "classify_decay",
    "days_since",
    "days_until_archive",
    "effective_importance",
    "entry_effective_importance",
    "half_life",
    "is_decay_exempt",
]

_SECONDS_PER_DAY = 86_400.0

#: An entry counts as *Decaying* once its effective importance has fallen below this share of its
#: stored importance, i.e. once more than one half-life has passed since it was last accessed.
#: The spec's diagram only says "not accessed for a long time"; one half-life is the natural unit
#: of "long" for an exponential curve and does not depend on the entry's importance.
DECAYING_RATIO = 0.5


def _clamp_base(base_days: float) -> float:
    # The spec clamps the base half-life to >= 1 day; MemoryConfig already does, but the pure
    # functions may be called with raw numbers.
    if math.isnan(base_days):
        raise InvalidInput("base_days", "must be a number")
    return max(1.0, float(base_days))


def half_life(access_count: int, base_days: float = 30.0) -> float:
    """Half-life in days of an entry that has been accessed ``access_count`` times.

    Args:
        access_count: Times the entry was recalled; negative values count as 0.
        base_days: Base half-life (``memory.importanceDecayDays``); clamped to at least 1.

    Returns:
        ``base * (1 + log2(1 + access_count))``.
    """
    count = max(0, int(access_count))
    return _clamp_base(base_days) * (1.0 + math.log2(1 + count))


def effective_importance(
    importance: float,
    access_count: int,
    days_since_access: float,
    base_days: float = 30.0,
) -> float:
    """Importance after forgetting: ``importance * 0.5 ** (days_since_access / half_life)``.

    Args:
        importance: Stored importance of the entry.
        access_count: Times the entry was recalled.
        days_since_access: Days since the last access; negative values (clock skew) count as 0.
        base_days: Base half-life in days (clamped to at least 1).

    Returns:
        The decayed importance; equal to ``importance`` at 0 days, half of it after one half-life.
    """
    days = max(0.0, float(days_since_access))
    return float(importance) * 0.5 ** (days / half_life(access_count, base_days))


def _aware(moment: datetime) -> datetime:
    # Naive datetimes are taken as UTC, which is what the store writes.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def days_since(
    last_accessed: datetime, now: datetime | None = None, *, whole_days: bool = False
) -> float:
    """Days elapsed from ``last_accessed`` to ``now``.

    Args:
        last_accessed: When the entry was last read. Naive datetimes are taken as UTC.
        now: The current time; `utcnow` when omitted.
        whole_days: Return whole days as the spec's ``timedelta.days`` does (a staircase) instead
            of fractional days (the default, see the module docstring).

    Returns:
        A non-negative number of days; a ``last_accessed`` in the future gives 0.
    """
    current = _aware(now if now is not None else utcnow())
    delta = current - _aware(last_accessed)
    if whole_days:
        return float(max(0, delta.days))
    return max(0.0, delta.total_seconds() / _SECONDS_PER_DAY)


def is_decay_exempt(entry: MemoryEntry) -> bool:
    """True for entries that never decay: USER type and pinned entries."""
    return entry.type is MemoryType.USER or bool(entry.pinned)


def entry_effective_importance(
    entry: MemoryEntry, now: datetime | None = None, base_days: float = 30.0
) -> float:
    """Effective importance of a stored entry at ``now``.

    Args:
        entry: The entry; its ``importance``, ``access_count`` and ``last_accessed`` are used.
        now: The current time; `utcnow` when omitted.
        base_days: Base half-life (pass ``config.importance_decay_days``).

    Returns:
        ``entry.importance`` unchanged for USER and pinned entries, the decayed value otherwise.
    """
    if is_decay_exempt(entry):
        return float(entry.importance)
    return effective_importance(
        entry.importance, entry.access_count, days_since(entry.last_accessed, now), base_days
    )


def days_until_archive(
    importance: float, access_count: int, threshold: float, base_days: float = 30.0
) -> float:
    """Days without access after which the effective importance reaches ``threshold``.

    Solves ``importance * 0.5 ** (d / half_life) == threshold`` for ``d``.

    Returns:
        ``0.0`` when the importance is already at or below the threshold, ``inf`` when the
        threshold is not positive (the curve never reaches 0).
    """
    if threshold <= 0:
        return math.inf
    if importance <= threshold:
        return 0.0
    return half_life(access_count, base_days) * math.log2(importance / threshold)


class DecayState(str, enum.Enum):
    """Where an entry stands on the spec's lifecycle diagram, as far as decay is concerned.

    ``ACTIVE``: recently used (or exempt: USER and pinned entries always stay here).
    ``DECAYING``: more than one half-life unused (effective < ``DECAYING_RATIO`` x importance).
    ``ARCHIVE_DUE``: effective importance below ``archive_threshold``; a decay pass archives it.
    ``ARCHIVED``: already in the ARCHIVAL tier (restore brings it back to ACTIVE).
    ``SUPERSEDED``: replaced by a newer version (``superseded_by`` set).
    """

    ACTIVE = "active"
    DECAYING = "decaying"
    ARCHIVE_DUE = "archive_due"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"


@dataclass(frozen=True, slots=True)
class DecayAssessment:
    """The decay figures of one entry at one instant.

    Attributes:
        entry_id: The entry assessed.
        state: Its `DecayState`.
        effective: Effective importance at ``now``.
        half_life_days: Its current half-life in days.
        days_idle: Fractional days since its last access.
        exempt: True for USER and pinned entries.
    """

    entry_id: str
    state: DecayState
    effective: float
    half_life_days: float
    days_idle: float
    exempt: bool


def _state_for(importance: float, effective: float, threshold: float) -> DecayState:
    if effective < threshold:
        return DecayState.ARCHIVE_DUE
    if effective < importance * DECAYING_RATIO:
        return DecayState.DECAYING
    return DecayState.ACTIVE


def assess_decay(
    entry: MemoryEntry, now: datetime | None = None, config: MemoryConfig | None = None
) -> DecayAssessment:
    """Compute an entry's effective importance and classify it.

    Args:
        entry: The entry to assess.
        now: The current time; `utcnow` when omitted.
        config: Supplies ``importance_decay_days`` and ``archive_threshold``; defaults otherwise.

    Returns:
        A `DecayAssessment`. Superseded entries are ``SUPERSEDED`` and ARCHIVAL ones ``ARCHIVED``
        whatever their score; exempt entries are always ``ACTIVE``.
    """
    cfg = config if config is not None else MemoryConfig()
    idle = days_since(entry.last_accessed, now)
    hl = half_life(entry.access_count, cfg.importance_decay_days)
    exempt = is_decay_exempt(entry)
    effective = entry_effective_importance(entry, now, cfg.importance_decay_days)
    if entry.superseded_by:
        state = DecayState.SUPERSEDED
    elif entry.tier is MemoryTier.ARCHIVAL:
        state = DecayState.ARCHIVED
    elif exempt:
        state = DecayState.ACTIVE
    else:
        state = _state_for(entry.importance, effective, cfg.archive_threshold)
    return DecayAssessment(
        entry_id=entry.id,
        state=state,
        effective=effective,
        half_life_days=hl,
        days_idle=idle,
        exempt=exempt,
    )


def classify_decay(
    entry: MemoryEntry, now: datetime | None = None, config: MemoryConfig | None = None
) -> DecayState:
    """The `DecayState` of ``entry`` at ``now`` (see `assess_decay`)."""
    return assess_decay(entry, now, config).state
