"""Who wins a contradiction: the spec's resolution policy, as a pure function.

1. The higher provenance wins (``user_stated`` > ``consolidated`` > ``model_inferred`` > ``legacy``).
2. With equal provenance, the newer entry (``created_at``) wins.
3. Otherwise - equal provenance and equal time, an unsure verdict, a confidence below
   ``memory.contradictionAutoConfidence``, or a pinned entry that would lose - the contradiction
   stays ``pending`` for the user to decide. A pinned entry is one the user fixed on purpose, so no
   rule may supersede it silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Literal

from ..config import MemoryConfig
from ..errors import InvalidInput
from ..types import Contradiction, MemoryEntry, utcnow
from .verdict import Verdict

__all__ = ["Resolution", "ResolutionStatus", "build_contradiction", "resolve"]

ResolutionStatus = Literal["resolved", "pending"]


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of the policy for one contradicting pair.

    Attributes:
        winner_id: The entry that stays current (None while pending).
        loser_id: The entry to supersede (None while pending).
        status: ``"resolved"`` or ``"pending"``.
        reason: Which rule decided, or why none could.
    """

    winner_id: str | None
    loser_id: str | None
    status: ResolutionStatus
    reason: str

    @property
    def pending(self) -> bool:
        """True when no rule decided."""
        return self.status == "pending"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _pending(reason: str) -> Resolution:
    return Resolution(None, None, "pending", reason)


def resolve(
    a: MemoryEntry, b: MemoryEntry, verdict: Verdict, *, config: MemoryConfig | None = None
) -> Resolution:
    """Apply the resolution policy to two contradicting entries.

    Args:
        a: One entry (usually the new one).
        b: The other entry (usually the stored one).
        verdict: The verifier's verdict on the pair.
        config: Supplies ``contradiction_auto_confidence``; defaults otherwise.

    Returns:
        A `Resolution` naming the winner and the loser, or a pending one.

    Raises:
        ValueError: When the verdict says the entries do not contradict (nothing to resolve).
    """
    if verdict.contradicts is False:
        raise InvalidInput(
            "verdict", "the verdict says these entries do not contradict; nothing to resolve"
        )
    cfg = config if config is not None else MemoryConfig()
    if verdict.contradicts is None:
        return _pending("the verifier could not tell whether these entries contradict")
    if verdict.confidence < cfg.contradiction_auto_confidence:
        return _pending(
            f"confidence {verdict.confidence:.2f} is below the auto-resolve bar "
            f"{cfg.contradiction_auto_confidence:.2f}"
        )
    if a.source != b.source:
        winner, loser = (a, b) if a.source > b.source else (b, a)
        reason = (f"higher provenance wins ({winner.source.label} over {loser.source.label})")
    else:
        time_a, time_b = _aware(a.created_at), _aware(b.created_at)
        if time_a == time_b:
            return _pending("same provenance and same creation time; needs a user decision")
        winner, loser = (a, b) if time_a > time_b else (b, a)
        reason = f"same provenance ({a.source.label}); the newer entry wins"
    if loser.pinned:
        return _pending(f"{reason}, but the losing entry {loser.id} is pinned")
    return Resolution(winner.id, loser.id, "resolved", reason)


def build_contradiction(
    a: MemoryEntry,
    b: MemoryEntry,
    verdict: Verdict,
    resolution: Resolution | None = None,
    *,
    now: datetime | None = None,
) -> Contradiction:
    """Make the `Contradiction` record for a pair.

    ``resolution`` is ``"keep_a"`` or ``"keep_b"`` when resolved, ``"pending"`` otherwise, and
    ``resolved_at`` is ``now`` for resolved records; the description joins the verdict's and the
    policy's reasons.

    Args:
        a: Entry A (``entry_a_id``).
        b: Entry B (``entry_b_id``).
        verdict: The verifier's verdict.
        resolution: The policy's outcome; computed with `resolve` when omitted.
        now: Creation (and resolution) time; `utcnow` when omitted.
    """
    outcome = resolution if resolution is not None else resolve(a, b, verdict)
    moment = now if now is not None else utcnow()
    if outcome.status == "resolved":
        code = "keep_a" if outcome.winner_id == a.id else "keep_b"
        resolved_at: datetime | None = moment
    else:
        code, resolved_at = "pending", None
    return Contradiction(
        entry_a_id=a.id,
        entry_b_id=b.id,
        description=f"{verdict.description}; {outcome.reason}",
        confidence=verdict.confidence,
        resolution=code,
        resolved_at=resolved_at,
        namespace=a.namespace,
        created_at=moment,
    )
