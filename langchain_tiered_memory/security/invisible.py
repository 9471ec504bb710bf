"""Invisible and format characters: zero tolerance, with three deliberate exceptions.

Blocked: every Unicode ``Cf`` character (zero-width space/joiners U+200B–U+200D, word joiner
U+2060, BOM U+FEFF, bidi embeddings/overrides/isolates U+202A–U+202E and U+2066–U+2069, marks
U+200E/U+200F, soft hyphen, tag characters U+E0000–U+E007F, ...), the invisible fillers that
are not ``Cf`` (Hangul fillers, combining grapheme joiner, Khmer inherent vowels, Mongolian
variation selectors) and runs of two or more variation selectors (the "emoji smuggling" trick,
which hides bytes in U+FE00–U+FE0F / U+E0100–U+E01EF after a visible character).

Allowed, because real text needs them and they cannot carry hidden words:

* a ZWJ between two emoji (family, profession, rainbow-flag sequences), optionally after a skin
  tone modifier or VS16;
* a ZWNJ/ZWJ between two letters of a joining script (Arabic, Persian, Syriac, Indic scripts),
  where it is an orthographic necessity;
* an emoji subdivision flag (U+1F3F4, tag letters, U+E007F cancel tag) whose tag spelling is on
  the allow-list in ``patterns.json`` (England, Scotland, Wales by default) — an open-ended
  allowance would let an attacker spell words in tag characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["InvisibleHit", "find_invisible"]

# Every Cf code point of Unicode 15.1 as ranges, plus invisible non-Cf fillers. Kept literal so
# that no table has to be computed from unicodedata at run time.
_CF_RANGES = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
)
_FILLERS = "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u3164\uffa0"
_EMOJI = (
    "\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u27bf"
    "\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\U0001f000-\U0001faff"
)
_JOINING = "\u0600-\u06ff\u0700-\u074f\u0750-\u077f\u0860-\u08ff\u0900-\u0dff\ufb50-\ufdff\ufe70-\ufefc"
_MODIFIERS = "\ufe0f\U0001f3fb-\U0001f3ff"
_VS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"

_BAD = re.compile(f"[{_CF_RANGES}{_FILLERS}]")
_EMOJI_ZWJ = re.compile(
    f"(?:(?<=[{_EMOJI}])|(?<=[{_EMOJI}][{_MODIFIERS}]))\u200d(?=[{_EMOJI}])"
)
_SCRIPT_JOINER = re.compile(f"(?<=[{_JOINING}])[\u200c\u200d](?=[{_JOINING}])")
_VS_RUN = re.compile(f"[{_VS}]{{2,}}")
_PLACEHOLDER = "\ue000"  # a private-use character: same length, never in _BAD


@dataclass(frozen=True, slots=True)
class InvisibleHit:
    """The first forbidden invisible character (or run) found."""

    rule: str
    start: int
    end: int
    codepoint: int


@lru_cache(maxsize=8)
def _flag_sequences(allowed: tuple[str, ...]) -> tuple[str, ...]:
    tags = ("".join(chr(0xE0000 + ord(c)) for c in name) for name in allowed)
    return tuple(f"\U0001f3f4{t}\U000e007f" for t in tags)


_REGION = 256


def _non_ascii_regions(text: str) -> list[tuple[int, int]]:
    """Maximal runs of fixed-size chunks that hold a non-ASCII character.

    Every character the checks below look at is non-ASCII, and every sequence they allow is
    made of non-ASCII characters, so a region boundary (which touches an all-ASCII chunk) never
    cuts through a sequence: checking regions one by one gives the whole-text answer.
    """
    regions: list[tuple[int, int]] = []
    size = len(text)
    for lo in range(0, size, _REGION):
        if text[lo : lo + _REGION].isascii():
            continue
        hi = min(size, lo + _REGION)
        if regions and regions[-1][1] == lo:
            regions[-1] = (regions[-1][0], hi)
        else:
            regions.append((lo, hi))
    return regions


def find_invisible(text: str, allowed_flags: Iterable[str] = ()) -> InvisibleHit | None:
    """Return the first forbidden invisible character in ``text``, or ``None``.

    Args:
        text: Original text.
        allowed_flags: Tag spellings (``"gbeng"``...) of the subdivision flags to accept.

    Returns:
        The hit with offsets into ``text``.
    """
    if text.isascii():
        return None
    if len(text) <= 4 * _REGION:
        return _find_in(text, tuple(allowed_flags))
    flags = tuple(allowed_flags)
    # The character-class searches below cost ~30 ns per position even on plain ASCII; a
    # megabyte of prose has a handful of non-ASCII characters, so only their chunks are read.
    for lo, hi in _non_ascii_regions(text):
        hit = _find_in(text[lo:hi], flags)
        if hit is not None:
            return InvisibleHit(hit.rule, hit.start + lo, hit.end + lo, hit.codepoint)
    return None


def _find_in(text: str, allowed_flags: tuple[str, ...]) -> InvisibleHit | None:
    run = _VS_RUN.search(text)
    first = _BAD.search(text)
    if first is not None:
        # Neutralise the allowed sequences with same-length placeholders (C-speed, offsets
        # unchanged), then look again.
        clean = _EMOJI_ZWJ.sub(_PLACEHOLDER, text)
        clean = _SCRIPT_JOINER.sub(_PLACEHOLDER, clean)
        for seq in _flag_sequences(allowed_flags):
            if seq in clean:
                clean = clean.replace(seq, _PLACEHOLDER * len(seq))
        first = _BAD.search(clean)
    hits = []
    if first is not None:
        cp = ord(first.group())
        rule = "tag_character" if 0xE0000 <= cp <= 0xE007F else "format_character"
        if first.group() in "\u3164\uffa0\u115f\u1160\u034f\u17b4\u17b5\u180b\u180c\u180d":
            rule = "invisible_filler"
        hits.append(InvisibleHit(rule, first.start(), first.end(), cp))
    if run is not None:
        hits.append(InvisibleHit("variation_selector_run", run.start(), run.end(), ord(run.group()[0])))
    return min(hits, key=lambda h: h.start) if hits else None
