"""Markup that splits a word: ``prev<!-- x -->ious``, ``ig<b></b>nore``, ``dis/**/regard``.

A comment's or tag's *content* needs no help: the views turn its delimiters into separators and
the rules read it like any other text. What the views cannot undo is markup slipped *inside* a
word, which a browser or a model reading the rendered text joins back up. For every such spot
this module cuts a short window around it and deletes the markup there; the scanner rescans the
windows like decoded payloads. Work is linear: each delimiter is found once with ``str.find``
and the windows are bounded.
"""

from __future__ import annotations

import re

__all__ = ["unsplit_words"]

_PAIRS = (("<!--", "-->"), ("/*", "*/"))
_TAG = re.compile(r"<[a-zA-Z/!][^<>\n]{0,200}>")
_WINDOW = 120  # characters kept on each side of a split point: room for a whole instruction
_MAX_COMMENT = 4096  # longer "comments" are documents of their own, not a split word


def _comment_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for opener, closer in _PAIRS:
        pos = text.find(opener)
        close = -1
        while pos >= 0:
            if close < pos + len(opener):
                # One forward search per closing delimiter keeps a flood of openers linear.
                close = text.find(closer, pos + len(opener))
                if close < 0:
                    break
            end = close + len(closer)
            if end - pos <= _MAX_COMMENT:
                spans.append((pos, end))
            pos = text.find(opener, end)
    if "<" in text:
        spans.extend(m.span() for m in _TAG.finditer(text))
    spans.sort()
    return spans


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def unsplit_words(text: str) -> list[tuple[int, int, str]]:
    """Windows of ``text`` around markup that sits between two letters, with the markup deleted.

    Args:
        text: Original text.

    Returns:
        ``(start, end, rejoined)`` per window, ``start``/``end`` being offsets into ``text``.
    """
    if "<" not in text and "/*" not in text:
        return []
    marks = _merge(_comment_spans(text))
    inner = [
        (a, b) for a, b in marks
        if a > 0 and b < len(text) and text[a - 1].isalnum() and text[b].isalnum()
    ]
    if not inner:
        return []
    windows = _merge([(max(0, a - _WINDOW), min(len(text), b + _WINDOW)) for a, b in inner])
    out: list[tuple[int, int, str]] = []
    k = 0
    for w0, w1 in windows:
        pieces: list[str] = []
        pos = w0
        while k < len(marks) and marks[k][1] <= w1:
            a, b = marks[k]
            if a >= pos:
                pieces.append(text[pos:a])
                pos = b
            k += 1
        pieces.append(text[pos:w1])
        out.append((w0, w1, "".join(pieces)))
    return out
