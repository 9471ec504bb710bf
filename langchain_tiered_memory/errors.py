"""The exception tree. Every error the library raises on purpose derives from `TieredMemoryError`."""

from __future__ import annotations

from typing import Any

__all__ = [
    "ConfigError",
    "EmbeddingError",
    "EntryNotFound",
    "IllegalTransition",
    "InvalidInput",
    "MemoryWriteBlocked",
    "StoreError",
    "TieredMemoryError",
]


class TieredMemoryError(Exception):
    """Root of every error raised by langchain-tiered-memory."""


class ConfigError(TieredMemoryError, ValueError):
    """A configuration key is unknown or its value has the wrong type.

    Attributes:
        key: The offending key, as the caller spelt it.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class MemoryWriteBlocked(TieredMemoryError):
    """A write was refused by the injection scanner, the PII policy or the provenance guard.

    The store is left exactly as it was before the call.

    Attributes:
        reason: Machine-readable reason (``invisible_unicode``, ``en_injection``,
            ``zh_injection``, ``provenance``, ``pii``, ...).
        rule: The rule that fired, when one did.
        span: ``(start, end)`` offsets of the offending text in the content, when known.
        item_index: For batch writes, the index of the item that was refused.
        detail: Human-readable explanation.
    """

    def __init__(
        self,
        reason: str,
        *,
        rule: str | None = None,
        span: tuple[int, int] | None = None,
        item_index: int | None = None,
        detail: str = "",
    ) -> None:
        where = f" (item {item_index})" if item_index is not None else ""
        what = f" rule={rule}" if rule else ""
        at = f" span={span}" if span else ""
        super().__init__(f"write blocked: {reason}{what}{at}{where}. {detail}".rstrip(". ") + ".")
        self.reason = reason
        self.rule = rule
        self.span = span
        self.item_index = item_index
        self.detail = detail

    def with_index(self, index: int) -> MemoryWriteBlocked:
        """Return a copy of this error that names the batch item it came from."""
        return MemoryWriteBlocked(
            self.reason, rule=self.rule, span=self.span, item_index=index, detail=self.detail
        )


class EntryNotFound(TieredMemoryError, KeyError):
    """No entry with that id exists in the namespace the caller can see."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(entry_id)
        self.entry_id = entry_id

    def __str__(self) -> str:
        return f"no memory entry with id {self.entry_id!r}"


class InvalidInput(TieredMemoryError, ValueError):
    """An argument has the wrong type or value (empty content, importance outside 0..1, ...).

    Attributes:
        field: The argument at fault.
        item_index: For batch writes, the index of the item at fault.
    """

    def __init__(self, field: str, message: str, *, item_index: int | None = None) -> None:
        where = f" (item {item_index})" if item_index is not None else ""
        super().__init__(f"{field}: {message}{where}")
        self.field = field
        self.item_index = item_index


class IllegalTransition(TieredMemoryError):
    """A lifecycle transition that the state diagram does not allow (e.g. restoring a live entry)."""


class StoreError(TieredMemoryError):
    """The database failed: locked, read-only, full, corrupt or unreachable.

    Attributes:
        original: The underlying driver exception.
    """

    def __init__(self, message: str, original: BaseException | None = None) -> None:
        super().__init__(message)
        self.original = original


class EmbeddingError(TieredMemoryError):
    """The embedding model failed or returned vectors of the wrong shape."""


def describe(exc: BaseException) -> dict[str, Any]:
    """Return a JSON-friendly description of an error, for audit rows and HTTP bodies."""
    out: dict[str, Any] = {"error": type(exc).__name__, "message": str(exc)}
    for attr in ("reason", "rule", "span", "item_index", "key", "entry_id"):
        if getattr(exc, attr, None) is not None:
            out[attr] = getattr(exc, attr)
    return out
