"""Fast, linear rule matching: literal anchors first, full regexes only next to them.

Running ~40 regexes over 1 MB costs seconds, because ``re`` tries every start position. But every
rule has *anchors*: literal strings one of which any match must contain, at a bounded distance
from the match start. They are derived from the parsed regex itself (never written by hand, so
they cannot drift from the pattern): the literal prefixes of the alternatives of some required
top-level element, together with the longest text the elements before it can match
(``before``). One pass of a multi-pattern finder per view reports every anchor occurrence,
overlapping ones included; a rule's regex then only runs in ``[hit - before, hit + width]``.
A rule without usable anchors, or with so many hits that windows would cost more than one pass,
gets one plain ``search``. Everything stays linear in the input.

The finder is an Aho–Corasick automaton (``pyahocorasick``, C speed) when that package is
installed, else one trie-shaped regex inside a look-ahead (same answers, several times slower).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

try:  # Python >= 3.11
    import re._constants as _sc  # type: ignore[import-not-found]
    import re._parser as _sp  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sc  # type: ignore[no-redef]
    import sre_parse as _sp  # type: ignore[no-redef]

try:
    import ahocorasick as _ac  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError:  # pragma: no cover - exercised by forcing the fallback in tests
    _ac = None

__all__ = ["AnchorFinder", "Anchors", "anchors_of", "max_width"]

_MAX_PREFIXES = 256
_MIN_SCORE = 3
_PREFIX_SCORE = 4  # a leading anchor this distinctive is preferred to a rarer later one


@dataclass(frozen=True, slots=True)
class Anchors:
    """Literal strings one of which every match contains.

    Attributes:
        words: The anchor strings.
        before: Longest text a match can hold before the anchor starts (0 for a prefix anchor).
    """

    words: tuple[str, ...]
    before: int


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
        elif op is _sc.IN and len(av) <= 16 and all(o is _sc.LITERAL for o, _ in av):
            alts = [[(_sc.LITERAL, c)] for _, c in av]  # "(?:对|向)" compiles to a class
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
        longer = [r + s for r in result for s in parts]
        if len(longer) > _MAX_PREFIXES:
            return result, False  # the prefixes so far are still required; stop extending
        result = longer
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


def _width(parsed: Any, items: list[Any]) -> int:
    sub = _sp.SubPattern(parsed.state, items)
    return int(min(sub.getwidth()[1], _sc.MAXREPEAT))


def anchors_of(regex: re.Pattern[str]) -> Anchors | None:
    """The rarest usable anchor set of ``regex``, or ``None``.

    Only patterns compiled without IGNORECASE are analysed (the views are lower case already).
    The first element wins when its prefixes are distinctive enough (an anchor at the match
    start costs one ``match`` per occurrence); otherwise the element whose weakest prefix is
    rarest, ties going to fewer alternatives, then to the element nearer the start.
    """
    if regex.flags & re.IGNORECASE:
        return None
    parsed = _sp.parse(regex.pattern, regex.flags)
    data = list(parsed.data)
    best: Anchors | None = None
    best_key = (0, 0, 0)
    for i in range(len(data)):
        found, _ = _prefixes(data[i:])
        if not found or "" in found or len(found) > _MAX_PREFIXES:
            continue
        before = _width(parsed, data[:i])
        if before > 100_000:
            continue
        score = _score(found)
        if before == 0 and score >= _PREFIX_SCORE:
            return Anchors(tuple(sorted(set(found))), 0)
        key = (score, -len(found), -before)
        if key > best_key:
            best, best_key = Anchors(tuple(sorted(set(found))), before), key
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


class AnchorFinder:
    """Every occurrence of a fixed set of literal strings, each tagged with target ids.

    Args:
        targets: Anchor string -> ids of the compiled rules that use it.
        use_automaton: Use ``pyahocorasick`` when installed (``False`` forces the regex path).
    """

    __slots__ = ("_automaton", "_closure", "_regex")

    def __init__(self, targets: Mapping[str, Iterable[int]], *, use_automaton: bool = True) -> None:
        clean = {w: tuple(sorted(set(ids))) for w, ids in targets.items() if w}
        self._automaton: Any = None
        self._regex: re.Pattern[str] | None = None
        self._closure: dict[str, tuple[int, ...]] = {}
        if not clean:
            return
        if _ac is not None and use_automaton:
            automaton = _ac.Automaton()
            for word, ids in clean.items():
                automaton.add_word(word, (len(word), ids))
            automaton.make_automaton()
            self._automaton = automaton
            return
        # The look-ahead reports the longest anchor at *every* position (overlaps included);
        # the anchors that are prefixes of it are added through the closure.
        self._regex = re.compile(f"(?=({_trie(clean)}))", re.DOTALL)
        for word in clean:
            merged: set[int] = set()
            for k in range(1, len(word) + 1):
                merged.update(clean.get(word[:k], ()))
            self._closure[word] = tuple(sorted(merged))

    def hits(self, text: str) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Yield ``(start, target_ids)`` for every anchor occurrence in ``text``."""
        if self._automaton is not None:
            for end, (length, ids) in self._automaton.iter(text):
                yield end - length + 1, ids
        elif self._regex is not None:
            closure = self._closure
            for m in self._regex.finditer(text):
                yield m.start(), closure[m.group(1)]
