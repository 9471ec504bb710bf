"""Pure translations between LangGraph's store model and the tiered store's entries.

LangGraph addresses an item by a namespace tuple and a key and holds a JSON document; the tiered
store holds entries with one namespace string, a key, a text ``content`` and a metadata dict. The
document rides in ``metadata["langgraph"]`` and its indexed fields become ``content``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
    get_text_at_path,
)

from ..errors import InvalidInput

SEP = "."
"""Joins namespace labels: LangGraph forbids ``.`` inside a label, so the join is reversible."""

META = "langgraph"
"""The metadata key that holds a LangGraph item (value, original key, timestamps, TTL)."""

UNINDEXED = "unindexed"
"""Entry status of an item put with ``index=False``: stored, readable, never recalled."""

_KEY_PREFIX = "~lg~"
_MAX_NAMESPACE = 255
_MAX_KEY = 512
_BARE_FIELDS = frozenset({"content", "text", "memory", "data", "value", "body", "summary"})

IndexSpec = Literal[False] | list[str] | None


def to_store_namespace(namespace: Sequence[str]) -> str:
    """``("users", "alice")`` → ``"users.alice"``.

    Raises:
        InvalidNamespaceError: The joined namespace is empty or longer than the store allows.
    """
    joined = SEP.join(namespace)
    if not joined:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if len(joined) > _MAX_NAMESPACE:
        raise InvalidNamespaceError(
            f"Namespace {tuple(namespace)} is {len(joined)} characters once joined; "
            f"the tiered store allows at most {_MAX_NAMESPACE}."
        )
    return joined


def from_store_namespace(namespace: str) -> tuple[str, ...]:
    """``"users.alice"`` → ``("users", "alice")``."""
    return tuple(namespace.split(SEP))


def validate_labels(namespace: Sequence[Any]) -> None:
    """LangGraph's label rules: strings, non-empty, no ``.`` (it joins labels here), no NUL."""
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidNamespaceError(
                f"Invalid namespace label {label!r} found in {tuple(namespace)}: labels must be "
                f"strings, not {type(label).__name__}."
            )
        if not label:
            raise InvalidNamespaceError(f"Namespace labels cannot be empty strings: {namespace}")
        if "." in label or "\x00" in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label {label!r} found in {tuple(namespace)}: labels cannot "
                "contain periods ('.') or NUL bytes."
            )


def validate_op(op: Op) -> None:
    """What every op must satisfy before it runs: valid labels, a non-empty item namespace, and
    a non-negative page (a negative ``limit`` would count from the end of the results).

    Raises:
        InvalidNamespaceError: A label is invalid or a put's namespace is empty.
        InvalidInput: ``limit`` or ``offset`` is negative or not an integer.
    """
    if isinstance(op, GetOp | PutOp):
        if isinstance(op, PutOp) and not op.namespace:
            raise InvalidNamespaceError("Namespace cannot be empty.")
        validate_labels(op.namespace)
    elif isinstance(op, SearchOp):
        validate_labels(op.namespace_prefix)
        _check_page(op.limit, op.offset)
    elif isinstance(op, ListNamespacesOp):
        for condition in op.match_conditions or ():
            validate_labels(condition.path)
        _check_page(op.limit, op.offset)


def _check_page(limit: Any, offset: Any) -> None:
    for name, number in (("limit", limit), ("offset", offset)):
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise InvalidInput(name, f"must be a non-negative integer, not {number!r}")


def entry_key(key: str) -> str:
    """The store key for a LangGraph key.

    The store strips keys and caps them at 512 characters; any key it would alter (or that looks
    like an escaped one) is stored under a digest instead, and the original lives in metadata.
    """
    if key and key == key.strip() and len(key) <= _MAX_KEY and not key.startswith(_KEY_PREFIX):
        return key
    return _KEY_PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()


def index_text(value: Mapping[str, Any], paths: Sequence[str]) -> str:
    """The searchable text of a value: the texts at ``paths`` (``$`` = the whole document).

    The whole document is rendered as ``field: value`` lines rather than JSON, so that BM25 and
    the embedding see words, not braces; free-text fields (``content``, ``text``...) are bare.
    """
    texts: list[str] = []
    for path in paths:
        if path == "$":
            texts.extend(_render(value, None))
        else:
            texts.extend(t for t in get_text_at_path(value, path) if t.strip())
    return "\n".join(dict.fromkeys(t for t in texts if t.strip()))


def _render(value: Any, name: str | None) -> list[str]:
    if isinstance(value, Mapping):
        out: list[str] = []
        for k, v in value.items():
            out.extend(_render(v, str(k)))
        return out
    if isinstance(value, list | tuple):
        return [line for item in value for line in _render(item, name)]
    if value is None or isinstance(value, bool):
        return [f"{name}: {json.dumps(value)}"] if name else []
    text = str(value)
    if not text.strip():
        return []
    if name is None or (isinstance(value, str) and name in _BARE_FIELDS):
        return [text]
    return [f"{name}: {text}"]


def index_paths(index: IndexSpec, default: Sequence[str]) -> list[str] | None:
    """The paths a put indexes: its own ``index`` list, the store default, or None (not indexed)."""
    if index is False:
        return None
    if index is None:
        return list(default)
    return list(index)


def matches_filter(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """LangGraph's filter semantics: exact (nested) matches and ``$eq $ne $gt $gte $lt $lte``."""
    if not filter:
        return True
    return all(_compare(value.get(k), expected) for k, expected in filter.items())


def _compare(actual: Any, expected: Any) -> bool:
    if isinstance(expected, Mapping):
        if any(str(k).startswith("$") for k in expected):
            return all(_operator(actual, op, operand) for op, operand in expected.items())
        if not isinstance(actual, Mapping):
            return False
        return all(_compare(actual.get(k), v) for k, v in expected.items())
    if isinstance(expected, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(expected)
            and all(_compare(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return bool(actual == expected)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise InvalidInput("filter", f"Unsupported operator: {op}")
    # InMemoryStore compares as floats (PostgreSQL's JSONB numeric cast); a missing or
    # non-numeric field simply does not match instead of failing the whole search.
    try:
        a, b = float(actual), float(operand)
    except (TypeError, ValueError):
        return False
    if op == "$gt":
        return a > b
    if op == "$gte":
        return a >= b
    if op == "$lt":
        return a < b
    return a <= b


def namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Prefix/suffix match with ``*`` wildcards, as LangGraph defines it."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise InvalidInput("match_conditions", f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or n == p for n, p in pairs)


def list_namespaces(
    namespaces: Sequence[tuple[str, ...]],
    conditions: Sequence[MatchCondition] | None,
    max_depth: int | None,
    limit: int,
    offset: int,
) -> list[tuple[str, ...]]:
    """Filter, truncate to ``max_depth``, de-duplicate, sort and page namespaces."""
    kept = [ns for ns in namespaces if all(namespace_matches(c, ns) for c in conditions or ())]
    if max_depth is not None:
        kept = [ns[:max_depth] for ns in kept]
    return sorted(set(kept))[offset : offset + limit]


def iso(when: datetime) -> str:
    """An ISO-8601 string (metadata is JSON)."""
    return when.isoformat()
