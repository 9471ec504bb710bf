"""Matching views: evasion-resistant foldings of a text, with offsets back.

An attacker who knows the patterns writes ``ＩＧＮＯＲＥ``, ``ignоre`` (Cyrillic ``о``), ``1gn0r3``,
``i g n o r e`` or ``ign.ore``. Matching therefore never runs on the raw text but on *views*:

``literal``
    NFKC, diacritics stripped, confusable letters mapped to Latin, lower case, traditional
    Chinese folded to simplified for the characters the rules use, format characters removed.
    Punctuation is kept (chat-template tokens, markdown and JSON need it).
``spaced``
    ``literal`` plus leetspeak digits (``0→o 1→i 3→e 4→a 5→s 7→t @→a $→s``), the letter ``l``
    folded onto ``i`` (so ``1``, ``l`` and ``I`` look alike, as they do to a reader), and every
    run of non-alphanumeric characters turned into one space. Rules use a literal space
    between words.
``compact``
    ``spaced`` with the spaces removed: defeats inserted spaces and punctuation and is the natural
    view for Chinese, which has no spaces anyway.
``joined``
    ``literal`` with split words rejoined: punctuation slipped between two letters
    (``instru.ctions``, ``evil-bank``, ``无·视``) is dropped, other middle dots become spaces, and
    runs of single spaced-out letters (``N E W``, three or more) or CJK characters (``系 统``,
    two or more) lose their spaces. Unlike the other views it depends on a character's
    neighbours, so it is a list of deletions from ``literal`` rather than a table.
``rot13``
    ``compact`` of the ROT13 of ``literal``: a ROT13 payload reads as plain text here.
``rot13_literal``
    The ROT13 of ``joined``: a ROT13 payload reads as plain text here, punctuation included.

``joined`` and ``rot13_literal`` keep punctuation like ``literal``, so ``literal`` rules run on
them unchanged, and ``spaced`` rules run on them with every space widened to a run of up to eight
separators (see :func:`fold_pattern`): one view serves both kinds of rule, without the costly
squeezing of ``spaced``.

The first four views are produced by :meth:`str.translate` with a per-character table (plus,
for ``spaced``, squeezing runs of spaces), so they cost a couple of C passes; each original
character maps to a known number of view characters, and :func:`to_original` walks that back in
chunks to report offsets into the original text. ``joined`` is deletions from ``literal`` and
``rot13_literal`` maps one of its characters to one; :func:`to_original` undoes both.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from itertools import pairwise

from ..errors import InvalidInput
from .zh_fold import VIEW_FOLD

__all__ = [
    "VIEWS",
    "fold_pattern",
    "folded_span",
    "join_points",
    "make_view",
    "make_views",
    "squeeze_spaces",
    "to_original",
    "translate",
]

VIEWS = ("literal", "spaced", "compact", "rot13", "joined", "rot13_literal")
# Views derived from ``joined``; the rest have per-character tables.
_JOINED_VIEWS = frozenset({"joined", "rot13_literal"})

# Cyrillic, Greek, Armenian and Latin-extension letters that render like a Latin letter.
_CONFUSABLES: dict[str, str] = {
    # Cyrillic lower case
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j",
    "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ь": "b", "г": "r", "ц": "u",
    # Cyrillic upper case (mapped before lower-casing, since lower() would not reach Latin)
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c",
    "Т": "t", "У": "y", "Х": "x", "Ѕ": "s", "І": "i", "Ј": "j", "Ԁ": "d", "Һ": "h", "Ӏ": "l",
    "Ԛ": "q", "Ԝ": "w", "Ь": "b",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "c", "μ": "u",
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n",
    "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    # Armenian and Latin extensions
    "օ": "o", "ս": "u", "ց": "g", "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i", "ʀ": "r", "ʏ": "y",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j",
    "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ᴢ": "z", "ø": "o", "đ": "d", "ħ": "h", "ł": "l", "ŧ": "t",
}  # fmt: skip

_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a",
                       "$": "s", "l": "i"})  # fmt: skip

# Characters that are invisible yet not Cf: deleted from views (and blocked by the invisible rule).
_EXTRA_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u3164\uffa0")


def _is_invisible(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" or ch in _EXTRA_INVISIBLE


@lru_cache(maxsize=65536)
def _literal(ch: str) -> str:
    """The literal-view image of one character (possibly empty or several characters)."""
    if ch.isascii():
        return ch.lower()
    if _is_invisible(ch):
        return ""
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):  # stray combining marks (zalgo, variation selectors)
        return ""
    out = []
    for c in unicodedata.normalize("NFKC", ch):
        c = _CONFUSABLES.get(c, c)
        for d in unicodedata.normalize("NFKD", c):
            if not unicodedata.combining(d):
                out.append(_CONFUSABLES.get(d, d))
    lowered = unicodedata.normalize("NFKD", "".join(out).lower())
    return "".join(d for d in lowered if not unicodedata.combining(d)).translate(VIEW_FOLD)


def _matching(text: str) -> str:
    return "".join(c if c.isalnum() else " " for c in text.translate(_LEET))


def _rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


class _Table(dict[int, str]):
    """A lazily filled ``str.translate`` table (one Python call per distinct character)."""

    def __init__(self, fn: Callable[[str], str]) -> None:
        super().__init__()
        self._fn = fn

    def __missing__(self, key: int) -> str:
        value = self._fn(chr(key))
        self[key] = value
        return value


def _spaced(ch: str) -> str:
    return _matching(_literal(ch))


def _compact(ch: str) -> str:
    return _spaced(ch).replace(" ", "")


def _rot13_compact(ch: str) -> str:
    return _matching(_rot13(_literal(ch))).replace(" ", "")


_BUILDERS: dict[str, Callable[[str], str]] = {
    "literal": _literal,
    "spaced": _spaced,
    "compact": _compact,
    "rot13": _rot13_compact,
}


@cache
def _table(view: str) -> _Table:
    return _Table(_BUILDERS[view])


_MATCHING = _Table(_matching)
_ROT13_MATCHING = _Table(lambda ch: _matching(_rot13(ch)))
_ROT13 = _Table(_rot13)

# Punctuation an attacker slips between the letters of one word: dropped there in ``joined``.
# Apostrophes, underscores, slashes and colons stay (contractions, chat-template tokens, URLs).
_JOIN_PUNCT = frozenset(".-*~\u2010\u2011")
# Middle dots and bullets: dropped between letters, elsewhere a space ("系·统·：·你").
_MIDDLE_DOTS = frozenset("\u00b7\u2022\u2027\u2219\u22c5\u30fb")
_MIDDLE_DOTS_TO_SPACE = {ord(c): " " for c in _MIDDLE_DOTS}


def _kind(ch: str) -> str:
    """Character class for finding split words: letter, other word char, joiner, space, other."""
    if ch.isalpha():
        return "a"
    if ch.isalnum() or ch == "_":
        return "0"
    if ch in _JOIN_PUNCT or ch in _MIDDLE_DOTS:
        return "."
    return " " if ch in " \t" else "#"


_KIND = _Table(_kind)
# On the ASCII class string (literal prefixes keep these searches at C speed):
_INNER = re.compile(r"a\.\.?\.?(?=a)")  # 1-3 joiners between two letters
_SINGLE = r" {1,3}a(?![a0])"  # a further single-letter token
_RUN_AFTER_SPACE = re.compile(f" a{_SINGLE}(?:{_SINGLE})*")
_RUN_AFTER_OTHER = re.compile(f"#a{_SINGLE}(?:{_SINGLE})*")
_MIN_RUN = 3  # "U S" or "A B testing" stay apart; "N E W" is rejoined
_MIN_CJK_RUN = 2  # one CJK character is a word of its own: "系 统" is rejoined


def _is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80


def _delete(text: str, ranges: list[tuple[int, int]]) -> str:
    if not ranges:
        return text
    pieces = []
    pos = 0
    for a, b in ranges:
        pieces.append(text[pos:a])
        pos = b
    pieces.append(text[pos:])
    return "".join(pieces)


class _Deletions:
    """Sorted deleted ranges of a string; maps offsets in the result back to the source."""

    __slots__ = ("_after", "points")

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self.points: list[int] = []  # where each deletion sits in the result
        self._after: list[int] = []  # characters deleted up to and including it
        total = 0
        for a, b in ranges:
            self.points.append(a - total)
            total += b - a
            self._after.append(total)

    def source(self, index: int) -> int:
        """Offset in the source of the result character at ``index``."""
        k = bisect_right(self.points, index)
        return index + (self._after[k - 1] if k else 0)


@lru_cache(maxsize=4)  # the scanner asks for the views, then for the points of the same text
def _join(literal: str) -> tuple[str, list[tuple[int, int]]]:
    """The ``joined`` view of a ``literal`` view and the ranges deleted from it (sorted).

    Returns ``literal`` itself (and no ranges) when there is nothing to rejoin.
    """
    kinds = "#" + translate(literal, _KIND)  # "#": the text start bounds a run like a newline
    # Matches start at the letter before the joiners, i.e. at the joiners once the "#" is
    # accounted for.
    inner = [(m.start(), m.end() - 1) for m in _INNER.finditer(kinds)]
    dots = any(ch in literal for ch in _MIDDLE_DOTS)
    step1 = _delete(literal, inner)
    if dots:  # left-over middle dots separate like spaces
        step1 = translate(step1, _MIDDLE_DOTS_TO_SPACE)
        kinds1 = "#" + translate(step1, _KIND).replace(".", "#")
    else:
        kinds1 = "#" + _delete(kinds[1:], inner).replace(".", "#")
    runs: set[tuple[int, int]] = set()  # a set: a run after "#" also matches from its 2nd token
    for rx in (_RUN_AFTER_SPACE, _RUN_AFTER_OTHER):
        for m in rx.finditer(kinds1):
            # kinds1[i + 1] describes step1[i]; the match starts one before the first token.
            tokens = [i for i in range(m.start(), m.end() - 1) if kinds1[i + 1] == "a"]
            needed = _MIN_CJK_RUN if all(_is_cjk(step1[i]) for i in tokens) else _MIN_RUN
            if len(tokens) >= needed:
                runs.update((a + 1, b) for a, b in pairwise(tokens))
    if not runs:
        return (step1 if inner or dots else literal), inner
    spaces = sorted(runs)
    back = _Deletions(inner)
    # Runs delete spaces only, which step 1 kept: each maps to one contiguous source range.
    merged = sorted(inner + [(back.source(a), back.source(b - 1) + 1) for a, b in spaces])
    return _delete(step1, spaces), merged


def join_points(literal: str) -> tuple[int, ...] | None:
    """Offsets in the ``joined`` view of ``literal`` where rejoining deleted characters.

    A match on ``joined`` that covers none of them is a match on ``literal`` too; the scanner
    therefore only looks near them. ``None`` when middle dots became spaces, which changes the
    text without deleting anything (then every position may matter).
    """
    if any(ch in literal for ch in _MIDDLE_DOTS):
        return None
    return tuple(_Deletions(_join(literal)[1]).points)


def make_view(text: str, view: str) -> str:
    """Return ``text`` folded into one of :data:`VIEWS`.

    Args:
        text: Original text.
        view: One of :data:`VIEWS`.

    Returns:
        The folded text; use :func:`to_original` to map offsets back.
    """
    if view not in VIEWS:
        raise InvalidInput("view", f"unknown view {view!r}")
    return make_views(text, (view,))[view]


def make_views(text: str, views: Iterable[str] = VIEWS) -> dict[str, str]:
    """Fold ``text`` into several views at once, sharing the intermediate translations.

    Every view is derived from the ``literal`` one through per-character tables (plus the
    space squeezing or removal, and the deletions of ``joined``), so the results equal the
    definitions that :func:`to_original` walks back, while ASCII stretches stay on CPython's
    fast path. When nothing needs rejoining, ``joined`` *is* the ``literal`` string object, so
    callers can skip it.
    """
    wanted = set(views)
    literal = translate(text, _table("literal"))
    out: dict[str, str] = {}
    if "literal" in wanted:
        out["literal"] = literal
    if "spaced" in wanted or "compact" in wanted:
        unsqueezed = translate(literal, _MATCHING)
        if "spaced" in wanted:
            out["spaced"] = squeeze_spaces(unsqueezed)
        if "compact" in wanted:
            out["compact"] = unsqueezed.replace(" ", "")
    if "rot13" in wanted:
        out["rot13"] = translate(literal, _ROT13_MATCHING).replace(" ", "")
    if wanted & _JOINED_VIEWS:
        joined = _join(literal)[0]
        if "joined" in wanted:
            out["joined"] = joined
        if "rot13_literal" in wanted:
            out["rot13_literal"] = translate(joined, _ROT13)  # one character for one
    return out


def squeeze_spaces(text: str) -> str:
    """Turn every run of spaces into one space (halving passes of C-speed ``replace``)."""
    # Prose has tens of thousands of short runs per megabyte; a regex substitution pays a
    # Python-level object per run, while each replace pass halves every run at C speed.
    while "  " in text:
        text = text.replace("  ", " ")
    return text


_FAST_CHUNK = 512


def translate(text: str, table: Mapping[int, str]) -> str:
    """``text.translate(table)``, chunked so that ASCII stretches take CPython's fast path.

    ``str.translate`` has a C fast path only when the *whole* string is ASCII; one curly quote
    or emoji in a megabyte sends every character through a mapping lookup (~50x slower).
    Translating fixed-size chunks keeps the slow path to the chunks that need it. The result
    is identical because the translation is character-wise.
    """
    if text.isascii() or len(text) <= 2 * _FAST_CHUNK:
        return text.translate(table)
    step = _FAST_CHUNK
    return "".join([text[i : i + step].translate(table) for i in range(0, len(text), step)])


_CHUNK = 4096
_RUNS = re.compile(" {2,}")


def _unsqueeze(unsqueezed: str, index: int) -> int:
    """Map an offset in ``squeeze_spaces(unsqueezed)`` to one in ``unsqueezed``."""
    removed = 0
    for m in _RUNS.finditer(unsqueezed):
        if index <= m.start() - removed:
            break
        removed += m.end() - m.start() - 1
    return index + removed


def to_original(text: str, view: str, index: int, *, end: bool = False) -> int:
    """Map an offset in ``make_view(text, view)`` back to an offset in ``text``.

    Args:
        text: The original text.
        view: The view the offset refers to.
        index: Offset into the view.
        end: Map an exclusive end offset (returns the end of the original character).

    Returns:
        The corresponding offset into ``text``.
    """
    target = index - 1 if end else index
    if target < 0:
        return 0
    if view in _JOINED_VIEWS:
        return _joined_to_original(text, view, target, end)
    if view not in _BUILDERS:
        raise InvalidInput("view", f"unknown view {view!r}")
    table = _table(view)
    if view == "spaced":
        target = _unsqueeze(text.translate(table), target)
    return _walk_back(text, table, target, end)


def _walk_back(text: str, table: _Table, target: int, end: bool) -> int:
    """The offset in ``text`` of view character ``target``, the view being
    ``text.translate(table)`` (the end of its source character when ``end``)."""
    done = 0  # view characters produced so far
    pos = 0
    # Whole chunks first (C speed), then character by character inside the last one.
    while pos < len(text):
        width = len(text[pos : pos + _CHUNK].translate(table))
        if done + width > target:
            break
        done += width
        pos += _CHUNK
    while pos < len(text):
        width = len(table[ord(text[pos])])
        if done + width > target:
            return pos + 1 if end else pos
        done += width
        pos += 1
    return len(text)


def _nfkc_casefold(char: str) -> str:
    return unicodedata.normalize("NFKC", char).casefold()


@lru_cache(maxsize=8)
def _fold_table(fold: Callable[[str], str]) -> _Table:
    return _Table(fold)


def folded_span(
    text: str, folded: str, start: int, end: int, *, fold: Callable[[str], str] = _nfkc_casefold
) -> tuple[int, int]:
    """The offsets in ``text`` of ``folded[start:end]``, where ``folded`` is ``text`` folded by a
    detector: NFKC and case folding, or ``fold`` applied character by character.

    Folding may change the length ("…" becomes "...", "ﬁ" becomes "fi"); the offsets are then
    walked back as :func:`to_original` walks a view's, so a hit keeps its own span and the checks
    that read around it (a quoted mention, the model's veto) still apply. Only when folding
    character by character does not give ``folded``'s length (a sequence NFKC composes) is the
    whole text the span.
    """
    if len(folded) == len(text):
        return start, end
    table = _fold_table(fold)
    if len(text.translate(table)) != len(folded):
        return 0, len(text)
    return _walk_back(text, table, start, False), _walk_back(text, table, max(start, end - 1), True)


def _joined_to_original(text: str, view: str, target: int, end: bool) -> int:
    """:func:`to_original` for the views derived from ``joined`` (undoing each step)."""
    literal = translate(text, _table("literal"))
    joined, deleted = _join(literal)  # rot13_literal maps one character of it to one
    if target >= len(joined):
        return len(text)
    at = _Deletions(deleted).source(target)
    return to_original(text, "literal", at + 1 if end else at, end=end)


# A space in a ``spaced`` pattern run on a punctuation-keeping view: what ``spaced`` squeezes.
_SEPARATOR = r"[\W_]{1,8}"
_LITERAL_STYLE = frozenset({"literal", "joined", "rot13_literal"})


def fold_pattern(source: str, view: str, written_for: str = "spaced") -> str:
    """Adapt a rule's regex source to ``view``.

    Args:
        source: The rule's pattern.
        view: The view to run it on.
        written_for: ``literal`` (the pattern reads punctuation; it runs unchanged on
            ``literal``, ``joined`` and ``rot13_literal``) or ``spaced`` (a literal space stands
            for the single space a separator run became).

    In ``spaced`` the letter ``l`` is folded onto ``i`` like the text is; in ``compact`` and
    ``rot13`` spaces and ``\\b`` disappear too. On the punctuation-keeping views (``joined``,
    ``rot13_literal``) a space becomes a run of up to eight non-alphanumeric characters and
    ``\\w`` an alphanumeric one, which is what ``spaced`` turns them into.

    Raises:
        ValueError: A ``literal`` pattern asked for a squeezed view or the reverse.
    """
    if written_for == "literal":
        if view not in _LITERAL_STYLE:
            raise InvalidInput("view", f"a literal pattern cannot run on the {view} view")
        return source
    if view == "literal":
        raise InvalidInput("view", "a spaced pattern cannot run on the literal view")
    if view in _LITERAL_STYLE:
        return source.replace("\\w", "[^\\W_]").replace(" ", _SEPARATOR)
    folded = source.replace("l", "i")
    if view == "spaced":
        return folded
    return folded.replace(" ", "").replace("\\b", "")
