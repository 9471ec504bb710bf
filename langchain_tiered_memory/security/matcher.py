"""Fast, linear rule matching: literal anchors first, full regexes only near them.

Running ~40 regexes over 1 MB costs seconds, because ``re`` tries every start position. But every
rule has *anchors*: literal strings one of which any match must contain. They are derived from the
parsed regex itself (never written by hand, so they cannot drift from the pattern): the literal
prefixes of the alternatives of some required top-level element. One pass of a trie-shaped regex
per view finds every anchor occurrence; a rule's regex then only runs in windows of its maximum
match width around its own anchors. Rules without usable anchors, or whose windows would cover
most of the text, fall back to one plain ``search``. Everything stays linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

try:  # Python >= 3.11
    import re._constants as _sc  # type: ignore[import-not-found]
    import re._parser as _sp  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sc  # type: ignore[no-redef]
    import sre_parse as _sp  # type: ignore[no-redef]

__all__ = ["anchor_regex", "anchors_of", "max_width", "windows"]

_MAX_PREFIXES = 256
_MIN_SCORE = 3


def _prefixes(items: Sequence[tuple[Any, Any]]) -> tuple[list[str], bool]:
    """Literal prefixes of a parsed sequence; ``complete`` when the sequence is all literal."""
    result = [""]
    for op, av in items:
        if op is _sc.AT:
            continue
        if op is _sc.LITERAL:
            result = [r + chr(av) for r in result]
            continue
        if op is _sc.SUBPATTERN:
            alts = [av[-1].data]
        elif op is _sc.BRANCH:
            alts = [list(a.data) if hasattr(a, "data") else a for a in av[1]]
        elif op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT) and av[0] >= 1:
            sub, _ = _prefixes(list(av[2].data))
            return [r + s for r in result for s in sub], False
        else:
            return result, False
        parts: list[str] = []
        complete = True
        for alt in alts:
            sub, done = _prefixes(alt)
            parts.extend(sub)
            complete = complete and done
        result = [r + s for r in result for s in parts]
        if len(result) > _MAX_PREFIXES:
            return [""], False
        if not complete:
            return result, False
    return result, True


def _score(prefixes: Iterable[str]) -> int:
    """Rarity of the weakest prefix: CJK characters weigh 3, punctuation 2, the rest 1."""

    def weight(c: str) -> int:
        if ord(c) > 0x2E80:
            return 3
        return 1 if c.isalnum() or c.isspace() else 2

    return min((sum(weight(c) for c in p) for p in prefixes), default=0)


def anchors_of(regex: re.Pattern[str]) -> tuple[str, ...] | None:
    """Literal strings one of which every match of ``regex`` contains, or ``None``.

    Only patterns compiled without IGNORECASE are analysed (the views are lower case already).
    """
    if regex.flags & re.IGNORECASE:
        return None
    data = list(_sp.parse(regex.pattern, regex.flags).data)
    best: tuple[str, ...] | None = None
    best_key = (0, 0)
    for i in range(len(data)):
        found, _ = _prefixes(data[i:])
        if not found or "" in found or len(found) > _MAX_PREFIXES:
            continue
        key = (_score(found), -len(found))
        if key > best_key:
            best, best_key = tuple(sorted(set(found))), key
    if best is None or best_key[0] < _MIN_SCORE:
        return None
    return best


def max_width(regex: re.Pattern[str]) -> int | None:
    """Longest possible match of ``regex``, or ``None`` when unbounded."""
    width = _sp.parse(regex.pattern, regex.flags).getwidth()[1]
    return None if width >= _sc.MAXREPEAT or width > 100_000 else int(width)


def _trie(words: Iterable[str]) -> str:
    root: dict[str, Any] = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = [re.escape(k) + emit(v) for k, v in sorted(node.items()) if k]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


def anchor_regex(words: Iterable[str]) -> re.Pattern[str]:
    """One trie-shaped regex matching the longest anchor at a position."""
    return re.compile(_trie(set(words)), re.DOTALL)


def windows(
    positions: Iterable[tuple[int, int]], width: int, size: int
) -> list[tuple[int, int]]:
    """Merge ``[start - width, end + width]`` around each anchor occurrence.

    Args:
        positions: ``(start, end)`` of anchor occurrences, sorted by start.
        width: Maximum match width of the rule.
        size: Length of the view.
    """
    merged: list[tuple[int, int]] = []
    for start, end in positions:
        lo, hi = max(0, start - width), min(size, end + width)
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged
