"""Small text helpers for the contradiction heuristics (English and Chinese), no model needed."""

from __future__ import annotations

import re
from functools import lru_cache

_CJK = re.compile(r"[\u3400-\u9fff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_WORD = re.compile(r"[a-z0-9]+")

_CONTRACTIONS = (
    ("can't", "can not"),
    ("cannot", "can not"),
    ("won't", "will not"),
    ("n't", " not"),
    ("i'm", "i am"),
    ("'re", " are"),
    ("'ve", " have"),
    ("'ll", " will"),
    ("'d", " would"),
    ("it's", "it is"),
    ("he's", "he is"),
    ("she's", "she is"),
    ("that's", "that is"),
    ("there's", "there is"),
)

EN_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}


def has_cjk(text: str) -> bool:
    """True when ``text`` contains Chinese characters."""
    return _CJK.search(text) is not None


@lru_cache(maxsize=8192)
def normalize_en(text: str) -> str:
    """Lower-case, straighten quotes, expand contractions and replace punctuation by spaces.

    Apostrophe-s is kept (``alice's``) because it marks possession in the patterns.
    """
    out = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    for short, long in _CONTRACTIONS:
        out = out.replace(short, long)
    out = re.sub(r"(?<=\d),(?=\d{3})", "", out)  # 1,000 -> 1000
    out = re.sub(r"[^\w\s']", " ", out)
    out = re.sub(r"'(?!s\b)", " ", out)
    return re.sub(r"\s+", " ", out).strip()


@lru_cache(maxsize=8192)
def normalize_zh(text: str) -> str:
    """Drop whitespace and map full-width punctuation to a single separator for Chinese text."""
    out = re.sub(r"\s+", "", text)
    out = re.sub(r"[，。！？；：、,.!?;:（）()\"'“”‘’【】《》]+", "，", out)
    return out.strip("，").lower()


def parse_zh_number(text: str) -> int | None:
    """Parse a small Chinese numeral (``三``, ``十二``, ``两百``) or ASCII digits; None if not one."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    seen = False
    for ch in text:
        if ch in _ZH_DIGITS:
            current = _ZH_DIGITS[ch]
            seen = True
        elif ch in _ZH_UNITS:
            unit = _ZH_UNITS[ch]
            total += (current or 1) * unit
            current = 0
            seen = True
        else:
            return None
    return total + current if seen else None


def parse_number(token: str) -> int | None:
    """Parse digits, an English number word or a Chinese numeral; None when it is not a number."""
    if token.isdigit():
        return int(token)
    if token in EN_NUMBER_WORDS:
        return EN_NUMBER_WORDS[token]
    return parse_zh_number(token)


@lru_cache(maxsize=1)
def _stemmer() -> object:
    import snowballstemmer  # deferred: no work at import time

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """English Snowball stem of one lower-case word."""
    if word.isdigit():
        # Every English suffix rule needs letters, so digits stem to themselves; numbers are
        # mostly unique (ids, years), and would otherwise each cost a Snowball run and a slot.
        return word
    stemmer = _stemmer()
    return str(stemmer.stemWord(word))  # type: ignore[attr-defined]


def en_words(text: str) -> list[str]:
    """Lower-case ASCII words of already-normalised English text."""
    return _WORD.findall(text.replace("'s", ""))


def zh_bigrams(text: str) -> set[str]:
    """Character bigrams of the Chinese runs plus the ASCII words of ``text``."""
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            grams.add(run)
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    grams.update(_WORD.findall(text.lower()))
    return grams


def jaccard(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    """Jaccard similarity of two sets; 0.0 when both are empty."""
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)
