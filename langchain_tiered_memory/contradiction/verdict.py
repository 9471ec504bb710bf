"""What a verifier says about a pair of statements, and the interface every verifier offers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["Verdict", "Verifier"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A verifier's judgement on two statements.

    Attributes:
        contradicts: True when both cannot be true at once, False when they can, None when the
            verifier cannot tell (treated as "not flagged" and never auto-resolved).
        confidence: How sure the verifier is of ``contradicts``, in [0, 1].
        description: One human-readable sentence saying why.
        method: ``"heuristic"`` or ``"llm"`` (``"llm+heuristic"`` when the model failed and the
            heuristic answered instead).
        rule: The heuristic rule that decided, when one did (``"same_slot"``, ``"negation"``...).
    """

    contradicts: bool | None
    confidence: float
    description: str
    method: str = "heuristic"
    rule: str | None = None

    @property
    def unsure(self) -> bool:
        """True when the verifier could not decide."""
        return self.contradicts is None


@runtime_checkable
class Verifier(Protocol):
    """Anything that judges whether two memory statements contradict each other."""

    def verify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Judge ``a`` against ``b`` (keys are the entries' keys, when they have one)."""
        ...

    async def averify(
        self, a: str, b: str, *, key_a: str | None = None, key_b: str | None = None
    ) -> Verdict:
        """Async twin of `verify`."""
        ...
