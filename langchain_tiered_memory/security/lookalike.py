"""Look-alike Unicode: Latin words with foreign look-alike letters, and stacked combining marks.

In the spirit of Unicode TS #39 (mixed-script detection), a *word* that mixes Latin letters with
Cyrillic, Greek, Cherokee, Armenian, Coptic or Lisu ones, or with fullwidth Latin (``pаypal``
with a Cyrillic ``а``, ``gооgle.com``, ``Fօrցet`` with Armenian letters) is refused:
no language writes a word that way, and the only reason to do it is to pass for the Latin word.
Words written wholly in Greek, Cyrillic or Armenian are ordinary text, as are accented Latin,
Vietnamese and every other script. Units such as ``μm`` (a Greek letter and at most two Latin ones) pass.
So does a word wholly in one of those scripts, unless every letter of it renders as a Latin one
(four or more) and it stands alone in Latin text: ``Your Аррӏе ID`` (all Cyrillic) is a
whole-script confusable.

Combining marks are limited in the generic diacritic blocks (U+0300–U+036F and their
extensions), which is what "zalgo" text stacks: more than :data:`MAX_MARKS` on one letter, or a
word in which several letters each carry two or more, is refused. Vietnamese needs at most two on
a letter and puts them on one vowel per syllable; scripts whose marks live in their own blocks
(Hebrew points, Arabic harakat, Indic vowel signs) are not counted.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["MAX_MARKS", "LookalikeHit", "find_lookalike"]

MAX_MARKS = 3  # generic combining marks one letter may carry
_STACKED_LETTERS = 3  # letters of one word with two or more marks each: zalgo, not Vietnamese

# Scripts with letters that pass for Latin ones: Greek, Cyrillic (and its extensions), Cherokee,
# Armenian (օ ս ո ց հ), Coptic, Lisu; and fullwidth Latin, which no word mixes with halfwidth.
_FOREIGN = (
    "\u0370-\u03ff\u1f00-\u1fff\u0400-\u052f\u1c80-\u1c8f\ua640-\ua69f\u13a0-\u13ff\uab70-\uabbf"
    "\u0531-\u058f\u2c80-\u2cff\ua4d0-\ua4ff\uff21-\uff3a\uff41-\uff5a"
)
_FOREIGN_CHAR = re.compile(f"[{_FOREIGN}]")
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_MARK_RUN = re.compile(f"[{_MARKS}]{{2,}}")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")
_FOREIGN_LETTER = re.compile(f"[{_FOREIGN}]")
_WORD_LIMIT = 64  # characters looked at on each side of a foreign letter
_CHUNK = 256


@dataclass(frozen=True, slots=True)
class LookalikeHit:
    """The first look-alike word or mark stack found (offsets into the text)."""

    rule: str
    start: int
    end: int


# Units of three or more Latin letters that take a Greek prefix (μmol/L, μsec, Ωcal is not one).
_UNITS = frozenset({"mol", "sec", "bar", "lux", "rad", "Gal", "kat"})


# A Greek letter closing a symbol of capitals and digits (TNFα, IL1β, PPARγ, Hα): biology's and
# astronomy's names, not a Latin word in disguise.
_GREEK_SUFFIX = re.compile("[A-Z][A-Z0-9]{0,5}[\u03b1-\u03c9]")
_NUMBER = re.compile(r"\d+")
_OHMS = frozenset({"kΩ", "MΩ", "mΩ", "GΩ"})


def _is_word_char(ch: str) -> bool:
    # Kana, Han and Hangul end a word here: Chinese and Japanese put no spaces between words, so
    # a whole clause (维生素B族和β胡萝卜素) would read as one word mixing Latin and Greek.
    if ch.isalnum():
        return ch < "\u3040" or not (
            ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"
            or "\uf900" <= ch <= "\ufaff"
        )
    return unicodedata.category(ch) in ("Mn", "Me")


def _word_around(text: str, i: int) -> tuple[int, int]:
    lo, hi = i, i + 1
    stop = max(0, i - _WORD_LIMIT)
    while lo > stop and _is_word_char(text[lo - 1]):
        lo -= 1
    stop = min(len(text), i + 1 + _WORD_LIMIT)
    while hi < stop and _is_word_char(text[hi]):
        hi += 1
    return lo, hi


# Cyrillic, Greek and Armenian letters that render as Latin ones (TS #39's confusables, the ones
# a spoofed brand is spelt with): "Аррӏе" is all Cyrillic and reads "Apple".
_AS_LATIN = frozenset(
    "аеорсухіјӏѕһԁԛԝѵ" "АВЕКМНОРСТХІЈЅԜ" "οινυκαρτχ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "օսոցհ"
)
_AROUND = 60  # characters on each side read for the script of the surrounding text


def _disguised_whole_word(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, written wholly in a foreign script, is a word of Latin
    look-alikes alone (four or more) standing in Latin text with no other foreign letter near:
    a whole-script confusable. A word of Russian or Greek has letters no Latin one resembles,
    or neighbours in its own script."""
    word = text[start:end]
    if len(word) < 4 or not all(ch in _AS_LATIN for ch in word):
        return False
    before, after = text[max(0, start - _AROUND) : start], text[end : end + _AROUND]
    if _FOREIGN_LETTER.search(before) or _FOREIGN_LETTER.search(after):
        return False
    return len(_LATIN.findall(before + after)) >= 12


