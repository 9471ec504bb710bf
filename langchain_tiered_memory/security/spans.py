"""Offsets through folding: where a match in a folded copy of a text lies in the text itself.

The detectors match on a folded copy (NFKC and case folding, for some also accents stripped).
Folding may change the length ("…" becomes "...", "ﬁ" becomes "fi"), and a hit must still point
at its own words: the checks that read around it (a quoted mention, the model's veto) need them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

__all__ = ["folded_span"]

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _nfkc_casefold(char: str) -> str:
    return unicodedata.normalize("NFKC", char).casefold()


def folded_span(
    text: str, folded: str, start: int, end: int, *, fold: Callable[[str], str] = _nfkc_casefold
) -> tuple[int, int]:
    """The offsets in ``text`` of ``folded[start:end]``, where ``folded`` is ``text`` under NFKC
    and case folding (or, character by character, ``fold``: it must keep ASCII one for one).

    Folding may change the length ("…" becomes "...", "ﬁ" "fi"); offsets are then mapped back
    character by character, so a hit keeps its own span and the checks that read around it (a
    quoted mention, the model's veto) still apply. Only when folding the characters one by one
    does not give ``folded`` (a composed sequence) is the whole text the span.
    """
    if len(folded) == len(text):
        return start, end
    # (ASCII folds one character to one: only the others can shift the offsets)
    grown = [(m.start(), len(fold(m.group()))) for m in _NON_ASCII.finditer(text)]
    if len(text) + sum(n - 1 for _, n in grown) != len(folded):
        return 0, len(text)
    origin: list[int] = []  # the text offset of each folded character, built up to ``end``
    at = 0
    for index, width in grown:
        if len(origin) >= end:
            break
        origin.extend(range(at, index))
        origin.extend([index] * width)
        at = index + 1
    origin.extend(range(at, at + max(0, end - len(origin))))
    return origin[start], origin[end - 1] + 1 if end > start else origin[start]
