"""Plain-text transcripts: ``User: ...`` / ``Assistant: ...`` or ``我：...`` / ``助手：...`` turns.

A turn starts at a line with a speaker prefix and runs until the next prefixed line, so pasted
multi-line answers stay whole. A line of three or more ``-``, ``=`` or ``*`` separates
conversations; a ``Title:`` or ``# ...`` line before the first turn names the conversation.
Lines are read one at a time, so file size does not matter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from langchain_tiered_memory.ingest.loose import MessageFields, build_conversation
from langchain_tiered_memory.ingest.messages import Conversation, ParseReport, normalize_role

__all__ = ["TURN_PREFIX_RE", "iter_text_conversations"]

TURN_PREFIX_RE = re.compile(
    r"^\s*(?:\*\*)?(?P<speaker>user|human|me|you|assistant|ai|bot|chatgpt|gpt|claude|gemini|model"
    r"|system|我|用户|助手|AI助手|系统)(?:\*\*)?\s*(?:said)?\s*[:：](?:\*\*)?\s?(?P<text>.*)$",
    re.IGNORECASE,
)
"""A line that starts a turn: a speaker label, then an ASCII or full-width colon."""

_SEPARATOR_RE = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")
_TITLE_RE = re.compile(r"^\s*(?:#+\s*|title\s*[:：]\s*|标题\s*[:：]\s*)(?P<title>.+?)\s*$", re.I)


def iter_text_conversations(
    lines: Iterable[str], *, stem: str, report: ParseReport
) -> Iterator[Conversation]:
    """Parse a transcript line by line.

    Args:
        lines: The file's lines (with or without newlines).
        stem: Base for conversation ids (``<stem>-<n>``).
        report: Receives skipped-line and problem counts.

    Yields:
        One conversation per separated block that has at least one turn.
    """
    index = 0
    title: str | None = None
    items: list[MessageFields | None] = []
    role: str | None = None
    buf: list[str] = []
    stray_line = 0

    def flush_turn() -> None:
        if role is not None:
            r = normalize_role(role)
            items.append(None if r is None else (r, "\n".join(buf).strip(), None))

    def finish() -> Conversation | None:
        nonlocal index
        if not items:
            return None
        conv = build_conversation(
            items, conv_id=f"{stem}-{index}", platform="text", title=title, report=report
        )
        index += 1
        return conv

    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if _SEPARATOR_RE.match(line):
            flush_turn()
            conv = finish()
            if conv is not None:
                yield conv
            items, role, buf, title = [], None, [], None
            continue
        match = TURN_PREFIX_RE.match(line)
        if match:
            flush_turn()
            role, buf = match.group("speaker"), [match.group("text")]
            continue
        if role is not None:
            buf.append(line)
            continue
        title_match = _TITLE_RE.match(line)
        if title_match and title is None:
            title = title_match.group("title")
        elif line.strip() and not stray_line:
            stray_line = lineno
    flush_turn()
    conv = finish()
    if conv is not None:
        yield conv
    if index == 0 and stray_line:
        report.add_problem(stray_line, None, "no 'User:'/'Assistant:' (or '我:'/'助手:') turns found")
