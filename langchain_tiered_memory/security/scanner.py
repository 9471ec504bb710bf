"""The write-path gate: ``scan_memory_content`` and its async twin.

Order of checks (first hit wins): invisible characters, then the injection rules on every
matching view, then the same rules on decoded payloads (base64, hex, escapes; ROT13 has its own
view), then — only if all of that passed — the optional classifier. Any internal exception yields
``ScanResult(blocked=True, reason="scanner_error")``.
"""

from __future__ import annotations

import re
from typing import Any

from ..types import ScanResult
from .classifier import arun_classifier, run_classifier
from .encodings import decode_candidates
from .invisible import find_invisible
from .matcher import windows
from .normalize import make_view, to_original
from .rules import CompiledView, RuleSet, load_rules

__all__ = ["ascan_memory_content", "scan_memory_content"]

DEFAULT_CLASSIFIER_TIMEOUT = 10.0
_MAX_DEPTH = 2  # decoded payloads are themselves decoded once more (base64 of hex...)


_MAX_ANCHOR_HITS = 20_000  # beyond this, plain searches are cheaper than windows


def _anchor_hits(
    folded: str, finders: tuple[re.Pattern[str] | None, re.Pattern[str] | None]
) -> dict[str, list[tuple[int, int]]] | None:
    """Every occurrence of every anchor, overlapping ones and prefixes of longer ones included.

    Returns ``None`` (search everything) when the text is saturated with anchors.
    """
    hits: dict[str, list[tuple[int, int]]] = {}
    ascii_finder, other_finder = finders
    for finder in (ascii_finder, None if folded.isascii() else other_finder):
        if finder is None:
            continue
        if len(finder.findall(folded)) > _MAX_ANCHOR_HITS:
            return None
        _collect(folded, finder, hits)
    return hits


def _collect(
    folded: str, finder: re.Pattern[str], hits: dict[str, list[tuple[int, int]]]
) -> None:

    def record(start: int, longest: str) -> None:
        for k in range(1, len(longest) + 1):
            hits.setdefault(longest[:k], []).append((start, start + k))

    for m in finder.finditer(folded):
        start, end = m.span()
        record(start, m.group())
        # Anchors that start inside this occurrence were skipped by finditer: look for them.
        for inner in range(start + 1, end):
            again = finder.match(folded, inner)
            if again is not None:
                record(inner, again.group())


def _search(folded: str, compiled: CompiledView, hits: dict[str, list[tuple[int, int]]] | None
            ) -> re.Match[str] | None:
    if compiled.anchors is None or compiled.width is None or hits is None:
        return compiled.regex.search(folded)
    positions = sorted(p for a in compiled.anchors for p in hits.get(a, ()))
    if not positions:
        return None
    spans = windows(positions, compiled.width, len(folded))
    if sum(hi - lo for lo, hi in spans) > len(folded) // 2:
        return compiled.regex.search(folded)
    for lo, hi in spans:
        m = compiled.regex.search(folded, lo, hi)
        if m is not None:
            return m
    return None


def _match_rules(text: str, rules: RuleSet) -> ScanResult | None:
    views: dict[str, str] = {}
    anchor_hits: dict[str, dict[str, list[tuple[int, int]]] | None] = {}
    for rule in rules.rules:
        for compiled in rule.compiled:
            view = compiled.view
            folded = views.get(view)
            if folded is None:
                folded = views[view] = make_view(text, view)
                finders = rules.anchor_finders.get(view)
                anchor_hits[view] = _anchor_hits(folded, finders) if finders else None
            m = _search(folded, compiled, anchor_hits[view])
            if m is None:
                continue
            start = to_original(text, view, m.start())
            end = max(start, to_original(text, view, m.end(), end=True))
            detail = f"{rule.intent} matched in {view} view (patterns v{rules.version})"
            return ScanResult(True, rule.reason_for(text[start:end]), rule.id, (start, end), detail)
    return None


def _scan_text(text: str, rules: RuleSet, depth: int) -> ScanResult | None:
    hit = find_invisible(text, rules.allowed_tag_flags)
    if hit is not None:
        detail = f"U+{hit.codepoint:04X} ({hit.rule})"
        return ScanResult(True, "invisible_unicode", hit.rule, (hit.start, hit.end), detail)
    found = _match_rules(text, rules)
    if found is not None or depth >= _MAX_DEPTH:
        return found
    doc = decode_candidates(text)
    if doc is None:
        return None
    inner = _scan_text(doc.text, rules, depth + 1)
    if inner is None or inner.span is None:
        return inner
    o0, o1, encoding = doc.origin(inner.span[0])
    return ScanResult(
        True,
        inner.reason,
        f"{encoding}:{inner.rule}",
        (o0, o1),
        f"{inner.detail}; found inside a {encoding}-encoded payload",
    )


def _rule_scan(content: str) -> ScanResult | None:
    if not isinstance(content, str):
        raise TypeError(f"content must be str, got {type(content).__name__}")
    return _scan_text(content, load_rules(), 0)


def scan_memory_content(
    content: str,
    *,
    classifier: Any = None,
    classifier_timeout: float = DEFAULT_CLASSIFIER_TIMEOUT,
    classifier_threshold: float = 0.5,
) -> ScanResult:
    """Decide whether ``content`` may be written to long-term memory.

    Pure apart from reading the bundled pattern file once. Fails closed: an internal error
    returns ``blocked=True, reason="scanner_error"``.

    Args:
        content: The text about to be stored.
        classifier: Optional second opinion (callable ``str -> bool | float | ScanVerdict`` or a
            LangChain ``BaseChatModel``). Consulted only when the rules pass; it can add a
            block, never lift one.
        classifier_timeout: Seconds to wait for the classifier; expiry blocks.
        classifier_threshold: Score at or above which a numeric answer blocks.

    Returns:
        ``ScanResult(blocked=False)`` or a blocking result naming the reason, the rule and the
        span (offsets into ``content``).
    """
    try:
        found = _rule_scan(content)
    except Exception as exc:
        return ScanResult(True, "scanner_error", None, None, f"{type(exc).__name__}: {exc}")
    if found is not None:
        return found
    if classifier is not None:
        verdict = run_classifier(
            content, classifier, timeout=classifier_timeout, threshold=classifier_threshold
        )
        if verdict is not None:
            return verdict
    return ScanResult(False)


async def ascan_memory_content(
    content: str,
    *,
    classifier: Any = None,
    classifier_timeout: float = DEFAULT_CLASSIFIER_TIMEOUT,
    classifier_threshold: float = 0.5,
) -> ScanResult:
    """Async twin of :func:`scan_memory_content` (awaits async classifiers and chat models)."""
    try:
        found = _rule_scan(content)
    except Exception as exc:
        return ScanResult(True, "scanner_error", None, None, f"{type(exc).__name__}: {exc}")
    if found is not None:
        return found
    if classifier is not None:
        verdict = await arun_classifier(
            content, classifier, timeout=classifier_timeout, threshold=classifier_threshold
        )
        if verdict is not None:
            return verdict
    return ScanResult(False)
