"""The normalised form every chat export is parsed into, and the parse report.

Parsers for the different platforms all produce `Conversation` values holding
`NormalizedMessage` values; problems met on the way are recorded in a `ParseReport` instead of
aborting the import. The small coercion helpers here (roles, timestamps, content parts) are shared
by all parsers so that "human", "model" and "助手" mean the same thing whatever the file.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

__all__ = [
    "IMAGE_PLACEHOLDER",
    "Conversation",
    "NormalizedMessage",
    "ParseProblem",
    "ParseReport",
    "Role",
    "normalize_role",
    "parse_timestamp",
    "strip_html",
    "text_from_parts",
]

Role = Literal["user", "assistant", "system", "tool"]

IMAGE_PLACEHOLDER = "[image]"
"""What an image (or other non-text attachment) part becomes in `NormalizedMessage.content`."""


@dataclass(frozen=True, slots=True)
class NormalizedMessage:
    """One chat message, whatever platform it came from.

    Attributes:
        role: ``user``, ``assistant``, ``system`` or ``tool``.
        content: The message text (multimodal parts flattened; images as ``[image]``).
        timestamp: When it was written (timezone-aware UTC), if the export says.
        conversation_id: The conversation it belongs to.
        platform: ``chatgpt``, ``claude``, ``gemini``, ``generic`` or ``text``.
        position: Index of the message within its conversation (0-based, after filtering).
        title: The conversation title, if any.
    """

    role: Role
    content: str
    timestamp: datetime | None
    conversation_id: str
    platform: str
    position: int
    title: str | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation: its messages in order, on the active branch.

    Attributes:
        id: Conversation id from the export (or one derived from the file and position).
        platform: The platform the export came from.
        title: The conversation title, if any.
        messages: The messages, oldest first.
        created_at: When the conversation started, if known.
    """

    id: str
    platform: str
    title: str | None
    messages: tuple[NormalizedMessage, ...]
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """A conversation (or line) that could not be parsed.

    Attributes:
        position: Index of the conversation in the file (0-based) for JSON formats, or the 1-based
            line number for JSONL and plain text.
        conversation_id: Its id, when it could be read.
        message: What went wrong.
    """

    position: int
    conversation_id: str | None
    message: str


