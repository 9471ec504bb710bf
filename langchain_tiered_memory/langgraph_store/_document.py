"""A LangGraph document as the adapter stores it: strict JSON, bounded, PII policy applied.

The document rides in the entry's metadata as JSON values, not as one JSON-encoded string: the
store's write guard scans every string of the metadata (dict keys included) as text, so a field
outside ``index`` is scanned as the text a model will later read. Inside a JSON string a newline
would be the two characters ``\\n``, and an injection split over lines passed the scanner.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import InvalidInput, MemoryWriteBlocked
from ..security import detect_pii, redact_pii

MAX_DEPTH = 64
"""Deepest nesting of dicts and lists a document may have."""


def canonical_document(value: Any) -> dict[str, Any]:
    """The document exactly as it will be stored and returned: strict JSON, nesting bounded.

    Raises:
        InvalidInput: Not a dict, or holds something JSON cannot carry (a set, bytes, NaN, a
            non-string key that JSON would not coerce), or nests deeper than `MAX_DEPTH`.
    """
    if not isinstance(value, Mapping):
        raise InvalidInput(
            "value", f"must be a dict (or None to delete), not {type(value).__name__}"
        )
    try:
        document = json.loads(json.dumps(value, ensure_ascii=False, allow_nan=False))
    except RecursionError:
        raise InvalidInput("value", f"nests deeper than {MAX_DEPTH} levels") from None
    except (TypeError, ValueError) as exc:
        raise InvalidInput(
            "value",
            "must be a JSON document (dicts with string keys, lists, strings, finite numbers, "
            f"booleans, None): {exc}",
        ) from None
    for _ in strings(document):  # walks the whole document: enforces the depth bound
        pass
    return dict(document)


def strings(document: Any) -> Iterator[tuple[str, str]]:
    """Every dict key and string value of a JSON document, with its path (``a.b[2]``).

    Raises:
        InvalidInput: The document nests deeper than `MAX_DEPTH`.
    """
    stack: list[tuple[str, Any, int]] = [("$", document, 0)]
    while stack:
        path, node, depth = stack.pop()
        if isinstance(node, str):
            yield path, node
            continue
        if not isinstance(node, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise InvalidInput("value", f"nests deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            for k, v in node.items():
                yield f"{path} (key)", k
                stack.append((f"{path}.{k}", v, depth + 1))
        else:
            stack.extend((f"{path}[{i}]", v, depth + 1) for i, v in enumerate(node))


def apply_pii_policy(document: dict[str, Any], policy: str) -> dict[str, Any]:
    """The store's PII policy, applied to every string value of the document.

    Raises:
        MemoryWriteBlocked: The policy is ``block`` and a value holds personal data.
    """
    if policy == "allow":
        return document

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            if policy == "redact":
                return redact_pii(node)[0]
            found = detect_pii(node)
            if found:
                raise MemoryWriteBlocked(
                    "pii",
                    rule=found[0].kind,
                    detail=f"the value holds personal data ({found[0].kind}) "
                    "and the policy is block",
                )
            return node
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return dict(walk(document))