def _mixed_word(text: str) -> LookalikeHit | None:
    end = 0
    for m in _FOREIGN_CHAR.finditer(text):
        if m.start() < end:
            continue  # same word as the last one checked
        start, end = _word_around(text, m.start())
        word = text[start:end]
        latin = len(_LATIN.findall(word))
        if not latin:
            if _disguised_whole_word(text, start, end):
                return LookalikeHit("confusable_word", start, end)
            continue
        foreign = len(_FOREIGN_LETTER.findall(word))
        # A quantity's digits come first: "10μF" is the unit "μF".
        number = _NUMBER.match(word)
        symbol = word[number.end() :] if number else word
        if foreign == 1 and _FOREIGN_LETTER.match(symbol) and (latin <= 2 or symbol[1:] in _UNITS):
            continue  # a unit or symbol: "μm", "Ωcm", "μmol", "10μF"
        if foreign == 1 and (_GREEK_SUFFIX.fullmatch(symbol) or symbol in _OHMS):
            continue  # a named symbol or a resistance: "TNFα", "IL1β", "4.7kΩ"
        return LookalikeHit("mixed_script_word", start, end)
    return None


def _mark_stack(text: str) -> LookalikeHit | None:
    stacked: list[tuple[int, int]] = []
    for m in _MARK_RUN.finditer(text):
        if m.end() - m.start() > MAX_MARKS:
            return LookalikeHit("combining_mark_stack", max(0, m.start() - 1), m.end())
        stacked.append((m.start(), m.end()))
    # Several letters of one word with two marks each (each letter's run is separate).
    for k in range(len(stacked) - _STACKED_LETTERS + 1):
        first, last = stacked[k], stacked[k + _STACKED_LETTERS - 1]
        between = text[first[0] : last[1]]
        if all(_is_word_char(c) for c in between):
            return LookalikeHit("combining_mark_stack", max(0, first[0] - 1), last[1])
    return None


def _regions(text: str) -> list[tuple[int, int]]:
    """Stretches of ``text`` around its non-ASCII chunks, padded by a word's length.

    Both checks need a non-ASCII character; a megabyte of prose has few, so only their
    neighbourhoods are read (a character-class search costs ~30 ns per position).
    """
    regions: list[tuple[int, int]] = []
    size = len(text)
    for lo in range(0, size, _CHUNK):
        if text[lo : lo + _CHUNK].isascii():
            continue
        a, b = max(0, lo - _WORD_LIMIT), min(size, lo + _CHUNK + _WORD_LIMIT)
        if regions and a <= regions[-1][1]:
            regions[-1] = (regions[-1][0], b)
        else:
            regions.append((a, b))
    return regions


def find_lookalike(text: str) -> LookalikeHit | None:
    """Return the first mixed-script word or combining-mark stack in ``text``, or ``None``.

    Args:
        text: Original text.

    Returns:
        The hit with offsets into ``text``.
    """
    if text.isascii():
        return None
    for lo, hi in [(0, len(text))] if len(text) <= 4 * _CHUNK else _regions(text):
        part = text[lo:hi]
        hits = [h for h in (_mixed_word(part), _mark_stack(part)) if h is not None]
        if hits:
            hit = min(hits, key=lambda h: h.start)
            return LookalikeHit(hit.rule, hit.start + lo, hit.end + lo)
    return None