@dataclass(slots=True)
class ParseReport:
    """Running counts of one parse; filled in while `iter_conversations` is consumed.

    Attributes:
        path: The file parsed.
        format: The format used (detected or forced).
        conversations: Conversations yielded.
        messages: Messages yielded.
        skipped_messages: Messages dropped (empty, hidden, unknown role).
        problems: Conversations or lines that could not be parsed.
        truncated: Whether the file ended early (a JSON document cut short).
    """

    path: str = ""
    format: str = ""
    conversations: int = 0
    messages: int = 0
    skipped_messages: int = 0
    problems: list[ParseProblem] = field(default_factory=list)
    truncated: bool = False

    @property
    def ok(self) -> bool:
        """True when nothing went wrong."""
        return not self.problems and not self.truncated

    def add_problem(self, position: int, conversation_id: str | None, message: str) -> None:
        """Record a problem."""
        self.problems.append(ParseProblem(position, conversation_id, message))

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary (the "parse statistics" stored with an import source)."""
        return {
            "path": self.path,
            "format": self.format,
            "conversations": self.conversations,
            "messages": self.messages,
            "skipped_messages": self.skipped_messages,
            "truncated": self.truncated,
            "problems": [
                {"position": p.position, "conversation_id": p.conversation_id, "message": p.message}
                for p in self.problems
            ],
        }


_ROLE_ALIASES: dict[str, Role] = {
    "user": "user",
    "human": "user",
    "me": "user",
    "you": "user",
    "customer": "user",
    "我": "user",
    "用户": "user",
    "assistant": "assistant",
    "model": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "gpt": "assistant",
    "chatgpt": "assistant",
    "claude": "assistant",
    "gemini": "assistant",
    "bard": "assistant",
    "助手": "assistant",
    "ai助手": "assistant",
    "system": "system",
    "developer": "system",
    "系统": "system",
    "tool": "tool",
    "function": "tool",
    "ipython": "tool",
    "tool_result": "tool",
}


def normalize_role(value: object) -> Role | None:
    """Map a platform's author label onto the four roles.

    Args:
        value: ``"human"``, ``"model"``, ``"助手"``... (case-insensitive).

    Returns:
        The role, or None when the label is unknown.
    """
    if not isinstance(value, str):
        return None
    return _ROLE_ALIASES.get(value.strip().lower())


_FRACTION_RE = re.compile(r"(\.\d{6})\d+")


def parse_timestamp(value: object) -> datetime | None:
    """Read an epoch number or an ISO-8601 string as a timezone-aware UTC datetime.

    Epoch values above 1e11 are taken as milliseconds. Unreadable values give None rather than an
    error: a missing time never makes a message unusable.
    """
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, int | float):
            seconds = float(value)
            if seconds != seconds or seconds <= 0:  # NaN or unset
                return None
            if seconds > 1e11:
                seconds /= 1000.0
            return datetime.fromtimestamp(seconds, tz=timezone.utc)
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            if re.fullmatch(r"\d+(\.\d+)?", text):
                return parse_timestamp(float(text))
            # Python 3.10's fromisoformat rejects "Z" and more than six fraction digits.
            text = _FRACTION_RE.sub(r"\1", text.replace("Z", "+00:00").replace("z", "+00:00"))
            parsed = datetime.fromisoformat(text)
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=timezone.utc)
            return parsed.astimezone(timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return None


_TAG_RE = re.compile(r"<[^>]+>")
_BLOCK_TAG_RE = re.compile(r"</?(?:p|br|div|li|ul|ol|h\d|pre|tr)\b[^>]*>", re.IGNORECASE)
_SPACES_RE = re.compile(r"[ \t]+")
_NEWLINES_RE = re.compile(r"\n{3,}")


def strip_html(text: str) -> str:
    """Plain text from an HTML fragment (Takeout stores answers as HTML)."""
    text = _BLOCK_TAG_RE.sub("\n", text)
    text = html.unescape(_TAG_RE.sub("", text))
    text = _SPACES_RE.sub(" ", text)
    return _NEWLINES_RE.sub("\n\n", "\n".join(line.strip() for line in text.split("\n"))).strip()


_IMAGE_TYPES = ("image", "image_url", "image_asset_pointer", "input_image", "inline_data")
_TEXT_KEYS = ("text", "content", "value", "parts")


def text_from_parts(parts: object, *, images: bool = True) -> str:
    """Flatten a message content that may be a string, a list of parts, or a part dict.

    Text parts are kept; image-like parts become `IMAGE_PLACEHOLDER` when ``images`` is true;
    tool calls and other structured parts are dropped.
    """
    if parts is None:
        return ""
    if isinstance(parts, str):
        return parts
    if isinstance(parts, Mapping):
        return _text_from_part(parts, images)
    if isinstance(parts, Iterable) and not isinstance(parts, bytes | bytearray):
        pieces = [text_from_parts(p, images=images) for p in parts]
        return "\n".join(p for p in pieces if p)
    return ""


def _text_from_part(part: Mapping[str, Any], images: bool) -> str:
    kind = str(part.get("type") or part.get("content_type") or "").lower()
    if any(marker in kind for marker in _IMAGE_TYPES) or "inline_data" in part:
        return IMAGE_PLACEHOLDER if images else ""
    if kind in ("tool_use", "tool_call", "function_call", "thinking", "reasoning"):
        return ""
    for key in _TEXT_KEYS:
        value = part.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list | Mapping):
            return text_from_parts(value, images=images)
    if "image_url" in part or "asset_pointer" in part:
        return IMAGE_PLACEHOLDER if images else ""
    return ""
