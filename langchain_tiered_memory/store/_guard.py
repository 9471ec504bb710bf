"""The checks every write passes before it reaches the database: PII policy and injection scan.

Both cover every field a model may later read, not only ``content``: the key, the tags and every
string of the metadata (keys and values, at any depth). The scanner also reads the fields joined
as the tools print them, so a payload split across content, key and tags is caught as a whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import MemoryWriteBlocked
from ..security import PiiPolicy, apply_pii_policy, redact_pii, scan_memory_content
from ..types import ScanResult
from ._db import dumps
from ._rows import Draft

_MEMO_MAX = 50_000


def apply_pii(draft: Draft, policy: PiiPolicy) -> None:
    """Apply the PII policy to every field of ``draft`` (redacted in place, or refused).

    Raises:
        MemoryWriteBlocked: ``policy == "block"`` and a field holds personal data; the detail
            names the field.
    """
    if policy == "allow":
        return
    try:
        field = "content"
        draft.content = apply_pii_policy(draft.content, policy)
        field = "key"
        if draft.key is not None:
            draft.key = apply_pii_policy(draft.key, policy)
        field = "tags"
        draft.tags = tuple(dict.fromkeys(apply_pii_policy(tag, policy) for tag in draft.tags))
        field = "metadata"
        draft.metadata = _pii_value(draft.metadata, policy)
    except MemoryWriteBlocked as exc:
        raise MemoryWriteBlocked(
            exc.reason, rule=exc.rule, span=exc.span, detail=f"{exc.detail} (in {field})"
        ) from None


def _pii_value(value: Any, policy: PiiPolicy) -> Any:
    # Metadata is a plain JSON copy whose depth `make_draft` bounded, so recursion is safe.
    if isinstance(value, str):
        return apply_pii_policy(value, policy)
    if isinstance(value, Mapping):
        return {apply_pii_policy(k, policy): _pii_value(v, policy) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_pii_value(v, policy) for v in value]
    return value


def scan_fields(
    draft: Draft, *, classifier: Any = None, memo: dict[str, ScanResult] | None = None
) -> None:
    """Scan each field of ``draft``, then all of them joined as a model reads them.

    Raises:
        MemoryWriteBlocked: The scanner refused a field or the joined rendering.
    """
    parts = [draft.content, draft.key or "", *draft.tags, *strings(draft.metadata)]
    parts = [p for p in parts if p]
    texts = parts if len(parts) == 1 else [*parts, _joined(draft)]
    for text in texts:
        verdict = memo.get(text) if memo is not None else None
        if verdict is None:
            verdict = scan_memory_content(text, classifier=classifier)
            if memo is not None and len(memo) < _MEMO_MAX:
                memo[text] = verdict
        if verdict.blocked:
            joined = text is texts[-1] and len(texts) > 1
            raise MemoryWriteBlocked(
                verdict.reason or "blocked",
                rule=verdict.rule,
                span=None if joined else verdict.span,
                detail=(verdict.detail + " (across content, key, tags and metadata)").strip()
                if joined
                else verdict.detail,
            )


def _joined(draft: Draft) -> str:
    """The fields as one text, a line each, metadata as ``path: value`` lines.

    Lines, not one run of words: a document of short fields stored through the BaseStore adapter
    then still reads as a record (:func:`..security.records.record_prose`) and not as a sentence
    of labels and timestamps, which the learned model refused (0.85 for ``title: Q3 report /
    score: 0.92 / status: approved`` with its bookkeeping appended).
    """
    lines = [draft.content, draft.key or "", *draft.tags]
    stack: list[tuple[str, Any]] = [("", draft.metadata)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, Mapping):
            pairs = dict.items(item) if isinstance(item, dict) else item.items()
            stack.extend((f"{path}.{k}" if path else str(k), v) for k, v in reversed(list(pairs)))
        elif isinstance(item, list | tuple):
            stack.extend((path, v) for v in reversed(item))
        elif isinstance(item, str):  # (the strings `strings` scans, with their paths)
            lines.append(f"{path}: {item}" if path else item)
    return "\n".join(line for line in lines if line)


def blocked_value(draft: Draft, policy: PiiPolicy, reason: str) -> str:
    """What the audit log keeps of a refused write: its start and key, personal data redacted.

    A write refused for personal data must not leave that data in the log, and under a
    ``redact`` or ``block`` policy no refusal does.
    """
    content, key = draft.content, draft.key
    if policy != "allow" or reason == "pii":
        # Redacted before the cut: an item cut in half would no longer be recognised.
        content = redact_pii(content)[0]
        key = redact_pii(key)[0] if key is not None else None
    return dumps({"content": content[:500], "key": key})


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value, keys included (metadata is scanned too)."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Mapping):
            pairs = dict.items(item) if isinstance(item, dict) else item.items()
            for k, v in pairs:
                stack.append(v)
                stack.append(k)
        elif isinstance(item, list | tuple):
            stack.extend(reversed(item))
    return out
