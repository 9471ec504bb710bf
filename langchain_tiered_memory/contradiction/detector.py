"""The whole detection flow for one new entry: pre-filter, verify, resolve, record."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from ..config import MemoryConfig
from ..types import Contradiction, MemoryEntry
from .candidates import Candidate, find_candidates
from .heuristic import HeuristicVerifier
from .resolution import Resolution, build_contradiction, resolve
from .verdict import Verdict, Verifier

__all__ = ["Detection", "adetect_contradictions", "detect_contradictions"]


@dataclass(frozen=True, slots=True)
class Detection:
    """One contradiction found for a new entry.

    Attributes:
        candidate: The pre-filter's candidate (the existing entry and why it was checked).
        verdict: The verifier's verdict (``contradicts`` True, or None for unsure pairs).
        resolution: The policy's outcome.
        contradiction: The record to store.
    """

    candidate: Candidate
    verdict: Verdict
    resolution: Resolution
    contradiction: Contradiction


def _detection(
    new: MemoryEntry,
    candidate: Candidate,
    verdict: Verdict,
    cfg: MemoryConfig,
    now: datetime | None,
    include_unsure: bool,
) -> Detection | None:
    if verdict.contradicts is False or (verdict.contradicts is None and not include_unsure):
        return None
    outcome = resolve(new, candidate.entry, verdict, config=cfg)
    record = build_contradiction(new, candidate.entry, verdict, outcome, now=now)
    return Detection(candidate, verdict, outcome, record)


def detect_contradictions(
    new: MemoryEntry,
    existing: Iterable[MemoryEntry],
    *,
    verifier: Verifier | None = None,
    similarities: Mapping[str, float] | None = None,
    config: MemoryConfig | None = None,
    now: datetime | None = None,
    limit: int | None = 20,
    include_unsure: bool = False,
) -> list[Detection]:
    """Find, verify and resolve the contradictions between ``new`` and stored entries.

    Args:
        new: The entry being written (entry A of every record).
        existing: Stored entries to check against.
        verifier: Any `Verifier`; the offline `HeuristicVerifier` by default.
        similarities: Optional vector similarities by entry id, for the pre-filter.
        config: Thresholds; defaults otherwise.
        now: Time stamped on the records.
        limit: Most candidates to verify.
        include_unsure: Also return pairs the verifier could not decide (always pending).

    Returns:
        One `Detection` per contradicting pair, in candidate order.
    """
    cfg = config if config is not None else MemoryConfig()
    judge = verifier if verifier is not None else HeuristicVerifier()
    found: list[Detection] = []
    for candidate in find_candidates(new, existing, similarities=similarities, config=cfg,
                                     limit=limit):
        verdict = judge.verify(new.content, candidate.entry.content, key_a=new.key or None,
                               key_b=candidate.entry.key or None)
        detection = _detection(new, candidate, verdict, cfg, now, include_unsure)
        if detection is not None:
            found.append(detection)
    return found


async def adetect_contradictions(
    new: MemoryEntry,
    existing: Iterable[MemoryEntry],
    *,
    verifier: Verifier | None = None,
    similarities: Mapping[str, float] | None = None,
    config: MemoryConfig | None = None,
    now: datetime | None = None,
    limit: int | None = 20,
    include_unsure: bool = False,
) -> list[Detection]:
    """Async twin of `detect_contradictions` (verifications run one after another)."""
    cfg = config if config is not None else MemoryConfig()
    judge = verifier if verifier is not None else HeuristicVerifier()
    found: list[Detection] = []
    for candidate in find_candidates(new, existing, similarities=similarities, config=cfg,
                                     limit=limit):
        verdict = await judge.averify(new.content, candidate.entry.content,
                                      key_a=new.key or None, key_b=candidate.entry.key or None)
        detection = _detection(new, candidate, verdict, cfg, now, include_unsure)
        if detection is not None:
            found.append(detection)
    return found
