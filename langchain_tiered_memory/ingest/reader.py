"""Reading an export file: format detection, streaming iteration, checksums.

Big exports (ChatGPT's ``conversations.json`` reaches hundreds of megabytes) are never loaded
whole: the top-level array is walked item by item with ``ijson``, JSONL and text line by line, so
memory stays at the size of one conversation. A conversation that cannot be read is recorded in the
`ParseReport` and skipped; a file cut short yields everything before the cut. JSON nested deeper
than ``max_depth`` stops the read with `InvalidInput` as soon as the parser reaches that depth:
no export nests that deep, and building such a value costs memory out of all proportion to the
file (60 KB of brackets took gigabytes).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from langchain_tiered_memory.errors import InvalidInput
from langchain_tiered_memory.ingest.chatgpt import BadConversation, chatgpt_conversation
from langchain_tiered_memory.ingest.loose import (
    MessageFields,
    build_conversation,
    claude_conversation,
    is_message_object,
    loose_conversation,
    message_fields,
)
from langchain_tiered_memory.ingest.messages import Conversation, ParseReport
from langchain_tiered_memory.ingest.plaintext import iter_text_conversations

__all__ = [
    "FORMATS",
    "detect_format",
    "file_sha256",
    "iter_conversations",
    "parse_file",
]

FORMATS = ("chatgpt", "claude", "gemini", "json", "jsonl", "text")
"""Format names accepted by ``format=`` and returned by `detect_format` (plus ``"empty"``)."""

_ALIASES = {
    "openai": "chatgpt",
    "anthropic": "claude",
    "google": "gemini",
    "takeout": "gemini",
    "messages": "json",
    "generic": "json",
    "ndjson": "jsonl",
    "txt": "text",
    "plain": "text",
    "plaintext": "text",
}
_HEAD_BYTES = 64 * 1024
_CHUNK = 1024 * 1024
_WRAPPER_RE = re.compile(r'^\s*\{\s*"(conversations|data|items|chats|threads)"\s*:\s*\[')
_CONV_ID_KEYS = ("conversation_id", "session_id", "thread_id", "chat_id")
MAX_DEPTH = 64
"""Default deepest JSON nesting an export may have (``memory.maxImportDepth``)."""

PathLike = str | os.PathLike[str]
Converter = Callable[[Any, int, ParseReport], Conversation]


def file_sha256(path: PathLike) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks (identifies an import source)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _head(path: PathLike) -> str:
    with open(path, "rb") as fh:
        raw = fh.read(_HEAD_BYTES)
    return raw.decode("utf-8", errors="ignore").lstrip("\ufeff")


def detect_format(path: PathLike) -> str:
    """Guess an export's format from the first 64 KiB of the file.

    Args:
        path: The export file.

    Returns:
        One of `FORMATS`, or ``"empty"`` for a file with no content.
    """
    head = _head(path)
    stripped = head.lstrip()
    if not stripped:
        return "empty"
    if stripped[0] not in "[{":
        return "text"
    if stripped[0] == "{" and _looks_like_jsonl(stripped):
        return "jsonl"
    if '"mapping"' in head and ('"current_node"' in head or '"author"' in head):
        return "chatgpt"
    if '"chat_messages"' in head:
        return "claude"
    if '"contents"' in head and '"parts"' in head:
        return "gemini"
    if '"safeHtmlItem"' in head or ('"header"' in head and '"Gemini' in head):
        return "gemini"
    if '"header"' in head and '"time"' in head and '"title"' in head:
        return "gemini"
    return "json"


def _looks_like_jsonl(text: str) -> bool:
    """A complete JSON object on the first line, and another object starting on the next."""
    lines = [ln for ln in text.split("\n", 8)[:8] if ln.strip()]
    if len(lines) < 2 or not lines[1].lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(lines[0]), dict)
    except (ValueError, RecursionError):
        return False


def _canonical(fmt: str) -> str:
    name = _ALIASES.get(fmt.strip().lower(), fmt.strip().lower())
    if name not in FORMATS:
        raise InvalidInput(
            "format", f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}"
        )
    return name


def iter_conversations(
    path: PathLike,
    *,
    format: str | None = None,
    report: ParseReport | None = None,
    max_depth: int = MAX_DEPTH,
) -> Iterator[Conversation]:
    """Stream the conversations of an export file.

    Args:
        path: ChatGPT ``conversations.json``, a Claude export, a Gemini log or Takeout file, any
            JSON with ``{"messages": [...]}``, JSONL, or a plain-text transcript.
        format: Force a format (see `FORMATS`); detected from the file head when None.
        report: Filled in as the iterator is consumed: counts, problems (with positions) and
            whether the file was truncated. Pass one in to read it afterwards.
        max_depth: Deepest JSON nesting accepted (the top-level array or object is depth 1).

    Yields:
        Conversations, in file order. Bad conversations are recorded in ``report`` and skipped.

    Raises:
        InvalidInput: The JSON nests deeper than ``max_depth`` (``field="file"``).
        ValueError: For an unknown ``format`` name.
        OSError: When the file cannot be opened.
    """
    report = report if report is not None else ParseReport()
    fmt = _canonical(format) if format else detect_format(path)
    report.path, report.format = str(path), fmt
    if fmt == "empty" or os.path.getsize(path) == 0:
        report.add_problem(0, None, "file is empty")
        return
    if fmt == "text":
        source: Iterator[Conversation] = _iter_text(path, report)
    elif fmt == "jsonl":
        source = _iter_jsonl(path, report, max_depth)
    else:
        source = _iter_json(path, fmt, report, max_depth)
    for conv in source:
        report.conversations += 1
        report.messages += len(conv.messages)
        yield conv


def parse_file(
    path: PathLike, *, format: str | None = None, max_depth: int = MAX_DEPTH
) -> tuple[list[Conversation], ParseReport]:
    """Parse a whole export into a list (convenient for small files; big ones should stream)."""
    report = ParseReport()
    convs = list(iter_conversations(path, format=format, report=report, max_depth=max_depth))
    return convs, report


def _check_depth(source: Any, max_depth: int) -> None:
    """Read JSON (a binary file or bytes) once, refusing nesting deeper than ``max_depth``.

    A first pass of their own: ijson's prefixed events carry the whole path ("item.item...."),
    which for deep input costs memory quadratic in the depth before any limit could act. The
    bare events of ``basic_parse`` carry no path. A syntax error is left to the real read.
    """
    import ijson

    depth = 0
    try:
        for kind, _ in ijson.basic_parse(source, buf_size=16_384):
            if kind == "start_map" or kind == "start_array":
                depth += 1
                if depth > max_depth:
                    raise InvalidInput("file", f"JSON is nested deeper than {max_depth} levels")
            elif kind == "end_map" or kind == "end_array":
                depth -= 1
    except ijson.JSONError:
        return


def _check_line_depth(line: str, max_depth: int) -> None:
    """Refuse a JSONL line nested deeper than ``max_depth`` (before `json.loads` recurses)."""
    if line.count("[") + line.count("{") > max_depth:  # else it cannot nest that deep
        _check_depth(line.encode("utf-8", "replace"), max_depth)


def _iter_text(path: PathLike, report: ParseReport) -> Iterator[Conversation]:
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        yield from iter_text_conversations(fh, stem=Path(path).stem, report=report)


def _converter(fmt: str) -> Converter:
    if fmt == "chatgpt":
        return chatgpt_conversation
    if fmt == "claude":
        return claude_conversation
    platform = "gemini" if fmt == "gemini" else "generic"

    def convert(obj: Any, position: int, report: ParseReport) -> Conversation:
        return loose_conversation(obj, position, report, platform=platform)

    return convert


def _convert(
    convert: Converter, obj: Any, position: int, report: ParseReport
) -> Conversation | None:
    try:
        return convert(obj, position, report)
    except (BadConversation, TypeError, AttributeError, ValueError) as exc:
        conv_id = None
        if isinstance(obj, dict):
            raw = obj.get("conversation_id") or obj.get("uuid") or obj.get("id")
            conv_id = str(raw) if raw is not None else None
        report.add_problem(position, conv_id, f"{type(exc).__name__}: {exc}")
        return None


def _iter_json(
    path: PathLike, fmt: str, report: ParseReport, max_depth: int
) -> Iterator[Conversation]:
    import ijson  # imported on use: the package must import without optional work

    head = _head(path).lstrip()
    convert = _converter(fmt)
    position = 0
    with open(path, "rb") as fh:
        _check_depth(fh, max_depth)
        fh.seek(0)
        try:
            if head.startswith("["):
                for obj in ijson.items(fh, "item", use_float=True):
                    conv = _convert(convert, obj, position, report)
                    position += 1
                    if conv is not None:
                        yield conv
                return
            wrapper = _WRAPPER_RE.match(head)
            if wrapper:
                items = ijson.items(fh, f"{wrapper.group(1)}.item", use_float=True)
                yield from _iter_wrapped(items, convert, Path(path).stem, report)
                return
            obj = next(iter(ijson.items(fh, "", use_float=True)), None)
            yield from _iter_single_object(obj, convert, report)
        except ijson.JSONError as exc:
            report.truncated = True
            report.add_problem(position, None, f"JSON ends or breaks here: {exc}")


def _iter_wrapped(
    items: Iterator[Any], convert: Converter, stem: str, report: ParseReport
) -> Iterator[Conversation]:
    """``{"conversations": [...]}``: a list of conversations, or (ShareGPT) of messages."""
    messages: list[MessageFields | None] = []
    for position, obj in enumerate(items):
        if messages or (position == 0 and is_message_object(obj)):
            messages.append(message_fields(obj))
            continue
        conv = _convert(convert, obj, position, report)
        if conv is not None:
            yield conv
    if messages:
        yield build_conversation(
            messages, conv_id=stem, platform="generic", title=None, report=report
        )


def _iter_single_object(obj: Any, convert: Converter, report: ParseReport) -> Iterator[Conversation]:
    """A top-level object: one conversation, or a dict of conversations keyed by id."""
    try:
        yield convert(obj, 0, report)
        return
    except (BadConversation, TypeError, AttributeError, ValueError) as exc:
        if not isinstance(obj, dict) or not obj or not all(isinstance(v, dict) for v in obj.values()):
            report.add_problem(0, None, f"{type(exc).__name__}: {exc}")
            return
    for position, (key, value) in enumerate(obj.items()):
        value = value if "id" in value else {**value, "id": key}
        conv = _convert(convert, value, position, report)
        if conv is not None:
            yield conv


def _iter_jsonl(path: PathLike, report: ParseReport, max_depth: int) -> Iterator[Conversation]:
    """One message or one conversation per line; consecutive message lines are grouped by their
    conversation id (lines without one form a single conversation named after the file)."""
    stem = Path(path).stem
    convert = _converter("json")
    group: list[MessageFields | None] = []
    group_id: str | None = None
    group_title: str | None = None

    def flush() -> Iterator[Conversation]:
        if group:
            yield build_conversation(
                group, conv_id=group_id or stem, platform="generic", title=group_title,
                report=report,
            )

    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            _check_line_depth(line, max_depth)
            try:
                obj = json.loads(line)
            except ValueError as exc:
                report.add_problem(lineno, None, f"invalid JSON line: {exc}")
                continue
            if is_message_object(obj):
                conv_id = next((str(obj[k]) for k in _CONV_ID_KEYS if obj.get(k)), None)
                if group and conv_id != group_id:
                    yield from flush()
                    group = []
                if not group:
                    title = obj.get("title")
                    group_id, group_title = conv_id, title if isinstance(title, str) else None
                group.append(message_fields(obj))
                continue
            yield from flush()
            group, group_id = [], None
            conv = _convert(convert, obj, lineno, report)
            if conv is not None:
                yield conv
    yield from flush()
