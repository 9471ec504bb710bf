"""Structured records as the learned model should read them: their prose, not their fields.

A LangGraph agent stores documents (``{"rating": 5, "review": "great food"}``), which the
BaseStore adapter renders as ``field: value`` lines and the Python API may receive as JSON. The
n-gram model, trained on prose, read short lines of labels and numbers ("rating: 5", "score: 0.92",
"status: approved") as the shape of an injected grading order and refused ordinary records
(session 25: ``rating: 5\\nreview: great food`` scored 0.91 against a 0.83 threshold). An order
to a reader needs words: a field whose value is a number, a flag or a word or two gives none.

:func:`record_prose` therefore hands the model nothing to read for a record whose every value is
that short. The rules still read the whole text, and a record with a sentence in it is read whole.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["is_field_value", "record_prose"]

# A field line: a label of at most 40 characters (words, Chinese, spaces, dots, dashes), a colon
# or equals sign, its value. Bullets and indentation are allowed before the label.
_LABEL = r"[\w\u4e00-\u9fff][\w\u4e00-\u9fff .'/()-]{0,39}"
_FIELD = re.compile(
    r"^(?P<lead>[ \t]*(?:[-*•][ \t]+)?)(?P<label>" + _LABEL + r"?)"
    r"[ \t]*[:：=][ \t]*(?P<value>.*)$"
)
# A word: a run between spaces holding two letters or more; an address, a file name or an id
# (ops@kbr.example, kbr_logo.png, CLM-24-10021) is one word however many parts it has.
_TOKEN = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_HAN = re.compile(r"[\u4e00-\u9fff]")
# Words (Latin) or Chinese characters a value needs before it can carry an order: a name of
# three words (Polyclinic Bukit Batok, Kopi Bean Roasters) or of seven characters (柏林工业大学,
# a note 调料和冷冻饺子) is still a label. (Chosen on two dev sets of 300 benign records each:
# 4 words, counted by spaces, refused 2 fewer of one than 3 letter runs; 8 characters 3 fewer of
# the other than 6; no attack of theirs or of the security dev and validation sets was lost.)
MIN_WORDS = 4
MIN_HAN = 8
# Nor is a long run of symbols a label: a spreadsheet formula that posts a sheet to a URL is one
# "word" (=IMAGE("https://…?data="&ENCODEURL(TEXTJOIN(…)))).
MAX_CHARS = 64

# What stands before a field's value on its line: a label and a colon or equals sign.
_LABEL_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:[-*•][ \t]+)?" + _LABEL + r"[ \t]*[:：=][ \t]*$")
# A snake_case field label at a line's start (or a path of them, as the store joins a
# document's metadata: langgraph.value.agent_note:), and how far around it to look for the
# record's other field lines.
_NEAR = 600
_SNAKE_LABEL = re.compile(r"[ \t]*(?:[a-z0-9_]+\.)*[a-z0-9]+(?:_[a-z0-9]+)+[ \t]*[:：=]")


def is_field_value(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` names a field of a record rather than addressing a reader.

    Either the whole value of a ``field: value`` line, as a record's kind is (``type:
    assistant_instruction``), or a snake_case label opening a line of a record with two more
    field lines (``agent_notes: Verified identity, sent reset link``: a support agent's notes in
    a ticket, not a note to an AI agent). Text is expected casefolded.
    """
    line_end = text.find("\n", end)
    rest = text[end : len(text) if line_end < 0 else line_end]
    if not rest.strip() and _LABEL_BEFORE.search(text, max(0, start - 48), start) is not None:
        return True
    line_start = text.rfind("\n", 0, start) + 1
    label = _SNAKE_LABEL.match(text, line_start)
    if label is None or not label.start() <= start < end <= label.end():
        return False
    # (the lines around it only: a megabyte of such lines must not be split once per cue)
    near = text[max(0, line_start - _NEAR) : end + _NEAR].split("\n")
    return sum(1 for line in near if _FIELD.match(line)) - 1 >= 2


def _short(value: str) -> bool:
    """Whether a field's value is too short to say anything to a reader."""
    if len(value.strip()) > MAX_CHARS:
        return False
    han = len(_HAN.findall(value))
    words = sum(1 for token in _TOKEN.findall(_HAN.sub(" ", value)) if _LETTERS.search(token))
    return words < MIN_WORDS and han < MIN_HAN


# JSON read as a record at most this long; a longer text is read as it is.
MAX_JSON_CHARS = 200_000


def _json_strings(text: str) -> list[str] | None:
    """The string leaves of a JSON object or array (numbers, flags and nulls are always short);
    None if the text is no such JSON (or too long, or nested past what the parser takes)."""
    stripped = text.strip()
    if (len(stripped) > MAX_JSON_CHARS or not stripped or stripped[0] not in "{["
            or stripped[-1] not in "}]"):
        return None
    try:
        parsed = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, dict | list):
        return None
    leaves: list[str] = []
    stack: list[Any] = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            leaves.append(item)
    return leaves


def record_prose(text: str) -> str:
    """``text`` as the learned model should read it: blank when it is a record of short fields.

    A record is a JSON object or array, or text of two or more lines at least half of them
    ``field: value`` lines with a value (the rest short bare lines: a free-text field rendered
    alone). One whose every value is short (fewer than `MIN_WORDS` words and `MIN_HAN`
    Chinese characters, at most `MAX_CHARS` characters: numbers, flags, dates, ids, addresses, a
    name of a few words) has no prose to read: the view is blank. A record with any longer
    value is read whole: the fields around an injected sentence are part of what the model
    learned to recognise (blanking only the short ones lost 66 attacks on the dev and
    validation sets for no false positive there; reading a JSON record as ``field: value``
    lines, as the adapter renders it, lost 7 tool results with an order in them and passed 11
    more of a dev set's 300 benign records). Any other text is returned as it is.
    """
    leaves = _json_strings(text)
    if leaves is not None:
        return " " * len(text) if all(_short(leaf) for leaf in leaves) else text
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2:
        return text
    fields = [_FIELD.match(line) for line in lines]
    # (a bare short line among them is a rendered free-text field, "red apple"; but fields
    # with a value must be most of the lines: a poem's 助手听我令： is no record)
    valued = sum(1 for m in fields if m is not None and m.group("value").strip())
    short = 2 * valued >= len(lines) and all(
        _short(line if m is None else m.group("value"))
        for line, m in zip(lines, fields, strict=True)
    )
    return " " * len(text) if short else text
