"""Optional dependencies: a missing one names the extra that installs it."""

from __future__ import annotations

from .errors import TieredMemoryError

__all__ = ["MissingExtra"]


class MissingExtra(TieredMemoryError, ImportError):
    """A feature needs an optional dependency that is not installed.

    Attributes:
        extra: The package extra that installs it (``pip install
            'langchain-tiered-memory[<extra>]'``).
        feature: What needed it.
    """

    def __init__(self, extra: str, *, feature: str, missing: str | None = None) -> None:
        what = f" ({missing} is not installed)" if missing else ""
        super().__init__(
            f"{feature} needs the '{extra}' extra{what}: "
            f"pip install 'langchain-tiered-memory[{extra}]'",
            name=missing,
        )
        self.extra = extra
        self.feature = feature
