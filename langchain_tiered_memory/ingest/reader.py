"""Reading an export file: format detection, streaming iteration, checksums.

Big exports (ChatGPT's ``conversations.json`` reaches hundreds of megabytes) are never loaded
whole: the top-level array is walked item by item with ``ijson``, JSONL and text line by line, so
memory stays at the size of one conversation. A conversation that cannot be read is recorded in the
`ParseReport` and skipped; a file cut short yields everything before the cut. JSON nested deeper
than ``max_depth`` stops the read with `InvalidInput` as soon as the parser reaches that depth:
no export nests that deep, and building such a value costs memory out of all proportion to the
file (60 KB of brackets took gigabytes).

The formats themselves (names, aliases, sniffers, converters) are the registry of
`ingest.formats`; `FORMAT_REGISTRY` holds the built-in ones and `register_format` adds another.
A source is a path or bytes in memory (a request body): nothing is written to a temporary file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from typing import Any

from langchain_tiered_memory.errors import InvalidInput
from langchain_tiered_memory.ingest.chatgpt import BadConversation, chatgpt_conversation
from langchain_tiered_memory.ingest.formats import (
    Converter,
    ExportFormat,
    ExportSource,
    FormatRegistry,
)
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
    "FORMAT_REGISTRY",
    "detect_format",
    "file_sha256",
    "format_names",
    "iter_conversations",
    "parse_file",
    "register_format",
]

_CHUNK = 1024 * 1024
_WRAPPER_RE = re.compile(r'^\s*\{\s*"(conversations|data|items|chats|threads)"\s*:\s*\[')
_CONV_ID_KEYS = ("conversation_id", "session_id", "thread_id", "chat_id")
MAX_DEPTH = 64
"""Default deepest JSON nesting an export may have (``memory.maxImportDepth``)."""

PathLike = str | os.PathLike[str]
Source = PathLike | bytes


def file_sha256(path: PathLike) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks (identifies an import source)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _looks_like_jsonl(head: str) -> bool:
    """A complete JSON object on the first line, and another object starting on the next."""
    text = head.lstrip()
    if not text.startswith("{"):
        return False
    lines = [ln for ln in text.split("\n", 8)[:8] if ln.strip()]
    if len(lines) < 2 or not lines[1].lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(lines[0]), dict)
    except (ValueError, RecursionError):
        return False


def _is_text(head: str) -> bool:
    return head.lstrip()[:1] not in ("[", "{")


def _is_chatgpt(head: str) -> bool:
    return '"mapping"' in head and ('"current_node"' in head or '"author"' in head)


def _is_gemini(head: str) -> bool:
    return (
        ('"contents"' in head and '"parts"' in head)
        or '"safeHtmlItem"' in head
        or ('"header"' in head and '"Gemini' in head)
        or ('"header"' in head and '"time"' in head and '"title"' in head)
    )


def _gemini(obj: Any, position: int, report: ParseReport) -> Conversation:
    return loose_conversation(obj, position, report, platform="gemini")


def _generic(obj: Any, position: int, report: ParseReport) -> Conversation:
    return loose_conversation(obj, position, report, platform="generic")


def _read_text(source: ExportSource, report: ParseReport, max_depth: int) -> Iterator[Conversation]:
    with source.open_text() as fh:
        yield from iter_text_conversations(fh, stem=source.stem, report=report)


def _read_jsonl(source: ExportSource, report: ParseReport, max_depth: int) -> Iterator[Conversation]:
    return _iter_jsonl(source, report, max_depth)


FORMAT_REGISTRY = FormatRegistry((
    ExportFormat("chatgpt", convert=chatgpt_conversation, aliases=("openai",), sniff=_is_chatgpt,
                 priority=20, description="ChatGPT conversations.json"),
    ExportFormat("claude", convert=claude_conversation, aliases=("anthropic",),
                 sniff=lambda head: '"chat_messages"' in head, priority=30,
                 description="Claude export"),
    ExportFormat("gemini", convert=_gemini, aliases=("google", "takeout"), sniff=_is_gemini,
                 priority=40, description="Gemini log or Google Takeout activity"),
    ExportFormat("json", convert=_generic, aliases=("messages", "generic"),
                 sniff=lambda head: True, priority=100,
                 description='any JSON with {"messages": [...]}'),
    ExportFormat("jsonl", read=_read_jsonl, aliases=("ndjson",), sniff=_looks_like_jsonl,
                 priority=10, description="one message or conversation per line"),
    ExportFormat("text", read=_read_text, aliases=("txt", "plain", "plaintext"), sniff=_is_text,
                 priority=0, description="a User:/Assistant: (or 我:/助手:) transcript"),
))
"""The export formats the importer knows (see `ingest.formats` to add one)."""

FORMATS = FORMAT_REGISTRY.names()
"""The built-in format names; `format_names` also lists formats registered since."""


def register_format(fmt: ExportFormat, *, replace: bool = False) -> None:
    """Add an export format to `FORMAT_REGISTRY` (the importer, CLI and server then accept it)."""
    FORMAT_REGISTRY.register(fmt, replace=replace)


def format_names() -> tuple[str, ...]:
    """Every format name accepted by ``format=`` (and ``--format``, and the REST ``format``)."""
    return FORMAT_REGISTRY.names()


def _source(data: Source | ExportSource, name: str) -> ExportSource:
    return data if isinstance(data, ExportSource) else ExportSource(data, name=name)


def detect_format(path: Source | ExportSource, *, name: str = "export") -> str:
    """Guess an export's format from its first 64 KiB.

    Args:
        path: The export file, or its bytes.
        name: The name of bytes (unused for a path).

    Returns:
        A registered format name, or ``"empty"`` for an export with no content.
    """
    return FORMAT_REGISTRY.sniff(_source(path, name).head())


def iter_conversations(
    path: Source | ExportSource,
    *,
    format: str | None = None,
    report: ParseReport | None = None,
    max_depth: int = MAX_DEPTH,
    name: str = "export",
) -> Iterator[Conversation]:
    """Stream the conversations of an export.

    Args:
        path: ChatGPT ``conversations.json``, a Claude export, a Gemini log or Takeout file, any
            JSON with ``{"messages": [...]}``, JSONL, or a plain-text transcript: a path, or the
            export's bytes.
        format: Force a format (a name or alias of `format_names`); sniffed when None.
        report: Filled in as the iterator is consumed: counts, problems (with positions) and
            whether the file was truncated. Pass one in to read it afterwards.
        max_depth: Deepest JSON nesting accepted (the top-level array or object is depth 1).
        name: The name of bytes (conversation ids of JSONL and text derive from it).

    Yields:
        Conversations, in file order. Bad conversations are recorded in ``report`` and skipped.

    Raises:
        InvalidInput: An unknown ``format``, or JSON nested deeper than ``max_depth``
            (``field="file"``).
        OSError: When the file cannot be opened.
    """
    report = report if report is not None else ParseReport()
    source = _source(path, name)
    fmt = FORMAT_REGISTRY.get(format).name if format else detect_format(source)
    report.path, report.format = source.name, fmt
    if fmt == "empty" or source.size == 0:
        report.add_problem(0, None, "file is empty")
        return
    spec = FORMAT_REGISTRY.get(fmt)
    if spec.read is not None:
        found = spec.read(source, report, max_depth)
    else:
        assert spec.convert is not None
        found = _iter_json(source, spec.convert, report, max_depth)
    for conv in found:
        report.conversations += 1
        report.messages += len(conv.messages)
        yield conv


def parse_file(
    path: Source, *, format: str | None = None, max_depth: int = MAX_DEPTH
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
    source: ExportSource, convert: Converter, report: ParseReport, max_depth: int
) -> Iterator[Conversation]:
    import ijson  # imported on use: the package must import without optional work

    head = source.head().lstrip()
    position = 0
    with source.open_binary() as fh:
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
                yield from _iter_wrapped(items, convert, source.stem, report)
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


def _iter_jsonl(
    source: ExportSource, report: ParseReport, max_depth: int
) -> Iterator[Conversation]:
    """One message or one conversation per line; consecutive message lines are grouped by their
    conversation id (lines without one form a single conversation named after the file)."""
    stem = source.stem
    convert = _generic
    group: list[MessageFields | None] = []
    group_id: str | None = None
    group_title: str | None = None

    def flush() -> Iterator[Conversation]:
        if group:
            yield build_conversation(
                group, conv_id=group_id or stem, platform="generic", title=group_title,
                report=report,
            )

    with source.open_text() as fh:
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
