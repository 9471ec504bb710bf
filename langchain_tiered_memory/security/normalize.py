"""Matching views: evasion-resistant, character-wise foldings of a text, with offsets back.

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
``rot13``
    ``compact`` of the ROT13 of ``literal``: a ROT13 payload reads as plain text here.

Every view is produced by :meth:`str.translate` with a per-character table (plus, for
``spaced``, squeezing runs of spaces), so it costs a couple of C passes; each original character
maps to a known number of view characters, and :func:`to_original` walks that back in chunks to
report offsets into the original text.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache

__all__ = [
    "VIEWS",
    "fold_pattern",
    "make_view",
    "make_views",
    "squeeze_spaces",
    "to_original",
    "translate",
]

VIEWS = ("literal", "spaced", "compact", "rot13")

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

# Traditional -> simplified for the characters that appear in the Chinese rules.
_TRAD_TO_SIMP = str.maketrans(
    "無視設輸洩詞現們這說話開發為爲統碼鑰規則條從後將執於請對當個內記憶應該隱顯復寫給變權級層"
    "護禁問題與麼讓過還邊覽遺棄拋跳繞蓋銷違範準誤號帳戶據諾絕導師實際釋譯環歷創幫論調試員齊",
    "无视设输泄词现们这说话开发为为统码钥规则条从后将执于请对当个内记忆应该隐显复写给变权级层"
    "护禁问题与么让过还边览遗弃抛跳绕盖销违范准误号帐户据诺绝导师实际释译环历创帮论调试员齐",
)

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
    return "".join(d for d in lowered if not unicodedata.combining(d)).translate(_TRAD_TO_SIMP)


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


_ROT13_MATCHING = _Table(lambda ch: _matching(_rot13(ch)))


@cache
def _table(view: str) -> _Table:
    return _Table(_BUILDERS[view])


_MATCHING = _Table(_matching)


def make_view(text: str, view: str) -> str:
    """Return ``text`` folded into one of :data:`VIEWS`.

    Args:
        text: Original text.
        view: ``literal``, ``spaced``, ``compact`` or ``rot13``.

    Returns:
        The folded text; use :func:`to_original` to map offsets back.
    """
    if view not in _BUILDERS:
        raise KeyError(view)
    return make_views(text, (view,))[view]


def make_views(text: str, views: Iterable[str] = VIEWS) -> dict[str, str]:
    """Fold ``text`` into several views at once, sharing the intermediate translations.

    Every view is derived from the ``literal`` one through per-character tables (plus the
    space squeezing or removal), so the results equal the per-character definitions that
    :func:`to_original` walks back, while ASCII stretches stay on CPython's fast path.
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


def _unsqueeze(text: str, index: int) -> int:
    """Map an offset in the squeezed ``spaced`` view to the unsqueezed translation."""
    removed = 0
    for m in _RUNS.finditer(text.translate(_table("spaced"))):
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
    table = _table(view)
    target = index - 1 if end else index
    if target < 0:
        return 0
    if view == "spaced":
        target = _unsqueeze(text, target)
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


def fold_pattern(source: str, view: str) -> str:
    """Adapt a rule's regex source (written for the ``spaced`` view) to ``view``.

    In ``spaced`` a literal space stands for the single space a separator run became; in
    ``compact`` and ``rot13`` spaces and ``\\b`` disappear. The letter ``l`` is folded onto ``i``
    like the text is.
    """
    if view == "literal":
        return source
    folded = source.replace("l", "i")
    if view == "spaced":
        return folded
    return folded.replace(" ", "").replace("\\b", "")
